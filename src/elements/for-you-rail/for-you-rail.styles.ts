import { css } from 'lit'
import { marketLinkStyles } from '../shared/market-link.styles.ts'
import { stateStyles } from '../shared/states.ts'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  stateStyles,
  marketLinkStyles,
  css`
    .rail {
      display: grid;
      gap: var(--_vk-space-2);
    }
    .title {
      font-weight: 600;
    }
    .hint {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--_vk-space-2);
      margin: 0;
      color: var(--_vk-color-muted);
      font-size: var(--_vk-font-size-small);
    }
    .list {
      display: flex;
      gap: var(--_vk-space-2);
      margin: 0;
      padding: 0 0 var(--_vk-space-1);
      list-style: none;
      overflow-x: auto;
    }
    .item {
      display: grid;
      flex: 0 0 min(220px, 70%);
      gap: var(--_vk-space-1);
      padding: var(--_vk-space-2) var(--_vk-space-3);
      border-radius: var(--_vk-radius);
      background: var(--_vk-color-surface);
    }
    .reason {
      color: var(--_vk-color-muted);
      font-size: var(--_vk-font-size-small);
    }
  `,
]
