/**
 * The script-tag bundle (`vite build` → dist/venuekit.js, one classic script): configures the page's
 * client from its own tag's `data-*` attributes, installs `window.venuekit`, then defines every `vk-*`
 * element a venue's pages show. The operator's `<vk-moderation-queue>` is in `venuekit-operator.js`
 * (src/bundle-operator.ts), loaded by the operator screen only, so readers' pages do not carry it.
 * Order matters: boot runs first, so elements already in the page upgrade with a context.
 */
import './embed/boot.ts'
import './elements/script-elements.ts'
