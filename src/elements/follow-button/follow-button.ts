import { VkFollowButton } from './follow-button.element.ts'

export { VkFollowButton }
VkFollowButton.define('vk-follow-button')

declare global {
  interface HTMLElementTagNameMap {
    'vk-follow-button': VkFollowButton
  }
}
