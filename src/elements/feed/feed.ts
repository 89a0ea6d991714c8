import { VkFeed } from './feed.element.ts'

export { VkFeed }
VkFeed.define('vk-feed')

declare global {
  interface HTMLElementTagNameMap {
    'vk-feed': VkFeed
  }
}
