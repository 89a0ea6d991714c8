import { VkMarketComments } from './market-comments.element.ts'

export { VkMarketComments }
VkMarketComments.define('vk-market-comments')

declare global {
  interface HTMLElementTagNameMap {
    'vk-market-comments': VkMarketComments
  }
}
