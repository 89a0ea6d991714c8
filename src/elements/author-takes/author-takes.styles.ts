import { css } from 'lit'
import { stateStyles } from '../shared/states.ts'
import { tabStyles } from '../shared/tabs.ts'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  stateStyles,
  tabStyles,
  css`
    [part='header'] {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--vk-space-2);
      margin-bottom: var(--vk-space-2);
    }
    h2 {
      margin: 0;
      font-size: 1.15em;
      overflow-wrap: anywhere;
    }
    .toolbar {
      display: flex;
      justify-content: flex-end;
      padding: var(--vk-space-2) 0;
    }
    [part='sort'][aria-pressed='true'] {
      border-color: var(--vk-color-accent);
      color: var(--vk-color-accent);
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    [part='row'] {
      padding: var(--vk-space-2) 0;
      border-bottom: 1px solid var(--vk-color-border);
    }
    .chip {
      display: inline-block;
      padding: 0 var(--vk-space-2);
      border-radius: var(--vk-radius-pill);
      background: var(--vk-color-surface);
      font-size: var(--vk-font-size-small);
    }
    [part='load-more'] {
      margin-top: var(--vk-space-3);
    }
  `,
]
