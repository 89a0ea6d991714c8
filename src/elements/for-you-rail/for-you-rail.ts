import { VkForYouRail } from './for-you-rail.element.ts'

export { VkForYouRail }
VkForYouRail.define('vk-for-you-rail')

declare global {
  interface HTMLElementTagNameMap {
    'vk-for-you-rail': VkForYouRail
  }
}
