import { css } from 'lit'

/**
 * A list of posts with one level of replies: plain lists, a rule between rows, replies indented under
 * their post with a rule beside them (and "Show earlier replies" above them). Shared by the thread, the feeds and the room's discussion.
 */
export const listStyles = css`
  .list,
  .replies {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  .row {
    border-top: 1px solid var(--_vk-color-border);
  }
  .row:first-child {
    border-top: 0;
  }
  .replies,
  .earlier {
    margin-inline-start: var(--_vk-space-4);
    border-inline-start: 2px solid var(--_vk-color-border);
  }
  .earlier {
    padding: var(--_vk-space-2) var(--_vk-space-3);
  }
`
