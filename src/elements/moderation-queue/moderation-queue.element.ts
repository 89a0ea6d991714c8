import { html, nothing, type PropertyValues } from 'lit'
import type { ModQueueItem, ModState } from '../../contract/types.ts'
import { withModeration } from '../../stores/moderation.ts'
import { failureText } from '../shared/failures.ts'
import { absoluteTime } from '../shared/format.ts'
import { displayName } from '../shared/identity.ts'
import { busy, focusLost } from '../shared/pending.ts'
import { emptyState, errorState, loadingState, pagedTail } from '../shared/states.ts'
import { ReaderChange } from '../shared/reader-change.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { tabList } from '../shared/tabs.ts'
import { StringsController } from '../shared/strings-controller.ts'
import { LOCALES, type ModerationStrings } from '../shared/strings/index.ts'
import { moderationEn } from '../shared/strings/moderation.en.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import { styles } from './moderation-queue.styles.ts'

type Action = 'keep' | 'hide' | 'ban' | 'unban'
// English's `moderation` slice ships with this element, not with every element (shared/strings/index.ts).
LOCALES.en.moderation ??= moderationEn

/** The row's actions; the ban slot is Unban while the author is banned in the queue's scope. */
const ACTIONS: Action[] = ['keep', 'hide', 'ban']
const TABS: ModState[] = ['open', 'actioned']

/** Where one row's last action stands: pending, then its result. */
interface RowStatus {
  action: Action
  phase: 'pending' | 'done' | 'failed'
  /** A failure's error (its sentence is looked up by code when shown). */
  error?: unknown
}

/**
 * @summary The moderation queue of a venue, or without `venue-id` the operator's platform-wide queue.
 *
 * Open and Actioned tabs, Load more, and the actions Keep, Hide, and Ban or, once the author is banned, Unban (both act on the
 * post's author). Ban asks first, naming the author and the scope (this venue, or with no `venue-id` every
 * venue); Escape or Cancel steps back. No action is optimistic: the row shows it pending, then its result,
 * and the queue is read again. Posts the report threshold already hid are marked; an Actioned row says
 * what was decided ('Reviewed: kept') instead of 'pending review'. Signed out it asks to sign in (one Sign
 * in button). A signed-in reader who cannot moderate sees "you can't moderate this venue" — its own state,
 * never an empty queue (§4.4 rule 6). Neither state shows the Open/Actioned tabs.
 * A failed action or page says why in a string of the `moderation` slice chosen by the error's code
 * (`failGeneric` when it has none); a failed later page keeps the rows above its error line and Retry.
 *
 * @event vk-open-post - The moderator opened a post (spec `onOpenPost`).
 * @event vk-moderated - An action completed.
 * @event vk-sign-in - A signed-out reader asked to sign in.
 * @event vk-error - An action failed; `detail.error` is the failure.
 *
 * @csspart queue - The whole queue.
 * @csspart header - Title.
 * @csspart tabs - The tab list.
 * @csspart tab - One tab.
 * @csspart list - The rows.
 * @csspart row - One queued post.
 * @csspart meta - A row's author and time.
 * @csspart body - The post's text.
 * @csspart flags - Report count and hidden markers.
 * @csspart threshold-hidden - The 'hidden by reports' marker.
 * @csspart reasons - A row's report reasons, each quoted (`reasonQuote`).
 * @csspart author-banned - The author is banned in the queue's scope (the row offers Unban, not Ban).
 * @csspart actions - The action buttons of a row.
 * @csspart action - One action button.
 * @csspart row-status - A row's pending or result line.
 * @csspart outcome - On an Actioned row, what was decided ('Reviewed: kept').
 * @csspart confirm - A row's Ban confirmation (names the author and the scope).
 * @csspart confirm-cancel - The confirmation's Cancel button.
 * @csspart confirm-ban - The confirmation's Ban button.
 * @csspart sign-in - Signed out: 'Sign in to moderate.' and its Sign in button.
 * @csspart sign-in-button - That Sign in button.
 * @csspart status - The live line announcing each result.
 * @csspart load-more - The Load more button.
 * @csspart forbidden - The reader cannot moderate.
 * @csspart loading - Loading skeleton.
 * @csspart empty - Nothing in this tab.
 * @csspart error - Failure and its Retry button (also under the rows when a later page failed).
 * @csspart retry - The Retry button.
 *
 * @cssproperty --vk-color-border - Row separators and tab underline.
 * @cssproperty --vk-color-accent - Selected tab.
 * @cssproperty --vk-color-danger - Hidden markers and failures.
 */
export class VkModerationQueue extends VkElement {
  static override styles = styles
  static override properties = {
    venueId: { attribute: 'venue-id' },
    strings: { attribute: false },
    locale: {},
    tab: { state: true },
    status: { state: true },
    announce: { state: true },
    confirming: { state: true },
  }

  /** The venue to moderate (its owner, or an operator). Absent: the platform-wide queue (operators). */
  declare venueId: string | undefined
  /** Overrides of the `moderation` strings slice. */
  declare strings: Partial<ModerationStrings> | null | undefined
  /** Locale for the built-in strings, numbers and times. */
  declare locale: string | undefined
  declare private tab: ModState
  declare private status: Record<string, RowStatus>
  declare private announce: string
  /** The row whose Ban is being confirmed, and for which reader (another reader never sees it). */
  declare private confirming: { postId: string; reader: string } | null
  /**
   * After an action: the queue is read again, and a decided row may leave the tab, taking the focused control
   * out of the DOM. Where focus goes then (only if it was lost): the row's control for the next action (Unban
   * after Ban, and back), else the row now at the same position (or the last one), else the tab.
   */
  #refocus: { postId: string; action: Action; index: number; items: unknown } | null = null

  readonly #vk = new VenuekitController(this)
  readonly #str = new StringsController(this, 'moderation')
  readonly #session = new StoreBinding(this, () => this.#vk.value?.$session)
  /** Another reader (sign-out, sign-in): the previous moderator's row outcomes ("Couldn't hide …") go. */
  readonly #reader = new ReaderChange(this, () => this.#session.value, () => {
    this.status = {}
    this.announce = ''
    this.#refocus = null
  })
  readonly #queue = new StoreBinding(this, () =>
    this.#session.value && this.#vk.value ? withModeration(this.#vk.value).moderationQueue({ venueId: this.venueId || undefined, state: this.tab }) : null,
  )
  readonly #mod = new StoreBinding(this, () => this.#vk.value && withModeration(this.#vk.value).moderate({ venueId: this.venueId || undefined }))
  readonly #names = new StoreBinding(this, () => {
    const wallets = this.#queue.value?.items.map((i) => i.post.author) ?? []
    return wallets.length ? this.#vk.value?.profiles(wallets) : null
  })

  constructor() {
    super()
    this.tab = 'open'
    this.status = {}
    this.announce = ''
    this.confirming = null
  }

  #rowEl(postId: string) {
    return [...this.renderRoot.querySelectorAll<HTMLElement>('[part="row"]')].find((r) => r.dataset.postId === postId) ?? null
  }

  #focusInRow(postId: string, selector: string) {
    void this.updateComplete.then(() => this.#rowEl(postId)?.querySelector<HTMLElement>(selector)?.focus())
  }

  /** Ban asks first (one click in the platform queue is a global ban); focus goes to Cancel. */
  #askBan(item: ModQueueItem) {
    this.confirming = { postId: item.post.id, reader: this.#session.value?.accountId ?? '' }
    this.#focusInRow(item.post.id, '[data-confirm="cancel"]')
  }

  #cancelBan(item: ModQueueItem) {
    this.confirming = null
    this.#focusInRow(item.post.id, 'button[data-action="ban"]')
  }

  #confirmBan(item: ModQueueItem) {
    this.confirming = null
    // The confirmation (and its focused button) goes: focus waits on the row's Ban, busy while it runs.
    this.#focusInRow(item.post.id, 'button[data-action="ban"]')
    void this.#act(item, 'ban')
  }

  #isConfirming(postId: string) {
    const c = this.confirming
    return !!c && c.postId === postId && c.reader === (this.#session.value?.accountId ?? '')
  }

  #banConfirmation(item: ModQueueItem, name: string) {
    const s = this.#str
    const q = `confirm-${item.post.id}`
    const esc = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return
      e.preventDefault()
      e.stopPropagation()
      this.#cancelBan(item)
    }
    return html`<div part="confirm" class="confirm" role="group" aria-labelledby=${q} @keydown=${esc}>
      <p id=${q}>${s.t(this.venueId ? 'confirmBan' : 'confirmBanPlatform', { name })}</p>
      <div class="confirm-buttons">
        <button type="button" part="confirm-cancel" class="vk-button" data-confirm="cancel" @click=${() => this.#cancelBan(item)}>${s.t('cancel')}</button>
        <button type="button" part="confirm-ban" class="vk-button danger" data-confirm="ban" @click=${() => this.#confirmBan(item)}>${s.t('banConfirm', { name })}</button>
      </div>
    </div>`
  }

  /** What an Actioned row's decision was ('Reviewed: kept'). */
  #outcome(item: ModQueueItem) {
    const s = this.#str
    const a = item.lastAction?.action
    const key = a ? (`outcome${a[0].toUpperCase()}${a.slice(1)}` as keyof ModerationStrings) : null
    const text = key && key in s.all ? s.t('reviewed', { outcome: s.t(key) }) : s.t('reviewedNoAction')
    return html`<li part="outcome">${text}</li>`
  }

  async #act(item: ModQueueItem, action: Action) {
    const m = this.#mod.value
    if (!m) return
    const key = item.post.id
    const s = this.#str
    const mine = this.#reader.mine()
    this.#refocus = null
    this.status = { ...this.status, [key]: { action, phase: 'pending' } }
    // The line empties while the action runs, so a result worded like the last one ('Keep: done' twice) is said again.
    this.announce = ''
    try {
      if (action === 'ban' || action === 'unban') await m[action](item.post.author, item.post.id)
      else await m[action](item.post.id)
      // A result that comes back after a sign-out or another sign-in is the previous moderator's: not shown.
      if (!mine()) return
      this.status = { ...this.status, [key]: { action, phase: 'done' } }
      this.announce = s.t('done', { action: s.t(action) })
      const items = this.#queue.value?.items ?? []
      this.#refocus = { postId: key, action, index: Math.max(0, items.findIndex((i) => i.post.id === key)), items }
      this.emit('vk-moderated', action === 'ban' || action === 'unban' ? { action, wallet: item.post.author } : { action, postId: item.post.id })
    } catch (error) {
      if (!mine()) return
      this.status = { ...this.status, [key]: { action, phase: 'failed', error } }
      this.announce = s.t('failed', { action: s.t(action), message: failureText(s, error, 'failGeneric') })
      this.emit('vk-error', { error })
    }
  }

  #rowStatus(st: RowStatus | undefined) {
    if (!st) return nothing
    const s = this.#str
    if (st.phase === 'pending') return html`<p part="row-status" class="pending" aria-busy="true">${s.t('pending')}</p>`
    if (st.phase === 'done') return html`<p part="row-status">${s.t('done', { action: s.t(st.action) })}</p>`
    return html`<p part="row-status" class="failed">${s.t('failed', { action: s.t(st.action), message: failureText(s, st.error, 'failGeneric') })}</p>`
  }

  /**
   * One action button. The ban slot is one button whether it says Ban or Unban, so focus stays on it when the
   * queue, read again, turns one into the other. Ban opens its confirmation (`expanded`) instead of acting.
   */
  #actionButton(item: ModQueueItem, a: Action, pending: boolean, click: () => void = () => void this.#act(item, a), expanded?: boolean) {
    return html`<button
      type="button"
      part="action"
      class="vk-button"
      data-action=${a}
      aria-expanded=${expanded == null ? nothing : expanded ? 'true' : 'false'}
      ${busy(pending)}
      @click=${click}
    >
      ${this.#str.t(a)}
    </button>`
  }

  #row(item: ModQueueItem) {
    const s = this.#str
    const p = item.post
    const st = this.status[p.id]
    const pending = st?.phase === 'pending'
    const name = displayName(this.#names.value?.profiles[p.author.toLowerCase()], p.author)
    const actioned = item.state === 'actioned'
    const confirming = this.#isConfirming(p.id)
    return html`<li part="row" id=${`vk-post-${p.id}`} data-post-id=${p.id} aria-busy=${pending ? 'true' : 'false'}>
      <div part="meta" class="meta">
        <span class="author">${name}</span>
        <time datetime=${p.createdAt}>${absoluteTime(p.createdAt, s.locale)}</time>
      </div>
      <p part="body" dir="auto">${p.body}</p>
      <ul part="flags" aria-label=${s.t('flags')}>
        <li>${s.t('reports', { count: item.reports })}</li>
        ${actioned ? this.#outcome(item) : nothing}
        ${item.thresholdHidden
          ? html`<li part="threshold-hidden" class="warn">${s.t(actioned ? 'thresholdHiddenReviewed' : 'thresholdHidden')}</li>`
          : nothing}
        ${item.postState === 'removed' ? html`<li class="warn">${s.t('removed')}</li>` : nothing}
        ${item.hiddenHere && this.venueId ? html`<li class="warn">${s.t('hiddenHere')}</li>` : nothing}
        ${item.authorBanned ? html`<li part="author-banned" class="warn">${s.t(this.venueId ? 'authorBanned' : 'authorBannedPlatform')}</li>` : nothing}
        ${item.lastAction && !actioned
          ? html`<li>${s.t('lastAction', { action: s.t(item.lastAction.action as Action) || item.lastAction.action })}</li>`
          : nothing}
      </ul>
      ${item.reasons.length ? html`<ul part="reasons" class="reasons" aria-label=${s.t('reasons')}>${item.reasons.map((r) => html`<li>${s.t('reasonQuote', { reason: r })}</li>`)}</ul>` : nothing}
      <div part="actions" role="group" aria-label=${s.t('actionsFor', { name })}>
        <button type="button" part="action" class="vk-button" @click=${() => this.emit('vk-open-post', { postId: p.id, subjectType: p.subjectType, subjectRef: p.subjectRef })}>
          ${s.t('openPost')}
        </button>
        ${ACTIONS.map((a) =>
          a !== 'ban'
            ? this.#actionButton(item, a, pending)
            : item.authorBanned
              ? this.#actionButton(item, 'unban', pending)
              : this.#actionButton(item, 'ban', pending, () => (confirming ? this.#cancelBan(item) : this.#askBan(item)), confirming),
        )}
      </div>
      ${confirming && !pending ? this.#banConfirmation(item, name) : nothing}
      ${this.#rowStatus(st)}
    </li>`
  }

  protected override updated(changed: PropertyValues<this>) {
    super.updated(changed)
    const r = this.#refocus
    const items = this.#queue.value?.items
    // Once, on the first render of the queue as read again after the action.
    if (!r || !items || items === r.items) return
    this.#refocus = null
    if (!focusLost()) return
    const row = this.#rowEl(r.postId)
    const swap = r.action === 'ban' ? 'unban' : r.action === 'unban' ? 'ban' : r.action
    const rows = [...this.renderRoot.querySelectorAll<HTMLElement>('[part="row"]')]
    const to =
      row?.querySelector<HTMLElement>(`button[data-action="${swap}"]`) ??
      (rows[r.index] ?? rows[rows.length - 1])?.querySelector<HTMLElement>('[part="actions"] button') ??
      this.renderRoot.querySelector<HTMLElement>(`#tab-${this.tab}`)
    to?.focus()
  }

  /** Another tab: the rows' result lines ('Hide: done') and an open Ban confirmation belong to the last one. */
  #selectTab(t: ModState) {
    if (t === this.tab) return
    this.tab = t
    this.status = {}
    this.confirming = null
    this.#refocus = null
  }

  #panel() {
    const s = this.#str
    // Signed out nobody refused anything yet: the reader is asked to sign in (forbidden is for a signed-in reader).
    if (!this.#session.value)
      return html`<div part="sign-in" class="sign-in">
        <p>${s.t('signInToModerate')}</p>
        <button type="button" part="sign-in-button" class="vk-button" @click=${() => this.emit('vk-sign-in')}>${s.t('signIn')}</button>
      </div>`
    const q = this.#queue.value
    if (!q) return nothing
    if (q.forbidden) return html`<div part="forbidden" role="alert"><p>${s.t('forbidden')}</p></div>`
    if (q.error && !q.items.length) return errorState(s.t('error'), s.t('retry'), () => q.refresh())
    if (q.loading && !q.items.length) return loadingState(s.t('loading'))
    if (!q.items.length) return emptyState(s.t(this.tab === 'open' ? 'empty' : 'emptyActioned'))
    const more = { error: s.t('error'), retry: s.t('retry'), loadMore: s.t('loadMore'), loadingMore: s.t('loadingMore') }
    return html`<ul part="list">${q.items.map((i) => this.#row(i))}</ul>
      ${pagedTail({ ...q, hasMore: !!q.nextCursor }, more, 'load-more')}`
  }

  override render() {
    if (!this.#vk.value) return nothing
    const s = this.#str
    return html`<section part="queue" aria-labelledby="title">
      <header part="header"><h2 id="title">${this.venueId ? s.t('queueLabel') : s.t('platformQueue')}</h2></header>
      ${this.#session.value && !this.#queue.value?.forbidden
        ? html`${tabList(this, {
              tabs: TABS.map((key) => ({ key, label: s.t(key) })),
              selected: this.tab,
              label: this.venueId ? s.t('queueLabel') : s.t('platformQueue'),
              select: (t) => this.#selectTab(t),
            })}
            <div id="panel" role="tabpanel" aria-labelledby=${`tab-${this.tab}`}>${this.#panel()}</div>`
        : // Signed out or forbidden: no queue to switch between, so no tabs.
          html`<div id="panel">${this.#panel()}</div>`}
      <p part="status" role="status" class="vk-visually-hidden">${this.announce}</p>
    </section>`
  }
}
