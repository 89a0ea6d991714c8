/**
 * What both verdict elements share: the market id, the strings, and the batched verdict read. Without a
 * client provider there is no store and the element renders nothing (§9.3).
 */
import { nothing, type TemplateResult } from 'lit'
import { errorStateOf, loadingState } from '../shared/states.ts'
import type { Verdict } from '../../contract/types.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController } from '../shared/strings-controller.ts'
import type { RoomStrings } from '../shared/strings/index.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'

export abstract class VerdictBase extends VkElement {
  static override properties = {
    marketId: { attribute: 'market-id' },
    strings: { attribute: false },
    locale: {},
  }

  /** The market (condition id). */
  declare marketId: string | undefined
  /** Overrides of the `room` strings slice. */
  declare strings: Partial<RoomStrings> | null | undefined
  /** Locale for the built-in strings and numbers. */
  declare locale: string | undefined

  protected readonly vk = new VenuekitController(this)
  protected readonly str = new StringsController(this, 'room')
  protected readonly verdicts = new StoreBinding(this, () => (this.marketId ? this.vk.value?.verdicts([this.marketId]) : null))

  /** Draws a known tally. */
  protected abstract drawVerdict(v: Verdict): TemplateResult

  override render() {
    const s = this.verdicts.value
    if (!s || !this.marketId) return nothing
    const v = s.verdictOf(this.marketId)
    if (v === undefined && s.error) return errorStateOf(s, this.str.t('verdictError'), this.str.t('retry'))
    if (v === undefined) return loadingState(this.str.t('loading'), 1)
    // Nobody held the market: no tally, nothing drawn (§2.12).
    if (v === null) return nothing
    return this.drawVerdict(v)
  }
}
