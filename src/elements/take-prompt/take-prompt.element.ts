import { html, nothing, type PropertyValues } from 'lit'
import { failureText } from '../shared/failures.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController } from '../shared/strings-controller.ts'
import type { RoomStrings } from '../shared/strings/index.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import { styles } from './take-prompt.styles.ts'

/**
 * @summary Asks for a reason after a side is taken in the venue's checkout drawer (§3.4).
 *
 * It opens after a settled buy (`vk.buySettled(…)`) when this wallet has not answered for that market and
 * side; a silent one-tap send never opens it. Skip is always one tap. Posting the reason writes a take whose
 * stance the server proves. An answer is remembered across reloads; a reload without an answer asks again;
 * a buy of the other side or of another market asks again. Like every element it reads the nearest
 * `<vk-platform-provider>`'s context, else the page's registered one (`<vk-room-feed>` draws its own prompt
 * only under a provider, §4.4 rule 5).
 * A failed post keeps the prompt open with the reason, and says why in a string of the `room` slice
 * chosen by the error's code (`promptFailed` when it has none); the service's message is only in `vk-error`.
 *
 * @event vk-take-prompt-answered - Skipped or posted; `detail` names the market, side and answer.
 * @event vk-post-created - The reason was posted as a take.
 * @event vk-error - Posting the take failed; `detail.error` is the failure.
 *
 * @csspart prompt - The prompt.
 * @csspart title - 'Why {side}?'.
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
    outcomeLabel: { attribute: 'outcome-label' },
    strings: { attribute: false },
    locale: {},
    posting: { state: true },
    failure: { state: true },
  }

  /** The side's label as the venue shows it ('Yes', 'Above'); defaults to the market's label for the side. */
  declare outcomeLabel: string | undefined
  /** Overrides of the `room` strings slice. */
  declare strings: Partial<RoomStrings> | null | undefined
  /** Locale for the built-in strings. */
  declare locale: string | undefined
  declare private posting: boolean
  /** The last failed post's error, while it is shown. */
  declare private failure: { error: unknown } | null

  private readonly vk = new VenuekitController(this)
  private readonly str = new StringsController(this, 'room')
  private readonly prompt = new StoreBinding(this, () => this.vk.value?.takePrompt())
  /** The market and side the field's text belongs to. */
  private askedFor = ''

  constructor() {
    super()
    this.posting = false
    this.failure = null
  }

  protected override willUpdate(_changed: PropertyValues<this>) {
    const p = this.prompt.value
    const asked = p?.open ? `${p.marketId}:${p.side}` : ''
    if (asked !== this.askedFor) {
      // A new question: a fresh field and no old failure.
      this.askedFor = asked
      this.failure = null
      this.posting = false
      const field = this.renderRoot?.querySelector?.('textarea')
      if (field) field.value = ''
    }
  }

  private skip() {
    const p = this.prompt.value
    if (!p?.open) return
    const { marketId, side } = p
    p.skip()
    this.emit('vk-take-prompt-answered', { marketId: marketId!, side: side!, answer: 'skipped' })
  }

  private async post(e: Event) {
    e.preventDefault()
    const p = this.prompt.value
    const field = this.renderRoot.querySelector('textarea')
    const body = field?.value.trim() ?? ''
    if (!p?.open || !body || this.posting) return
    const { marketId, side } = p
    this.posting = true
    this.failure = null
    try {
      const post = await p.post(body)
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
    const p = this.prompt.value
    if (!p?.open) return nothing
    const s = this.str
    const side = this.outcomeLabel || p.outcomeLabel
    return html`<section part="prompt" aria-labelledby="title">
      <h2 part="title" id="title">${side ? s.t('promptTitle', { side }) : s.t('promptTitleAnySide')}</h2>
      <p id="hint">${s.t('promptBody')}</p>
      <form part="composer" @submit=${this.post}>
        <label for="reason" class="vk-visually-hidden">${s.t('promptPlaceholder')}</label>
        <textarea id="reason" part="input" rows="2" maxlength="2000" aria-describedby="hint" placeholder=${s.t('promptPlaceholder')} ?disabled=${this.posting}></textarea>
        <div class="buttons">
          <button type="submit" part="post" class="vk-button primary" ?disabled=${this.posting} aria-busy=${this.posting ? 'true' : 'false'}>
            ${this.posting ? s.t('promptPosting') : s.t('promptPost')}
          </button>
          <button type="button" part="skip" class="vk-button" @click=${this.skip}>${s.t('promptSkip')}</button>
        </div>
        ${this.failure ? html`<p part="error" role="alert">${failureText(s, this.failure.error, 'promptFailed')}</p>` : nothing}
      </form>
    </section>`
  }
}
