import { css } from 'lit'
import { stateStyles } from '../shared/states.ts'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  stateStyles,
  css`
    [part='prompt'] {
      background: var(--vk-color-surface);
      border: 1px solid var(--vk-color-border);
      border-radius: var(--vk-radius);
      padding: var(--vk-space-3);
    }
    h2 {
      margin: 0;
      font-size: 1.05em;
    }
    p {
      margin: var(--vk-space-1) 0 var(--vk-space-2);
      color: var(--vk-color-muted);
      font-size: var(--vk-font-size-small);
    }
    textarea {
      width: 100%;
      resize: vertical;
      padding: var(--vk-space-2);
      border: 1px solid var(--vk-color-border);
      border-radius: var(--vk-radius);
      background: var(--vk-color-bg);
    }
    .buttons {
      display: flex;
      gap: var(--vk-space-2);
      margin-top: var(--vk-space-2);
    }
    [part='error'] {
      color: var(--vk-color-danger);
    }
  `,
]
