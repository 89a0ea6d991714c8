import { html, type PropertyValues } from 'lit'
import type { NetworkName } from '../../contract/networks.ts'
import { createVenuekit, getVenuekit, type CheckoutAdapter, type Venuekit } from '../../stores/index.ts'
import { venuekitContext } from '../shared/venuekit-context.ts'
import { ContextProvider } from '../shared/context.ts'
import { VkElement } from '../shared/vk-element.ts'
import { styles } from './platform-provider.styles.ts'

/**
 * @summary Holds the client, the session and the checkout adapter for every venuekit element inside it.
 *
 * @slot - The elements it provides for.
 *
 * @event vk-error - `onSignOut` failed; `detail.error` is the failure.
 *
 * Which context it provides, first that applies:
 * 1. the `venuekit` property (a `Venuekit` from `createVenuekit`);
 * 2. the page's registered one (`getVenuekit()`): one session-auth object per page (§4.5.5), so a
 *    provider never creates a second one;
 * 3. a new one it creates from `base-url` / `network`, `api-key` and `venue-id` (and disposes of when it
 *    leaves the page).
 *
 * `checkout` is the venue's checkout adapter: Tail and the take prompt open it. `onSignOut` is called
 * after every logout, whoever ended the session, so a venue can end the wallet session too (§9.2).
 */
export class VkPlatformProvider extends VkElement {
  static override styles = styles
  static override properties = {
    venuekit: { attribute: false },
    baseUrl: { attribute: 'base-url' },
    network: {},
    apiKey: { attribute: 'api-key' },
    venueId: { attribute: 'venue-id' },
    checkout: { attribute: false },
    onSignOut: { attribute: false },
  }

  /** A `Venuekit` to provide. Wins over the attributes and the page's registered one. */
  declare venuekit: Venuekit | null | undefined
  /** Service address, when the provider creates the context. */
  declare baseUrl: string | undefined
  /** `mainnet` or `testnet`: derives the addresses when the provider creates the context. */
  declare network: string | undefined
  /** The venue's browser key (`pck_…`), when the provider creates the context. */
  declare apiKey: string | undefined
  /** The venue id, when the provider creates the context. */
  declare venueId: string | undefined
  /** The venue's checkout adapter (`openCheckout`, optional `predict`). */
  declare checkout: CheckoutAdapter | null | undefined
  /** Called after every logout (§9.2): end the wallet session here. */
  declare onSignOut: (() => void | Promise<void>) | null | undefined

  readonly #provider = new ContextProvider<Venuekit | null>(this, venuekitContext, null)
  #owned: Venuekit | null = null
  #current: Venuekit | null = null
  #offSession: (() => void) | null = null

  /** The context the elements inside use, or null when there is none. */
  get value(): Venuekit | null {
    return this.#current
  }

  override connectedCallback() {
    // Before the children connect and ask for the context.
    this.#resolve()
    super.connectedCallback()
  }

  override disconnectedCallback() {
    super.disconnectedCallback()
    // A move in the page disconnects and reconnects at once: keep the session through it.
    queueMicrotask(() => {
      if (this.isConnected) return
      this.#use(null)
      this.#owned?.dispose()
      this.#owned = null
    })
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    const config = ['baseUrl', 'network', 'apiKey', 'venueId'] as const
    if (config.some((k) => changed.has(k) && changed.get(k) !== undefined) && this.#owned) {
      this.#owned.dispose()
      this.#owned = null
    }
    if (changed.has('venuekit') || config.some((k) => changed.has(k))) this.#resolve()
    if (changed.has('checkout') && this.#current && this.checkout !== undefined) this.#current.setCheckout(this.checkout ?? null)
  }

  #resolve() {
    let vk: Venuekit | null = this.venuekit ?? this.#owned ?? getVenuekit()
    if (!vk && (this.baseUrl || this.network)) {
      vk = createVenuekit({
        config: { baseUrl: this.baseUrl, network: this.network as NetworkName | undefined, apiKey: this.apiKey, venueId: this.venueId },
        checkout: this.checkout ?? null,
      })
      this.#owned = vk
    }
    this.#use(vk)
  }

  #use(vk: Venuekit | null) {
    if (vk && this.checkout !== undefined && vk.$checkout.get() !== this.checkout) vk.setCheckout(this.checkout ?? null)
    if (vk === this.#current) return
    this.#offSession?.()
    this.#offSession = null
    this.#current = vk
    this.#provider.setValue(vk)
    if (!vk) return
    let had = vk.$session.get() != null
    this.#offSession = vk.$session.subscribe((s) => {
      const ended = had && s == null
      had = s != null
      if (ended) void this.#signedOut()
    })
  }

  async #signedOut() {
    try {
      await this.onSignOut?.()
    } catch (error) {
      this.emit('vk-error', { error })
    }
  }

  override render() {
    return html`<slot></slot>`
  }
}
