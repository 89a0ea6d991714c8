import { css } from 'lit'
import { stateStyles } from '../shared/states.ts'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  stateStyles,
  css`
    .rail {
      display: grid;
      gap: var(--vk-space-2);
    }
    .title {
      font-weight: 600;
    }
    .hint {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--vk-space-2);
      margin: 0;
      color: var(--vk-color-muted);
      font-size: var(--vk-font-size-small);
    }
    .list {
      display: flex;
      gap: var(--vk-space-2);
      margin: 0;
      padding: 0 0 var(--vk-space-1);
      list-style: none;
      overflow-x: auto;
    }
    .item {
      display: grid;
      flex: 0 0 min(220px, 70%);
      gap: var(--vk-space-1);
      padding: var(--vk-space-2) var(--vk-space-3);
      border-radius: var(--vk-radius);
      background: var(--vk-color-surface);
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
    .reason {
      color: var(--vk-color-muted);
      font-size: var(--vk-font-size-small);
    }
  `,
]
