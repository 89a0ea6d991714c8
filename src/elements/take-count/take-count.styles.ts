import { css } from 'lit'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  css`
    :host {
      display: inline;
      color: var(--_vk-color-muted);
      font-size: var(--_vk-font-size-small);
    }
  `,
]
