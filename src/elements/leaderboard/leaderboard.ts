import { VkLeaderboard } from './leaderboard.element.ts'

export { VkLeaderboard }
VkLeaderboard.define('vk-leaderboard')

declare global {
  interface HTMLElementTagNameMap {
    'vk-leaderboard': VkLeaderboard
  }
}
