import { html, nothing } from 'lit'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController } from '../shared/strings-controller.ts'
import type { CommentsStrings } from '../shared/strings/index.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import { styles } from './take-count.styles.ts'

/**
 * @summary How many takes a market has ("12 takes"), for market cards and lists.
 *
 * Counts of every `<vk-take-count>` on the page go out in one batched read. While the count is unknown
 * (loading, or after a failed read) it prints nothing — never '0 takes' (§4.5.4). Once loaded, a market
 * without takes reads 'No takes'.
 *
 * @csspart count - The count text.
 *
 * @cssproperty --vk-color-muted - Text colour.
 * @cssproperty --vk-font-size-small - Text size.
 */
export class VkTakeCount extends VkElement {
  static override styles = styles
  static override properties = {
    marketId: { attribute: 'market-id' },
    strings: { attribute: false },
    locale: {},
  }

  /** The market (condition id). */
  declare marketId: string | undefined
  /** Overrides of the `comments` strings slice (`takesCount`). */
  declare strings: Partial<CommentsStrings> | null | undefined
  /** Locale for the number. */
  declare locale: string | undefined

  private readonly vk = new VenuekitController(this)
  private readonly str = new StringsController(this, 'comments')
  private readonly counts = new StoreBinding(this, () => (this.marketId ? this.vk.value?.takeCounts([this.marketId]) : null))

  override render() {
    const c = this.marketId ? this.counts.value?.countOf(this.marketId) : null
    // Null while loading and after a failure: print nothing (§4.5.4).
    if (!c) return nothing
    return html`<span part="count">${this.str.t('takesCount', { count: c.takes })}</span>`
  }
}
