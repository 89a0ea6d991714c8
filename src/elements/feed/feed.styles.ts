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
  .sign-in-hint {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: center;
    gap: var(--_vk-space-2);
    padding: var(--_vk-space-4) 0;
    color: var(--_vk-color-muted);
  }
  .sign-in-hint p {
    margin: 0;
  }
`
