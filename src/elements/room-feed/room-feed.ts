import { VkRoomFeed } from './room-feed.element.ts'

export { VkRoomFeed }
VkRoomFeed.define('vk-room-feed')

declare global {
  interface HTMLElementTagNameMap {
    'vk-room-feed': VkRoomFeed
  }
}
