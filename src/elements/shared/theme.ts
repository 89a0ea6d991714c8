/**
 * Theme tokens. Public `--vk-*` custom properties with defaults on `:host`; light and dark follow
 * `prefers-color-scheme` unless the page sets `theme="light"` or `theme="dark"` on the element (or on
 * an ancestor through the custom property `--vk-color-scheme`).
 *
 * Colour: --vk-color-bg, --vk-color-surface, --vk-color-text, --vk-color-muted, --vk-color-border,
 *   --vk-color-accent, --vk-color-accent-text, --vk-color-yes, --vk-color-no, --vk-color-danger,
 *   --vk-color-focus, --vk-color-highlight
 * Type: --vk-font-family, --vk-font-size, --vk-font-size-small, --vk-line-height
 * Spacing: --vk-space-1 … --vk-space-4
 * Radius: --vk-radius, --vk-radius-pill
 */
import { css } from 'lit'

const light = css`
  --vk-color-bg: #ffffff;
  --vk-color-surface: #f6f7f9;
  --vk-color-text: #15171a;
  --vk-color-muted: #5b6470;
  --vk-color-border: #d9dde3;
  --vk-color-accent: #3451d1;
  --vk-color-accent-text: #ffffff;
  --vk-color-yes: #137a3f;
  --vk-color-no: #b3261e;
  --vk-color-danger: #b3261e;
  --vk-color-focus: #3451d1;
  --vk-color-highlight: #fff6d6;
`
const dark = css`
  --vk-color-bg: #111317;
  --vk-color-surface: #1a1d23;
  --vk-color-text: #eceef1;
  --vk-color-muted: #a3acb8;
  --vk-color-border: #30353d;
  --vk-color-accent: #8ea2ff;
  --vk-color-accent-text: #0b0d12;
  --vk-color-yes: #5bd38b;
  --vk-color-no: #ff8a80;
  --vk-color-danger: #ff8a80;
  --vk-color-focus: #8ea2ff;
  --vk-color-highlight: #3a3320;
`

export const themeStyles = css`
  :host {
    ${light}
    --vk-font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
    --vk-font-size: 15px;
    --vk-font-size-small: 13px;
    --vk-line-height: 1.45;
    --vk-space-1: 4px;
    --vk-space-2: 8px;
    --vk-space-3: 12px;
    --vk-space-4: 20px;
    --vk-radius: 10px;
    --vk-radius-pill: 999px;
    display: block;
    box-sizing: border-box;
    color: var(--vk-color-text);
    font-family: var(--vk-font-family);
    font-size: var(--vk-font-size);
    line-height: var(--vk-line-height);
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${dark}
    }
  }
  :host([theme='dark']) {
    ${dark}
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: inherit;
  }
  button,
  input,
  textarea,
  select {
    font: inherit;
    color: inherit;
  }
  :focus-visible {
    outline: 2px solid var(--vk-color-focus);
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
