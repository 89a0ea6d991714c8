import { html, nothing, type PropertyValues } from 'lit'
import { busy } from '../shared/pending.ts'
import type { SubjectType } from '../../contract/ids.ts'
import { ReaderChange } from '../shared/reader-change.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController } from '../shared/strings-controller.ts'
import type { RoomStrings } from '../shared/strings/index.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import { styles } from './follow-button.styles.ts'

/**
 * @summary Follow or unfollow a subject (a market or a taxonomy node).
 *
 * The state is re-read on every login and logout (`refreshKey`, §2.12): while it is being read the button
 * is busy, and a click only ever acts on the state read for the current session, so a latched 'Follow'
 * never unfollows on its own. Signed out, a click asks the page to sign in. While busy or unknown the
 * button is aria-disabled but keeps focus, so a keyboard user can press it again once the follow is done.
 *
 * @event vk-follow-change - Following changed; `detail` names the subject and the new state.
 * @event vk-sign-in - A signed-out reader pressed the button (spec `onSignIn`).
 * @event vk-error - The follow or unfollow failed; `detail.error` is the failure.
 *
 * @csspart button - The toggle button.
 * @csspart error - The failure line (a failed follow, or a failed read of the state with its Retry).
 * @csspart retry - Retry of a failed read.
 *
 * @cssproperty --vk-color-accent - Button colour while following.
 * @cssproperty --vk-color-border - Button border.
 * @cssproperty --vk-radius-pill - Button corners.
 */
export class VkFollowButton extends VkElement {
  static override styles = styles
  static override properties = {
    subjectType: { attribute: 'subject-type' },
    subjectRef: { attribute: 'subject-ref' },
    strings: { attribute: false },
    locale: {},
    failed: { state: true },
  }

  /** `event` (a market) or a taxonomy node type. */
  declare subjectType: SubjectType | undefined
  /** The market id or the node key. */
  declare subjectRef: string | undefined
  /** Overrides of the `room` strings slice (wins over `<vk-strings-provider>`). */
  declare strings: Partial<RoomStrings> | null | undefined
  /** Locale for the built-in strings and numbers. */
  declare locale: string | undefined
  declare private failed: boolean

  readonly #vk = new VenuekitController(this)
  readonly #str = new StringsController(this, 'room')
  readonly #session = new StoreBinding(this, () => this.#vk.value?.$session)
  readonly #state = new StoreBinding(this, () =>
    this.#vk.value && this.subjectType && this.subjectRef ? this.#vk.value.follow(this.subjectType, this.subjectRef) : null,
  )
  /** Another reader: the previous one's failure line goes. */
  readonly #reader = new ReaderChange(this, () => this.#session.value, () => (this.failed = false))
  /** The refreshKey of the state the reader saw when they pressed. */
  #shownKey: unknown

  constructor() {
    super()
    this.failed = false
  }

  async #toggle() {
    if (!this.#session.value) {
      this.emit('vk-sign-in')
      return
    }
    const s = this.#state.value
    // Act only on a state read for this session (§2.12): never toggle from a stale, latched value.
    if (!s || s.loading || s.pending || s.following == null || s.refreshKey !== this.#shownKey) return
    const to = !s.following
    const [subjectType, subjectRef] = [this.subjectType!, this.subjectRef!]
    // Still this reader, and still this subject: an answer for another says nothing here.
    const mine = this.#reader.mine(() => this.subjectType === subjectType && this.subjectRef === subjectRef)
    this.failed = false
    try {
      await (to ? s.follow() : s.unfollow())
      this.emit('vk-follow-change', { subjectType, subjectRef, following: to })
    } catch (error) {
      if (mine()) this.failed = true
      this.emit('vk-error', { error })
    }
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    // Another subject: the previous one's failure line goes.
    if (changed.has('subjectType') || changed.has('subjectRef')) this.failed = false
  }

  override render() {
    const s = this.#state.value
    if (!s) return nothing
    const signedIn = !!this.#session.value
    this.#shownKey = s.refreshKey
    const following = signedIn && s.following === true
    // Signed in, the button acts only on a state read for this session: busy while it is read or written,
    // and unavailable while it is unknown after a failed read. Both are aria-disabled, never `disabled`:
    // the button keeps focus through a follow, so Space toggles again (`toggle` ignores the rest).
    const reading = signedIn && (s.loading || s.pending || (s.following == null && !s.error))
    return html`<button
        part="button"
        type="button"
        class=${following ? 'on' : ''}
        aria-pressed=${signedIn && s.following != null ? String(following) : nothing}
        ${busy(reading || (signedIn && s.following == null), reading)}
        @click=${this.#toggle}
      >
        ${following ? this.#str.t('following') : this.#str.t('follow')}
      </button>
      ${this.failed ? html`<span part="error" role="alert">${this.#str.t('followFailed')}</span>` : nothing}
      ${signedIn && s.following == null && s.error && !s.loading
        ? html`<span part="error" role="alert">${this.#str.t('followReadFailed')}
            <button type="button" part="retry" class="retry" @click=${() => s.refresh()}>${this.#str.t('retry')}</button></span
          >`
        : nothing}`
  }
}
