import { VkMarketVerdictCounts } from './market-verdict-counts.element.ts'

export { VkMarketVerdictCounts }
VkMarketVerdictCounts.define('vk-market-verdict-counts')

declare global {
  interface HTMLElementTagNameMap {
    'vk-market-verdict-counts': VkMarketVerdictCounts
  }
}
