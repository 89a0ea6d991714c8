import { css } from 'lit'

export const communityStyles = css`
  .takes {
    display: grid;
    gap: var(--_vk-space-4);
  }
  .line {
    margin: 0 var(--_vk-space-3) var(--_vk-space-2);
    color: var(--_vk-color-muted);
    font-size: var(--_vk-font-size-small);
  }
  .quiet {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_vk-space-1) var(--_vk-space-2);
    margin: var(--_vk-space-2) 0;
    padding: var(--_vk-space-2) var(--_vk-space-3);
    border-radius: var(--_vk-radius);
    background: var(--_vk-color-surface);
    color: var(--_vk-color-muted);
    font-size: var(--_vk-font-size-small);
  }
`
