import { css } from 'lit'
import { stateStyles } from '../shared/states.ts'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  stateStyles,
  css`
    [part='prompt'] {
      background: var(--_vk-color-surface);
      border: 1px solid var(--_vk-color-border);
      border-radius: var(--_vk-radius);
      padding: var(--_vk-space-3);
    }
    h2 {
      margin: 0;
      font-size: 1.05em;
    }
    p {
      margin: var(--_vk-space-1) 0 var(--_vk-space-2);
      color: var(--_vk-color-muted);
      font-size: var(--_vk-font-size-small);
    }
    [part='market'] {
      margin: var(--_vk-space-1) 0 0;
      color: inherit;
      font-size: var(--_vk-font-size-small);
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    [part='other-side'] {
      color: inherit;
    }
    textarea {
      width: 100%;
      resize: vertical;
      padding: var(--_vk-space-2);
      border: 1px solid var(--_vk-color-border);
      border-radius: var(--_vk-radius);
      background: var(--_vk-color-bg);
    }
    .buttons {
      display: flex;
      gap: var(--_vk-space-2);
      margin-top: var(--_vk-space-2);
    }
    [part='error'] {
      color: var(--_vk-color-danger);
    }
  `,
]
