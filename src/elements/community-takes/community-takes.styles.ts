import { css } from 'lit'

export const communityStyles = css`
  .takes {
    display: grid;
    gap: var(--vk-space-4);
  }
  .line {
    margin: 0 var(--vk-space-3) var(--vk-space-2);
    color: var(--vk-color-muted);
    font-size: var(--vk-font-size-small);
  }
  .quiet {
    display: flex;
    flex-wrap: wrap;
    gap: var(--vk-space-1) var(--vk-space-2);
    margin: var(--vk-space-2) 0;
    padding: var(--vk-space-2) var(--vk-space-3);
    border-radius: var(--vk-radius);
    background: var(--vk-color-surface);
    color: var(--vk-color-muted);
    font-size: var(--vk-font-size-small);
  }
  .market {
    padding: 0;
    border: 0;
    background: none;
    color: var(--vk-color-text);
    font-weight: 600;
    text-align: start;
    cursor: pointer;
  }
  .market:hover {
    text-decoration: underline;
  }
`
