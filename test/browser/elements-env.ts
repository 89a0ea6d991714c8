/**
 * What the element tests share: the running reference service (from `/__vk/config.json`), the SDK test
 * harness over it (fresh wallets, markets, positions, resolutions), a page context (`createVenuekit`)
 * whose fetch can be made to fail or hang for fault tests (the service stays real otherwise), and
 * queries that look through shadow roots.
 */
import { expect, fixture, html } from '@open-wc/testing'
import { freshRef, harness, type FixtureEnv, type Harness } from '../sdk/harness.ts'
import type { VkRoomFeed } from '../../src/elements/room-feed/room-feed.element.ts'
import { createVenuekit, type CheckoutAdapter, type Venuekit } from '../../src/stores/index.ts'
import type { ClientConfig } from '../../src/sdk/index.ts'
import { plain } from '../helpers/visible-text.ts'

/*
 * nanostores reads `process.env.NODE_ENV` when a store is created; a bundler defines
 * it (scripts/size.mjs does), the test runner's dev server serves node_modules as is. Defined here for the
 * element test pages only (the SDK's browser test checks that the SDK itself needs no Node globals).
 */
const g = globalThis as { process?: { env: Record<string, string> } }
g.process ??= { env: { NODE_ENV: 'development' } }

let envP: Promise<FixtureEnv> | null = null
export const fixtureEnv = () => (envP ??= fetch('/__vk/config.json').then((r) => r.json() as Promise<FixtureEnv>))

let h: Harness | null = null
export async function service(): Promise<Harness> {
  return (h ??= harness(await fixtureEnv()))
}

type Match = (url: URL, init: RequestInit | undefined) => boolean
interface Rule {
  match: Match
  status?: number
  /** No answer at all: the fetch rejects as a browser's does offline ("Failed to fetch"). */
  network?: boolean
  hold?: Promise<void>
}

/** A fetch that passes through to the real service unless a rule says to fail or hold a request. */
export function faultyFetch() {
  const rules: Rule[] = []
  const requests: { method: string; url: URL }[] = []
  const fetchImpl: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    requests.push({ method: init?.method ?? 'GET', url })
    const rule = rules.find((r) => r.match(url, init))
    if (rule?.hold) await rule.hold
    if (rule?.network) throw new TypeError('Failed to fetch')
    if (rule?.status)
      return new Response(JSON.stringify({ error: { code: 'internal', message: 'injected fault' } }), {
        status: rule.status,
        headers: { 'content-type': 'application/json' },
      })
    return fetch(input, init)
  }
  return {
    fetchImpl,
    requests,
    /** Answers matching requests with `status` (500 by default). Returns the remover. */
    fail(match: Match, status = 500) {
      const r: Rule = { match, status }
      rules.push(r)
      return () => void rules.splice(rules.indexOf(r), 1)
    },
    /** Matching requests get no answer (a network failure: the SDK's `network` error). Returns the remover. */
    failNetwork(match: Match) {
      const r: Rule = { match, network: true }
      rules.push(r)
      return () => void rules.splice(rules.indexOf(r), 1)
    },
    /** Holds matching requests until the returned function is called (then they fail with `status`, or pass). */
    hold(match: Match, status?: number) {
      let release!: () => void
      const r: Rule = { match, status, hold: new Promise<void>((ok) => (release = ok)) }
      rules.push(r)
      return () => {
        rules.splice(rules.indexOf(r), 1)
        release()
      }
    },
    clear: () => void rules.splice(0),
  }
}
export type Faults = ReturnType<typeof faultyFetch>

export const isPath = (fragment: string, method?: string): Match => (url, init) =>
  url.pathname.includes(fragment) && (!method || (init?.method ?? 'GET').toUpperCase() === method)

let current: (Venuekit & { faults: Faults }) | null = null

/**
 * The page's venuekit context over the real service (disposing of the previous one). Keyless and venue-less
 * unless `config` names a venue (`apiKey`, `venueId`).
 */
export async function makeVk(o: { checkout?: CheckoutAdapter | null; moderation?: boolean; config?: Pick<ClientConfig, 'apiKey' | 'venueId'> } = {}) {
  current?.dispose()
  const env = await fixtureEnv()
  const faults = faultyFetch()
  const vk = createVenuekit({
    config: { baseUrl: env.url, streamUrl: env.streamUrl, apiKey: null, ...o.config, fetchImpl: faults.fetchImpl },
    checkout: o.checkout ?? null,
    moderation: o.moderation,
  })
  current = Object.assign(vk, { faults })
  return current
}

export function disposeVk() {
  current?.dispose()
  current = null
}

/** Every element matching `selector` inside `root`, looking through every shadow root below it. */
export function deepAll<E extends Element = HTMLElement>(root: Element | ShadowRoot | Document, selector: string): E[] {
  const out: E[] = []
  const visit = (node: Element | ShadowRoot | Document) => {
    out.push(...(node.querySelectorAll(selector) as unknown as E[]))
    for (const el of node.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot)
  }
  if (root instanceof Element && root.shadowRoot) visit(root.shadowRoot)
  visit(root)
  return out
}

export const deep = <E extends Element = HTMLElement>(root: Element | ShadowRoot | Document, selector: string): E | null => deepAll<E>(root, selector)[0] ?? null

export { plain }

/** The text a reader sees, through shadow roots (whitespace collapsed; the invisible bidi isolates left out). */
export function deepText(root: Node): string {
  const parts: string[] = []
  const visit = (n: Node) => {
    if (n.nodeType === Node.TEXT_NODE) parts.push(n.textContent ?? '')
    const kids = n instanceof Element && n.shadowRoot ? n.shadowRoot.childNodes : n.childNodes
    kids.forEach(visit)
  }
  visit(root)
  return plain(parts.join(' ')).replace(/\s+/g, ' ').trim()
}

/** The buttons inside `root` (through shadow roots) whose text includes `text`. */
export const buttons = (root: Element, text: string) => deepAll<HTMLButtonElement>(root, 'button').filter((b) => deepText(b).includes(text))
export const button = (root: Element, text: string) => buttons(root, text)[0] ?? null

/** Sets a test account's profile through the public API (`PUT /v1/me/profile`). */
export async function setProfile(token: string, profile: { name?: string | null; avatarUrl?: string | null }) {
  const env = await fixtureEnv()
  const r = await fetch(`${env.url}/v1/me/profile`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(profile),
  })
  if (!r.ok) throw new Error(`profile ${r.status} ${await r.text()}`)
}

/** Waits until `fn` is true, with a message that names what was awaited. */
export async function until(fn: () => unknown, message: string, timeout = 8000) {
  const end = Date.now() + timeout
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting: ${message}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

declare global {
  const describe: (name: string, fn: () => void) => void
  const it: (name: string, fn: () => Promise<void> | void) => void
  const before: (fn: () => Promise<void> | void) => void
  const after: (fn: () => Promise<void> | void) => void
  const beforeEach: (fn: () => Promise<void> | void) => void
  const afterEach: (fn: () => Promise<void> | void) => void
}

/** The focused element, through shadow roots. */
export function deepActive(): Element | null {
  let a = document.activeElement
  while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement
  return a
}

/**
 * Tabs from just before `root` through it with real key presses: every control inside is a tab stop, and
 * each one, focused from the keyboard, matches :focus-visible with a visible outline.
 */
export async function expectKeyboardReachable(root: Element) {
  const { sendKeys } = await import('@web/test-runner-commands')
  const start = document.createElement('button')
  start.textContent = 'start'
  root.before(start)
  start.focus()
  const controls = deepAll<HTMLElement>(root, 'button, textarea, input, select, a[href]').filter((c) => !(c as HTMLButtonElement).disabled)
  const stops: Element[] = []
  for (let i = 0; i < controls.length + 5; i++) {
    await sendKeys({ press: 'Tab' })
    const a = deepActive()
    if (!a || a === start || stops.includes(a) || !(root.contains(a) || deepAll(root, '*').includes(a as HTMLElement))) break
    stops.push(a)
    if (!a.matches(':focus-visible')) throw new Error(`no :focus-visible on ${a.outerHTML.slice(0, 80)}`)
    if (getComputedStyle(a).outlineStyle === 'none') throw new Error(`focus not visible on ${a.outerHTML.slice(0, 80)}`)
  }
  start.remove()
  const missed = controls.filter((c) => !stops.includes(c))
  if (missed.length) throw new Error(`not reachable by Tab: ${missed.map((c) => c.outerHTML.slice(0, 60)).join(' | ')}`)
  if (controls.some((c) => c.tabIndex > 0)) throw new Error('positive tabindex')
}

/** A trade on the fixture chain (dev route): how trading reaches a feed as signals (§1.6). */
export async function trade(wallet: string, marketId: string, side: number, size = '1000') {
  const env = await fixtureEnv()
  const r = await fetch(`${env.url}/v1/dev/trades`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ wallet, marketId, side, size }),
  })
  if (!r.ok) throw new Error(`trade ${r.status} ${await r.text()}`)
}

/** Sets one side's price on the fixture chain (dev route), e.g. after a take was written at an unknown price. */
export async function setPrice(marketId: string, side: number, priceBps: number) {
  const env = await fixtureEnv()
  const r = await fetch(`${env.url}/v1/dev/prices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ marketId, side, priceBps }),
  })
  if (!r.ok) throw new Error(`price ${r.status} ${await r.text()}`)
}

/**
 * A fresh category node with, in this order: a take on market `a` (older), a comment on market `b`
 * (newer), and a resolved market `settled` with a take by `caller` (who so holds a rank at the node).
 * The live order puts the older take above the newer comment (takes rank higher), so server order and
 * time order differ.
 */
export async function nodeFeed() {
  const s = await service()
  const ref = `cat-${Math.random().toString(36).slice(2, 10)}`
  const nodes = [{ type: 'category', ref }]
  const [a, b, settled] = [await s.addMarket({ nodes, title: `A ${ref}` }), await s.addMarket({ nodes, title: `B ${ref}` }), await s.addMarket({ nodes, title: `S ${ref}` })]
  const caller = await s.signedIn()
  await s.setPosition(caller.w.wallet, settled.id, 0, '1000')
  const settledTake = await caller.createPost('event', settled.id, 'called it')
  await s.resolve(settled.id, 0)
  const taker = await s.signedIn()
  await s.setPosition(taker.w.wallet, a.id, 1, '1000')
  const take = await taker.createPost('event', a.id, 'older take')
  await new Promise((r) => setTimeout(r, 20))
  const commenter = await s.signedIn()
  const comment = await commenter.createPost('event', b.id, 'newer comment')
  return { s, ref, nodes, a, b, settled, caller, taker, commenter, take, comment, settledTake }
}

/** nodeFeed plus trading by its ranked caller: on market `a` (which has a take) and on a fresh market `c` (no posts). */
export async function withSignals() {
  const f = await nodeFeed()
  const c = await f.s.addMarket({ nodes: f.nodes, title: `C ${f.ref}` })
  await trade(f.caller.w.wallet, f.a.id, 0)
  await trade(f.caller.w.wallet, c.id, 1)
  return { ...f, c }
}

/**
 * §2.2 on an element drawing `withSignals()`' node page (live order): the signal attached to the take is a line
 * under it, the one on market `c` (no post) a quiet row placed before the post its `before` names (last when
 * null), and the settled take has its settlement line. Returns the quiet row.
 */
export async function expectSignalRows(el: Element, f: Awaited<ReturnType<typeof withSignals>>, vk: Venuekit) {
  await until(() => deep(el, '[part~="signal"]') && deep(el, '[part~="signal-row"]') && deep(el, '[part~="settlement"]'), 'signals drawn')
  const page = await vk.client.postFeed({ scope: 'subject', subjectType: 'category', subjectRef: f.ref, sort: 'live' })
  expect(page.signals.find((x) => x.attachTo)?.attachTo, 'the page attaches a signal to the take').to.equal(f.take.id)
  const quiet = page.signals.find((x) => !x.attachTo)!
  const takeRow = el.shadowRoot!.getElementById(`vk-post-${f.take.id}`)!
  expect(deepText(takeRow.querySelector('[part~="signal"]')!)).to.equal('1 ranked caller moved to Yes')
  const quietRow = deep(el, '[part~="signal-row"]')!
  expect(deepText(quietRow)).to.include(`C ${f.ref}`).and.include('1 ranked caller moved to No')
  const items = deepAll(el, '[part~="list"] > li')
  const at = items.indexOf(quietRow)
  if (quiet.before) expect(items[at + 1].id).to.equal(`vk-post-${quiet.before}`)
  else expect(at).to.equal(items.length - 1)
  const settledRow = el.shadowRoot!.getElementById(`vk-post-${f.settledTake.id}`)!
  expect(deepText(settledRow.querySelector('[part~="settlement"]')!)).to.equal('Settled: Yes · 1 right · 0 wrong')
  return { quietRow, page }
}

/** Each part is in the element's own shadow root and styleable from the page with `::part()`. */
export function expectParts(el: Element, parts: string[]) {
  const style = document.createElement('style')
  style.textContent = parts.map((p) => `${el.localName}::part(${p}) { scroll-margin-top: 7px; }`).join('\n')
  document.head.append(style)
  try {
    for (const p of parts) {
      const n = el.shadowRoot!.querySelector(`[part~="${p}"]`)
      if (!n) throw new Error(`<${el.localName}> has no part "${p}"`)
      if (getComputedStyle(n).scrollMarginTop !== '7px') throw new Error(`::part(${p}) does not style <${el.localName}>`)
    }
  } finally {
    style.remove()
  }
}

/**
 * A fresh venue's public room on a fresh category node, a reader of that venue signed in on `vk` who neither
 * is a member nor follows the node, and a `<vk-room-feed>` of that room (the test imports the element).
 */
export async function nonMemberRoomFeed(vk: Venuekit) {
  const s = await service()
  const v = await s.venue()
  const roomId = await s.room(v, { type: 'category', ref: freshRef('room') })
  await vk.signIn({ ...s.wallet(), venueId: v.venueId })
  const el = await fixture<VkRoomFeed>(html`<vk-room-feed room-id=${roomId}></vk-room-feed>`)
  return { s, v, roomId, el }
}
