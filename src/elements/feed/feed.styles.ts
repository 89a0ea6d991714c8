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
  .more {
    justify-self: center;
  }
`
