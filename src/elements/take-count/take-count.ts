import { VkTakeCount } from './take-count.element.ts'

export { VkTakeCount }
VkTakeCount.define('vk-take-count')

declare global {
  interface HTMLElementTagNameMap {
    'vk-take-count': VkTakeCount
  }
}
