/**
 * The demo's market pages: which market (`?market=<slug>`, default btc-150k) and its header. Demo code.
 */
import type { Market } from '../../src/contract/types.ts'
import type { DemoConfig } from './config.ts'

export const DEFAULT_MARKET = 'btc-150k'

let config: Promise<DemoConfig> | null = null
/** What only exists once the demo service runs: the venue key, market ids (see demo/server.ts). */
export function demoConfig(): Promise<DemoConfig> {
  config ??= fetch('/demo/config.json').then((r) => {
    if (!r.ok) throw new Error(`the demo service did not answer /demo/config.json (${r.status})`)
    return r.json() as Promise<DemoConfig>
  })
  return config
}

/** The market this page shows: `?market=<slug>`, `?id=<market id>`, or the default. */
export async function pageMarket(): Promise<Market> {
  const q = new URLSearchParams(location.search)
  const cfg = await demoConfig()
  const id = q.get('id') ?? cfg.markets[q.get('market') ?? DEFAULT_MARKET] ?? cfg.markets[DEFAULT_MARKET]
  const r = await fetch(`/v1/markets/${encodeURIComponent(id)}`)
  if (!r.ok) throw new Error(`market ${id} did not load (${r.status})`)
  return (await r.json()) as Market
}

/** Fills a market header: title, outcomes, closing time. Text only. */
export function renderMarketHead(host: HTMLElement, m: Market) {
  const title = document.createElement('h1')
  title.textContent = m.title
  const meta = document.createElement('p')
  meta.className = 'demo-meta'
  const closes = m.closesAt ? new Date(m.closesAt) : null
  const state = m.result ? 'Resolved' : closes && closes.getTime() < Date.now() ? 'Closed' : closes ? `Closes ${closes.toLocaleDateString()}` : 'Open'
  meta.textContent = `${m.outcomes.map((o) => o.displayLabel ?? o.label).join(' · ')} — ${state}`
  host.replaceChildren(title, meta)
}

/**
 * The venue's answers to the elements' requests: `vk-open-market` opens the market page, `vk-open-post` the
 * market page at the post; `vk-sign-in` and
 * `vk-require-sign-in` point at the demo's wallet picker (a real venue opens its wallet login here).
 */
export function handleElementRequests(marketPage = '/market.html') {
  document.addEventListener('vk-open-market', (e) => {
    location.href = `${marketPage}?id=${encodeURIComponent(e.detail.marketId)}`
  })
  // The operator's "Open post": the market page, scrolled to the post (`focus-post-id`).
  document.addEventListener('vk-open-post', (e) => {
    if (e.detail.subjectType !== 'event') return
    location.href = `${marketPage}?id=${encodeURIComponent(e.detail.subjectRef)}&post=${encodeURIComponent(e.detail.postId)}`
  })
  const toSignIn = () => {
    const picker = document.getElementById('demo-wallet') as HTMLSelectElement | null
    picker?.focus()
    picker?.showPicker?.()
  }
  document.addEventListener('vk-sign-in', toSignIn)
  document.addEventListener('vk-require-sign-in', toSignIn)
}

/** The frameworks' store line: "1 take · 3 posts in this thread", counted in the page's language with Intl. */
export function takeCountLine(c: { takes: number; posts: number } | null, locale?: string): string {
  if (!c) return '' // §4.5 trap 4: nothing while unknown, never "0 takes"
  const n = new Intl.NumberFormat(locale)
  const one = new Intl.PluralRules(locale)
  const takes = one.select(c.takes) === 'one' ? 'take' : 'takes'
  const posts = one.select(c.posts) === 'one' ? 'post' : 'posts'
  return `${n.format(c.takes)} ${takes} · ${n.format(c.posts)} ${posts} in this thread`
}
