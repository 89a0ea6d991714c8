import { css } from 'lit'

/** A ranked list of take cards, shared by `<vk-feed>` and `<vk-community-takes>`. */
export const feedStyles = css`
  .feed {
    display: grid;
    gap: var(--_vk-space-3);
  }
  .sort-label,
  .notice {
    margin: 0;
    color: var(--_vk-color-muted);
    font-size: var(--_vk-font-size-small);
  }
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
  .replies {
    margin-inline-start: var(--_vk-space-4);
    border-inline-start: 2px solid var(--_vk-color-border);
  }
  .more {
    justify-self: center;
  }
`
