import { html, nothing } from 'lit'
import { UNFOLLOWABLE_NODE_TYPES, type NodeType, type SubjectType } from '../../contract/ids.ts'
import type { FeedSort, Market, Post } from '../../contract/types.ts'
import { Composer } from '../shared/composer.ts'
import { failureText, writeFailureText } from '../shared/failures.ts'
import { relativeTime } from '../shared/format.ts'
import { busy, mayMoveFocus } from '../shared/pending.ts'
import { repliesView } from '../shared/replies.ts'
import { marketLink } from '../shared/market-link.ts'
import { feedRows, rowsList } from '../shared/signal-rows.ts'
import { emptyState, errorState, loadingState, pagedBody, pagedStrings } from '../shared/states.ts'
import { ReaderChange } from '../shared/reader-change.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController } from '../shared/strings-controller.ts'
import type { CommentsStrings, RoomStrings } from '../shared/strings/index.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import '../take-card/take-card.ts'
import '../for-you-rail/for-you-rail.ts'
import '../take-prompt/take-prompt.ts'
import '../follow-button/follow-button.ts'
import { styles } from './room-feed.styles.ts'

/** `"false"` turns a default-on feature off; any other value (or none) leaves it on. */
const onUnlessFalse = { fromAttribute: (v: string | null) => v !== 'false', toAttribute: (v: boolean) => (v ? null : 'false') }

/**
 * @summary A room: its discussion ranked by record, its markets closing soon, the For-you rail, the take
 * prompt after a buy, and a Join card for a signed-in non-member.
 *
 * Give `room-id` (a room id, or `self` with a venue key), or `subject-type` and `subject-ref` for a
 * taxonomy-node section. The discussion is ranked by record by default and says so ('ranked by record').
 * A taxonomy-node section also draws the node's trading (§1.6, §2.2): a signal line under the post it
 * attaches to, a quiet row of its own for a market no post on the page names, and a settlement line
 * under a settled market's post, in the cards' strings (`cardStrings`). A room's page carries none.
 *
 * - Join card: only for a signed-in reader whose membership is known to be false (never while it is
 *   unknown, `member === null`); `membership="false"` turns it off. Joining a private room shows
 *   'this room is not open to join'; another venue's room shows `failRoomOtherVenue`, never invite-only.
 * - The composer is never hidden from a non-member: posting makes a follower of the room's subject a
 *   member, and everyone else gets the spec's refusal ('join this room to post in it',
 *   'you left this room — rejoin to post'), looked up by the service's code so it translates.
 * - Every failure line is a string of the `room` slice chosen by the error's code (`shared/failures.ts`);
 *   the service's own message is only in `vk-error`'s detail. A refusal or failure line is the reader's: a
 *   sign-out or another sign-in drops it.
 * - The take prompt shows after a buy only when a `<vk-platform-provider>` is above the room;
 *   `take-prompt="false"` turns it off.
 * - Rows get Tail only when `onTail` is set.
 * - A private room read by an outsider is a not-found state (its existence is not confirmed).
 * - Closing soon shows a skeleton while its markets are read and an error with Retry when that read
 *   failed, never 'No markets closing soon.' for markets it could not read.
 * - Join, Leave and Load more stay focusable while they run (aria-disabled); after a join or leave focus
 *   moves to the counterpart (Leave, or Rejoin), after Load more to the first new row.
 *
 * @event vk-sign-in - A signed-out reader asked to sign in (spec `onSignIn`): the composer's button, the rail's hint, or Follow.
 * @event vk-require-sign-in - A signed-out reader pressed Agree or Reply on a row's card (`detail.action`).
 * @event vk-open-market - A market was pressed (spec `onOpenMarket`): a row's market line, closing soon, or the rail.
 * @event vk-membership-change - The reader joined or left.
 * @event vk-follow-change - The header's Follow button followed or unfollowed the room's subject.
 * @event vk-take-prompt-answered - The take prompt (inside a `<vk-platform-provider>`) was skipped or posted.
 * @event vk-post-created - A post was written here (the composer, a row's reply, or the take prompt).
 * @event vk-tail - Tail was pressed on a take (with `onTail`).
 * @event vk-error - A post, join or leave failed (also a row's write, a follow, or the take prompt's post); `detail.error` is the failure.
 *
 * @csspart room - The whole room.
 * @csspart header - Title, headcount, Follow and Leave.
 * @csspart members - The headcount.
 * @csspart leave - The Leave button.
 * @csspart join-card - The Join card.
 * @csspart join - The Join button.
 * @csspart refusal - A refusal or failure line (join or post).
 * @csspart composer - The post form.
 * @csspart input - The composer's textarea.
 * @csspart submit - The composer's Post button.
 * @csspart sign-in - The Sign in button shown signed out.
 * @csspart discussion - The discussion column.
 * @csspart sort-label - 'ranked by record'.
 * @csspart list - The posts.
 * @csspart row - One post with its signal and settlement lines and its replies (`id="vk-post-<id>"`).
 * @csspart signal - A signal line under a post (a taxonomy-node section: ranked callers who moved to a side, §1.6).
 * @csspart settlement - A settlement line under a post (its market resolved, with the right and wrong tally).
 * @csspart signal-row - A quiet signal row of its own (a market no post on the page names).
 * @csspart replies - Replies under a post.
 * @csspart reply-row - One reply (`id="vk-post-<id>"`).
 * @csspart earlier - Above a busy post's replies when only its newest 50 are shown: "Show earlier replies" (a `more` button) and a failed read's `error` line.
 * @csspart more - The Load more button.
 * @csspart rail - The side column.
 * @csspart closing-soon - The closing-soon rail.
 * @csspart market - A closing-soon market button, or a quiet signal row's market.
 * @csspart not-found - The not-found state.
 * @csspart loading - Loading skeleton.
 * @csspart empty - No discussion yet.
 * @csspart error - Failure and its Retry button.
 * @csspart retry - The Retry button.
 *
 * @cssproperty --vk-color-surface - Join card and rail backgrounds.
 * @cssproperty --vk-color-border - Separators.
 * @cssproperty --vk-color-accent - Join and Post buttons.
 * @cssproperty --vk-color-danger - Refusals.
 * @cssproperty --vk-room-rail-width - Width of the side column (default 280px).
 */
export class VkRoomFeed extends VkElement {
  static override styles = styles
  static override properties = {
    roomId: { attribute: 'room-id' },
    subjectType: { attribute: 'subject-type' },
    subjectRef: { attribute: 'subject-ref' },
    membership: { converter: onUnlessFalse },
    takePrompt: { attribute: 'take-prompt', converter: onUnlessFalse },
    sort: {},
    viewer: {},
    onTail: { attribute: false },
    strings: { attribute: false },
    cardStrings: { attribute: false },
    locale: {},
    refusal: { state: true },
  }

  /** The room: an id, or `self` (the room of the venue whose key the client carries). */
  declare roomId: string | undefined
  /** With `subject-ref`, instead of `room-id`: a taxonomy-node section. */
  declare subjectType: SubjectType | undefined
  declare subjectRef: string | undefined
  /** The Join card; `membership="false"` turns it off. */
  declare membership: boolean
  /** The take prompt after a buy; `take-prompt="false"` turns it off. */
  declare takePrompt: boolean
  /** `record` (default) or `live`. */
  declare sort: FeedSort | undefined
  /** The signed-in wallet, passed by the venue: Edit and Delete appear on its own posts. */
  declare viewer: string | null | undefined
  /** Tail handler: rows get Tail only when it is set. */
  declare onTail: ((post: Post) => void) | null | undefined
  /** Overrides of the `room` strings slice (wins over `<vk-strings-provider>`). */
  declare strings: Partial<RoomStrings> | null | undefined
  /** Overrides of the `comments` strings slice, for the take cards and the For-you rail. */
  declare cardStrings: Partial<CommentsStrings> | null | undefined
  /** Locale for the built-in strings, numbers and times. */
  declare locale: string | undefined
  /** The last refused or failed join, leave or post, as shown, and where (by the Join card or the composer). */
  declare private refusal: { at: 'membership' | 'post'; text: string } | null

  readonly #vk = new VenuekitController(this)
  readonly #str = new StringsController(this, 'room')
  /** The cards' slice (`cardStrings` over the provider's `comments`), for what the room draws around its cards. */
  readonly #cardStr = new StringsController(this, 'comments', undefined, () => this.cardStrings)
  readonly #session = new StoreBinding(this, () => this.#vk.value?.$session)
  readonly #feed = new StoreBinding(this, () => {
    const vk = this.#vk.value
    const target = this.roomId || (this.subjectType && this.subjectRef ? { subjectType: this.subjectType, subjectRef: this.subjectRef } : null)
    return vk && target ? vk.roomFeed(target, { sort: this.sort || undefined }) : null
  })
  readonly #member = new StoreBinding(this, () => (this.roomId ? this.#vk.value?.roomMembership(this.roomId) : null))
  readonly #composer = new Composer(this, (body) => this.#send(body))
  /** Another reader (sign-out, sign-in): the previous one's refusal line and composer failure go. */
  readonly #reader = new ReaderChange(this, () => this.#session.value, () => {
    this.refusal = null
    this.#composer.clearFailure()
  })
  #shownTarget = ''
  /** After a join or leave: the counterpart button (Leave, or Join/Rejoin) gets focus once it is drawn. */
  #focusTo: 'join' | 'leave' | null = null

  constructor() {
    super()
    this.membership = true
    this.takePrompt = true
    this.refusal = null
  }

  protected override willUpdate() {
    const target = `${this.roomId}|${this.subjectType}|${this.subjectRef}`
    if (target !== this.#shownTarget) {
      this.#shownTarget = target
      this.refusal = null
    }
  }

  /**
   * Join and Leave swap one button for the other: focus follows to the counterpart once it is drawn (the
   * membership is read again first), when focus was on the old button or got lost with it.
   */
  protected override updated() {
    const to = this.#focusTo
    if (!to) return
    const target = this.renderRoot.querySelector<HTMLElement>(`[part~="${to}"]`)
    if (!target && this.renderRoot.querySelector(`[part~="${to === 'leave' ? 'join' : 'leave'}"]`)) return
    this.#focusTo = null
    if (target && mayMoveFocus(this)) target.focus()
  }

  /** The subject new posts are written on: the room's node, or the section's subject. */
  #postSubject(): [SubjectType, string] | null {
    if (this.roomId) {
      const room = this.#feed.value?.room ?? this.#member.value?.room
      return room ? [room.subject.type, room.subject.ref] : null
    }
    return this.subjectType && this.subjectRef ? [this.subjectType, this.subjectRef] : null
  }

  /** While the same reader is signed in and the element still shows the room (or section) an action started in. */
  #here() {
    const at = this.#shownTarget
    return this.#reader.mine(() => this.#shownTarget === at)
  }

  /** Shows a failed post, join or leave by the composer or the Join card, and reports it (`vk-error`). */
  #failed(at: 'membership' | 'post', error: unknown) {
    this.refusal = { at, text: at === 'post' ? writeFailureText(this.#str, error, 'postFailed') : failureText(this.#str, error, 'failGeneric') }
    this.emit('vk-error', { error })
  }

  async #send(body: string) {
    const actions = this.#vk.value?.postActions().get()
    const subject = this.#postSubject()
    if (!this.#session.value) {
      this.emit('vk-sign-in')
      return false
    }
    if (!actions || !subject) return false
    this.refusal = null
    const mine = this.#here()
    try {
      const post = await actions.create(subject[0], subject[1], body, this.roomId ? { room: this.roomId } : {})
      // A follower's first post made them a member (§3.3): read the membership again.
      this.#member.value?.refresh()
      this.emit('vk-post-created', { post })
    } catch (e) {
      if (mine()) this.#failed('post', e)
      return false
    }
  }

  /** Join (`member`) or Leave. Focus follows to the counterpart (`updated`) in the room it was done in. */
  async #setMembership(member: boolean) {
    const m = this.#member.value
    if (!m || !this.roomId) return
    this.refusal = null
    const reader = this.#reader.mine()
    const mine = this.#here()
    const roomId = m.room?.id ?? this.roomId
    try {
      const r = member ? await m.join() : (await m.leave(), null)
      if (!reader()) return
      if (r?.refused) {
        if (mine()) this.refusal = { at: 'membership', text: this.#str.t('joinRefused') }
        return
      }
      if (mine()) {
        this.#focusTo = member ? 'leave' : 'join'
        this.requestUpdate()
      }
      // The page hears of it either way.
      this.emit('vk-membership-change', { roomId, member })
    } catch (e) {
      if (mine()) this.#failed('membership', e)
    }
  }

  #refusalLine(at: 'membership' | 'post') {
    return this.refusal?.at === at ? html`<p part="refusal" class="refusal" role="alert">${this.refusal.text}</p>` : nothing
  }

  #header() {
    const v = this.#feed.value!
    const m = this.#member.value
    const s = this.#str
    const room = v.room ?? m?.room ?? null
    const node = room ? room.subject : this.subjectType && this.subjectType !== 'event' && this.subjectRef ? { type: this.subjectType as NodeType, ref: this.subjectRef } : null
    const followable = node && !UNFOLLOWABLE_NODE_TYPES.includes(node.type)
    const signedIn = !!this.#session.value
    return html`<header part="header" class="header">
      <h2 id="title">${room?.title ?? node?.ref ?? this.subjectRef ?? s.t('roomLabel')}</h2>
      ${m?.members != null ? html`<span part="members" class="muted">${s.t('members', { count: m.members })}</span>` : nothing}
      ${followable ? html`<vk-follow-button subject-type=${node.type} subject-ref=${node.ref} .strings=${this.strings} .locale=${this.locale}></vk-follow-button>` : nothing}
      ${this.membership && signedIn && m?.member === true
        ? html`<button type="button" part="leave" class="vk-button" ${busy(m.pending)} @click=${() => this.#setMembership(false)}>
            ${m.pending ? s.t('leaving') : s.t('leave')}
          </button>`
        : nothing}
    </header>`
  }

  /** The Join card: signed in, membership known to be false (never on null, §4.5.3), and not turned off. */
  #joinCard() {
    const m = this.#member.value
    if (!this.membership || !this.#session.value || !m || m.member !== false) return nothing
    const s = this.#str
    // A private room's outsider is not told its title (null): the room's node names it, as in the header.
    const title = m.room?.title ?? this.#feed.value?.room?.title ?? m.room?.subject.ref ?? this.subjectRef ?? s.t('roomLabel')
    return html`<aside part="join-card" class="join-card" aria-labelledby="join-title">
      <h3 id="join-title">${s.t('joinTitle', { room: title })}</h3>
      <p>${m.left ? s.t('leftBody') : s.t('joinBody')}</p>
      <button type="button" part="join" class="vk-button primary" ${busy(m.pending)} @click=${() => this.#setMembership(true)}>
        ${m.pending ? s.t('joining') : m.left ? s.t('rejoin') : s.t('join')}
      </button>
    </aside>`
  }

  #composerView() {
    const s = this.#str
    if (!this.#session.value)
      return html`<button type="button" part="sign-in" class="vk-button" @click=${() => this.emit('vk-sign-in')}>${s.t('signInToPost')}</button>`
    // Never hidden from a non-member (§4.5.3): a follower's post makes them a member; others get the refusal.
    return this.#composer.render(
      { label: s.t('composerLabel'), placeholder: s.t('composerPlaceholder'), submit: s.t('post'), busy: s.t('posting'), failed: s.t('postFailed') },
      { id: 'vk-room-composer' },
    )
  }

  /** A row's card. §4.4 rule 5: rows get Tail only with `onTail`, never from the page's checkout adapter (`checkoutTail`). */
  #card(p: Post) {
    const v = this.#feed.value!
    const id = p.subjectType === 'event' ? p.subjectRef.toLowerCase() : ''
    return html`<vk-take-card
      show-market
      .post=${p}
      .labels=${id ? v.labels[id] : undefined}
      .marketTitle=${id ? v.titles[id] : undefined}
      .viewer=${this.viewer}
      .onTail=${this.onTail}
      .checkoutTail=${false}
      .strings=${this.cardStrings}
      .roomStrings=${this.strings}
      .locale=${this.locale}
    ></vk-take-card>`
  }

  #discussion() {
    const v = this.#feed.value!
    const s = this.#str
    // A taxonomy-node section's page carries its signals and settlements (§2.2); a room's has none.
    const rows = feedRows(v, () => true, () => true)
    const body = pagedBody(v, rows.length, pagedStrings(s, 'empty'), () =>
      rowsList(
        this,
        this.#cardStr,
        v,
        rows,
        (p) => this.#card(p),
        (p) => repliesView(v.threads[p.id] ?? [], v.earlier(p), this.#cardStr, (r) => this.#card(r)),
      ),
    )
    return html`<section part="discussion" class="discussion" aria-labelledby="discussion-title">
      <div class="discussion-head">
        <h3 id="discussion-title">${s.t('discussion')}</h3>
        ${v.sort === 'record' ? html`<span part="sort-label" class="muted">${s.t('rankedByRecord')}</span>` : nothing}
      </div>
      ${body}
    </section>`
  }

  /** The closing-soon rail: its markets, or while none are read, a skeleton, or its failure with Retry (never "none"). */
  #closingSoon(v: { markets: Market[]; marketsLoading: boolean; marketsError: unknown; refresh(): void }) {
    const s = this.#str
    const markets = v.markets
    let body
    if (markets.length)
      body = html`<ul class="markets">
        ${markets.map(
          (m) => html`<li>
            ${marketLink(this, m.id, m.title)}
            ${m.closesAt ? html`<span class="muted">${s.t('closesIn', { time: relativeTime(m.closesAt, s.locale) })}</span>` : nothing}
          </li>`,
        )}
      </ul>`
    else if (v.marketsLoading) body = loadingState(s.t('loading'), 2)
    else if (v.marketsError) body = errorState(s.t('closingSoonError'), s.t('retry'), () => v.refresh())
    else body = emptyState(s.t('noClosingSoon'))
    return html`<section part="closing-soon" class="closing-soon" aria-labelledby="closing-title">
      <h3 id="closing-title">${s.t('closingSoon')}</h3>
      ${body}
    </section>`
  }

  override render() {
    const v = this.#feed.value
    if (!v) return nothing
    const s = this.#str
    if (v.notFound)
      return html`<section part="room" aria-label=${s.t('roomLabel')}><p part="not-found" class="vk-empty">${s.t('notFound')}</p></section>`
    const rail = this.roomId
      ? html`<vk-for-you-rail room=${this.roomId} .strings=${this.cardStrings} .locale=${this.locale}></vk-for-you-rail>`
      : html`<vk-for-you-rail subject-type=${this.subjectType ?? nothing} subject-ref=${this.subjectRef ?? nothing} .strings=${this.cardStrings} .locale=${this.locale}></vk-for-you-rail>`
    return html`<section part="room" class="room" aria-labelledby="title">
      ${this.#header()} ${this.#joinCard()} ${this.#refusalLine('membership')}
      ${this.takePrompt && this.#vk.fromProvider ? html`<vk-take-prompt .strings=${this.strings} .locale=${this.locale}></vk-take-prompt>` : nothing}
      <div class="columns">
        <div class="main">${this.#composerView()} ${this.#refusalLine('post')} ${this.#discussion()}</div>
        <div part="rail" class="rail">${this.#closingSoon(v)} ${rail}</div>
      </div>
    </section>`
  }
}
