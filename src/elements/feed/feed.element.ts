import { html, nothing } from 'lit'
import { repeat } from 'lit/directives/repeat.js'
import { pagedStrings, pagedBody, stateStyles } from '../shared/states.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { listStyles } from '../shared/list.styles.ts'
import { themeStyles } from '../shared/theme.ts'
import { VkFeedQuery } from './feed-query.ts'
import { feedStyles } from './feed.styles.ts'

/**
 * @summary A ranked page of take cards, in the server's order (§4.4.4).
 *
 * Posts only: signals and settlements of the page are not drawn (use `<vk-community-takes>` for those).
 * The order is the server's and is never re-sorted (§4.5.1). Whenever the page is ranked by record it
 * says so ('ranked by record', §4.4.8).
 *
 * @event vk-require-sign-in - A signed-out reader pressed Agree or Reply.
 * @event vk-tail - Tail was pressed on a take.
 * @event vk-open-market - A card's market line was pressed.
 * @event vk-post-created - A reply was written from a card.
 * @event vk-sign-in - Sign in was pressed: scope `following` signed out (§4.1 rule 4), which is not read.
 * @event vk-error - A card's write failed (agree, reply, edit, delete, report); `detail.error` is the failure.
 *
 * @csspart feed - The whole feed.
 * @csspart sort-label - The 'ranked by record' label.
 * @csspart list - The list of cards.
 * @csspart row - One card's row (`id="vk-post-<id>"`).
 * @csspart more - The Load more button.
 * @csspart loading - The loading skeleton.
 * @csspart empty - The empty state.
 * @csspart error - The error state.
 * @csspart retry - The Retry button.
 * @csspart sign-in-hint - Scope `following` signed out: why nothing shows.
 * @csspart sign-in - Its Sign in button.
 *
 * @cssproperty --vk-color-border - Row separators.
 * @cssproperty --vk-color-muted - The sort label.
 */
export class VkFeed extends VkFeedQuery {
  static override styles = [themeStyles, stateStyles, listStyles, feedStyles]

  readonly #feed = new StoreBinding(this, () => this.feedStore())

  override render() {
    const v = this.#feed.value
    if (!v) return nothing
    if (v.needsSession) return this.signInHint()
    const body = pagedBody(v, v.posts.length, pagedStrings(this.str, 'emptyFeed'), () =>
      html`<ol part="list" class="list">
        ${repeat(
          v.posts,
          (p) => p.id,
          (p) => html`<li part="row" class="row" id="vk-post-${p.id}">${this.card(v, p)}</li>`,
        )}
      </ol>`,
    )
    return html`<section part="feed" class="feed" aria-label=${this.str.t('feedLabel')} aria-busy=${v.loading ? 'true' : 'false'}>
      ${this.sortLabel(v)} ${body}
    </section>`
  }
}
