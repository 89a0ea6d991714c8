import { css } from 'lit'
import { stateStyles } from '../shared/states.ts'
import { themeStyles } from '../shared/theme.ts'
import { verdictStyles } from '../market-verdict-counts/market-verdict-counts.styles.ts'

export const styles = [
  themeStyles,
  stateStyles,
  verdictStyles,
  css`
    [part='verdict'] {
      background: var(--_vk-color-surface);
      border-radius: var(--_vk-radius);
      padding: var(--_vk-space-2) var(--_vk-space-3);
    }
    [part='status'] {
      margin: 0 0 var(--_vk-space-1);
      font-weight: 600;
      font-size: var(--_vk-font-size);
    }
  `,
]
