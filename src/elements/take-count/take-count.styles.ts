import { css } from 'lit'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  css`
    :host {
      display: inline;
      color: var(--vk-color-muted);
      font-size: var(--vk-font-size-small);
    }
  `,
]
