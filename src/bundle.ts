/**
 * The script-tag bundle (`vite build` → dist/venuekit.js, one classic script): configures the page's
 * client from its own tag's `data-*` attributes, installs `window.venuekit`, then defines every `vk-*`
 * element. Order matters: boot runs first, so elements already in the page upgrade with a context.
 */
import './embed/boot.ts'
import './elements/index.ts'
