import { VkAuthorTakes } from './author-takes.element.ts'

export { VkAuthorTakes }
VkAuthorTakes.define('vk-author-takes')

declare global {
  interface HTMLElementTagNameMap {
    'vk-author-takes': VkAuthorTakes
  }
}
