import { html, nothing, type PropertyValues } from 'lit'
import { isMarketId } from '../../contract/ids.ts'
import { hasVisibleText } from '../../contract/limits.ts'
import type { TakePromptValue } from '../../stores/index.ts'
import { failureText } from '../shared/failures.ts'
import { busy } from '../shared/pending.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController } from '../shared/strings-controller.ts'
import { submitOnCtrlEnter } from '../shared/submit-keys.ts'
import type { RoomStrings } from '../shared/strings/index.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import { styles } from './take-prompt.styles.ts'

/**
 * The control focused last on the page, inside shadow roots too (a focus event's `relatedTarget` names only the
 * host of another element's control, e.g. `<vk-follow-button>`, which cannot take focus back). Set after every
 * element's own focusin handlers have run, so while focus enters the prompt it is still the control it left.
 */
let lastFocused: HTMLElement | null = null
globalThis.addEventListener?.('focusin', (e) => (lastFocused = e.composedPath()[0] as HTMLElement))

/**
 * @summary Asks for a reason after a side is taken in the venue's checkout drawer (§3.4).
 *
 * It opens after a settled buy (`vk.buySettled(…)`) when this wallet has not answered for that market and
 * side; a silent one-tap send never opens it. Skip is always one tap, and Escape inside the prompt is Skip
 * (§1.10). Posting the reason writes a take whose stance the server proves. An answer is remembered across
 * reloads; a reload without an answer asks again; a buy of the other side or of another market asks again.
 * The prompt belongs to the wallet that bought: it shows only while that wallet's account is signed in;
 * signed out or as another wallet it is hidden (not answered) and comes back when the buyer signs in again.
 * It always names the market it asks about (`promptMarket`), wherever it is drawn: without `market-id` it
 * is the page's prompt for any market; with `market-id` (a market page) it shows only that market's prompt
 * and leaves the others pending. When it opens after a buy it is announced through a polite status line;
 * focus is not moved (the buyer is not pulled into an optional form).
 * A take's stance is the account's largest position (§1.4): when that is the other side (a buyer of No who
 * holds more Yes), the prompt says so before the reason is posted.
 * Like every element it reads the nearest `<vk-platform-provider>`'s context, else the page's registered
 * one (`<vk-room-feed>` draws its own prompt only under a provider, §4.4 rule 5).
 * A failed post keeps the prompt open with the reason, and says why in a string of the `room` slice
 * chosen by the error's code (`promptFailed` when it has none); the service's message is only in `vk-error`.
 *
 * @event vk-take-prompt-answered - Skipped or posted; `detail` names the market, side and answer.
 * @event vk-post-created - The reason was posted as a take.
 * @event vk-error - Posting the take failed; `detail.error` is the failure.
 *
 * @csspart prompt - The prompt.
 * @csspart title - 'Why {side}?'.
 * @csspart market - The market it asks about ('About: {market}').
 * @csspart other-side - Shown when the take will show another side than the one bought: the stance is the
 *   account's larger position (§1.4), 'Your larger position here is {side}, so this take will show {side}.'
 * @csspart status - The visually hidden live line that announces the prompt when a buy opens it.
 * @csspart composer - The reason form.
 * @csspart input - The reason field.
 * @csspart post - The Post take button.
 * @csspart skip - The Skip button.
 * @csspart error - The failure line.
 *
 * @cssproperty --vk-color-surface - Background.
 * @cssproperty --vk-color-accent - Post button.
 * @cssproperty --vk-radius - Corners.
 */
export class VkTakePrompt extends VkElement {
  static override styles = styles
  static override properties = {
    marketId: { attribute: 'market-id' },
    outcomeLabel: { attribute: 'outcome-label' },
    strings: { attribute: false },
    locale: {},
    posting: { state: true },
    failure: { state: true },
  }

  /**
   * Only this market's prompt is shown here (a market page); a prompt about another market stays pending.
   * Without it, the prompt of any market shows (it always names its market).
   */
  declare marketId: string | undefined
  /**
   * The side's label as the venue shows it ('Yes', 'Above'). Used only with `market-id` (it names a side of
   * that market), and not when it is another side's label or displayLabel on that market (a label set for
   * one side, then the other side bought): the question always names the side bought. Otherwise the side
   * is the bought market's `displayLabel ?? label`.
   */
  declare outcomeLabel: string | undefined
  /** Overrides of the `room` strings slice. */
  declare strings: Partial<RoomStrings> | null | undefined
  /** Locale for the built-in strings. */
  declare locale: string | undefined
  declare private posting: boolean
  /** The last failed post's error, while it is shown. */
  declare private failure: { error: unknown } | null

  readonly #vk = new VenuekitController(this)
  readonly #str = new StringsController(this, 'room')
  /** With `market-id`, the store of that market's prompt (a malformed id shows none): nothing else is read. */
  readonly #prompt = new StoreBinding(this, () => (this.marketId && !isMarketId(this.marketId) ? null : this.#vk.value?.takePrompt(this.marketId || undefined)))
  readonly #session = new StoreBinding(this, () => this.#vk.value?.$session)
  /** The wallet, market and side the field's text belongs to. */
  #askedFor = ''
  /** The reader (account) of the last update: a prompt that appears on a sign-in is not announced as new. */
  #lastReader: string | null = null
  /** The question waiting to be announced (opened after a buy), and since when. */
  #announceFor = ''
  #announceSince = 0
  #announceTimer: ReturnType<typeof setTimeout> | undefined
  /** The polite status line's text. */
  #announce = ''
  /** The control focus came from when it entered the prompt (focus goes back there after an answer). */
  #returnTo: HTMLElement | null = null

  constructor() {
    super()
    this.posting = false
    this.failure = null
  }

  /** The prompt shown here: open for the signed-in buyer, and about this element's market when it has one (the store's filter). */
  #shown(): TakePromptValue | null {
    const p = this.#prompt.value
    return p?.open ? p : null
  }

  #question(p: TakePromptValue): string {
    const own = this.marketId && this.outcomeLabel
    const side = (own && !p.otherLabels.includes(own) && own) || p.outcomeLabel
    return side ? this.#str.t('promptTitle', { side }) : this.#str.t('promptTitleAnySide')
  }

  protected override willUpdate(_changed: PropertyValues<this>) {
    const p = this.#shown()
    const asked = p ? `${p.wallet}:${p.marketId}:${p.side}` : ''
    const s = this.#session.value
    const reader = s ? s.accountId : null
    if (asked !== this.#askedFor) {
      // A new question: a fresh field and no old failure.
      this.#askedFor = asked
      this.failure = null
      this.posting = false
      const field = this.renderRoot?.querySelector?.('textarea')
      if (field) field.value = ''
      // Announced when it opens while the same reader is here (after their buy); not on the first paint
      // (a reload asks again in place) nor when it comes back on a sign-in.
      this.#announce = ''
      this.#announceFor = asked && this.hasUpdated && reader === this.#lastReader ? asked : ''
      this.#announceSince = Date.now()
    }
    this.#lastReader = reader
    if (p && this.#announceFor === asked) {
      // Once the market's title is known (or after a short wait without it), so the line is said once.
      const waited = Date.now() - this.#announceSince >= 1500
      if (p.marketTitle || waited) {
        const question = this.#question(p)
        this.#announce = p.marketTitle ? this.#str.t('promptAnnounce', { question, market: p.marketTitle }) : this.#str.t('promptAnnounceNoMarket', { question })
        this.#announceFor = ''
      } else if (!this.#announceTimer) {
        this.#announceTimer = setTimeout(() => {
          this.#announceTimer = undefined
          this.requestUpdate()
        }, 1600)
      }
    }
  }

  override disconnectedCallback() {
    super.disconnectedCallback()
    clearTimeout(this.#announceTimer)
    this.#announceTimer = undefined
  }

  /** After an answer, focus that was inside the prompt goes back to where it came from (not to the page's body). */
  #restoreFocus(inside = !!(this.renderRoot as ShadowRoot).activeElement) {
    const to = this.#returnTo
    this.#returnTo = null
    if (inside && to?.isConnected) this.updateComplete.then(() => to.focus())
  }

  /** Focus came from a control outside the prompt (`relatedTarget` is its host when it is inside another element). */
  #onFocusIn(e: FocusEvent) {
    if (e.relatedTarget && !this.renderRoot.contains(lastFocused)) this.#returnTo = lastFocused
  }

  #onKeydown(e: KeyboardEvent) {
    // Escape is Skip (§1.10: skipping is always possible): it answers the prompt like the Skip button.
    if (e.key !== 'Escape' || e.isComposing) return
    e.preventDefault()
    e.stopPropagation()
    this.#skip()
  }

  #skip() {
    const p = this.#shown()
    // While a take is on its way the prompt is being answered by it: one answer (§3.4), never both.
    if (!p || this.posting) return
    const { marketId, side } = p
    this.#restoreFocus()
    p.skip()
    this.emit('vk-take-prompt-answered', { marketId: marketId!, side: side!, answer: 'skipped' })
  }

  async #post(e: Event) {
    e.preventDefault()
    const p = this.#shown()
    const field = this.renderRoot.querySelector('textarea')
    const body = field?.value.trim() ?? ''
    if (!p || !hasVisibleText(body) || this.posting) return
    const { marketId, side } = p
    // Whether focus is in the prompt (the form stays focusable while posting: busy(), a read-only field).
    const inside = !!(this.renderRoot as ShadowRoot).activeElement
    this.posting = true
    this.failure = null
    try {
      const post = await p.post(body)
      this.#restoreFocus(inside)
      if (post) this.emit('vk-post-created', { post })
      this.emit('vk-take-prompt-answered', { marketId: marketId!, side: side!, answer: 'posted' })
    } catch (error) {
      this.failure = { error }
      this.emit('vk-error', { error })
    } finally {
      this.posting = false
    }
  }

  override render() {
    // The live line is always in the DOM, so the text put in it when a buy opens the prompt is announced.
    const status = html`<p part="status" role="status" class="vk-visually-hidden">${this.#announce}</p>`
    const p = this.#shown()
    if (!p) return status
    const s = this.#str
    return html`${status}<section part="prompt" aria-labelledby=${p.marketTitle ? 'title market' : 'title'} @keydown=${this.#onKeydown} @focusin=${this.#onFocusIn}>
      <h2 part="title" id="title">${this.#question(p)}</h2>
      ${p.marketTitle ? html`<p part="market" id="market" class="market">${s.t('promptMarket', { market: p.marketTitle })}</p>` : nothing}
      <p id="hint">${s.t('promptBody')}</p>
      ${p.otherSideLabel ? html`<p part="other-side" id="other-side">${s.t('promptOtherSide', { side: p.otherSideLabel })}</p>` : nothing}
      <form part="composer" @submit=${this.#post}>
        <label for="reason" class="vk-visually-hidden">${s.t('promptPlaceholder')}</label>
        <textarea id="reason" part="input" dir="auto" rows="2" maxlength="2000" aria-describedby=${p.otherSideLabel ? 'hint other-side' : 'hint'} placeholder=${s.t('promptPlaceholder')} ?readonly=${this.posting} @keydown=${submitOnCtrlEnter}></textarea>
        <div class="buttons">
          <button type="submit" part="post" class="vk-button primary" ${busy(this.posting)}>
            ${this.posting ? s.t('promptPosting') : s.t('promptPost')}
          </button>
          <button type="button" part="skip" class="vk-button" ${busy(this.posting, false)} @click=${this.#skip}>${s.t('promptSkip')}</button>
        </div>
        ${this.failure ? html`<p part="error" role="alert">${failureText(s, this.failure.error, 'promptFailed')}</p>` : nothing}
      </form>
    </section>`
  }
}
