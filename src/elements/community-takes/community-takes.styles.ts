import { css } from 'lit'

export const communityStyles = css`
  .takes {
    display: grid;
    gap: var(--_vk-space-4);
  }
`
