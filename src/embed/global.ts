/**
 * `window.venuekit`: what a page that loads the script tag calls — sign in, sign out, set the checkout
 * adapter, report a settled buy, or configure the client when the tag carries no `data-*` configuration.
 * Every call goes to the page's one context (`getVenuekit()`, §4.5.5), whichever copy of venuekit made it.
 */
import type { SessionInfo } from '../sdk/index.ts'
import { createVenuekit, getVenuekit, type Venuekit, type VenuekitGlobal } from '../stores/index.ts'

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
