import { css } from 'lit'

/** A market's title as a button that reads as a link (it emits `vk-open-market`): the feeds, the rail, the room. */
export const marketLinkStyles = css`
  .market {
    padding: 0;
    border: 0;
    background: none;
    color: var(--_vk-color-text);
    font-weight: 600;
    text-align: start;
    cursor: pointer;
    overflow-wrap: anywhere;
  }
  .market:hover {
    text-decoration: underline;
  }
`
