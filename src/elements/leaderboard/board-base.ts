/**
 * What `<vk-leaderboard>` and `<vk-mini-leaderboard>` share: the required `scope`, the board store, the
 * batched names, and the rows. Every board states its population (§2.12); a rank always reads with it.
 */
import { html, nothing } from 'lit'
import type { BoardEntry, NodeRef } from '../../contract/types.ts'
import { displayName } from '../shared/identity.ts'
import { nodeRefConverter } from '../shared/node-ref.ts'
import { emptyState, errorStateOf, loadingState } from '../shared/states.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController } from '../shared/strings-controller.ts'
import type { RoomStrings } from '../shared/strings/index.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import { rankText } from '../record-chip/record-view.ts'

let warned = false

export abstract class BoardBase extends VkElement {
  static override properties = {
    scope: { converter: nodeRefConverter },
    strings: { attribute: false },
    locale: {},
  }

  /**
   * Required (§9.3): `null` (attribute `scope="global"`) is the global board, a node
   * (`scope="category:weather"`) that node's board. Without it the element renders nothing.
   */
  declare scope: NodeRef | null | undefined
  /** Overrides of the `room` strings slice. */
  declare strings: Partial<RoomStrings> | null | undefined
  /** Locale for the built-in strings and numbers. */
  declare locale: string | undefined

  protected readonly vk = new VenuekitController(this)
  protected readonly str = new StringsController(this, 'room')
  protected readonly board = new StoreBinding(this, () => (this.scope === undefined ? null : this.vk.value?.leaderboard(this.scope)))
  protected readonly names = new StoreBinding(this, () => {
    const wallets = this.board.value?.entries.map((e) => e.wallet) ?? []
    return wallets.length ? this.vk.value?.profiles(wallets) : null
  })

  /** How many rows to draw; null for all loaded. */
  protected abstract rows(): number | null

  protected override firstUpdated() {
    if (this.scope === undefined && !warned) {
      warned = true
      console.warn('[venuekit] <vk-leaderboard> and <vk-mini-leaderboard> need `scope`: "global" (or null) for the global board, or "<type>:<ref>".')
    }
  }

  protected scopeName(): string {
    return this.scope ? this.scope.ref : this.str.t('leaderboardGlobal')
  }

  protected row(e: BoardEntry) {
    const name = displayName(this.names.value?.profiles[e.wallet.toLowerCase()], e.wallet)
    return html`<li part="row">
      <span class="rank">${rankText(this.str, e)}</span>
      <span class="name" dir="auto">${name}</span>
      <span class="record">${this.str.t('record', { right: e.right, wrong: e.wrong })}</span>
    </li>`
  }

  /** The population line, the list, and the states. */
  protected body() {
    const b = this.board.value
    if (!b) return nothing
    const s = this.str
    if (b.error && !b.entries.length) return errorStateOf(b, s.t('boardError'), s.t('retry'))
    if (b.loading && !b.entries.length) return loadingState(s.t('loading'), this.rows() ?? 3)
    const n = this.rows()
    const entries = n == null ? b.entries : b.entries.slice(0, n)
    return html`<p part="population">${s.t('population', { count: b.population })}</p>
      ${entries.length
        ? html`<ol part="list" aria-label=${s.t('leaderboardOf', { scope: this.scopeName() })}>${entries.map((e) => this.row(e))}</ol>`
        : emptyState(s.t('boardEmpty'))}`
  }
}
