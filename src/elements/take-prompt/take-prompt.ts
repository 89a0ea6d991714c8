import { VkTakePrompt } from './take-prompt.element.ts'

export { VkTakePrompt }
VkTakePrompt.define('vk-take-prompt')

declare global {
  interface HTMLElementTagNameMap {
    'vk-take-prompt': VkTakePrompt
  }
}
