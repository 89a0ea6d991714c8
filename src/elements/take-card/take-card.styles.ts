import { css } from 'lit'
import { chipStyles } from '../shared/chip.styles.ts'
import { composerStyles } from '../shared/composer.ts'
import { marketLinkStyles } from '../shared/market-link.styles.ts'
import { stateStyles } from '../shared/states.ts'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  stateStyles,
  composerStyles,
  marketLinkStyles,
  chipStyles,
  css`
    .card {
      display: grid;
      gap: var(--_vk-space-2);
      padding: var(--_vk-space-3);
      border-radius: var(--_vk-radius);
      transition: background-color 0.6s;
    }
    :host([highlight]) .card {
      background: var(--_vk-color-highlight);
    }
    .header,
    .confirm {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--_vk-space-2);
    }
    .header {
      min-width: 0;
    }
    .avatar {
      flex: none;
      width: 28px;
      height: 28px;
      border-radius: 50%;
      object-fit: cover;
      background: var(--_vk-color-surface);
    }
    .initial {
      display: inline-grid;
      place-items: center;
      font-size: var(--_vk-font-size-small);
      font-weight: 600;
      color: var(--_vk-color-muted);
    }
    .author {
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    .time,
    .muted,
    .count,
    .receipt-void,
    .receipt-pending,
    .series {
      color: var(--_vk-color-muted);
      font-size: var(--_vk-font-size-small);
    }
    .market-line,
    .body,
    .failure,
    [part='notice'] {
      margin: 0;
    }
    /* On a card the market line is always underlined: it is the card's only link. */
    .market {
      text-decoration: underline;
      text-underline-offset: 2px;
    }
    .chips {
      display: flex;
      flex-wrap: wrap;
      gap: var(--_vk-space-1) var(--_vk-space-2);
    }
    .side-first,
    .side-other {
      font-weight: 600;
    }
    .side-first,
    .receipt-right {
      color: var(--_vk-color-yes);
    }
    .side-other,
    .receipt-wrong {
      color: var(--_vk-color-no);
    }
    .body {
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      gap: var(--_vk-space-1);
    }
    /* A transparent edge: forced colours paint it, so the buttons do not read as plain text there. */
    .action {
      min-height: 32px;
      padding: 0 var(--_vk-space-2);
      border: 1px solid transparent;
      border-radius: var(--_vk-radius-pill);
      background: none;
      color: var(--_vk-color-muted);
      font-size: var(--_vk-font-size-small);
      cursor: pointer;
    }
    .action:hover {
      background: var(--_vk-color-surface);
      color: var(--_vk-color-text);
    }
    .action[aria-pressed='true'] {
      color: var(--_vk-color-accent);
      font-weight: 600;
    }
    .failure {
      color: var(--_vk-color-danger);
      font-size: var(--_vk-font-size-small);
    }
    .danger {
      border-color: var(--_vk-color-danger);
      color: var(--_vk-color-danger);
    }
  `,
]
