import { VkRecordChip } from './record-chip.element.ts'

export { VkRecordChip }
VkRecordChip.define('vk-record-chip')

declare global {
  interface HTMLElementTagNameMap {
    'vk-record-chip': VkRecordChip
  }
}
