import { css } from 'lit'

/** The thread layout, shared by `<vk-comments>` and `<vk-market-comments>`. */
export const threadStyles = css`
  /*
   * Below the "N new" bar (its top, 8px, a 32px button, 8px clear): how far from the scroll area's top a focused
   * control comes to rest (theme.ts's scroll-margin-top), so Shift+Tab never leaves focus under the bar (WCAG 2.4.11).
   */
  .thread {
    display: grid;
    gap: var(--_vk-space-3);
    --_vk-bar: calc(var(--vk-sticky-top, 0px) + 48px);
  }
  .hint {
    margin: 0;
    color: var(--_vk-color-muted);
    font-size: var(--_vk-font-size-small);
  }
  /*
   * Takes no room in the layout: the bar floats over the list, so it never pushes rows down. It sticks
   * --vk-sticky-top below the viewport's top (a venue's sticky header: its height), plus a small gap.
   */
  .new-bar {
    position: sticky;
    top: calc(var(--vk-sticky-top, 0px) + var(--_vk-space-2));
    z-index: 1;
    height: 0;
    display: flex;
    justify-content: center;
    overflow: visible;
  }
  .new-bar button {
    box-shadow: 0 2px 8px rgb(0 0 0 / 0.2);
  }
  .row:focus-visible,
  .reply-row:focus-visible {
    outline: 2px solid var(--_vk-color-focus);
    outline-offset: -2px;
  }
  .more {
    justify-self: center;
  }
`
