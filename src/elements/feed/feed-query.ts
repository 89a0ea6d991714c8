import { html, nothing } from 'lit'
import type { SubjectType } from '../../contract/ids.ts'
import type { FeedScope, FeedSort, Post } from '../../contract/types.ts'
import type { FeedValue } from '../../stores/index.ts'
import { StringsController } from '../shared/strings-controller.ts'
import type { CommentsStrings, RoomStrings } from '../shared/strings/index.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import '../take-card/take-card.ts'

/**
 * What every ranked-feed element shares (`<vk-feed>`, `<vk-community-takes>`): the feed query's attributes
 * (§4.2 `postFeed`), the properties its take cards receive, the feed store for a scope, one card, and the
 * 'ranked by record' label (§4.4 rule 8). Not an element of its own.
 */
export class VkFeedQuery extends VkElement {
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
  /** A venue id: reads with that venue's overlay (its hides and bans; never a filter, §4.1 rule 5). */
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
  /** Overrides of the `room` strings slice (wins over `<vk-strings-provider>`): the sort label and the cards' record chips. */
  declare roomStrings: Partial<RoomStrings> | null | undefined
  /** Locale for the built-in strings, numbers and times. */
  declare locale: string | undefined

  protected readonly vk = new VenuekitController(this)
  protected readonly str = new StringsController(this, 'comments')
  protected readonly roomStr = new StringsController(this, 'room', undefined, () => this.roomStrings)

  constructor() {
    super()
    this.scope = 'global'
  }

  /**
   * The feed store of `scope` (the element's own by default) with the element's sort, venue, room and
   * limit; null until the context is there, and while a `subject` scope lacks its subject.
   *
   * The element's own scope is asked with its subject whatever the scope, so a subject given with `global`
   * (the default) or `following` gets the store's warning (§4.3 useFeed "warns when a subject is passed with
   * global or following"); the store reads without it (§4.1 rule 3). Another scope (a fallback) goes without.
   */
  protected feedStore(scope?: FeedScope) {
    const vk = this.vk.value
    const s = scope ?? (this.scope || 'global')
    if (!vk || (s === 'subject' && !(this.subjectType && this.subjectRef))) return null
    const subject = !scope || s === 'subject' ? { subjectType: this.subjectType || undefined, subjectRef: this.subjectRef || undefined } : {}
    return vk.feed(s, { ...subject, sort: this.sort || undefined, venue: this.venue || undefined, room: this.room || undefined, limit: this.limit || undefined })
  }

  /** One take card of the page, with its market's labels and title; a reply's card leaves the market line out. */
  protected card(v: FeedValue, p: Post, reply = false) {
    const market = p.subjectType === 'event' ? p.subjectRef.toLowerCase() : null
    return html`<vk-take-card
      ?show-market=${!reply}
      .post=${p}
      .labels=${market ? v.labels[market] : undefined}
      .marketTitle=${market ? v.titles[market] : undefined}
      .viewer=${this.viewer}
      .onTail=${this.onTail}
      .strings=${this.strings}
      .roomStrings=${this.roomStrings}
      .locale=${this.locale}
    ></vk-take-card>`
  }

  /** Scope `following` signed out (§4.1 rule 4: it needs a session): a hint and Sign in, not an empty feed. */
  protected signInHint() {
    return html`<section part="feed" class="feed" aria-label=${this.str.t('feedLabel')}>
      <div part="sign-in-hint" class="sign-in-hint">
        <p>${this.str.t('followingSignIn')}</p>
        <button type="button" part="sign-in" class="vk-button" @click=${() => this.emit('vk-sign-in')}>${this.str.t('signInAction')}</button>
      </div>
    </section>`
  }

  /** 'ranked by record' whenever the page is ranked by record, asked or answered (§4.4 rule 8). */
  protected sortLabel(v: FeedValue) {
    return v.sort === 'record' || this.sort === 'record' ? html`<p part="sort-label" class="sort-label">${this.roomStr.t('rankedByRecord')}</p>` : nothing
  }
}
