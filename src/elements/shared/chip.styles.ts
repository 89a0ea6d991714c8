import { css } from 'lit'

/** A small pill beside a post or an author: a take's side and size, an author's record. */
export const chipStyles = css`
  .chip {
    display: inline-block;
    padding: 0 var(--_vk-space-2);
    border-radius: var(--_vk-radius-pill);
    background: var(--_vk-color-surface);
    font-size: var(--_vk-font-size-small);
  }
`
