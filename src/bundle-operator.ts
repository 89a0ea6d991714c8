/**
 * The operator screen's script (`VK_BUNDLE=operator vite build` → dist/venuekit-operator.js): defines
 * `<vk-moderation-queue>`. Put its tag after the venuekit.js tag; it uses the page's context that tag made
 * (one context per page, §4.5.5). On its own, it reads the same `data-*` configuration from its own tag.
 */
import './embed/boot.ts'
import './elements/moderation-queue/moderation-queue.ts'
