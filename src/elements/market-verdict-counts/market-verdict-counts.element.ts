import type { Verdict } from '../../contract/types.ts'
import { VerdictBase } from './verdict-binding.ts'
import { verdictCounts } from './verdict-view.ts'
import { styles } from './market-verdict-counts.styles.ts'

/**
 * @summary A settled market's tally among its holders: right / wrong / undecided (formerly `MarketResults`).
 *
 * A voided market has no winner: nobody is counted wrong. A market nobody held renders nothing, and so
 * does the element without a client provider (§9.3). Verdicts on one page are read in one batch.
 *
 * @csspart counts - The list of counts.
 * @csspart void - The line shown for a voided market.
 * @csspart loading - The loading line.
 * @csspart error - The failure line.
 * @csspart retry - Its Retry button.
 *
 * @cssproperty --vk-color-yes - Right count.
 * @cssproperty --vk-color-no - Wrong count.
 * @cssproperty --vk-color-muted - Undecided count.
 */
export class VkMarketVerdictCounts extends VerdictBase {
  static override styles = styles

  protected drawVerdict(v: Verdict) {
    return verdictCounts(this.str, v)
  }
}
