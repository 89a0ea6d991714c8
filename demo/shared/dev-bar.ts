/**
 * The demo's developer bar — demo code, never part of the library bundle:
 * - a picker of the demo wallets that signs in with SIWE using their LOCAL TEST KEYS in the browser
 *   (viem's privateKeyToAccount; the keys are public, see src/server/demo-wallets.ts);
 * - on market pages, a "buy" button per outcome that drives the fixture chain (POST /v1/dev/trades) and
 *   then reports the settled buy to venuekit (`buySettled`), so the take prompt opens as after a real buy.
 *
 * It talks to the page's venuekit context through a small interface, so the same bar serves the
 * script-tag pages (window.venuekit) and the Vue, Svelte and React apps (their own createVenuekit).
 */
import { DEMO_WALLETS, type DemoWallet } from '../../src/server/demo-wallets.ts'
import type { Market } from '../../src/contract/types.ts'

/** What the bar needs from the page's context (a `Venuekit`, or `window.venuekit`). */
export interface DemoContext {
  signIn(wallet: { address: string; signMessage: (message: string) => Promise<string> }): Promise<unknown>
  signOut(): Promise<void>
  buySettled(buy: { wallet: string; marketId: string; side: number }): void
}

const STORAGE_KEY = 'venuekit-demo-wallet'
/** A buy in the demo: 10 units of collateral (6 decimals). */
const BUY_SIZE = '10000000'

export interface DevBar {
  /** The signed-in demo wallet (lowercased address), or null. */
  readonly wallet: string | null
  /** Signs in as a demo wallet by handle, or signs out with null. */
  use(handle: string | null): Promise<void>
  /** Resolves once the bar has restored the wallet chosen on an earlier page. */
  ready: Promise<void>
}

function el<K extends 'span' | 'label' | 'select' | 'option' | 'button'>(tag: K, props: Record<string, string> = {}, ...children: (Node | string)[]) {
  const e: HTMLElementTagNameMap[K] = document.createElement(tag)
  Object.assign(e, props)
  e.append(...children)
  return e
}

/** Mounts the wallet picker into `host`, and the buy buttons for `market` into `buyHost` when given. */
export function mountDevBar(host: HTMLElement, vk: DemoContext, opts: { market?: Market | null; buyHost?: HTMLElement | null } = {}): DevBar {
  let wallet: string | null = null
  const status = el('span', { className: 'demo-status', role: 'status' })
  const select = el(
    'select',
    { id: 'demo-wallet', name: 'wallet' },
    el('option', { value: '' }, 'Signed out'),
    ...DEMO_WALLETS.map((w) => el('option', { value: w.handle }, `${w.name} (${w.handle})`)),
  )
  const label = el('label', { htmlFor: 'demo-wallet', className: 'demo-label' }, 'Demo wallet')
  host.replaceChildren(el('span', { className: 'demo-pill', title: 'Local test keys only: never fund them' }, 'dev'), label, select, status)

  const say = (text: string, error = false) => {
    status.textContent = text
    status.classList.toggle('demo-error', error)
  }

  async function use(handle: string | null) {
    const w: DemoWallet | undefined = DEMO_WALLETS.find((x) => x.handle === handle)
    // Busy, not disabled: a disabled control drops keyboard focus to the page's body (a change meanwhile is ignored).
    select.setAttribute('aria-disabled', 'true')
    try {
      if (wallet) await vk.signOut().catch(() => {})
      wallet = null
      document.documentElement.dataset.demoWallet = ''
      if (!w) {
        localStorage.removeItem(STORAGE_KEY)
        say('')
        return
      }
      say(`Signing in as ${w.name}…`)
      // viem (the signing code, most of the demo chrome's weight) loads when a wallet is first picked, not
      // with the page: a signed-out visit does not download, parse or run it.
      const { privateKeyToAccount } = await import('viem/accounts')
      const account = privateKeyToAccount(w.privateKey)
      await vk.signIn({ address: account.address, signMessage: (message) => account.signMessage({ message }) })
      wallet = account.address.toLowerCase()
      localStorage.setItem(STORAGE_KEY, w.handle)
      document.documentElement.dataset.demoWallet = w.handle
      say('Signed in')
    } catch (e) {
      say(`Sign-in failed: ${(e as Error).message}`, true)
    } finally {
      select.value = wallet ? (w?.handle ?? '') : ''
      select.removeAttribute('aria-disabled')
      host.dispatchEvent(new CustomEvent('demo-wallet-change', { bubbles: true, detail: { wallet } }))
    }
  }
  select.addEventListener('change', () => void (select.hasAttribute('aria-disabled') || use(select.value || null)))

  if (opts.market && opts.buyHost) mountBuyButtons(opts.buyHost, opts.market, vk, () => wallet, say)

  const saved = localStorage.getItem(STORAGE_KEY)
  const ready = saved ? use(saved) : Promise.resolve()
  return {
    get wallet() {
      return wallet
    },
    use,
    ready,
  }
}

function mountBuyButtons(host: HTMLElement, market: Market, vk: DemoContext, wallet: () => string | null, say: (t: string, e?: boolean) => void) {
  const buttons = market.outcomes.map((o, side) => {
    const b = el('button', { type: 'button', className: `demo-buy demo-buy-${side}` }, `Buy ${o.displayLabel ?? o.label}`)
    b.dataset.side = String(side)
    b.addEventListener('click', async () => {
      const w = wallet()
      if (!w) return say('Pick a demo wallet first: buying needs a signed-in wallet.', true)
      // Busy, not disabled: a disabled button drops keyboard focus to the page's body.
      if (b.hasAttribute('aria-disabled')) return
      buttons.forEach((x) => x.setAttribute('aria-disabled', 'true'))
      try {
        // The fixture chain settles the trade at once: the position it leaves is what proves the take's stance.
        const r = await fetch('/v1/dev/trades', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ wallet: w, marketId: market.id, side, size: BUY_SIZE }),
        })
        if (!r.ok) throw new Error(((await r.json()) as { error?: { message?: string } }).error?.message ?? `HTTP ${r.status}`)
        say(`Bought ${o.displayLabel ?? o.label}`)
        vk.buySettled({ wallet: w, marketId: market.id, side })
      } catch (e) {
        say(`Buy failed: ${(e as Error).message}`, true)
      } finally {
        buttons.forEach((x) => x.removeAttribute('aria-disabled'))
      }
    })
    return b
  })
  host.replaceChildren(el('span', { className: 'demo-pill' }, 'dev'), ...buttons)
}
