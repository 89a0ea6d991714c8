import { css } from 'lit'
import { stateStyles } from '../shared/states.ts'
import { themeStyles } from '../shared/theme.ts'
import { boardStyles } from '../leaderboard/leaderboard.styles.ts'

export const styles = [
  themeStyles,
  stateStyles,
  boardStyles,
  css`
    :host {
      font-size: var(--_vk-font-size-small);
    }
    [part='row'] {
      padding: var(--_vk-space-1) 0;
    }
  `,
]
