import { html, nothing, type PropertyValues } from 'lit'
import { repeat } from 'lit/directives/repeat.js'
import type { SubjectType } from '../../contract/ids.ts'
import type { OutcomeLabel, Post } from '../../contract/types.ts'
import { Composer, composerStyles } from '../shared/composer.ts'
import { joinOffer, writeFailureText } from '../shared/failures.ts'
import { warmFormatters } from '../shared/format.ts'
import { pagedStrings, pagedBody, stateStyles } from '../shared/states.ts'
import { repliesView } from '../shared/replies.ts'
import { ReaderChange } from '../shared/reader-change.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController } from '../shared/strings-controller.ts'
import type { CommentsStrings } from '../shared/strings/index.ts'
import { listStyles } from '../shared/list.styles.ts'
import { themeStyles } from '../shared/theme.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import '../take-card/take-card.ts'
import { threadStyles } from './comments.styles.ts'

/**
 * Rows rendered in the first pass of a freshly loaded thread: about what a screen shows. The rest follow in
 * the task after that frame is painted, so the first cards do not wait for a whole page of them.
 */
export const FIRST_PASS_ROWS = 5

/** Resolves in the task after the next frame is painted (or after 100 ms when no frame comes: a hidden page). */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    let done = false
    const go = () => {
      if (done) return
      done = true
      resolve()
    }
    const fallback = setTimeout(go, 100)
    if (typeof requestAnimationFrame === 'function')
      requestAnimationFrame(() =>
        setTimeout(() => {
          clearTimeout(fallback)
          go()
        }, 0),
      )
  })
}

/**
 * @summary A thread on any subject: newest first, one level of replies, a composer, load-more.
 *
 * The thinner thread (§4.4.2): Edit and Delete appear only when `viewer` is set and the post is the
 * viewer's. Signed out, writing asks the page to sign in (`vk-require-sign-in`). Posts that arrive live
 * show as "N new" and are merged only when the reader asks, so the scroll position never jumps.
 * With `room`, new posts go into that room: a refused post reads as the spec's sentence ('join this room
 * to post in it', 'you left this room — rejoin to post'), a string of the `comments` slice like every
 * failure; the service's own message is only in `vk-error`. Beside it, 'Join and post' ('Rejoin and post')
 * joins the room and posts the kept text.
 *
 * @event vk-require-sign-in - A signed-out reader tried to write (`detail.action`: post, agree, reply).
 * @event vk-post-created - A post or reply was written here.
 * @event vk-tail - Tail was pressed on a take (see `<vk-take-card>`).
 * @event vk-error - A write failed (a post here, or a card's write); `detail.error` is the failure.
 *
 * @csspart thread - The whole thread.
 * @csspart composer - The new-post form (absent with `read-only`).
 * @csspart failure - The composer's failure line.
 * @csspart recover - Beside a room's refusal: 'Join and post' / 'Rejoin and post'.
 * @csspart input - The composer's textarea.
 * @csspart submit - The composer's Post button.
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
 * @cssproperty --vk-color-border - Row separators.
 * @cssproperty --vk-color-accent - The "N new" bar and the Post button.
 * @cssproperty --vk-space-3 - Row padding.
 * @cssproperty --vk-sticky-top - How far below the viewport's top the "N new" bar sticks while the thread scrolls: the height of the venue's own sticky header, if it has one (default 0).
 */
export class VkComments extends VkElement {
  static override styles = [themeStyles, stateStyles, composerStyles, listStyles, threadStyles]
  static override properties = {
    subjectType: { attribute: 'subject-type' },
    subjectRef: { attribute: 'subject-ref' },
    viewer: {},
    readOnly: { type: Boolean, attribute: 'read-only' },
    venue: {},
    room: {},
    limit: { type: Number },
    onTail: { attribute: false },
    strings: { attribute: false },
    locale: {},
  }

  /** `event` (a market) or a taxonomy node type. */
  declare subjectType: SubjectType | undefined
  /** The market id or node key. */
  declare subjectRef: string | undefined
  /** The signed-in wallet, passed by the venue: Edit and Delete appear only on its own posts. */
  declare viewer: string | null | undefined
  /** Removes every write control from the DOM: composer, Reply, Agree, Edit, Delete, Report. */
  declare readOnly: boolean
  /** A venue id: reads the thread with that venue's moderation overlay. */
  declare venue: string | undefined
  /** A room id: the thread inside that room; new posts go into it. */
  declare room: string | undefined
  /** Posts per page (service default when unset). */
  declare limit: number | undefined
  /** Tail handler for takes (see `<vk-take-card>`). */
  declare onTail: ((post: Post) => void) | null | undefined
  /** Overrides of the `comments` strings slice (wins over `<vk-strings-provider>`). */
  declare strings: Partial<CommentsStrings> | null | undefined
  /** Locale for the built-in strings, numbers and times. */
  declare locale: string | undefined

  protected readonly vk = new VenuekitController(this)
  protected readonly str = new StringsController(this, 'comments')
  protected readonly session = new StoreBinding(this, () => this.vk.value?.$session)
  protected readonly thread = new StoreBinding(this, () => {
    const s = this.subject()
    const o = { ...this.threadOptions(), venue: this.venue || undefined, room: this.room || undefined, limit: this.limit || undefined }
    return s && this.vk.value ? this.vk.value.comments(s[0], s[1], o) : null
  })
  readonly #composer = new Composer(this, (body) => this.#sendPost(body))
  /** Another reader (sign-out, sign-in): the previous one's composer failure goes (the text stays). */
  private readonly reader = new ReaderChange(this, () => this.session.value, () => this.#composer.clearFailure())
  /** Rows rendered now: `FIRST_PASS_ROWS` during a fresh list's first pass, else all. */
  #rowCap = Infinity
  /** The list on screen has had its first pass (reset when the list empties: a new subject, a new reader). */
  #firstPassDone = false
  /** The rest of the rows, scheduled after the first pass's paint. */
  #rest: Promise<void> | null = null

  constructor() {
    super()
    this.readOnly = false
  }

  /** True while only the first rows of a freshly loaded list are rendered (the rest follow after the paint). */
  protected get partial(): boolean {
    return this.#rowCap !== Infinity
  }

  /** Plans this update's rows (after the controllers synced the store, before render). */
  protected override update(changed: PropertyValues<this>) {
    const n = this.thread.value?.posts.length ?? 0
    if (!n) this.#firstPassDone = false
    else if (!this.#firstPassDone) {
      this.#firstPassDone = true
      if (n > FIRST_PASS_ROWS) {
        this.#rowCap = FIRST_PASS_ROWS
        const rest = (this.#rest = afterNextPaint().then(() => {
          if (this.#rest === rest) this.#rest = null
          this.#rowCap = Infinity
          this.requestUpdate()
        }))
      }
    }
    super.update(changed)
  }

  /** `updateComplete` resolves once every row is rendered, the rows after the first pass included. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await super.getUpdateComplete()
    while (this.#rest) {
      await this.#rest
      done = await super.getUpdateComplete()
    }
    return done
  }

  override connectedCallback() {
    super.connectedCallback()
    // The cards' formatters get built while the thread is on its way, not after it arrived.
    warmFormatters(this.str.locale)
  }

  /** The thread's subject, or null when the attributes do not name one. */
  protected subject(): [SubjectType, string] | null {
    return this.subjectType && this.subjectRef ? [this.subjectType, this.subjectRef] : null
  }

  protected threadOptions(): { includeSeries?: boolean } {
    return {}
  }

  /** The wallet whose posts get Edit and Delete. */
  protected viewerInUse(): string | null | undefined {
    return this.viewer
  }

  protected highlighted(_post: Post): boolean {
    return false
  }

  /** Joins a room (the composer's 'Join and post'), through the page's membership store. */
  readonly #join = (room: string) => this.vk.value!.roomMembership(room).get().join()

  async #sendPost(body: string) {
    const s = this.subject()
    const actions = this.vk.value?.postActions().get()
    if (!s || !actions) return false
    if (!this.session.value) {
      this.emit('vk-require-sign-in', { action: 'post' })
      return false
    }
    const post = await actions.create(s[0], s[1], body, this.room ? { room: this.room } : {})
    if (post) this.emit('vk-post-created', { post })
  }

  async #showNew() {
    this.thread.value?.showNew()
    await this.updateComplete
    // The reader asked for them: bring the top of the thread into view and put focus on the newest row.
    const first = this.renderRoot.querySelector<HTMLElement>('[part~="row"]')
    first?.scrollIntoView({ block: 'nearest' })
    first?.focus({ preventScroll: true })
  }

  #card(p: Post, labels: OutcomeLabel[] | undefined) {
    return html`<vk-take-card
      .post=${p}
      .labels=${labels}
      .viewer=${this.viewerInUse()}
      .onTail=${this.onTail}
      .strings=${this.strings}
      .locale=${this.locale}
      ?read-only=${this.readOnly}
      ?highlight=${this.highlighted(p)}
    ></vk-take-card>`
  }

  #composerView() {
    if (this.readOnly) return nothing
    const t = (k: keyof CommentsStrings) => this.str.t(k)
    return html`${this.#composer.render(
      {
        label: t('composerLabel'),
        placeholder: t('composerPlaceholder'),
        submit: t('post'),
        busy: t('posting'),
        failed: (e) => writeFailureText(this.str, e, 'postFailed'),
        recover: joinOffer(this.str, this.room, this.#join),
      },
      { id: 'vk-composer' },
    )}${this.session.value ? nothing : html`<p class="hint" part="hint">${t('signInToPost')}</p>`}`
  }

  override render() {
    const v = this.thread.value
    if (!v) return nothing
    const t = (k: keyof CommentsStrings, params?: Record<string, number>) => this.str.t(k, params)
    const labelsOf = (p: Post) => (p.subjectType === 'event' ? v.labels[p.subjectRef.toLowerCase()] : undefined)
    const partial = this.partial
    const posts = partial ? v.posts.slice(0, this.#rowCap) : v.posts
    // Load more and a later page's failure show below the whole list, not under a first pass.
    const paged = partial ? { ...v, hasMore: false, error: null } : v
    const body = pagedBody(paged, v.posts.length, pagedStrings(this.str, 'empty'), () =>
      html`<ol part="list" class="list">
        ${repeat(
          posts,
          (p) => p.id,
          (p) => {
            return html`<li part="row" class="row" id="vk-post-${p.id}" tabindex="-1">
              ${this.#card(p, labelsOf(p))} ${repliesView(v.threads[p.id] ?? [], v.earlier(p), this.str, (r) => this.#card(r, labelsOf(r)))}
            </li>`
          },
        )}
      </ol>`,
    )
    return html`<section part="thread" class="thread" aria-label=${t('threadLabel')} aria-busy=${v.loading || partial ? 'true' : 'false'}>
      ${this.#composerView()}
      <div part="new-bar" class="new-bar" aria-live="polite" aria-atomic="true">
        ${v.newCount > 0
          ? html`<button type="button" class="vk-button primary" @click=${this.#showNew}>${this.str.t('newPostsShow', { newPosts: t('newPosts', { count: v.newCount }), show: t('showNew') })}</button>`
          : nothing}
      </div>
      ${body}
    </section>`
  }
}
