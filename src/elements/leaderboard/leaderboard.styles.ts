import { css } from 'lit'
import { stateStyles } from '../shared/states.ts'
import { themeStyles } from '../shared/theme.ts'

export const boardStyles = css`
  h2 {
    margin: 0;
    font-size: 1.05em;
  }
  [part='population'] {
    margin: var(--_vk-space-1) 0 var(--_vk-space-2);
    color: var(--_vk-color-muted);
    font-size: var(--_vk-font-size-small);
  }
  ol {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  [part='row'] {
    display: grid;
    grid-template-columns: auto 1fr auto;
    gap: var(--_vk-space-3);
    align-items: baseline;
    padding: var(--_vk-space-2) 0;
    border-top: 1px solid var(--_vk-color-border);
  }
  .rank {
    font-variant-numeric: tabular-nums;
    font-weight: 600;
    white-space: nowrap;
  }
  /*
   * dir="auto" (board-base.ts): a name of the other direction is cut at its own end, and still lines up with the
   * others (Chromium and Safari know only the prefixed match-parent).
   */
  .name {
    text-align: match-parent;
    text-align: -webkit-match-parent;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .record {
    color: var(--_vk-color-muted);
    font-size: var(--_vk-font-size-small);
    white-space: nowrap;
  }
  [part='load-more'] {
    margin-top: var(--_vk-space-2);
  }
`

export const styles = [themeStyles, stateStyles, boardStyles]
