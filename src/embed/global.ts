/**
 * `window.venuekit`: what a page that loads the script tag calls — sign in, sign out, set the checkout
 * adapter, report a settled buy, or configure the client when the tag carries no `data-*` configuration.
 * Every call goes to the page's one context (`getVenuekit()`, §4.5.5), whichever copy of venuekit made it.
 */
import type { ClientConfig, SessionInfo, VenuekitClient, WalletSigner } from '../sdk/index.ts'
import { createVenuekit, getVenuekit, type CheckoutAdapter, type Venuekit } from '../stores/index.ts'

export type BuySettled = Parameters<Venuekit['buySettled']>[0]

export interface VenuekitGlobal {
  /** The package version of the bundle that installed this object. */
  readonly version: string
  /** The page's context, or null until the client is configured. */
  readonly context: Venuekit | null
  /** The page's SDK client, or null until the client is configured. */
  readonly client: VenuekitClient | null
  /**
   * Creates the page's context when none exists yet (a tag without `data-base-url` / `data-network`);
   * returns the existing one otherwise, so calling it twice is harmless.
   */
  configure(config: ClientConfig, options?: { checkout?: CheckoutAdapter | null; moderation?: boolean; onSignOut?: () => void | Promise<void> }): Venuekit
  /** Signs in with a wallet: `{ address, signMessage(message) }` (SIWE, §5.2). */
  signIn(wallet: WalletSigner): Promise<SessionInfo>
  /** Ends the session (and the wallet session, when the context has `onSignOut`, §9.2). */
  signOut(): Promise<void>
  /** Sets (or clears, with null) the venue's checkout adapter: Tail and the take prompt open it. */
  setCheckout(adapter: CheckoutAdapter | null): void
  /** Reports a buy settled in the venue's checkout drawer: drives the take prompt (§3.4). */
  buySettled(buy: BuySettled): void
}

declare global {
  interface Window {
    venuekit?: VenuekitGlobal
  }
}

function required(): Venuekit {
  const vk = getVenuekit()
  if (!vk)
    throw new Error(
      'venuekit is not configured: put data-base-url (or data-network) on its <script> tag, or call venuekit.configure({ baseUrl })',
    )
  return vk
}

export function createGlobal(version: string): VenuekitGlobal {
  return {
    version,
    get context() {
      return getVenuekit()
    },
    get client() {
      return getVenuekit()?.client ?? null
    },
    configure(config, options = {}) {
      return getVenuekit() ?? createVenuekit({ config, ...options })
    },
    async signIn(wallet) {
      return (await required().signIn(wallet)) as SessionInfo
    },
    async signOut() {
      await required().signOut()
    },
    setCheckout(adapter) {
      required().setCheckout(adapter)
    },
    buySettled(buy) {
      required().buySettled(buy)
    },
  }
}

/** Installs `window.venuekit` unless another copy of venuekit installed it first (loading twice is harmless). */
export function installGlobal(win: Window, version: string): VenuekitGlobal {
  win.venuekit ??= createGlobal(version)
  return win.venuekit
}
