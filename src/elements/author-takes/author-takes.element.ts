import { html, nothing } from 'lit'
import type { Labels, Market, MarketResult, Post } from '../../contract/types.ts'
import { takeReceipt } from '../../core/index.ts'
import { displayName } from '../shared/identity.ts'
import { pagedStrings, emptyState, errorStateOf, loadingState, pagedTail } from '../shared/states.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController, type StringsHost } from '../shared/strings-controller.ts'
import type { CommentsStrings, RoomStrings } from '../shared/strings/index.ts'
import { tabList } from '../shared/tabs.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import '../take-card/take-card.ts'
import '../record-chip/record-chip.ts'
import { styles } from './author-takes.styles.ts'

type TabKey = 'takes' | 'discussion'

/** Sort key for "odds beaten": right takes by the odds they beat, then right without a price, then the rest. */
function oddsKey(post: Post, results: Record<string, MarketResult>): number {
  const r = takeReceipt(post, results)
  if (r?.state !== 'right') return -2
  return r.oddsBeatenBps ?? -1
}

/**
 * @summary A person's profile screen: their takes with receipts, and their discussion.
 *
 * It opens on Takes only when that tab has posts, otherwise on Discussion (§4.5.6). Each take shows its
 * receipt (right with the odds beaten, wrong, void, or open); a CLOB take never reads as a confident
 * 'still open' (§3.2). Takes can be sorted by odds beaten, on the client (§2.5). A later page that fails
 * keeps the rows above an error line with Retry, which asks for that page again.
 *
 * @event vk-open-market - A take's market was pressed.
 * @event vk-require-sign-in - A signed-out reader pressed Agree or Reply on a card (`detail.action`).
 * @event vk-tail - Tail was pressed on a take (see `<vk-take-card>`).
 * @event vk-post-created - A reply was written from a card.
 * @event vk-error - A card's write failed (agree, reply, edit, delete, report); `detail.error` is the failure.
 *
 * @csspart profile - The whole screen.
 * @csspart header - Name and overall record.
 * @csspart tabs - The tab list.
 * @csspart tab - One tab.
 * @csspart sort - The 'sort by odds beaten' toggle.
 * @csspart list - The posts.
 * @csspart row - One post (holds a `<vk-take-card>`).
 * @csspart receipt-open - The 'Open' receipt of a take on an unresolved market.
 * @csspart load-more - The Load more button.
 * @csspart loading - Loading skeleton.
 * @csspart empty - Nothing in this tab.
 * @csspart error - Failure and its Retry button (also under the rows when a later page failed).
 * @csspart retry - The Retry button.
 *
 * @cssproperty --vk-color-border - Row separators.
 * @cssproperty --vk-color-accent - Selected tab.
 * @cssproperty --vk-color-surface - Receipt chip.
 */
export class VkAuthorTakes extends VkElement {
  static override styles = styles
  static override properties = {
    wallet: {},
    viewer: {},
    strings: { attribute: false },
    roomStrings: { attribute: false },
    locale: {},
    tab: { state: true },
    byOdds: { state: true },
  }

  /** Whose profile this is. */
  declare wallet: string | undefined
  /** The signed-in wallet, passed by the venue: Edit and Delete appear on its own posts. */
  declare viewer: string | null | undefined
  /** Overrides of the `comments` strings slice. */
  declare strings: Partial<CommentsStrings> | null | undefined
  /** Overrides of the `room` strings slice (record chips). */
  declare roomStrings: Partial<RoomStrings> | null | undefined
  /** Locale for the built-in strings, numbers and times. */
  declare locale: string | undefined
  /** The tab the reader chose; null until they choose (then the store's default applies). */
  declare private tab: TabKey | null
  declare private byOdds: boolean

  readonly #vk = new VenuekitController(this)
  readonly #str = new StringsController(this, 'comments')
  /** The two profile strings of the `room` slice: `roomStrings` overrides them (the element's `strings` are the comments slice). */
  readonly #rs = new StringsController(this as unknown as StringsHost<'room'>, 'room', undefined, () => this.roomStrings)
  readonly #data = new StoreBinding(this, () => (this.wallet ? this.#vk.value?.authorTakes(this.wallet) : null))
  readonly #who = new StoreBinding(this, () => (this.wallet ? this.#vk.value?.profile(this.wallet) : null))
  readonly #markets = new StoreBinding(this, () => {
    const ids = [...new Set((this.#data.value?.posts ?? []).filter((p) => p.subjectType === 'event').map((p) => p.subjectRef.toLowerCase()))]
    return ids.length ? this.#vk.value?.markets(ids) : null
  })
  #shownWallet: string | undefined

  constructor() {
    super()
    this.tab = null
    this.byOdds = false
  }

  protected override willUpdate() {
    if (this.wallet !== this.#shownWallet) {
      // Another person: their own default tab, newest first.
      this.#shownWallet = this.wallet
      this.tab = null
      this.byOdds = false
    }
  }

  #market(id: string): Market | undefined {
    return this.#markets.value?.markets?.[id.toLowerCase()]
  }

  /** The 'Open' receipt the card leaves out: a take on an unresolved order-book (non-CLOB) market. */
  #openReceipt(p: Post, results: Record<string, MarketResult>) {
    if (!p.stance || p.subjectType !== 'event') return nothing
    const m = this.#market(p.subjectRef)
    // Unknown market or CLOB: no confident 'still open' (§3.2).
    if (!m || m.clob || m.result) return nothing
    const r = takeReceipt(p, results, { clob: m.clob })
    return r?.state === 'open' ? html`<span part="receipt-open" class="chip">${this.#str.t('receiptOpen')}</span>` : nothing
  }

  #list(posts: Post[], results: Record<string, MarketResult>, labels: Labels, titles: Record<string, string>, takes: boolean) {
    return html`<ul part="list">
      ${posts.map((p) => {
        const id = p.subjectRef.toLowerCase()
        return html`<li part="row" id=${`vk-post-${p.id}`}>
          ${takes ? this.#openReceipt(p, results) : nothing}
          <vk-take-card
            .post=${p}
            .labels=${labels[id] ?? null}
            .marketTitle=${titles[id] ?? null}
            .viewer=${this.viewer}
            .strings=${this.strings}
            .roomStrings=${this.roomStrings}
            .locale=${this.locale}
            show-market
          ></vk-take-card>
        </li>`
      })}
    </ul>`
  }

  #takesPanel() {
    const d = this.#data.value!
    const s = this.#str
    if (d.error && !d.posts.length) return errorStateOf(d, s.t('error'), s.t('retry'))
    if (d.loading && !d.posts.length) return loadingState(s.t('loading'))
    if (!d.posts.length) return emptyState(s.t('emptyFeed'))
    let posts = d.posts
    if (this.byOdds) posts = [...posts].map((p, i) => ({ p, i, k: oddsKey(p, d.results) })).sort((a, b) => b.k - a.k || a.i - b.i).map((x) => x.p)
    return html`<div class="toolbar">
        <button type="button" part="sort" class="vk-button" aria-pressed=${String(this.byOdds)} @click=${() => (this.byOdds = !this.byOdds)}>${s.t('sortByOdds')}</button>
      </div>
      ${this.#list(posts, d.results, d.labels, d.titles, true)} ${pagedTail(d, pagedStrings(this.#str, 'empty'), 'load-more')}`
  }

  #discussionPanel() {
    const d = this.#data.value!
    const c = d.discussion
    const s = this.#str
    if (c.error && !c.posts.length) return errorStateOf(d, s.t('error'), s.t('retry'))
    if (c.loading && !c.posts.length) return loadingState(s.t('loading'))
    if (!c.posts.length) return emptyState(this.#rs.t('profileNoDiscussion'))
    return html`${this.#list(c.posts, d.results, d.labels, d.titles, false)} ${pagedTail(c, pagedStrings(this.#str, 'empty'), 'load-more')}`
  }

  override render() {
    const d = this.#data.value
    if (!d || !this.wallet) return nothing
    const s = this.#str
    const name = displayName(this.#who.value?.profile, this.wallet)
    const header = html`<header part="header">
      <h2 id="title">${name}</h2>
      <vk-record-chip .wallet=${this.wallet} facet="global" .strings=${this.roomStrings} .locale=${this.locale}></vk-record-chip>
    </header>`
    // §4.5.6: Takes by default only when it has posts; Discussion otherwise. Nothing chosen while unknown.
    const tab = this.tab ?? d.defaultTab
    if (!tab)
      return html`<section part="profile" aria-labelledby="title">
        ${header}${d.error ? errorStateOf(d, s.t('error'), s.t('retry')) : loadingState(s.t('loading'))}
      </section>`
    return html`<section part="profile" aria-labelledby="title">
      ${header}
      ${tabList(this, {
        tabs: [
          { key: 'takes' as const, label: s.t('takesTab') },
          { key: 'discussion' as const, label: s.t('discussionTab') },
        ],
        selected: tab,
        label: this.#rs.t('profileTabs', { name }),
        select: (k) => (this.tab = k),
      })}
      <div id="panel" role="tabpanel" aria-labelledby=${`tab-${tab}`}>${tab === 'takes' ? this.#takesPanel() : this.#discussionPanel()}</div>
    </section>`
  }
}
