import { VkMiniLeaderboard } from './mini-leaderboard.element.ts'

export { VkMiniLeaderboard }
VkMiniLeaderboard.define('vk-mini-leaderboard')

declare global {
  interface HTMLElementTagNameMap {
    'vk-mini-leaderboard': VkMiniLeaderboard
  }
}
