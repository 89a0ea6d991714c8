/**
 * The elements' first-render benchmark (issue 9): navigation start to the first take card painted on the
 * plain demo market page (demo/market.html: the one script tag) with 50 posts, in headless Chromium; and,
 * side by side in the same navigation, the ratio of that time to the moment the thread's JSON finished
 * loading. `npm run bench` calls `firstRender()` after the service figures; on its own:
 *
 *   node --import tsx bench/first-render-cli.ts
 *
 * What it serves: `npm run demo -- --port 0` through `startDemoProcess()` (scripts/demo-process.ts), so
 * the real builds (`vite build` → dist/venuekit.js, `vite build --config demo/vite.config.ts` →
 * demo/dist) from the reference service on the embedded database (PGlite), in their own process group.
 *
 * The market: the page's default market (btc-150k). The demo gives it 4 top-level posts (3 from the seed, 1
 * written into the venue's room, which the public thread shows too); the rest up to exactly 50 are written
 * through the real API before measuring: demo wallets sign in (SIWE) and post; Ada and Ben hold their seeded
 * positions and Farah buys one through the dev fixture-chain route, so their posts are takes with a
 * server-proven stance, while Chloé's, Dmitri's and Emeka's are plain comments. The newest post is a take,
 * so the thread's first card is a take card. The service's answer is checked to hold exactly 50 top-level
 * posts; the element shows its first page (the service's default page size, 20) with Load more, which the
 * first navigation checks on the page (20 rows, Load more, the first card a take with its body).
 *
 * Development: VK_BENCH_RENDER_URL=<address of a running `npm run demo`> measures that demo instead of
 * starting one (the thread is filled up to 50 posts once; the demo re-reads dist/venuekit.js and demo/dist
 * on every request, so a rebuild is enough between two runs).
 *
 * Method, per navigation (VK_BENCH_RENDER_RUNS, default 18, after 2 warm-up navigations not counted):
 * - A fresh browser context each time (cold HTTP cache, no storage: signed out), viewport 1280×900. The new
 *   window first shows about:blank for 600 ms: headless Chromium 156 loads its omnibox WebUI (hundreds of
 *   chrome:// requests) in every new window, which would otherwise compete with the page for the CPU.
 * - An init script, installed before any page script (PROBE below), watches the shadow roots the page
 *   creates until the first `<vk-take-card>` of `<vk-market-comments>`'s list has its `[part~="card"]`.
 *   From then on it checks, at the start of each frame (rAF callbacks run before that frame's style,
 *   layout and paint), that the card is laid out with a non-zero size; the frame N where it first is, is
 *   the frame that first paints it. The figure is the moment frame N's rendering task has finished on the
 *   main thread (style, layout and paint recorded, handed to the compositor): a `scheduler.postTask` at
 *   user-blocking priority posted from that rAF callback runs as the first task after it. (The usual
 *   MessageChannel or setTimeout "after next paint" idiom measured up to 40 ms more here: those tasks wait
 *   behind the timers the page queued while rendering, e.g. the profile and market batches; Long Animation
 *   Frame entries confirm the frame ends 1 to 5 ms after the card is found laid out.) The start of the
 *   following frame (rAF N+1) is kept too, as an upper bound, in `raw.nextFrameP50`. The probe adds no
 *   polling loop: the page's frames are its own until the card exists.
 * - Times are `performance.now()` in the page, whose origin is the navigation start.
 * - The thread's JSON: `responseEnd` of the resource timing entry of the thread read the element issues
 *   (`GET /v1/social/posts?subjectType=event&subjectRef=<market>…`, no cursor).
 * - Per navigation the ratio is paint / responseEnd; the rows give the medians of the paint times, of the
 *   responseEnd times and of the per-navigation ratios. No throttling or CPU emulation.
 * - The last row splits the time after responseEnd: when the page's main thread took the answer (the
 *   element's page context reads over XMLHttpRequest: its headers, then its `load`; with a `fetch`, the
 *   promise resolving, then its body's `text()`), noted by wrappers in the probe that pass everything
 *   through unchanged; and from the body to the painted card, which is the element's own part (store,
 *   first rows, their cards, one frame).
 * - VK_BENCH_RENDER_PAGE=/other.html measures another page of the demo that shows the same market's thread.
 * - The floor rows (VK_BENCH_RENDER_FLOOR=0 skips them): what any page could reach on localhost. The same
 *   thread on a page that holds nothing else (FLOOR_PAGE: the market page's head with its one script tag,
 *   none of the demo's scripts or styles, and `<vk-market-comments>` alone in the body), cold; and the same
 *   page with ICU already warm (WARM_ICU, an init script that builds the cards' formatters before any page
 *   script, while the bundle is still on its way). Then the same thread with no framework at all
 *   (PLAIN_FLOOR_PAGE, `bench/plain-floor-page.ts`: an inline script, XMLHttpRequest, the first 5 posts as plain
 *   DOM with the same Intl formatters), cold and with ICU warm: what the page itself costs, whatever renders
 *   the thread. Measured in the same loop as the market page, so all see the same machine. No verdict: they
 *   bound the budget's figure, they are not it.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { CHROMIUM_PATH, launchChromium } from '../scripts/chromium.ts'
import { PATHS } from '../src/contract/paths.ts'
import type { ThreadPage } from '../src/contract/types.ts'
import { DEV_PATHS } from '../src/server/routes/dev.ts'
import { DEMO_KEYS, type DemoHandle } from '../src/server/demo-wallets.ts'
import { createClient } from '../src/sdk/index.ts'
import { privateKeyToAccount } from 'viem/accounts'
import { startDemoProcess } from '../scripts/demo-process.ts'
import type { DemoConfig } from '../demo/shared/config.ts'
import type { BenchRow } from './run.ts'
import { fmt, median } from './stats.ts'
import { PLAIN_FLOOR_PAGE, plainFloorHtml } from './plain-floor-page.ts'

const RUNS = Number(process.env.VK_BENCH_RENDER_RUNS ?? 18)
const WARMUP = 2
const POSTS = 50
const MARKET_SLUG = 'btc-150k'
const PAGE = process.env.VK_BENCH_RENDER_PAGE ?? '/market.html'
const VIEWPORT = { width: 1280, height: 900 }
const WAIT_MS = 30_000
const SETTLE_MS = 600
/**
 * The same page measured again at this round trip to its servers (DevTools network emulation; 0: not
 * measured): the budget's figures are on localhost, where the service answers within the page's start-up.
 */
const RTT_MS = Number(process.env.VK_BENCH_RENDER_RTT_MS ?? 40)
const FLOOR = process.env.VK_BENCH_RENDER_FLOOR !== '0'
/** Written into demo/dist (the demo serves it as it serves the built pages) for the floor rows. */
const FLOOR_PAGE = '/bench-thread-alone.html'
export const DEMO_DIST = fileURLToPath(new URL('../demo/dist/', import.meta.url))

/**
 * Intl objects by kind, as a script expression (a string, so nothing of this module's transform ends up in a
 * page): the cards' formatters (rt, dt, pct, nf, pr) and the other kinds `bench/icu-startup.ts` compares.
 */
export const INTL_KINDS = `({
  rt: () => new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }).format(-1, 'day'),
  dt: () => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(0),
  pct: () => new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 }).format(0.4),
  nf: () => new Intl.NumberFormat(undefined).format(1234),
  pr: () => new Intl.PluralRules(undefined).select(1),
  lf: () => new Intl.ListFormat(undefined).format(['a', 'b']),
  seg: () => [...new Intl.Segmenter(undefined).segment('ab')].length,
  col: () => 'a'.localeCompare('b'),
  loc: () => new Intl.Locale('en').maximize().toString(),
  sup: () => Intl.NumberFormat.supportedLocalesOf(['en']),
  tls: () => (1234.5).toLocaleString(),
  dls: () => new Date(0).toLocaleString(),
})`

/**
 * An init script (before any page script): the formatters the cards use, built once, so the renderer's
 * one-time ICU start-up (10–15 ms on this machine, process-wide) is paid before the page runs. A measurement
 * aid for the floor row only: a venue's page cannot run code before the HTML arrives.
 */
export const WARM_ICU = `(() => { const k = ${INTL_KINDS}; for (const n of ['rt', 'dt', 'pct', 'nf', 'pr']) k[n]() })()`

/** Budgets (issue 9). */
export const RENDER_BUDGET = { firstRenderMs: 300, ratio: 1.3 }

const row = (figure: string, value = '', budget = '', verdict: BenchRow['verdict'] = '', raw?: Record<string, number>): BenchRow => ({
  store: 'elements',
  figure,
  value,
  budget,
  verdict,
  ...(raw ? { raw } : {}),
})

/**
 * The posts written on top of the seed, oldest first (the last one is the newest: the thread's first card).
 * Ada, Ben and Farah hold a position on the market when they write (takes); Chloé, Dmitri and Emeka do not
 * (comments).
 */
const EXTRA_POSTS: [DemoHandle, string][] = [
  ['chloe', 'Which index does this settle on, the composite or a single exchange?'],
  ['farah', 'Bought Yes at 38¢. Spot ETF demand has not had a down month since launch.'],
  ['emeka', 'Anyone tracking the miner outflows? They usually sell into strength like this.'],
  ['ben', 'Still No. A 50% move in under two months is not how this market has traded all year.'],
  ['dmitri', 'The last two cycle tops came 12 to 18 months after the halving. We are inside that window.'],
  ['ada', 'Long-term holders are not selling. Supply on exchanges is at a five-year low.'],
  ['chloe', 'Is the one-minute close on the index or the last trade print? Matters a lot for wicks.'],
  ['farah', 'Options skew flipped to calls for December. The market is pricing a squeeze.'],
  ['emeka', 'Macro calendar is heavy in November: two CPI prints and a Fed meeting before the deadline.'],
  ['ben', 'Funding is already elevated. Every leverage flush this year took 20% off the top.'],
  ['dmitri', 'Realized volatility is low for this time of year. That cuts both ways.'],
  ['ada', 'Corporate treasuries keep adding every quarter. That bid does not care about the price.'],
  ['chloe', 'Where is the 62¢ No coming from? Feels like one big seller on the book.'],
  ['farah', 'Added to Yes on the dip to 35¢. Weekly close above the range high is the trigger.'],
  ['emeka', 'Stablecoin supply keeps growing. Dry powder on the sidelines, for whatever it is worth.'],
  ['ben', 'Retail interest on search is flat. Tops come with mania, and there is none yet.'],
  ['dmitri', 'Hashrate at an all-time high again, for what that says about price (not much).'],
  ['ada', 'The last three months look like the consolidation before every leg up since 2016.'],
  ['chloe', 'Does anyone know if the deadline is midnight UTC or the exchange close?'],
  ['farah', 'Sovereign buying headlines keep coming. One real one and this goes to 60¢.'],
  ['emeka', 'Watching the ETF flow tracker daily. Three red days in a row this week.'],
  ['ben', 'The four-year cycle crowd has been early every time. December is too tight.'],
  ['dmitri', 'Gold just made a new high too. Both are trading as debasement hedges right now.'],
  ['ada', 'Sizing up a little more. Risk-reward at these odds is lopsided.'],
  ['chloe', 'The rules page says the reference index; the market description says any major exchange.'],
  ['farah', 'Open interest is climbing with price, not ahead of it. Healthier than March.'],
  ['emeka', 'Tax-loss selling in December usually weighs on everything risky.'],
  ['ben', 'It needs roughly 1% a day from here, every day. Fading.'],
  ['dmitri', 'Three weeks of inflows would do it. Three weeks of outflows would end it.'],
  ['ada', 'Mempool fees are waking up. On-chain activity leads price more often than not.'],
  ['chloe', 'Good thread. Leaning No, but I have not traded it yet.'],
  ['farah', 'The breakout retest held perfectly. Still Yes.'],
  ['emeka', 'If the Fed holds in December the risk-on trade gets a lot harder.'],
  ['ben', 'Implied vol says a 150k print by December is roughly a one-in-three. The price agrees.'],
  ['dmitri', 'Exchange reserves keep dropping. Nobody is moving coins to sell.'],
  ['ada', 'Read the resolution source again: any one-minute close counts. Wicks matter.'],
  ['chloe', 'Thanks, that settles my question from earlier.'],
  ['farah', 'Momentum traders are only starting to notice. Yes has room.'],
  ['emeka', 'The previous all-time high took eleven months to clear. Patience.'],
  ['ben', 'Weekly RSI is already stretched. I will keep my No.'],
  ['dmitri', 'The move from 100k to 120k took four months. The next 30k in six weeks?'],
  ['ada', 'Liquidity is thin over the holidays. Thin books make big candles, both ways.'],
  ['chloe', 'Is anyone else tracking the futures basis? It widened a lot this week.'],
  ['farah', 'The ETF inflows this week were the biggest since spring. Adding to Yes.'],
  ['emeka', 'Dollar strength is the thing to watch. A weak dollar month is what this needs.'],
  ['ben', 'The last three rallies stalled at the same level. Third rejection this morning.'],
  ['ada', 'Another treasury company announced a raise today. The bid keeps coming. Yes.'],
]
/** Who holds a position on the market while writing, and which (side, size in USD) if the seed gave none. */
const HOLDERS: Partial<Record<DemoHandle, { side: number; size: number } | 'seeded'>> = { ada: 'seeded', ben: 'seeded', farah: { side: 0, size: 25 } }

async function json<T>(url: string, init?: RequestInit): Promise<T> {
  const r = await fetch(url, init)
  const body = (await r.json()) as T & { error?: { message: string } }
  if (!r.ok) throw new Error(`${init?.method ?? 'GET'} ${url} answered ${r.status}: ${body.error?.message ?? JSON.stringify(body).slice(0, 200)}`)
  return body
}

/** Top-level posts of the market's public thread as a signed-out reader sees them (every page). */
async function topLevelPosts(base: string, marketId: string): Promise<ThreadPage['posts']> {
  const posts: ThreadPage['posts'] = []
  let cursor: string | null = null
  do {
    const q = new URLSearchParams({ subjectType: 'event', subjectRef: marketId, limit: '100', ...(cursor ? { cursor } : {}) })
    const page: ThreadPage = await json<ThreadPage>(`${base}${PATHS.posts}?${q}`)
    posts.push(...page.posts)
    cursor = page.nextCursor
  } while (cursor)
  return posts
}

/** The id of the demo's market that the bench measures (its default market, MARKET_SLUG). */
export async function demoMarketId(base: string): Promise<string> {
  const cfg = await json<DemoConfig>(`${base}/demo/config.json`)
  const id = cfg.markets[MARKET_SLUG]
  if (!id) throw new Error(`the demo at ${base} has no market ${MARKET_SLUG}`)
  return id
}

/**
 * The diagnostic tools' loop: `rounds` rounds after `warmup` uncounted ones, each measuring every key once, in
 * alternating order from one round to the next, so all keys see the same machine. The samples per key.
 */
export async function alternating<K>(keys: K[], rounds: number, warmup: number, measureOne: (key: K, round: number) => Promise<Sample>): Promise<Map<K, Sample[]>> {
  const out = new Map<K, Sample[]>(keys.map((k) => [k, []]))
  for (let i = 0; i < warmup + rounds; i++)
    for (const k of i % 2 ? keys : [...keys].reverse()) {
      const s = await measureOne(k, i)
      if (i >= warmup) out.get(k)!.push(s)
    }
  return out
}

/** Brings the market's thread to exactly `POSTS` top-level posts through the public API; returns the count and takes. */
async function fillThread(base: string, marketId: string) {
  const before = await topLevelPosts(base, marketId)
  if (before.length > POSTS) throw new Error(`the demo market ${MARKET_SLUG} already holds ${before.length} posts, more than ${POSTS}`)
  const todo = EXTRA_POSTS.slice(EXTRA_POSTS.length - (POSTS - before.length))
  if (todo.length < POSTS - before.length) throw new Error(`only ${EXTRA_POSTS.length} extra posts are written out; ${POSTS - before.length} are needed`)
  const clients = new Map<DemoHandle, ReturnType<typeof createClient>>()
  try {
    for (const [handle, body] of todo) {
      let client = clients.get(handle)
      if (!client) {
        const account = privateKeyToAccount(DEMO_KEYS[handle])
        client = createClient({ baseUrl: base, apiKey: null })
        await client.auth.signIn({ address: account.address, signMessage: (message) => account.signMessage({ message }) })
        clients.set(handle, client)
        const hold = HOLDERS[handle]
        if (hold && hold !== 'seeded')
          await json(`${base}${DEV_PATHS.trades}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ wallet: account.address.toLowerCase(), marketId, side: hold.side, size: String(hold.size * 1_000_000) }),
          })
      }
      const post = await client.createPost('event', marketId, body)
      if (!!HOLDERS[handle] !== !!post.stance) throw new Error(`${handle}'s post came back ${post.stance ? 'with' : 'without'} a stance`)
    }
  } finally {
    for (const c of clients.values()) c.close()
  }
  const after = await topLevelPosts(base, marketId)
  if (after.length !== POSTS) throw new Error(`the market's thread holds ${after.length} top-level posts, not ${POSTS}`)
  if (!after[0].stance) throw new Error("the thread's newest post is not a take")
  return { posts: after.length, takes: after.filter((p) => p.stance).length, added: todo.length }
}

/** What the page reports for one navigation (times in ms since navigation start). */
export interface Sample {
  /** The frame whose rAF callback first found the card laid out. */
  detected: number
  /** After that frame's rendering task: the card's first paint. */
  painted: number
  /** The start of the following frame. */
  nextFrame: number
  /** The thread read's resource timing. */
  jsonStart: number
  jsonEnd: number
  /** The page got the thread read's response (fetch resolved), then its body (text resolved). */
  headers: number
  body: number
  /** dist/venuekit.js loaded, the document's HTML loaded. */
  bundleEnd: number
  htmlEnd: number
  stance: boolean
  inViewport: boolean
  rows: number
  more: boolean
  cardHasBody: boolean
}

/**
 * Installed before any page script (a string, so nothing of this module's transform ends up in it). It
 * watches every shadow root the page creates (a MutationObserver per root, through `attachShadow`) until the
 * first take card's `[part~="card"]` is in the thread's list; from then on, at the start of each frame,
 * it checks the card is laid out with a non-zero size, and records the end of that frame's rendering (the
 * card's first paint) and the start of the following frame. No polling loop: the page's own frames only.
 */
export const PROBE = `(() => {
  const out = (window.__vkFirstRender = { detected: null, painted: null, nextFrame: null, headers: null, body: null })
  // When the page gets the thread read's answer: over XMLHttpRequest (the page context's transport), its
  // headers and then its load event; over fetch, the promise (headers), then the body's text. Each is a
  // task on the page's main thread, so each waits behind whatever the page is busy with. Wrappers that only
  // note the time; the element's own code and what it receives are unchanged.
  const isThread = (u) => u.includes('/v1/social/posts?') && !u.includes('cursor=')
  const fetch0 = window.fetch
  window.fetch = function (input, init) {
    const p = fetch0.call(this, input, init)
    if (isThread(String(input && input.url ? input.url : input))) p.then(() => { out.headers ??= performance.now() }, () => {})
    return p
  }
  const text0 = Response.prototype.text
  Response.prototype.text = function () {
    const p = text0.call(this)
    if (isThread(this.url)) p.then(() => { out.body ??= performance.now() }, () => {})
    return p
  }
  const open0 = XMLHttpRequest.prototype.open
  XMLHttpRequest.prototype.open = function (m, u, ...rest) {
    if (isThread(String(u))) {
      this.addEventListener('readystatechange', () => { if (this.readyState === 2) out.headers ??= performance.now() })
      this.addEventListener('load', () => { out.body ??= performance.now() })
    }
    return open0.call(this, m, u, ...rest)
  }
  // The no-framework floor page draws its cards as plain DOM in the document itself.
  const plain = location.pathname.startsWith(${JSON.stringify(PLAIN_FLOOR_PAGE.replace(/\.html$/, ''))})
  const card = () => {
    if (plain) return document.querySelector('[data-vk-plain] [part~="list"] [part~="card"]')
    const list = document.querySelector('vk-market-comments')?.shadowRoot?.querySelector('[part~="list"]')
    const tc = list?.querySelector('vk-take-card')
    return tc?.shadowRoot?.querySelector('[part~="card"]') ?? null
  }
  const frame = () => {
    const c = card()
    const r = c?.getBoundingClientRect()
    if (!c || !r || r.width <= 0 || r.height <= 0) return void requestAnimationFrame(frame)
    out.detected = performance.now()
    // The first task after this frame's rendering task: user-blocking, so it runs ahead of the timers and
    // messages the page queued meanwhile (those would add their own time to the figure).
    // Both noted: the harness hears it on the console (it does not poll the page: Playwright's polling
    // evaluates its own ~20 ms script in the page while the page is starting).
    const done = () => { if (out.painted != null && out.nextFrame != null) console.debug(${JSON.stringify('__vk_first_render_done')}) }
    const painted = () => { out.painted = performance.now(); done() }
    if (globalThis.scheduler?.postTask) scheduler.postTask(painted, { priority: 'user-blocking' })
    else { const ch = new MessageChannel(); ch.port1.onmessage = painted; ch.port2.postMessage(0) }
    requestAnimationFrame(() => { out.nextFrame = performance.now(); done() })
    out.stance = !!c.querySelector('[part~="stance"]')
    out.cardHasBody = !!c.querySelector('[part~="body"]')?.textContent?.trim()
    out.inViewport = r.top < innerHeight && r.bottom > 0
  }
  let armed = false
  const mo = new MutationObserver(() => {
    if (armed || !card()) return
    armed = true
    mo.disconnect()
    requestAnimationFrame(frame)
  })
  if (plain) mo.observe(document, { childList: true, subtree: true })
  const attach = Element.prototype.attachShadow
  Element.prototype.attachShadow = function (init) {
    const root = attach.call(this, init)
    if (!armed) mo.observe(root, { childList: true, subtree: true })
    return root
  }
})()`

/**
 * Resolves when the probe has noted the first card's paint and the next frame. It listens for the probe's
 * console message instead of polling the page: `page.waitForFunction` injects and runs Playwright's own
 * script in the page (~20 ms of its main thread here, during its start-up) and then polls it.
 */
export function firstRenderDone(page: Page, timeout = WAIT_MS): Promise<unknown> {
  return page.waitForEvent('console', { predicate: (m) => m.text() === '__vk_first_render_done', timeout })
}

/**
 * A fresh browser context (cold HTTP cache, no storage) and its page, ready for one measured navigation:
 * settled on about:blank, with the probe (and, with `warmIcu`, WARM_ICU) installed before any page script.
 * The caller closes the context.
 */
export async function probedPage(browser: Browser, warmIcu = false): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: VIEWPORT })
  const page = await ctx.newPage()
  // A new window of headless Chromium loads its own browser UI (chrome:// pages) for a few hundred ms;
  // let that finish on about:blank first, so the navigation measured competes only with itself.
  await page.goto('about:blank')
  await page.waitForTimeout(SETTLE_MS)
  await page.addInitScript(PROBE)
  if (warmIcu) await page.addInitScript(WARM_ICU)
  return { ctx, page }
}

/** The measured navigation's start in a Chrome trace (µs, the browser's monotonic clock, as the profiler's). */
export function navigationStartOf<E extends { name: string; args?: { data?: { documentLoaderURL?: string } } }>(events: E[]): E {
  const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith('http'))
  if (!nav) throw new Error('no navigationStart of an http page in the trace')
  return nav
}

export async function navigate(browser: Browser, url: string, marketId: string, latencyMs = 0, warmIcu = false): Promise<Sample> {
  const { ctx, page } = await probedPage(browser, warmIcu)
  try {
    const errors: string[] = []
    page.on('pageerror', (e) => errors.push(e.message))
    if (latencyMs > 0) {
      // A round trip to the servers (page, bundle and service alike), as Chromium's DevTools throttling adds it.
      const cdp = await ctx.newCDPSession(page)
      await cdp.send('Network.enable')
      await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: latencyMs, downloadThroughput: -1, uploadThroughput: -1 })
    }
    const painted = firstRenderDone(page)
    await page.goto(url, { waitUntil: 'commit' })
    await painted
    const s = await page.evaluate(async (id) => {
      // Counted once the whole list is rendered (its rows after the first pass follow the first paint).
      await (document.querySelector('vk-market-comments') as (Element & { updateComplete?: Promise<unknown> }) | null)?.updateComplete
      const o = (window as unknown as { __vkFirstRender: Record<string, number | boolean> }).__vkFirstRender
      const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
      const thread = res.find((e) => {
        const u = new URL(e.name)
        return u.pathname === '/v1/social/posts' && u.searchParams.get('subjectRef')?.toLowerCase() === id && !u.searchParams.has('cursor')
      })
      const bundle = res.find((e) => new URL(e.name).pathname === '/venuekit.js')
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined
      const root = document.querySelector('vk-market-comments')?.shadowRoot ?? document.querySelector('[data-vk-plain]')
      return {
        detected: o.detected as number,
        painted: o.painted as number,
        nextFrame: o.nextFrame as number,
        headers: (o.headers as number | null) ?? NaN,
        body: (o.body as number | null) ?? NaN,
        jsonStart: thread ? thread.startTime : NaN,
        jsonEnd: thread ? thread.responseEnd : NaN,
        bundleEnd: bundle ? bundle.responseEnd : NaN,
        htmlEnd: nav ? nav.responseEnd : NaN,
        stance: !!o.stance,
        inViewport: !!o.inViewport,
        cardHasBody: !!o.cardHasBody,
        rows: root?.querySelectorAll('[part~="list"] > [part~="row"]').length ?? 0,
        more: !!root?.querySelector('[part~="more"]'),
      }
    }, marketId)
    if (errors.length) throw new Error(`page errors on ${url}: ${errors.join('; ')}`)
    if (!Number.isFinite(s.jsonEnd)) throw new Error(`no resource timing entry for the thread read of ${marketId}`)
    return s
  } finally {
    await ctx.close()
  }
}

/**
 * The first-render rows for `npm run bench`. A failure (the demo did not start, a navigation timed out, the
 * page threw) is one MISSED row with the reason, so the service figures measured before it still print.
 */
export async function firstRender(): Promise<BenchRow[]> {
  if (!existsSync(CHROMIUM_PATH)) return [row(`first render: skipped: Chromium not found at ${CHROMIUM_PATH}, run \`apt-get install chromium\``)]
  try {
    return await measure()
  } catch (e) {
    console.error('  first render failed:', e)
    return [row(`first render: failed: ${(e as Error).message.split('\n')[0].slice(0, 200)}`, '', `≤ ${RENDER_BUDGET.firstRenderMs} ms`, 'MISSED')]
  }
}

/**
 * The floor page: the built market page's head (its one venuekit script tag; none of the demo's own scripts
 * or styles) and the market's thread alone in the body. Written into demo/dist, which the demo serves.
 */
function writeFloorPage(marketId: string): boolean {
  const built = `${DEMO_DIST}market.html`
  const tag = existsSync(built) ? readFileSync(built, 'utf8').match(/<script\s+src="\/venuekit\.js"[^>]*><\/script>/)?.[0] : undefined
  if (!tag) {
    // A demo running from another checkout: this one has no built market page to take the tag from.
    console.error(`  first render: no floor rows (${built} with its venuekit script tag is missing: the floor page is built from it)`)
    return false
  }
  const html = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <link rel="icon" href="data:," />
    <title>The thread alone (venuekit first-render floor)</title>
    ${tag}
  </head>
  <body>
    <vk-market-comments market-id="${marketId}"></vk-market-comments>
  </body>
</html>
`
  writeFileSync(`${DEMO_DIST}${FLOOR_PAGE.slice(1)}`, html)
  writeFileSync(`${DEMO_DIST}${PLAIN_FLOOR_PAGE.slice(1)}`, plainFloorHtml(marketId))
  return true
}

/** The medians over navigations (each span and the ratio taken per navigation first) that the rows and `first-render-ab.ts` print. */
export function summarize(samples: Sample[]) {
  const p50 = (f: (s: Sample) => number) => median(samples.map(f))
  return {
    paint: p50((s) => s.painted),
    jsonEnd: p50((s) => s.jsonEnd),
    jsonStart: p50((s) => s.jsonStart),
    bundleEnd: p50((s) => s.bundleEnd),
    htmlEnd: p50((s) => s.htmlEnd),
    ratio: p50((s) => s.painted / s.jsonEnd),
    /** Where the time between the JSON and the paint goes: waiting for the page's main thread, then the element. */
    headersAfterJson: p50((s) => s.headers - s.jsonEnd),
    bodyAfterJson: p50((s) => s.body - s.jsonEnd),
    paintAfterBody: p50((s) => s.painted - s.body),
    /** Spans that a shift of the request (a bundle's size, the machine) does not move. */
    requestToPaint: p50((s) => s.painted - s.jsonStart),
    jsonToPaint: p50((s) => s.painted - s.jsonEnd),
  }
}

/** One line for a page's navigations (the diagnostic tools): the medians of `summarize`. */
export function summaryLine(label: string, samples: Sample[]): string {
  const m = summarize(samples)
  return `${label}: first card painted p50 ${m.paint.toFixed(1)} ms, JSON loaded ${m.jsonEnd.toFixed(1)} ms (request ${m.jsonStart.toFixed(1)} ms), ratio ${m.ratio.toFixed(2)}×; request → paint ${m.requestToPaint.toFixed(1)} ms, JSON → paint ${m.jsonToPaint.toFixed(1)} ms`
}

/** A row of a variant measured beside the market page: its first card, its JSON and its ratio (no verdict). */
function variantRow(label: string, samples: Sample[], extra: Record<string, number>): BenchRow {
  const { paint, jsonEnd, jsonStart: start, ratio, bodyAfterJson: after } = summarize(samples)
  return row(
    `  ${label}, ${samples.length} navigations alternating with the above: first card painted p50 ${fmt(paint)} ms, thread JSON loaded p50 ${fmt(jsonEnd)} ms (request ${fmt(start)} ms, body taken +${fmt(after)} ms); ratio`,
    `${ratio.toFixed(2)}×`,
    '',
    '',
    { ...extra, paintP50: paint, jsonEndP50: jsonEnd, jsonStartP50: start, bodyAfterJsonP50: after, ratio },
  )
}

/** The page at an emulated round trip: what the budget's ratio is on a network (no verdict: the budget is on localhost). */
function remoteRow(samples: Sample[]): BenchRow {
  return variantRow(`at a ${RTT_MS} ms round trip to the servers (DevTools network emulation)`, samples, { rttMs: RTT_MS })
}

async function measure(): Promise<BenchRow[]> {
  const running = process.env.VK_BENCH_RENDER_URL
  console.error(running ? `  first render: against the demo at ${running}` : '  first render: building and starting the demo (npm run demo)')
  const demo = running ? { url: running.replace(/\/+$/, ''), stop: async () => {} } : await startDemoProcess()
  let browser: Browser | undefined
  try {
    const marketId = await demoMarketId(demo.url)
    const filled = await fillThread(demo.url, marketId)
    console.error(`  first render: ${filled.posts} posts on ${MARKET_SLUG} (${filled.takes} takes; ${filled.added} written through the API)`)
    browser = await launchChromium()
    const url = `${demo.url}${PAGE}`
    const load0 = os.loadavg()[0]
    const samples: Sample[] = []
    const remote: Sample[] = []
    const floorCold: Sample[] = []
    const floorWarm: Sample[] = []
    const plainCold: Sample[] = []
    const plainWarm: Sample[] = []
    const floor = FLOOR && writeFloorPage(marketId)
    for (let i = 0; i < WARMUP + RUNS; i++) {
      // Localhost, the emulated round trip and the floor pages alternate, so all see the same machine.
      if (RTT_MS > 0) {
        const r = await navigate(browser, url, marketId, RTT_MS)
        if (i >= WARMUP) remote.push(r)
      }
      if (floor) {
        const cold = await navigate(browser, `${demo.url}${FLOOR_PAGE}`, marketId)
        const warm = await navigate(browser, `${demo.url}${FLOOR_PAGE}`, marketId, 0, true)
        const plain = await navigate(browser, `${demo.url}${PLAIN_FLOOR_PAGE}`, marketId)
        const plainIcu = await navigate(browser, `${demo.url}${PLAIN_FLOOR_PAGE}`, marketId, 0, true)
        if (i === 0 && (cold.rows !== Math.min(POSTS, 20) || !cold.stance)) throw new Error(`the floor page shows ${cold.rows} posts; expected the same thread as the market page`)
        if (i === 0 && (plain.rows < 5 || !plain.stance || !plain.cardHasBody)) throw new Error(`the plain floor page shows ${plain.rows} posts; expected the thread's first take and its first 5 posts at least`)
        if (i >= WARMUP) {
          floorCold.push(cold)
          floorWarm.push(warm)
          plainCold.push(plain)
          plainWarm.push(plainIcu)
        }
      }
      const s = await navigate(browser, url, marketId)
      if (i === 0) {
        // The page shows this market's thread: its first page of posts, the first one a take, Load more for the rest.
        const pageSize = Math.min(POSTS, 20)
        if (s.rows !== pageSize || !s.more) throw new Error(`the page shows ${s.rows} posts${s.more ? '' : ' and no Load more'}; expected the first ${pageSize} of ${POSTS} and Load more`)
        if (!s.stance || !s.cardHasBody) throw new Error('the first card on the page is not a take with its body')
      }
      if (i >= WARMUP) samples.push(s)
    }
    const load1 = os.loadavg()[0]
    const sum = summarize(samples)
    const { paint, jsonEnd: json50, ratio } = sum
    const wait = { headers: sum.headersAfterJson, body: sum.bodyAfterJson, paint: sum.paintAfterBody }
    const where = `${PAGE}, ${POSTS} posts (first page of ${samples[0].rows} shown), headless Chromium, ${samples.length} cold navigations`
    return [
      row(`first render: navigation start → first take card painted (${where})`, `p50 ${fmt(paint)} ms`, `≤ ${RENDER_BUDGET.firstRenderMs} ms`, paint <= RENDER_BUDGET.firstRenderMs ? 'ok' : 'MISSED', {
        p50: paint,
        min: Math.min(...samples.map((s) => s.painted)),
        max: Math.max(...samples.map((s) => s.painted)),
        nextFrameP50: median(samples.map((s) => s.nextFrame)),
        detectedP50: median(samples.map((s) => s.detected)),
        runs: samples.length,
        loadAvgStart: load0,
        loadAvgEnd: load1,
        inViewport: samples.every((s) => s.inViewport) ? 1 : 0,
      }),
      row(
        `  thread JSON loaded (responseEnd of GET ${PATHS.posts}; request started at p50 ${fmt(sum.jsonStart)} ms, script bundle loaded ${fmt(sum.bundleEnd)} ms)`,
        `p50 ${fmt(json50)} ms`,
        '',
        '',
        { p50: json50, startP50: sum.jsonStart, bundleEndP50: sum.bundleEnd, htmlEndP50: sum.htmlEnd },
      ),
      row('  render-to-JSON ratio: first card painted / thread JSON loaded, per navigation', `${ratio.toFixed(2)}×`, `≤ ${RENDER_BUDGET.ratio.toFixed(1)}×`, ratio <= RENDER_BUDGET.ratio ? 'ok' : 'MISSED', {
        ratio,
      }),
      row(
        `  after the JSON: page busy starting, takes the body (XHR load) +${fmt(wait.body)} ms later (headers +${fmt(wait.headers)}); then the element to the paint`,
        `p50 ${fmt(wait.paint)} ms`,
        '',
        '',
        { headersAfterJsonP50: wait.headers, bodyAfterJsonP50: wait.body, paintAfterBodyP50: wait.paint },
      ),
      ...(remote.length ? [remoteRow(remote)] : []),
      ...(floorCold.length
        ? [
            variantRow(`floor: the thread alone on a page (${FLOOR_PAGE}: the script tag and <vk-market-comments>)`, floorCold, { floor: 1 }),
            variantRow('floor: the same page, ICU warmed before any page script (init script WARM_ICU)', floorWarm, { floor: 1, warmIcu: 1 }),
            variantRow(`floor: no framework (${PLAIN_FLOOR_PAGE}: an inline script reads the same thread over XHR and draws its first 5 posts as plain DOM)`, plainCold, { floor: 1, plain: 1 }),
            variantRow('floor: no framework, ICU warmed before any page script', plainWarm, { floor: 1, plain: 1, warmIcu: 1 }),
          ]
        : []),
    ]
  } finally {
    await browser?.close()
    await demo.stop()
  }
}
