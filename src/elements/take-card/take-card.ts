import { VkTakeCard } from './take-card.element.ts'

export { VkTakeCard }
VkTakeCard.define('vk-take-card')

declare global {
  interface HTMLElementTagNameMap {
    'vk-take-card': VkTakeCard
  }
}
