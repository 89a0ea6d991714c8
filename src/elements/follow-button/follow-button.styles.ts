import { css } from 'lit'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  css`
    :host {
      display: inline-flex;
      align-items: center;
      gap: var(--vk-space-2);
    }
    button {
      cursor: pointer;
      border: 1px solid var(--vk-color-border);
      border-radius: var(--vk-radius-pill);
      background: var(--vk-color-bg);
      padding: var(--vk-space-1) var(--vk-space-3);
      font-size: var(--vk-font-size-small);
    }
    button.on {
      border-color: var(--vk-color-accent);
      color: var(--vk-color-accent);
    }
    button:disabled {
      cursor: progress;
      opacity: 0.7;
    }
    [part='error'] {
      color: var(--vk-color-danger);
      font-size: var(--vk-font-size-small);
    }
  `,
]
