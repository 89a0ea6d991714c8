import { VkPlatformProvider } from './platform-provider.element.ts'

export { VkPlatformProvider }
VkPlatformProvider.define('vk-platform-provider')

declare global {
  interface HTMLElementTagNameMap {
    'vk-platform-provider': VkPlatformProvider
  }
}
