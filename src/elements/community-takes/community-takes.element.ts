import { html, nothing, type PropertyValues } from 'lit'
import type { Post, Signal } from '../../contract/types.ts'
import { pagedStrings, pagedBody, stateStyles } from '../shared/states.ts'
import { feedRows, rowsList, signalStyles } from '../shared/signal-rows.ts'
import { repliesView } from '../shared/replies.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import type { CommentsStrings } from '../shared/strings/index.ts'
import { listStyles } from '../shared/list.styles.ts'
import { marketLinkStyles } from '../shared/market-link.styles.ts'
import { themeStyles } from '../shared/theme.ts'
import type { FeedValue } from '../../stores/index.ts'
import '../for-you-rail/for-you-rail.ts'
import { VkFeedQuery } from '../feed/feed-query.ts'
import { feedStyles } from '../feed/feed.styles.ts'
import { communityStyles } from './community-takes.styles.ts'

/**
 * Pages read on their own while `includePost` leaves no post of the pages read so far (a page of other
 * venues' takes is not "no takes yet"); past them, Load more is offered, or with `empty-fallback="global"`
 * the scope counts as empty and everyone's takes show.
 */
export const AUTO_PAGES = 5

// The rail's parts, exported as `rail-<part>` (kept above the class's JSDoc, which the manifest reads).
const RAIL_PARTS = 'rail title hint sign-in list item market reason loading empty error retry'
  .split(' ')
  .map((p) => `${p}:rail-${p}`)
  .join()

/**
 * @summary The home community tab: ranked takes with their signals, and the for-you rail (§4.4.3).
 *
 * - `scope`: `global` (default), `following`, or `subject` with `subject-type` / `subject-ref`.
 * - `includePost(post)` / `includeSignal(signal)`: the venue's filters (properties, functions returning
 *   true to keep). Without them the venue shows every take on the platform. The server's order is kept.
 * - While `includePost` keeps no post of the pages read and more pages exist, the next pages are read on
 *   their own (up to `AUTO_PAGES` after the first, then Load more). Quiet signal rows do not stop it: they
 *   are not takes.
 * - `empty-fallback="global"`: when a `following` or `subject` scope is empty, shows everyone's takes
 *   with a notice. Empty means no post kept (quiet signal rows aside) once the scope is read to its end,
 *   or once the pages read on their own kept none: a venue whose filters keep nothing of the scope's first
 *   `AUTO_PAGES + 1` pages gets everyone's takes, not Load more over an empty list.
 * - Scope `following` needs a session (§4.1 rule 4): signed out it is not read; the element shows
 *   everyone's takes with a sign-in notice under `empty-fallback="global"`, else a sign-in hint, and reads
 *   the following feed once the reader signs in.
 * - Signals with `attachTo` are lines under their post; the others are quiet rows of their own, placed
 *   before the post named by `before` (after the last post when null).
 * - Replies written here go to the post's own thread, so they are read on the market page.
 * - The for-you rail shows one hint line when not personalized, never a sign-in prompt per card.
 * - `strings` overrides the `comments` slice; `roomStrings` the `room` slice ('ranked by record', records).
 *
 * @event vk-require-sign-in - A signed-out reader pressed Agree or Reply.
 * @event vk-tail - Tail was pressed on a take.
 * @event vk-open-market - A market was pressed (card, signal or rail).
 * @event vk-sign-in - A Sign in button was pressed (the rail's hint, or the `following` scope's, signed out).
 * @event vk-post-created - A reply was written from a card.
 * @event vk-error - A card's write failed (agree, reply, edit, delete, report); `detail.error` is the failure.
 *
 * @csspart takes - The whole element.
 * @csspart for-you - The for-you rail (`<vk-for-you-rail>`, its own parts are exported as `rail-*`).
 * @csspart rail-rail - The rail's `rail` part (the whole rail).
 * @csspart rail-title - The rail's title.
 * @csspart rail-hint - The rail's hint line when not personalized.
 * @csspart rail-sign-in - The rail hint's Sign in button.
 * @csspart rail-list - The rail's list of markets.
 * @csspart rail-item - One market of the rail.
 * @csspart rail-market - A rail market's button.
 * @csspart rail-reason - Why a rail market is picked.
 * @csspart rail-loading - The rail's loading skeleton.
 * @csspart rail-empty - The rail's empty state.
 * @csspart rail-error - The rail's error state.
 * @csspart rail-retry - The rail's Retry button.
 * @csspart feed - The takes.
 * @csspart notice - The fallback notice.
 * @csspart sign-in-hint - Scope `following` signed out, without a fallback: why nothing shows.
 * @csspart sign-in - Its Sign in button.
 * @csspart sort-label - The 'ranked by record' label.
 * @csspart list - The list of rows.
 * @csspart row - One take with its lines and replies (`id="vk-post-<id>"`).
 * @csspart signal - A signal line under a post.
 * @csspart signal-row - A quiet signal row of its own.
 * @csspart market - A quiet row's market title (a button: `vk-open-market`).
 * @csspart settlement - A settlement line under a post.
 * @csspart replies - Replies under a take.
 * @csspart reply-row - One reply (`id="vk-post-<id>"`).
 * @csspart earlier - Above a busy post's replies when only its newest 50 are shown: "Show earlier replies" (a `more` button) and a failed read's `error` line.
 * @csspart more - The Load more button.
 * @csspart loading - The loading skeleton.
 * @csspart empty - The empty state.
 * @csspart error - The error state.
 * @csspart retry - The Retry button.
 *
 * @cssproperty --vk-color-muted - Signal lines, notices.
 * @cssproperty --vk-color-surface - Quiet signal rows.
 * @cssproperty --vk-color-border - Row separators.
 */
export class VkCommunityTakes extends VkFeedQuery {
  static override styles = [themeStyles, stateStyles, listStyles, marketLinkStyles, feedStyles, signalStyles, communityStyles]
  static override properties = {
    ...VkFeedQuery.properties,
    emptyFallback: { attribute: 'empty-fallback' },
    includePost: { attribute: false },
    includeSignal: { attribute: false },
  }

  /** `global`: an empty `following` or `subject` scope falls back to everyone's takes, with a notice. */
  declare emptyFallback: 'global' | null | undefined
  /** Keep a post (true) or leave it out (false). Unset: every post. */
  declare includePost: ((post: Post) => boolean) | null | undefined
  /** Keep a signal (true) or leave it out (false). Unset: every signal. */
  declare includeSignal: ((signal: Signal) => boolean) | null | undefined

  readonly #primary = new StoreBinding(this, () => this.feedStore())
  readonly #fallback = new StoreBinding(this, () => (this.#fallingBack() ? this.feedStore('global') : null))
  /** The feed value drawn by the last render and how many of its posts `includePost` kept (read by `updated`). */
  #shown: { v: FeedValue; kept: number } | null = null
  /** Per feed (by its `loadMore`): the pages read on their own, its post count then, and one on its way. */
  readonly #fills = new WeakMap<FeedValue['loadMore'], { pages: number; seen: number; busy: boolean }>()

  #keep(p: Post) {
    return !this.includePost || this.includePost(p)
  }

  /**
   * The first scope is following/subject and has no post to show: `following` signed out, or no post kept
   * once read to its end or once the pages read on their own (`AUTO_PAGES`) kept none.
   */
  #fallingBack(): boolean {
    const v = this.#primary.value
    if (this.emptyFallback !== 'global' || !this.scope || this.scope === 'global' || !v) return false
    if (v.needsSession) return true
    if (v.loading || v.error || v.posts.some((p) => this.#keep(p))) return false
    if (!v.hasMore) return true
    const f = this.#fillOf(v)
    return f.pages >= AUTO_PAGES && !f.busy && !v.loadingMore
  }

  /** A feed's pages read on their own; counting starts again when it was re-read from its first page. */
  #fillOf(v: FeedValue) {
    let f = this.#fills.get(v.loadMore)
    if (!f) this.#fills.set(v.loadMore, (f = { pages: 0, seen: 0, busy: false }))
    if (v.posts.length < f.seen) f.pages = 0
    f.seen = v.posts.length
    return f
  }

  /**
   * While the shown feed keeps no post and has more pages, reads the next one (no "No takes yet." over
   * pages not read yet), up to `AUTO_PAGES` pages per feed; then Load more is offered (or the fallback).
   * Quiet signal rows are not posts: a page of them alone reads on.
   */
  #fill() {
    const shown = this.#shown
    if (!shown) return
    const { v, kept } = shown
    const f = this.#fillOf(v)
    if (kept || !v.hasMore || v.loading || v.loadingMore || v.error || f.busy || f.pages >= AUTO_PAGES) return
    f.pages++
    f.busy = true
    // After this update (a store change during `updated` would schedule another one at once).
    queueMicrotask(() =>
      void v.loadMore().finally(() => {
        f.busy = false
        this.requestUpdate()
      }),
    )
  }

  override updated(changed: PropertyValues) {
    super.updated(changed)
    this.#fill()
  }

  /** Scope `following` signed out with no fallback: the feed is the sign-in hint (and its button). */
  #askingSignIn() {
    return !!this.#primary.value?.needsSession && !this.#fallingBack()
  }

  #feedView() {
    this.#shown = null
    const primary = this.#primary.value
    if (!primary) return nothing
    const falling = this.#fallingBack()
    if (this.#askingSignIn()) return this.signInHint()
    const v = (falling ? this.#fallback.value : primary) as FeedValue | undefined
    const t = (k: keyof CommentsStrings) => this.str.t(k)
    if (!v) return nothing
    const rows = feedRows(v, (p) => this.#keep(p), (s) => !this.includeSignal || this.includeSignal(s))
    this.#shown = { v, kept: rows.filter((r) => 'post' in r).length }
    const body = pagedBody(v, rows.length, pagedStrings(this.str, 'emptyFeed'), () =>
      rowsList(
        this,
        this.str,
        v,
        rows,
        (p) => this.card(v, p),
        (p) => repliesView(v.threads[p.id] ?? [], v.earlier(p), this.str, (x) => this.card(v, x, true)),
      ),
    )
    return html`<section part="feed" class="feed" aria-label=${t('feedLabel')} aria-busy=${v.loading ? 'true' : 'false'}>
      ${falling ? html`<p part="notice" class="notice" role="status">${t(primary.needsSession ? 'fallbackSignedOut' : 'fallbackNotice')}</p>` : nothing}
      ${this.sortLabel(v)} ${body}
    </section>`
  }

  override render() {
    if (!this.vk.value) return nothing
    const subject = this.scope === 'subject' && this.subjectType && this.subjectRef
    return html`<div part="takes" class="takes">
      <vk-for-you-rail
        part="for-you"
        exportparts=${RAIL_PARTS}
        .room=${this.room}
        .subjectType=${subject ? this.subjectType : undefined}
        .subjectRef=${subject ? this.subjectRef : undefined}
        .strings=${this.strings}
        .locale=${this.locale}
        .signInElsewhere=${this.#askingSignIn()}
      ></vk-for-you-rail>
      ${this.#feedView()}
    </div>`
  }
}
