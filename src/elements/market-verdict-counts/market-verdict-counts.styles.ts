import { css } from 'lit'
import { stateStyles } from '../shared/states.ts'
import { themeStyles } from '../shared/theme.ts'

export const verdictStyles = css`
  [part='counts'] {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_vk-space-3);
    list-style: none;
    margin: 0;
    padding: 0;
    font-size: var(--_vk-font-size-small);
  }
  .right {
    color: var(--_vk-color-yes);
  }
  .wrong {
    color: var(--_vk-color-no);
  }
  .undecided,
  .muted {
    color: var(--_vk-color-muted);
  }
  [part='void'] {
    margin: var(--_vk-space-1) 0 0;
    font-size: var(--_vk-font-size-small);
  }
`

export const styles = [themeStyles, stateStyles, verdictStyles]
