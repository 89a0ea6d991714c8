import { html, nothing } from 'lit'
import { repeat } from 'lit/directives/repeat.js'
import type { SubjectType } from '../../contract/ids.ts'
import type { FeedScope, FeedSort, Post } from '../../contract/types.ts'
import { commentsPaged, pagedBody, stateStyles } from '../shared/states.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController } from '../shared/strings-controller.ts'
import type { CommentsStrings, RoomStrings } from '../shared/strings/index.ts'
import { themeStyles } from '../shared/theme.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import '../take-card/take-card.ts'
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
 *
 * @cssproperty --vk-color-border - Row separators.
 * @cssproperty --vk-color-muted - The sort label.
 */
export class VkFeed extends VkElement {
  static override styles = [themeStyles, stateStyles, feedStyles]
  static override properties = {
    scope: {},
    subjectType: { attribute: 'subject-type' },
    subjectRef: { attribute: 'subject-ref' },
    sort: {},
    venue: {},
    room: {},
    limit: { type: Number },
    viewer: {},
    onTail: { attribute: false },
    strings: { attribute: false },
    roomStrings: { attribute: false },
    locale: {},
  }

  /** `global` (default), `following`, or `subject` (with `subject-type` and `subject-ref`). */
  declare scope: FeedScope
  /** The subject of a `subject` scope. */
  declare subjectType: SubjectType | undefined
  declare subjectRef: string | undefined
  /** `live` or `record`; the service's default when unset. */
  declare sort: FeedSort | undefined
  /** A venue id: reads with that venue's overlay. */
  declare venue: string | undefined
  /** A room id. */
  declare room: string | undefined
  /** Posts per page. */
  declare limit: number | undefined
  /** The signed-in wallet: Edit and Delete appear on its own cards. */
  declare viewer: string | null | undefined
  /** Tail handler for the cards. */
  declare onTail: ((post: Post) => void) | null | undefined
  /** Overrides of the `comments` strings slice (wins over `<vk-strings-provider>`). */
  declare strings: Partial<CommentsStrings> | null | undefined
  /** Overrides of the `room` strings slice, for the cards' record chips. */
  declare roomStrings: Partial<RoomStrings> | null | undefined
  /** Locale for the built-in strings, numbers and times. */
  declare locale: string | undefined

  private readonly vk = new VenuekitController(this)
  private readonly str = new StringsController(this, 'comments')
  private readonly feed = new StoreBinding(this, () => {
    const vk = this.vk.value
    if (!vk) return null
    const subject = this.scope === 'subject' ? { subjectType: this.subjectType, subjectRef: this.subjectRef } : {}
    if (this.scope === 'subject' && !(this.subjectType && this.subjectRef)) return null
    return vk.feed(this.scope || 'global', { ...subject, sort: this.sort || undefined, venue: this.venue || undefined, room: this.room || undefined, limit: this.limit || undefined })
  })

  constructor() {
    super()
    this.scope = 'global'
  }

  override render() {
    const v = this.feed.value
    if (!v) return nothing
    const t = (k: keyof CommentsStrings) => this.str.t(k)
    const body = pagedBody(v, v.posts.length, commentsPaged(this.str, 'emptyFeed'), () =>
      html`<ol part="list" class="list">
        ${repeat(
          v.posts,
          (p) => p.id,
          (p) => html`<li part="row" class="row" id="vk-post-${p.id}">
            <vk-take-card
              show-market
              .post=${p}
              .labels=${p.subjectType === 'event' ? v.labels[p.subjectRef.toLowerCase()] : undefined}
              .marketTitle=${p.subjectType === 'event' ? v.titles[p.subjectRef.toLowerCase()] : undefined}
              .viewer=${this.viewer}
              .onTail=${this.onTail}
              .strings=${this.strings}
              .roomStrings=${this.roomStrings}
              .locale=${this.locale}
            ></vk-take-card>
          </li>`,
        )}
      </ol>`,
    )
    return html`<section part="feed" class="feed" aria-label=${t('feedLabel')} aria-busy=${v.loading ? 'true' : 'false'}>
      ${v.sort === 'record' || this.sort === 'record' ? html`<p part="sort-label" class="sort-label">${t('rankedByRecord')}</p>` : nothing}
      ${body}
    </section>`
  }
}
