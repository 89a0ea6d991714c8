import { html } from 'lit'
import type { Verdict } from '../../contract/types.ts'
import { VerdictBase } from '../market-verdict-counts/verdict-binding.ts'
import { verdictCounts } from '../market-verdict-counts/verdict-view.ts'
import { styles } from './market-verdict.styles.ts'

/**
 * @summary How a market's holders fared: settled or not, and the tally right / wrong / undecided.
 *
 * A voided market has no winner and every holder's verdict is null: nobody is counted wrong. A market
 * nobody held renders nothing, and so does the element without a client provider (§9.3).
 *
 * @csspart verdict - The whole verdict.
 * @csspart status - Settled, voided or not settled yet.
 * @csspart counts - The list of counts.
 * @csspart void - The line shown for a voided market.
 * @csspart loading - The loading line.
 * @csspart error - The failure line.
 * @csspart retry - Its Retry button.
 *
 * @cssproperty --vk-color-surface - Background.
 * @cssproperty --vk-color-yes - Right count.
 * @cssproperty --vk-color-no - Wrong count.
 * @cssproperty --vk-color-muted - Undecided count.
 */
export class VkMarketVerdict extends VerdictBase {
  static override styles = styles

  protected drawVerdict(v: Verdict) {
    const status = v.void ? 'verdictVoided' : v.settled ? 'verdictSettled' : 'verdictPending'
    return html`<section part="verdict" aria-label=${this.str.t('verdictLabel')}>
      <p part="status">${this.str.t(status, { holders: v.holders })}</p>
      ${verdictCounts(this.str, v)}
    </section>`
  }
}
