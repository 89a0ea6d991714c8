import { VkCommunityTakes } from './community-takes.element.ts'

export { VkCommunityTakes }
VkCommunityTakes.define('vk-community-takes')

declare global {
  interface HTMLElementTagNameMap {
    'vk-community-takes': VkCommunityTakes
  }
}
