import { css } from 'lit'
import { composerStyles } from '../shared/composer.ts'
import { listStyles } from '../shared/list.styles.ts'
import { marketLinkStyles } from '../shared/market-link.styles.ts'
import { signalStyles } from '../shared/signal-rows.ts'
import { stateStyles } from '../shared/states.ts'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  stateStyles,
  composerStyles,
  listStyles,
  marketLinkStyles,
  signalStyles,
  css`
    .room,
    .main,
    .rail {
      display: grid;
      gap: var(--_vk-space-3);
    }
    .main,
    .rail {
      min-width: 0;
    }
    .header {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--_vk-space-2) var(--_vk-space-3);
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
      color: var(--_vk-color-muted);
      font-size: var(--_vk-font-size-small);
    }
    .join-card,
    .closing-soon {
      display: grid;
      gap: var(--_vk-space-2);
      padding: var(--_vk-space-3);
      border-radius: var(--_vk-radius);
      background: var(--_vk-color-surface);
    }
    .join-card {
      justify-items: start;
    }
    .join-card p {
      margin: 0;
    }
    .refusal {
      margin: 0;
      color: var(--_vk-color-danger);
    }
    .columns {
      display: flex;
      flex-wrap: wrap;
      gap: var(--_vk-space-4);
      align-items: flex-start;
    }
    .main {
      flex: 1 1 360px;
    }
    .rail {
      flex: 0 1 var(--vk-room-rail-width, 280px);
    }
    .discussion-head {
      display: flex;
      align-items: baseline;
      gap: var(--_vk-space-2);
    }
    .markets {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    .markets li {
      display: grid;
      padding: var(--_vk-space-1) 0;
    }
  `,
]
