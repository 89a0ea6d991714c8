import { html, nothing } from 'lit'
import type { NodeRef, SettledRecord } from '../../contract/types.ts'
import { nodeFacetOf } from '../../core/index.ts'
import { nodeRefConverter } from '../shared/node-ref.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController } from '../shared/strings-controller.ts'
import type { RoomStrings } from '../shared/strings/index.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import { recordChip } from './record-view.ts'
import { styles } from './record-chip.styles.ts'

/**
 * @summary An author's settled record at one node: rank of population, right and wrong.
 *
 * Give it a `record` (e.g. `post.record` of a feed sorted by record), or a `wallet` with the
 * `market-id` of the take (the record is read at the market's node, `nodeFacetOf`, never the venue's)
 * or with an explicit `facet`. Chips on one page asking at the same node are read in one batch.
 * A rank is never shown without its population; unranked is its own state, never last place (§2.12).
 *
 * @csspart chip - The chip.
 * @csspart error - The chip when the record could not be read ('record unavailable'; `part="chip error"`).
 *
 * @cssproperty --vk-color-surface - Chip background.
 * @cssproperty --vk-color-muted - Unranked text.
 * @cssproperty --vk-radius-pill - Chip corners.
 */
export class VkRecordChip extends VkElement {
  static override styles = styles
  static override properties = {
    record: { attribute: false },
    wallet: {},
    marketId: { attribute: 'market-id' },
    facet: { converter: nodeRefConverter },
    strings: { attribute: false },
    locale: {},
  }

  /** A record to show as is. Wins over `wallet`. */
  declare record: SettledRecord | null | undefined
  /** Whose record to read. */
  declare wallet: string | undefined
  /** The market of the take: the record is read at its node. */
  declare marketId: string | undefined
  /** The node to read at when there is no `market-id`: `global` or `<type>:<ref>`. */
  declare facet: NodeRef | null | undefined
  /** Overrides of the `room` strings slice. */
  declare strings: Partial<RoomStrings> | null | undefined
  /** Locale for the built-in strings and numbers. */
  declare locale: string | undefined

  readonly #vk = new VenuekitController(this)
  readonly #str = new StringsController(this, 'room')
  readonly #market = new StoreBinding(this, () => (this.record === undefined && this.wallet && this.marketId ? this.#vk.value?.market(this.marketId) : null))
  readonly #records = new StoreBinding(this, () => {
    const vk = this.#vk.value
    if (!vk || this.record !== undefined || !this.wallet) return null
    const f = this.#facetInUse()
    return f === undefined ? null : vk.records([this.wallet], f)
  })

  /** The node to read at: the market's (once known), else `facet`; undefined while unknown. */
  #facetInUse(): NodeRef | null | undefined {
    if (this.marketId) {
      const m = this.#market.value?.market
      return m ? nodeFacetOf(m) : undefined
    }
    return this.facet
  }

  override render() {
    if (this.record !== undefined) return this.record ? recordChip(this.#str, this.record) : nothing
    const r = this.#records.value
    const m = this.#market.value
    if (m?.error || r?.error) return html`<span part="chip error" class="muted">${this.#str.t('recordUnavailable')}</span>`
    // An unknown market has no node to read at: nothing to show.
    if (m && !m.loading && !m.market) return nothing
    const rec = r?.records[this.wallet!.toLowerCase()]
    if (!rec) {
      if (!r && !m) return nothing
      return html`<span part="chip" class="muted" aria-busy="true"><span class="vk-visually-hidden">${this.#str.t('loading')}</span><span aria-hidden="true">${this.#str.t('loadingMark')}</span></span>`
    }
    return recordChip(this.#str, rec)
  }
}
