import { css } from 'lit'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  css`
    :host {
      display: inline-flex;
      align-items: center;
      gap: var(--_vk-space-2);
    }
    button {
      cursor: pointer;
      border: 1px solid var(--_vk-color-border);
      border-radius: var(--_vk-radius-pill);
      background: var(--_vk-color-bg);
      padding: var(--_vk-space-1) var(--_vk-space-3);
      font-size: var(--_vk-font-size-small);
    }
    button.on {
      border-color: var(--_vk-color-accent);
      color: var(--_vk-color-accent);
    }
    button[aria-disabled='true'] {
      cursor: progress;
      opacity: 0.7;
    }
    [part='error'] {
      color: var(--_vk-color-danger);
      font-size: var(--_vk-font-size-small);
    }
  `,
]
