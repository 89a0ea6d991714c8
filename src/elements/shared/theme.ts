/**
 * Theme tokens. Public `--vk-*` custom properties with defaults on `:host`; light and dark follow
 * `prefers-color-scheme` unless the page sets `theme="light"` or `theme="dark"` on the element.
 *
 * Colour: --vk-color-bg, --vk-color-surface, --vk-color-text, --vk-color-muted, --vk-color-border,
 *   --vk-color-accent, --vk-color-accent-text, --vk-color-yes, --vk-color-no, --vk-color-danger,
 *   --vk-color-focus, --vk-color-highlight
 * Type: --vk-font-family, --vk-font-size, --vk-font-size-small, --vk-line-height
 * Spacing: --vk-space-1 … --vk-space-4
 * Radius: --vk-radius, --vk-radius-pill
 * Layout (element-specific, with defaults where used): --vk-room-rail-width (room feed side column, 280px),
 *   --vk-sticky-top (the height of a venue's sticky header, which the thread's "N new" bar sticks below, 0)
 */
import { css, unsafeCSS } from 'lit'

/** Light and dark colour defaults. */
const LIGHT: Record<string, string> = {
  'color-bg': '#ffffff',
  'color-surface': '#f6f7f9',
  'color-text': '#15171a',
  'color-muted': '#5b6470',
  'color-border': '#d9dde3',
  'color-accent': '#3451d1',
  'color-accent-text': '#ffffff',
  'color-yes': '#137a3f',
  'color-no': '#b3261e',
  'color-danger': '#b3261e',
  'color-focus': '#3451d1',
  'color-highlight': '#fff6d6',
}
const DARK: Record<string, string> = {
  'color-bg': '#111317',
  'color-surface': '#1a1d23',
  'color-text': '#eceef1',
  'color-muted': '#a3acb8',
  'color-border': '#30353d',
  'color-accent': '#8ea2ff',
  'color-accent-text': '#0b0d12',
  'color-yes': '#5bd38b',
  'color-no': '#ff8a80',
  'color-danger': '#ff8a80',
  'color-focus': '#8ea2ff',
  'color-highlight': '#3a3320',
}
const SHAPE: Record<string, string> = {
  'font-family': "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
  'font-size': '15px',
  'font-size-small': '13px',
  'line-height': '1.45',
  'space-1': '4px',
  'space-2': '8px',
  'space-3': '12px',
  'space-4': '20px',
  radius: '10px',
  'radius-pill': '999px',
}

/**
 * Styles read private `--_vk-*` variables, each resolved on every host from the public token, which
 * inherits from anywhere on the page (`:root`, an ancestor, the element itself, or an outer venuekit
 * element), falling back to the default. So page tokens reach nested elements inside shadow roots too.
 */
const resolve = (tokens: Record<string, string>) =>
  unsafeCSS(Object.entries(tokens).map(([k, v]) => `--_vk-${k}: var(--vk-${k}, ${v});`).join(''))
/** An explicit `theme` sets the public palette, so elements nested inside follow it. */
const publish = (tokens: Record<string, string>) => unsafeCSS(Object.entries(tokens).map(([k, v]) => `--vk-${k}: ${v};`).join(''))

export const themeStyles = css`
  :host {
    ${resolve(LIGHT)}
    ${resolve(SHAPE)}
    display: block;
    box-sizing: border-box;
    color: var(--_vk-color-text);
    font-family: var(--_vk-font-family);
    font-size: var(--_vk-font-size);
    line-height: var(--_vk-line-height);
  }
  @media (prefers-color-scheme: dark) {
    :host {
      ${resolve(DARK)}
    }
  }
  :host([theme='light']) {
    ${publish(LIGHT)}
  }
  :host([theme='dark']) {
    ${publish(DARK)}
  }
  :host([hidden]) {
    display: none;
  }
  /* scroll-margin-top: inside a thread, a control scrolled into view (focus) rests below its sticky "N new" bar
     (--_vk-bar, set in comments.styles.ts; elsewhere unset, so 0). */
  *,
  *::before,
  *::after {
    box-sizing: inherit;
    scroll-margin-top: var(--_vk-bar);
  }
  button,
  input,
  textarea,
  select {
    font: inherit;
    color: inherit;
  }
  /* Reduced motion: nothing in any element animates or transitions (the skeleton's pulse, a card's highlight). */
  @media (prefers-reduced-motion: reduce) {
    * {
      animation: none !important;
      transition: none !important;
    }
  }
  :focus-visible {
    outline: 2px solid var(--_vk-color-focus);
    outline-offset: 2px;
  }
  .vk-visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
`
