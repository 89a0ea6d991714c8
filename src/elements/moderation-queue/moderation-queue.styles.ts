import { css } from 'lit'
import { stateStyles } from '../shared/states.ts'
import { tabStyles } from '../shared/tabs.ts'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  stateStyles,
  tabStyles,
  css`
    h2 {
      margin: 0 0 var(--_vk-space-2);
      font-size: 1.1em;
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    /* A name of 40 characters without a space (the service's longest) wraps in a 320 px column, in the row and in Ban's question. */
    [part='row'] {
      padding: var(--_vk-space-3) 0;
      border-bottom: 1px solid var(--_vk-color-border);
      overflow-wrap: anywhere;
    }
    .meta {
      display: flex;
      flex-wrap: wrap;
      gap: var(--_vk-space-2);
      color: var(--_vk-color-muted);
      font-size: var(--_vk-font-size-small);
    }
    .author {
      font-weight: 600;
      color: var(--_vk-color-text);
    }
    [part='body'] {
      margin: var(--_vk-space-1) 0;
      white-space: pre-wrap;
    }
    [part='flags'],
    .reasons {
      display: flex;
      flex-wrap: wrap;
      gap: var(--_vk-space-2);
      font-size: var(--_vk-font-size-small);
      color: var(--_vk-color-muted);
    }
    .warn {
      color: var(--_vk-color-danger);
      font-weight: 600;
    }
    [part='actions'] {
      display: flex;
      flex-wrap: wrap;
      gap: var(--_vk-space-2);
      margin-top: var(--_vk-space-2);
    }
    [part='row-status'] {
      margin: var(--_vk-space-1) 0 0;
      font-size: var(--_vk-font-size-small);
    }
    .failed,
    [part='forbidden'] {
      color: var(--_vk-color-danger);
    }
    [part='outcome'] {
      color: var(--_vk-color-text);
      font-weight: 600;
    }
    [part='confirm'] {
      margin-top: var(--_vk-space-2);
      padding: var(--_vk-space-2) var(--_vk-space-3);
      border: 1px solid var(--_vk-color-danger);
      border-radius: var(--_vk-radius);
    }
    [part='confirm'] p,
    [part='sign-in'] p {
      margin: 0 0 var(--_vk-space-2);
    }
    .confirm-buttons {
      display: flex;
      flex-wrap: wrap;
      gap: var(--_vk-space-2);
    }
    .vk-button.danger {
      border-color: var(--_vk-color-danger);
      color: var(--_vk-color-danger);
    }
    [part='load-more'] {
      margin-top: var(--_vk-space-3);
    }
  `,
]
