import { html, nothing } from 'lit'
import type { SubjectType } from '../../contract/ids.ts'
import type { ForYouItem } from '../../contract/types.ts'
import { emptyState, errorState, loadingState } from '../shared/states.ts'
import { marketLink } from '../shared/market-link.ts'
import { StoreBinding } from '../shared/store-binding.ts'
import { StringsController } from '../shared/strings-controller.ts'
import type { CommentsStrings } from '../shared/strings/index.ts'
import { VenuekitController } from '../shared/venuekit-context.ts'
import { VkElement } from '../shared/vk-element.ts'
import { styles } from './for-you-rail.styles.ts'

/**
 * @summary The for-you rail: markets picked for the reader, each with its reason (§2.3).
 *
 * When the rail is not personalized it shows ONE hint line offering the personal version (with a Sign in
 * button when signed out), never a sign-in prompt per card. `sign-in-elsewhere` drops that button where the
 * page already offers Sign in next to the rail (the `following` feed's hint in `<vk-community-takes>`).
 *
 * @event vk-open-market - A market was pressed.
 * @event vk-sign-in - The hint's Sign in button was pressed.
 *
 * @csspart rail - The whole rail.
 * @csspart title - The rail's title.
 * @csspart hint - The one hint line when not personalized.
 * @csspart sign-in - The hint's Sign in button.
 * @csspart list - The list of markets.
 * @csspart item - One market.
 * @csspart market - The market button.
 * @csspart reason - Why it is picked.
 * @csspart loading - The loading skeleton.
 * @csspart empty - The empty state.
 * @csspart error - The error state.
 * @csspart retry - The Retry button.
 *
 * @cssproperty --vk-color-surface - Item background.
 * @cssproperty --vk-color-muted - Reasons and the hint.
 * @cssproperty --vk-radius - Item corners.
 */
export class VkForYouRail extends VkElement {
  static override styles = styles
  static override properties = {
    room: {},
    subjectType: { attribute: 'subject-type' },
    subjectRef: { attribute: 'subject-ref' },
    limit: { type: Number },
    strings: { attribute: false },
    locale: {},
    signInElsewhere: { type: Boolean, attribute: 'sign-in-elsewhere' },
  }

  /** A room id: picks for that room. */
  declare room: string | undefined
  /** A subject to pick around. */
  declare subjectType: SubjectType | undefined
  declare subjectRef: string | undefined
  /** Most markets shown. */
  declare limit: number | undefined
  /** Overrides of the `comments` strings slice (wins over `<vk-strings-provider>`). */
  declare strings: Partial<CommentsStrings> | null | undefined
  /** Locale for the built-in strings. */
  declare locale: string | undefined
  /** The page offers Sign in beside the rail: the hint line shows without its own button. */
  declare signInElsewhere: boolean

  readonly #vk = new VenuekitController(this)
  readonly #str = new StringsController(this, 'comments')
  readonly #session = new StoreBinding(this, () => this.#vk.value?.$session)
  readonly #rail = new StoreBinding(this, () =>
    this.#vk.value?.forYou({
      room: this.room || undefined,
      subjectType: this.subjectType && this.subjectRef ? this.subjectType : undefined,
      subjectRef: this.subjectType && this.subjectRef ? this.subjectRef : undefined,
      limit: this.limit || undefined,
    }),
  )

  #reason(i: ForYouItem): string {
    switch (i.reason) {
      case 'closing-soon':
        return this.#str.t('reasonClosingSoon')
      case 'trending':
        return this.#str.t('reasonTrending')
      case 'followed':
        return this.#str.t('reasonFollowed', { node: i.node?.ref ?? '' })
      default:
        return this.#str.t('reasonHeld')
    }
  }

  override render() {
    const v = this.#rail.value
    if (!v) return nothing
    const t = (k: keyof CommentsStrings) => this.#str.t(k)
    let body
    if (v.loading && !v.items.length) body = loadingState(t('loading'), 2)
    else if (v.error && !v.items.length) body = errorState(t('forYouError'), t('retry'), () => v.refresh())
    else if (!v.items.length) body = emptyState(t('forYouEmpty'))
    else
      body = html`<ul part="list" class="list">
        ${v.items.map((i) => {
          const m = v.markets[i.marketId.toLowerCase()] ?? v.markets[i.marketId]
          return m
            ? html`<li part="item" class="item">
                ${marketLink(this, m.id, m.title)}
                <span part="reason" class="reason">${this.#reason(i)}</span>
              </li>`
            : nothing
        })}
      </ul>`
    const signedIn = !!this.#session.value
    return html`<section part="rail" class="rail" aria-labelledby="title" aria-busy=${v.loading ? 'true' : 'false'}>
      <span part="title" class="title" id="title">${t('forYou')}</span>
      ${!v.loading && !v.error && !v.personalized
        ? html`<p part="hint" class="hint">
            ${signedIn ? t('forYouHintFollow') : t('forYouHint')}
            ${signedIn || this.signInElsewhere ? nothing : html`<button type="button" part="sign-in" class="vk-button" @click=${() => this.emit('vk-sign-in')}>${t('signInAction')}</button>`}
          </p>`
        : nothing}
      ${body}
    </section>`
  }
}
