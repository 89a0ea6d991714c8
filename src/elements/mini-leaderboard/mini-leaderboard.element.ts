import { html, nothing } from 'lit'
import { BoardBase } from '../leaderboard/board-base.ts'
import { styles } from './mini-leaderboard.styles.ts'

/**
 * @summary The top of a leaderboard, compact, for a side rail. States its population.
 *
 * `scope` is required: `scope="global"` (property `null`) is the global board, `scope="<type>:<ref>"`
 * a node's board. `limit` sets how many callers it shows (default 5).
 *
 * @csspart board - The whole board.
 * @csspart population - 'N ranked callers'.
 * @csspart list - The ranked list.
 * @csspart row - One caller.
 * @csspart loading - Loading skeleton.
 * @csspart empty - Nobody ranked yet.
 * @csspart error - Failure and its Retry button.
 * @csspart retry - The Retry button.
 *
 * @cssproperty --vk-color-border - Row separators.
 * @cssproperty --vk-color-muted - Population and record text.
 */
export class VkMiniLeaderboard extends BoardBase {
  static override styles = styles
  static override properties = { ...BoardBase.properties, limit: { type: Number } }

  /** How many callers to show (default 5). */
  declare limit: number

  constructor() {
    super()
    this.limit = 5
  }

  protected rows() {
    return Math.max(1, Math.floor(this.limit) || 5)
  }

  override render() {
    if (!this.board.value) return nothing
    return html`<section part="board" aria-label=${this.str.t('leaderboardOf', { scope: this.scopeName() })}>${this.body()}</section>`
  }
}
