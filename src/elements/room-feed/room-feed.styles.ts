import { css } from 'lit'
import { composerStyles } from '../shared/composer.ts'
import { stateStyles } from '../shared/states.ts'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  stateStyles,
  composerStyles,
  css`
    .room {
      display: grid;
      gap: var(--vk-space-3);
    }
    .header {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--vk-space-2) var(--vk-space-3);
    }
    h2 {
      margin: 0;
      font-size: 1.2em;
      overflow-wrap: anywhere;
    }
    h3 {
      margin: 0;
      font-size: 1em;
    }
    .muted {
      color: var(--vk-color-muted);
      font-size: var(--vk-font-size-small);
    }
    .join-card {
      display: grid;
      gap: var(--vk-space-2);
      justify-items: start;
      padding: var(--vk-space-3);
      border-radius: var(--vk-radius);
      background: var(--vk-color-surface);
    }
    .join-card p {
      margin: 0;
    }
    .refusal {
      margin: 0;
      color: var(--vk-color-danger);
    }
    .columns {
      display: flex;
      flex-wrap: wrap;
      gap: var(--vk-space-4);
      align-items: flex-start;
    }
    .main {
      flex: 1 1 360px;
      min-width: 0;
      display: grid;
      gap: var(--vk-space-3);
    }
    .rail {
      flex: 0 1 var(--vk-room-rail-width, 280px);
      min-width: 0;
      display: grid;
      gap: var(--vk-space-3);
    }
    .discussion-head {
      display: flex;
      align-items: baseline;
      gap: var(--vk-space-2);
    }
    .list,
    .replies,
    .markets {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .row {
      border-top: 1px solid var(--vk-color-border);
    }
    .row:first-child {
      border-top: 0;
    }
    .replies {
      margin-inline-start: var(--vk-space-4);
    }
    .closing-soon {
      display: grid;
      gap: var(--vk-space-2);
      padding: var(--vk-space-3);
      border-radius: var(--vk-radius);
      background: var(--vk-color-surface);
    }
    .markets li {
      display: grid;
      padding: var(--vk-space-1) 0;
    }
    .market {
      padding: 0;
      border: 0;
      background: none;
      text-align: start;
      cursor: pointer;
      overflow-wrap: anywhere;
    }
    .market:hover {
      text-decoration: underline;
    }
    .not-found {
      margin: 0;
      padding: var(--vk-space-4) 0;
      color: var(--vk-color-muted);
      text-align: center;
    }
  `,
]
