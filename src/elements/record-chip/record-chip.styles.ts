import { css } from 'lit'
import { themeStyles } from '../shared/theme.ts'

export const chipStyles = css`
  [part~='chip'] {
    display: inline-flex;
    align-items: baseline;
    gap: 0;
    padding: 0 var(--vk-space-2);
    border-radius: var(--vk-radius-pill);
    background: var(--vk-color-surface);
    font-size: var(--vk-font-size-small);
    white-space: nowrap;
  }
  .muted {
    color: var(--vk-color-muted);
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
