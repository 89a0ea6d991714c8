import { VkComments } from './comments.element.ts'

export { VkComments }
VkComments.define('vk-comments')

declare global {
  interface HTMLElementTagNameMap {
    'vk-comments': VkComments
  }
}
