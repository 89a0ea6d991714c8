/**
 * The type of `window.venuekit`, the object the script tag installs (src/embed/global.ts makes it). Importing any
 * type from `venuekit/stores` also types `window.venuekit` for a page that loads the tag.
 */
import type { ClientConfig, SessionInfo, VenuekitClient, WalletSigner } from '../sdk/index.ts'
import type { BuySettled, CheckoutAdapter } from './checkout.ts'
import type { Venuekit, VenuekitOptions } from './context.ts'

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
  configure(config: ClientConfig, options?: Pick<VenuekitOptions, 'checkout' | 'moderation' | 'onSignOut'>): Venuekit
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
