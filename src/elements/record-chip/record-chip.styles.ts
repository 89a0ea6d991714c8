import { css } from 'lit'
import { themeStyles } from '../shared/theme.ts'

export const chipStyles = css`
  [part~='chip'] {
    /* Inline, not flex: flex items drop the spaces around the ' · ' separator ("#1 of 3·1 right"). */
    display: inline-block;
    padding: 0 var(--_vk-space-2);
    border-radius: var(--_vk-radius-pill);
    background: var(--_vk-color-surface);
    font-size: var(--_vk-font-size-small);
    white-space: nowrap;
  }
  .muted {
    color: var(--_vk-color-muted);
  }
  .ranked .rank {
    font-weight: 600;
  }
`

export const styles = [
  themeStyles,
  chipStyles,
  css`
    :host {
      display: inline-block;
    }
  `,
]
