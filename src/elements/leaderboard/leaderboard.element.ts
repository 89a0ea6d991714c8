import { html, nothing } from 'lit'
import { pagedStrings, pagedTail } from '../shared/states.ts'
import { BoardBase } from './board-base.ts'
import { styles } from './leaderboard.styles.ts'

/**
 * @summary Callers ranked by settled record at one node, or globally. States its population.
 *
 * `scope` is required: `scope="global"` (property `null`) is the global board, `scope="<type>:<ref>"`
 * a node's board. A faceted rank is computed within that node, never sliced from the global board.
 *
 * @csspart board - The whole board.
 * @csspart header - The title (the population line follows it, outside the header).
 * @csspart population - 'N ranked callers'.
 * @csspart list - The ranked list.
 * @csspart row - One caller.
 * @csspart load-more - The Load more button.
 * @csspart loading - Loading skeleton.
 * @csspart empty - Nobody ranked yet.
 * @csspart error - Failure and its Retry button.
 * @csspart retry - The Retry button.
 *
 * @cssproperty --vk-color-border - Row separators.
 * @cssproperty --vk-color-muted - Population and record text.
 */
export class VkLeaderboard extends BoardBase {
  static override styles = styles

  protected rows() {
    return null
  }

  override render() {
    const b = this.board.value
    if (!b) return nothing
    return html`<section part="board" aria-labelledby="title">
      <header part="header"><h2 id="title">${this.str.t('leaderboardOf', { scope: this.scopeName() })}</h2></header>
      ${this.body()}
      ${b.entries.length
        ? pagedTail(b, pagedStrings(this.str, 'boardEmpty', 'boardError'), 'load-more')
        : nothing}
    </section>`
  }
}
