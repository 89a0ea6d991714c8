import { css } from 'lit'
import { chipStyles } from '../shared/chip.styles.ts'
import { stateStyles } from '../shared/states.ts'
import { tabStyles } from '../shared/tabs.ts'
import { themeStyles } from '../shared/theme.ts'

export const styles = [
  themeStyles,
  stateStyles,
  tabStyles,
  chipStyles,
  css`
    [part='header'] {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: var(--_vk-space-2);
      margin-bottom: var(--_vk-space-2);
    }
    h2 {
      margin: 0;
      font-size: 1.15em;
      overflow-wrap: anywhere;
    }
    .toolbar {
      display: flex;
      justify-content: flex-end;
      padding: var(--_vk-space-2) 0;
    }
    [part='sort'][aria-pressed='true'] {
      border-color: var(--_vk-color-accent);
      color: var(--_vk-color-accent);
    }
    ul {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    [part='row'] {
      padding: var(--_vk-space-2) 0;
      border-bottom: 1px solid var(--_vk-color-border);
    }
    [part='load-more'] {
      margin-top: var(--_vk-space-3);
    }
  `,
]
