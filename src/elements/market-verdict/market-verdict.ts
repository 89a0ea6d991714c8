import { VkMarketVerdict } from './market-verdict.element.ts'

export { VkMarketVerdict }
VkMarketVerdict.define('vk-market-verdict')

declare global {
  interface HTMLElementTagNameMap {
    'vk-market-verdict': VkMarketVerdict
  }
}
