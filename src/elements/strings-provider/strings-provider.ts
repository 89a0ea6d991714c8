import { VkStringsProvider } from './strings-provider.element.ts'

export { VkStringsProvider }
VkStringsProvider.define('vk-strings-provider')

declare global {
  interface HTMLElementTagNameMap {
    'vk-strings-provider': VkStringsProvider
  }
}
