import { html, nothing, type PropertyValues } from 'lit'
import type { OutcomeLabel, Post } from '../../contract/types.ts'
import { formatAmount, sideLabel, takeReceipt } from '../../core/index.ts'
import { Composer } from '../shared/composer.ts'
import { failureText, joinOffer, writeFailureText } from '../shared/failures.ts'
import { marketLink } from '../shared/market-link.ts'
import { busy, mayMoveFocus } from '../shared/pending.ts'
import { absoluteTime, formatBps, relativeTime } from '../shared/format.ts'
import { displayName, isSessionsPost, isViewersPost, safeAvatarUrl } from '../shared/identity.ts'
import { ReaderChange } from '../shared/reader-change.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController } from '../shared/strings-controller.ts'
import type { CommentsStrings, RoomStrings } from '../shared/strings/index.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import '../record-chip/record-chip.ts'
import { styles } from './take-card.styles.ts'

type Mode = 'view' | 'edit' | 'delete' | 'report' | 'reported'
let seq = 0

/**
 * @summary One post: author, stance chip, receipt, body, and its actions (Agree, Reply, Tail, Edit, Delete, Report).
 *
 * - The stance chip is drawn from `post.stance` only, never computed locally (§4.5.2).
 * - The receipt shows once the market settled: right (with the odds beaten), wrong, void; a CLOB take
 *   past its close reads as awaiting settlement, never as a confident "still open" (§3.2).
 * - Agree is optimistic and rolls back when the write fails. Signed out, Agree, Reply and the composer
 *   ask the page to sign in (`vk-require-sign-in`) instead. On the signed-in account's own post (any of its
 *   wallets) Agree is not offered, as the service refuses it: its agrees show as a count.
 * - Edit and Delete only when `viewer` is set and the post is the viewer's own (§4.4.4).
 * - Report only on another's post, signed in, with moderation on.
 * - Tail only when the page's venuekit has a checkout adapter or `onTail` is set, on a take about a market.
 * - Name and avatar come from the batched profiles store; a rank is shown only with its population
 *   (`<vk-record-chip>`, when the post carries `record`).
 * - `read-only` leaves every write control out of the DOM.
 * - Keyboard: Escape cancels an open reply, edit or report form and the delete confirmation; closing one
 *   (Cancel, Escape, or a finished send) puts focus back on the control that opened it. A report sent puts
 *   focus on 'Reported. Thanks.'; a post deleted, on the next post's row in a list (else the previous one's),
 *   or on the line saying it is deleted. Send buttons stay focusable while sending (aria-disabled).
 * - A failed reply, edit or report keeps its text and says why in a string of the `comments` slice chosen
 *   by the error's code: a reply into a room the reader left reads 'you left this room — rejoin to post',
 *   a non-member's 'join this room to post in it' (§7). The service's own message is only in `vk-error`.
 *   Beside those two, 'Join and post' ('Rejoin and post') joins the post's room and sends the reply.
 *   A failed Agree or Delete is looked up the same way ('It isn't there anymore.' for a post gone meanwhile),
 *   else 'Couldn't save your agree.' / 'Couldn't delete. Try again.'.
 * - A sign-out or another sign-in closes an open edit, report or reply form and drops the failure lines:
 *   what one reader did is never shown to the next.
 *
 * @event vk-require-sign-in - A signed-out reader pressed Agree or Reply (`detail.action`).
 * @event vk-tail - Tail was pressed. Call `preventDefault()` to stop the default (opening checkout through the adapter).
 * @event vk-post-created - A reply was written here.
 * @event vk-open-market - The market line was pressed (`show-market`).
 * @event vk-error - A write failed (agree, reply, edit, delete, report); `detail.error` is the failure.
 *
 * @csspart card - The whole card.
 * @csspart header - Avatar, author, record, time.
 * @csspart avatar - The avatar image or initial.
 * @csspart author - The author's name.
 * @csspart time - The time it was written.
 * @csspart market - The market line (with `show-market`).
 * @csspart series-label - "From another round" on a recurring market's series rows.
 * @csspart stance - The stance chip.
 * @csspart receipt - The receipt chip.
 * @csspart body - The post text.
 * @csspart actions - The row of action buttons.
 * @csspart agree - The Agree button (or its count: read-only, or on the reader's own post).
 * @csspart reply - The Reply button.
 * @csspart tail - The Tail button.
 * @csspart edit - The Edit button.
 * @csspart delete - The Delete button.
 * @csspart report - The Report button.
 * @csspart composer - The reply, edit and report forms (and the delete confirmation).
 * @csspart input - A form's textarea.
 * @csspart submit - A form's send button (Reply, Save, Send report; Delete in the delete confirmation).
 * @csspart cancel - A form's Cancel button (and the delete confirmation's).
 * @csspart failure - A form's failure line.
 * @csspart recover - Beside a room's refusal of a reply: 'Join and post' / 'Rejoin and post'.
 * @csspart notice - Status lines (hidden notice, reported, deleted, failures).
 *
 * @cssproperty --vk-color-yes - Stance chip of the first outcome, right receipts.
 * @cssproperty --vk-color-no - Stance chip of other outcomes, wrong receipts.
 * @cssproperty --vk-color-highlight - Background of a highlighted card.
 * @cssproperty --vk-color-surface - Chip backgrounds.
 * @cssproperty --vk-color-muted - Secondary text.
 * @cssproperty --vk-space-2 - Gaps.
 * @cssproperty --vk-radius - Card corners.
 */
export class VkTakeCard extends VkElement {
  static override styles = styles
  static override properties = {
    post: { attribute: false },
    labels: { attribute: false },
    marketTitle: { attribute: 'market-title' },
    viewer: {},
    readOnly: { type: Boolean, attribute: 'read-only' },
    showMarket: { type: Boolean, attribute: 'show-market' },
    highlight: { type: Boolean, reflect: true },
    onTail: { attribute: false },
    checkoutTail: { attribute: false },
    strings: { attribute: false },
    roomStrings: { attribute: false },
    locale: {},
    mode: { state: true },
    replying: { state: true },
    agreeShown: { state: true },
    failure: { state: true },
    gone: { state: true },
    deleting: { state: true },
  }

  /** The post to show. */
  declare post: Post | null | undefined
  /** Outcome labels of the post's market (a page's `labels[marketId]`); read from the market when absent. */
  declare labels: OutcomeLabel[] | null | undefined
  /** Title of the post's market, shown with `show-market`. */
  declare marketTitle: string | null | undefined
  /** The signed-in wallet, passed by the venue: Edit and Delete appear only on its own posts. */
  declare viewer: string | null | undefined
  /** No write control in the DOM (Agree shows as a count). */
  declare readOnly: boolean
  /** Shows the market the post is about (feeds mixing markets). */
  declare showMarket: boolean
  /** Highlights the card (e.g. the focused post of a thread). */
  declare highlight: boolean
  /** Tail handler: when set, Tail appears and calls it instead of the checkout adapter. */
  declare onTail: ((post: Post) => void) | null | undefined
  /**
   * Whether Tail may come from the page's checkout adapter when no `onTail` is set (default true).
   * Containers whose rows take Tail only from a handler (the room feed, §4.4 rule 5) turn it off.
   */
  declare checkoutTail: boolean
  /** Overrides of the `comments` strings slice (wins over `<vk-strings-provider>`). */
  declare strings: Partial<CommentsStrings> | null | undefined
  /** Overrides of the `room` strings slice, for the record chip. */
  declare roomStrings: Partial<RoomStrings> | null | undefined
  /** Locale for the built-in strings, numbers and times. */
  declare locale: string | undefined
  declare private mode: Mode
  declare private replying: boolean
  /** Agree state shown while a write is in flight, before the post catches up. */
  declare private agreeShown: { agreed: boolean; agrees: number } | null
  /** A failed agree or delete: its error (its sentence is looked up by code when shown) and the fallback sentence. */
  declare private failure: { key: keyof CommentsStrings; error: unknown } | null
  declare private gone: boolean
  /** The delete is on its way: its confirmation ignores another press (one request, one outcome). */
  declare private deleting: boolean
  /** An Agree is on its way: another press waits for it (the service applies presses in order, and so does the card). */
  #agreeing = false

  readonly #uid = `c${++seq}`
  readonly #vk = new VenuekitController(this)
  readonly #str = new StringsController(this, 'comments')
  readonly #session = new StoreBinding(this, () => this.#vk.value?.$session)
  /** Another reader (sign-out, sign-in): the previous one's failures and open forms go (see `forgetReader`). */
  readonly #reader = new ReaderChange(this, () => this.#session.value, () => this.#forgetReader())
  /** Tail through the page's checkout adapter (a market that is tradeable now). */
  readonly #tailing = new StoreBinding(this, () => (this.onTail || !this.checkoutTail ? null : this.#vk.value?.tail()))
  readonly #profile = new StoreBinding(this, () => (this.post ? this.#vk.value?.profile(this.post.author) : null))
  readonly #market = new StoreBinding(this, () => {
    const p = this.post
    return p?.subjectType === 'event' && (p.stance || (this.showMarket && !this.marketTitle)) ? this.#vk.value?.market(p.subjectRef) : null
  })
  readonly #replyForm = new Composer(this, (body) => this.#sendReply(body), () => this.#close('reply'))
  readonly #editForm = new Composer(this, (body) => this.#sendEdit(body), () => this.#close('edit'))
  readonly #reportForm = new Composer(this, (body) => this.#sendReport(body), () => this.#close('report'), 500)

  constructor() {
    super()
    this.readOnly = false
    this.showMarket = false
    this.highlight = false
    this.checkoutTail = true
    this.mode = 'view'
    this.replying = false
    this.agreeShown = null
    this.failure = null
    this.gone = false
    this.deleting = false
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('post')) {
      // The post caught up (a store's optimistic value, a refresh, or a rollback): show it as it is.
      this.agreeShown = null
      if (changed.get('post')?.id !== this.post?.id) {
        this.mode = 'view'
        this.replying = false
        this.gone = false
        this.failure = null
      }
    }
  }

  get #actions() {
    return this.#vk.value?.postActions().get()
  }

  #signedIn(action: string): boolean {
    if (this.#session.value) return true
    this.emit('vk-require-sign-in', { action })
    return false
  }

  /** The previous reader's failure lines, their open edit or report form and 'Reported. Thanks.' are not the next one's. */
  #forgetReader() {
    this.mode = 'view'
    this.replying = false
    this.failure = null
    // The previous reader's Agree (shown before the service answered) is not the next one's.
    this.agreeShown = null
    for (const form of [this.#replyForm, this.#editForm, this.#reportForm]) form.clearFailure()
  }

  #fail(key: keyof CommentsStrings, error: unknown) {
    this.failure = { key, error }
    this.emit('vk-error', { error })
  }

  async #agree() {
    const p = this.post
    const actions = this.#actions
    if (!p || !actions || this.#agreeing || !this.#signedIn('agree') || isSessionsPost(p.author, this.#session.value)) return
    const now = this.agreeShown ?? { agreed: !!p.agreed, agrees: p.agrees }
    const active = !now.agreed
    this.failure = null
    this.agreeShown = { agreed: active, agrees: Math.max(0, now.agrees + (active ? 1 : -1)) }
    // Still this reader, and still this post (the card can be handed another post meanwhile).
    const mine = this.#reader.mine(() => this.post?.id === p.id)
    this.#agreeing = true
    try {
      const r = await actions.react(p, active)
      if (mine()) this.agreeShown = { agreed: r.agreed, agrees: r.agrees }
    } catch (error) {
      // The store rolled back its copies; roll back ours.
      if (mine()) {
        this.agreeShown = null
        this.#fail('agreeFailed', error)
      }
    } finally {
      this.#agreeing = false
    }
  }

  #openReply() {
    if (!this.#signedIn('reply')) return
    this.replying = !this.replying
    this.updateComplete.then(() => this.renderRoot.querySelector<HTMLTextAreaElement>(`#${this.#uid}-reply`)?.focus())
  }

  async #sendReply(body: string) {
    const p = this.post
    const actions = this.#actions
    if (!p || !actions || !this.#signedIn('reply')) return false
    // One level of replies: a reply to a reply joins its parent's thread. It lands in the market's thread.
    const post = await actions.create(p.subjectType, p.subjectRef, body, { parentId: p.parentId ?? p.id })
    this.#close('reply')
    if (post) this.emit('vk-post-created', { post })
  }

  async #sendEdit(body: string) {
    const p = this.post
    if (!p || !this.#actions) return false
    const edited = await this.#actions.edit(p.id, body)
    // Handed another post meanwhile: that one's view stays as it is.
    if (this.post?.id !== p.id) return
    this.#close('edit')
    if (edited && typeof edited === 'object' && 'body' in edited) this.post = { ...p, ...(edited as Post) }
  }

  async #deletePost() {
    const p = this.post
    if (!p || !this.#actions || this.deleting) return
    this.failure = null
    const mine = this.#reader.mine(() => this.post?.id === p.id)
    this.deleting = true
    try {
      await this.#actions.remove(p.id)
      if (this.post?.id !== p.id) return
      const refocus = mayMoveFocus(this)
      const next = this.#neighbour()
      this.gone = true
      // Focus was on the confirmation, now gone: the next post (or the line saying this one is deleted).
      if (refocus) this.updateComplete.then(() => (next ?? this.renderRoot.querySelector<HTMLElement>(`#${this.#uid}-deleted`))?.focus())
    } catch (error) {
      if (mine()) this.#fail('deleteFailed', error)
    } finally {
      this.deleting = false
    }
  }

  async #sendReport(reason: string) {
    const p = this.post
    if (!p || !this.#actions) return false
    await this.#actions.report(p.id, reason)
    this.mode = 'reported'
    this.#focusAfterUpdate(`#${this.#uid}-reported`)
  }

  /**
   * Closes the open reply, edit or report form or the delete confirmation (Cancel, Escape, or a finished
   * send) and puts focus back on the control that opened it, when focus was on the form.
   */
  #close(opener: 'reply' | 'edit' | 'delete' | 'report') {
    if (opener === 'reply') this.replying = false
    else this.mode = 'view'
    this.#focusAfterUpdate(`[part~="${opener}"]`)
  }

  /** After this update, focuses `selector` in the card if focus was in the card (or lost) and still is. */
  #focusAfterUpdate(selector: string) {
    if (!mayMoveFocus(this)) return
    this.updateComplete.then(() => mayMoveFocus(this) && this.renderRoot.querySelector<HTMLElement>(selector)?.focus())
  }

  /**
   * In a list (the card in an `<li>` row), where focus goes when this post is deleted: the next post's row,
   * else the previous one's, else the row of the post this replied to (made focusable with tabindex -1).
   */
  #neighbour(): HTMLElement | null {
    const row = this.closest('li')
    if (!row) return null
    const post = (from: Element, next: boolean) => {
      let n: Element | null = from
      do n = next ? n.nextElementSibling : n.previousElementSibling
      while (n && !n.querySelector('vk-take-card'))
      return n
    }
    const target = (post(row, true) ?? post(row, false) ?? row.parentElement?.closest('li') ?? null) as HTMLElement | null
    if (target && !target.hasAttribute('tabindex')) target.tabIndex = -1
    return target
  }

  #tail() {
    const p = this.post
    if (!p?.stance) return
    const go = this.emit('vk-tail', { post: p, marketId: p.subjectRef, side: p.stance.side })
    if (this.onTail) this.onTail(p)
    else if (go) this.#tailing.value?.tail(p)
  }

  #setMode(mode: Mode) {
    this.mode = mode
    this.failure = null
    if (mode === 'edit') this.#editForm.reset(this.post?.body ?? '')
    if (mode === 'report') this.#reportForm.reset()
    this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#${this.#uid}-${mode}`)?.focus())
  }

  #outcomes(): OutcomeLabel[] | undefined {
    return this.labels ?? this.#market.value?.market?.outcomes
  }

  /** The side's label, or its number ('#2') while the market's labels are unknown. */
  #sideOf(side: number): string {
    return sideLabel(this.#outcomes(), side) ?? this.#str.t('sideNumber', { n: side + 1 })
  }

  #stanceChip(p: Post) {
    const s = p.stance
    if (!s) return nothing
    const side = this.#sideOf(s.side)
    const decimals = this.#market.value?.market?.decimals
    let size: string | null
    try {
      size = formatAmount(s.size, decimals, { locale: this.#str.locale })
    } catch {
      size = null
    }
    const price = s.priceBps == null ? null : formatBps(s.priceBps, this.#str.locale)
    const text =
      price == null ? this.#str.t('stanceSideOnly', { side }) : size == null ? this.#str.t('stanceSideAt', { side, price }) : this.#str.t('stance', { side, size, price })
    const label = this.#str.t('stanceLabel', { side })
    return html`<span part="stance" class="chip side-${s.side === 0 ? 'first' : 'other'}" title=${label}
      ><span class="vk-visually-hidden">${this.#str.t('stanceSpoken', { label })} </span>${text}</span
    >`
  }

  #receipt(p: Post) {
    const m = this.#market.value?.market
    if (!p.stance || !m) return nothing
    const r = takeReceipt(p, m.result ? { [m.id.toLowerCase()]: m.result } : {}, { clob: m.clob })
    if (!r) return nothing
    let text: string
    if (r.state === 'right')
      text = r.oddsBeatenBps == null ? this.#str.t('receiptRight') : this.#str.t('receiptRightOdds', { odds: formatBps(r.oddsBeatenBps, this.#str.locale) })
    else if (r.state === 'wrong') text = this.#str.t('receiptWrong')
    else if (r.state === 'void') text = this.#str.t('receiptVoid')
    // A CLOB market has no results: past its close it is awaiting settlement, never a confident "open".
    else if (r.clob && (!m.closesAt || Date.parse(m.closesAt) <= Date.now())) text = this.#str.t('receiptPending')
    else return nothing
    return html`<span part="receipt" class="chip receipt-${r.state === 'open' ? 'pending' : r.state}">${text}</span>`
  }

  #avatar(name: string) {
    const url = safeAvatarUrl(this.#profile.value?.profile?.avatarUrl)
    return url
      ? html`<img part="avatar" class="avatar" src=${url} alt="" width="28" height="28" loading="lazy" referrerpolicy="no-referrer" />`
      : html`<span part="avatar" class="avatar initial" aria-hidden="true">${[...name.replace(/^0x/i, '')][0]?.toUpperCase() ?? '?'}</span>`
  }

  #actionsRow(p: Post) {
    const t = (k: keyof CommentsStrings, params?: Record<string, string | number>) => this.#str.t(k, params)
    const agree = this.agreeShown ?? { agreed: !!p.agreed, agrees: p.agrees }
    const session = this.#session.value
    const mine = isViewersPost(p.author, this.viewer, session)
    const tailable = !!p.stance && p.subjectType === 'event' && (!!this.onTail || !!this.#tailing.value?.canTail(p))
    if (this.readOnly) {
      return html`<div part="actions" class="actions">
        ${agree.agrees ? html`<span part="agree" class="count">${t('agreeCount', { count: agree.agrees })}</span>` : nothing}
        ${tailable ? this.#tailButton(p) : nothing}
      </div>`
    }
    // The signed-in account wrote it (any of its wallets): the service refuses agreeing with (and reporting)
    // one's own post, so neither is offered; its agrees show as a count.
    const own = isSessionsPost(p.author, session)
    const reportable = !!session && !!this.#vk.value?.moderation && !mine && !own && this.mode !== 'reported'
    return html`<div part="actions" class="actions">
      ${own
        ? agree.agrees
          ? html`<span part="agree" class="count">${t('agreeCount', { count: agree.agrees })}</span>`
          : nothing
        : html`<button type="button" part="agree" class="action" aria-pressed=${agree.agreed ? 'true' : 'false'} @click=${this.#agree}>
            ${t('agreeCount', { count: agree.agrees })}
          </button>`}
      ${p.parentId
        ? nothing
        : html`<button type="button" part="reply" class="action" aria-expanded=${this.replying ? 'true' : 'false'} @click=${this.#openReply}>
            ${p.replies ? t('replyWithCount', { reply: t('reply'), replies: t('replies', { count: p.replies }) }) : t('reply')}
          </button>`}
      ${tailable ? this.#tailButton(p) : nothing}
      ${mine
        ? html`<button type="button" part="edit" class="action" @click=${() => this.#setMode('edit')}>${t('edit')}</button>
            <button type="button" part="delete" class="action" @click=${() => this.#setMode('delete')}>${t('delete')}</button>`
        : nothing}
      ${reportable ? html`<button type="button" part="report" class="action" @click=${() => this.#setMode('report')}>${t('report')}</button>` : nothing}
    </div>`
  }

  #tailButton(p: Post) {
    const side = this.#sideOf(p.stance!.side)
    return html`<button type="button" part="tail" class="action" @click=${this.#tail}>
      ${this.#str.t('tail')}<span class="vk-visually-hidden"> ${this.#str.t('tailLabel', { side })}</span>
    </button>`
  }

  #modeContent() {
    const t = (k: keyof CommentsStrings) => this.#str.t(k)
    if (this.readOnly) return nothing
    switch (this.mode) {
      case 'edit':
        return this.#editForm.render(
          { label: t('editLabel'), placeholder: t('composerPlaceholder'), submit: t('save'), busy: t('posting'), failed: (e) => failureText(this.#str, e, 'editFailed'), cancel: t('cancel') },
          { id: `${this.#uid}-edit`, rows: 3 },
        )
      case 'delete':
        return html`<div
          part="composer"
          class="confirm"
          role="group"
          aria-labelledby="${this.#uid}-confirm"
          @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && (e.preventDefault(), e.stopPropagation(), this.#close('delete'))}
        >
          <span id="${this.#uid}-confirm">${t('confirmDelete')}</span>
          <button type="button" part="cancel" class="vk-button" id="${this.#uid}-delete" @click=${() => this.#close('delete')}>${t('cancel')}</button>
          <button type="button" part="submit" class="vk-button danger" ${busy(this.deleting)} @click=${this.#deletePost}>${t('delete')}</button>
        </div>`
      case 'report':
        return this.#reportForm.render(
          { label: t('reportReason'), placeholder: t('reportReason'), submit: t('reportSend'), busy: t('posting'), failed: (e) => failureText(this.#str, e, 'reportFailed'), cancel: t('cancel') },
          { id: `${this.#uid}-report`, rows: 2 },
        )
      case 'reported':
        return html`<p part="notice" id="${this.#uid}-reported" role="status" tabindex="-1">${t('reported')}</p>`
      default:
        return nothing
    }
  }

  override render() {
    const p = this.post
    if (!p) return nothing
    if (this.gone) return html`<p part="notice" id="${this.#uid}-deleted" role="status" tabindex="-1">${this.#str.t('deleted')}</p>`
    const name = displayName(this.#profile.value?.profile, p.author)
    const title = this.marketTitle ?? this.#market.value?.market?.title
    const locale = this.#str.locale
    return html`<article part="card" class="card" aria-labelledby="${this.#uid}-author">
      <header part="header" class="header">
        ${this.#avatar(name)}
        <span part="author" class="author" id="${this.#uid}-author" title=${p.author}>${name}</span>
        ${'record' in p ? html`<vk-record-chip .record=${p.record ?? null} .strings=${this.roomStrings} .locale=${this.locale}></vk-record-chip>` : nothing}
        <time part="time" class="time" datetime=${p.createdAt} title=${absoluteTime(p.createdAt, locale)}>${relativeTime(p.createdAt, locale)}</time>
        ${p.editedAt ? html`<span class="muted">${this.#str.t('editedMark', { edited: this.#str.t('edited') })}</span>` : nothing}
      </header>
      ${this.showMarket && title && p.subjectType === 'event'
        ? html`<p class="market-line">${marketLink(this, p.subjectRef, title)}</p>`
        : nothing}
      ${p.fromSeries || p.stance || p.hidden
        ? html`<div class="chips">
            ${p.fromSeries ? html`<span part="series-label" class="chip series">${this.#str.t('fromSeries')}</span>` : nothing}
            ${this.#stanceChip(p)} ${this.#receipt(p)}
            ${p.hidden ? html`<span part="notice" class="chip muted">${this.#str.t('hiddenNotice')}</span>` : nothing}
          </div>`
        : nothing}
      ${this.mode === 'edit' && !this.readOnly ? nothing : html`<p part="body" class="body" dir="auto">${p.body}</p>`}
      ${this.#actionsRow(p)}
      ${this.failure ? html`<p part="notice" class="failure" role="alert">${failureText(this.#str, this.failure.error, this.failure.key)}</p>` : nothing}
      ${this.#modeContent()}
      ${this.replying && !this.readOnly
        ? this.#replyForm.render(
            {
              label: this.#str.t('replyTo', { name }),
              placeholder: this.#str.t('replyPlaceholder'),
              submit: this.#str.t('reply'),
              busy: this.#str.t('posting'),
              failed: (e) => writeFailureText(this.#str, e, 'postFailed'),
              // A reply goes into its post's room: a room's refusal offers to join it, then replies.
              recover: joinOffer(this.#str, p.roomId, (room) => this.#vk.value!.roomMembership(room).get().join()),
              cancel: this.#str.t('cancel'),
            },
            { id: `${this.#uid}-reply` },
          )
        : nothing}
    </article>`
  }
}
