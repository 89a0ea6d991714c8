import type { PropertyValues } from 'lit'
import type { SubjectType } from '../../contract/ids.ts'
import type { Post } from '../../contract/types.ts'
import { VkComments } from '../comments/comments.element.ts'

/** Pages followed at most to find `focus-post-id` when it is not on the first page. */
const FOCUS_PAGES_MAX = 10

/**
 * @summary One market's thread: newest first, one level of replies, a composer, load-more (§4.4.1).
 *
 * - `read-only` removes the write path from the DOM (no composer, Reply, Agree, Edit, Delete, Report).
 * - `focus-post-id` scrolls to row `vk-post-<id>` (following pages until it is found) and highlights it.
 * - Signed out, writing fires `vk-require-sign-in` (spec `onRequireSignIn`).
 * - Posts arriving live through the stream show as "N new"; the list does not move until the reader asks.
 * - `include-series` merges a recurring market's series thread in; those rows are labelled as another round.
 * - Edit and Delete appear on the viewer's own posts: `viewer`, or the signed-in wallet when `viewer` is unset.
 *
 * @event vk-require-sign-in - A signed-out reader tried to write (`detail.action`: post, agree, reply).
 * @event vk-post-created - A post or reply was written here.
 * @event vk-tail - Tail was pressed on a take (see `<vk-take-card>`).
 * @event vk-error - A write failed (a post here, or a card's write); `detail.error` is the failure.
 *
 * @csspart thread - The whole thread.
 * @csspart composer - The new-post form (absent with `read-only`).
 * @csspart failure - The composer's failure line.
 * @csspart input - The composer's textarea.
 * @csspart submit - The composer's Post button.
 * @csspart recover - Beside a room's refusal: 'Join and post' / 'Rejoin and post'.
 * @csspart hint - Signed out: the line under the composer asking the reader to sign in to post.
 * @csspart new-bar - The "N new" bar.
 * @csspart list - The list of posts.
 * @csspart row - One post with its replies (`id="vk-post-<id>"`).
 * @csspart replies - The replies under a post.
 * @csspart reply-row - One reply (`id="vk-post-<id>"`).
 * @csspart earlier - Above a busy post's replies when only its newest 50 are shown: "Show earlier replies" (a `more` button) and a failed read's `error` line.
 * @csspart more - The Load more button.
 * @csspart loading - The loading skeleton.
 * @csspart empty - The empty state.
 * @csspart error - The error state.
 * @csspart retry - The Retry button.
 *
 * @cssproperty --vk-color-highlight - Background of the focused post.
 * @cssproperty --vk-color-border - Row separators.
 * @cssproperty --vk-color-accent - The "N new" bar and the Post button.
 * @cssproperty --vk-sticky-top - How far below the viewport's top the "N new" bar sticks while the thread scrolls: the height of the venue's own sticky header, if it has one (default 0).
 */
export class VkMarketComments extends VkComments {
  static override properties = {
    ...VkComments.properties,
    marketId: { attribute: 'market-id' },
    focusPostId: { attribute: 'focus-post-id' },
    includeSeries: { type: Boolean, attribute: 'include-series' },
  }

  /** The market (condition id). */
  declare marketId: string | undefined
  /** A post id: its row is scrolled into view and highlighted once it is on the page. */
  declare focusPostId: string | undefined
  /** Merge a recurring market's series thread (rows labelled as another round). */
  declare includeSeries: boolean

  /** The focus id already scrolled to, and pages followed looking for it. */
  #focused: string | null = null
  #focusPages = 0

  constructor() {
    super()
    this.includeSeries = false
  }

  protected override subject(): [SubjectType, string] | null {
    return this.marketId ? ['event', this.marketId] : null
  }

  protected override threadOptions() {
    return { includeSeries: this.includeSeries }
  }

  protected override viewerInUse() {
    return this.viewer || this.session.value?.wallet
  }

  protected override highlighted(p: Post): boolean {
    return !!this.focusPostId && p.id === this.focusPostId
  }

  protected override updated(changed: PropertyValues<this>) {
    super.updated(changed)
    if (changed.has('focusPostId')) {
      this.#focused = null
      this.#focusPages = 0
    }
    const id = this.focusPostId
    const v = this.thread.value
    // Not during a first pass: the row may be among the ones that follow it.
    if (!id || this.#focused === id || !v || v.loading || this.partial) return
    const row = this.renderRoot.querySelector<HTMLElement>(`[id="vk-post-${CSS.escape(id)}"]`)
    if (row) {
      this.#focused = id
      row.scrollIntoView({ block: 'center' })
      row.focus({ preventScroll: true })
    } else if (v.hasMore && !v.loadingMore && !v.error && !v.loadMoreError && this.#focusPages < FOCUS_PAGES_MAX) {
      // One count per page read: not again while that page is on its way (its own updates come through here).
      this.#focusPages++
      // After this update, not inside it: loading changes the store, which schedules the next update.
      queueMicrotask(() => void v.loadMore())
    }
  }
}
