import { VkModerationQueue } from './moderation-queue.element.ts'

export { VkModerationQueue }
VkModerationQueue.define('vk-moderation-queue')

declare global {
  interface HTMLElementTagNameMap {
    'vk-moderation-queue': VkModerationQueue
  }
}
