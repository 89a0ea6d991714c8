/**
 * End-to-end: headless Chromium (playwright-core) against `npm run demo` (one process: the seeded service
 * and the demo pages on one port). For each market page — plain HTML with the script tag, the Vue app,
 * the Svelte app and the React 19 app — a demo wallet signs in, buys a side on the fixture chain, answers
 * the take prompt, and the take shows with its stance in the thread and in the community feed; a second,
 * signed-out page on the same market sees it arrive live; three other wallets report it past the threshold
 * (§3.1: 3 distinct reporters hide it pending review), and the venue's owner finds it in the operator queue.
 *
 *   node --import tsx --test test/e2e/demo.test.ts      (Chromium: VK_CHROMIUM, default /usr/bin/chromium)
 */
import { after, afterEach, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
import { launchChromium } from '../../scripts/chromium.ts'
import { createClient } from '../../src/sdk/index.ts'
import { startDemoProcess, type DemoProcess } from '../../scripts/demo-process.ts'
import { plain } from '../helpers/visible-text.ts'

const WAIT = 20_000
/** The text a reader sees (without the invisible bidi isolates around each text placed in a sentence). */
const seen = async (l: Locator) => plain(await l.innerText())
const PKG_VERSION = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version

let demo: DemoProcess
let browser: Browser
const contexts: BrowserContext[] = []

before(async () => {
  demo = await startDemoProcess()
  browser = await launchChromium()
})

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()))
})

after(async () => {
  await browser?.close()
  await demo?.stop()
})

/** A fresh browser profile (own storage: own demo wallet, own take-prompt answers); page errors fail the test. */
async function openPage(path: string): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 1000 } })
  contexts.push(ctx)
  const page = await ctx.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  ;(page as Page & { errors: string[] }).errors = errors
  await page.goto(`${demo.url}${path}`)
  return page
}

const pageErrors = (page: Page) => (page as Page & { errors: string[] }).errors

/** Picks a demo wallet in the demo bar: SIWE with its local test key, in the page. */
async function signIn(page: Page, handle: string) {
  await page.locator('#demo-wallet').selectOption(handle)
  await page.locator('.demo-status').filter({ hasText: 'Signed in' }).waitFor({ timeout: WAIT })
}

/** The row of the thread (or feed) that holds `body`. Playwright's CSS pierces open shadow roots. */
/**
 * The stance chip: the side held and that side's price when writing (and the size, in threads). Its
 * accessible text starts "Held <side> when writing".
 */
const stanceOf = (side: string) => new RegExp(`(^|\\n)${side}( · [\\d.,]+)? at \\d+%`)

const rowWith = (scope: Locator, body: string) => scope.locator('[part~="card"]').filter({ has: scope.page().locator('[part~="body"]', { hasText: body }) })

const FLOWS = [
  { name: 'plain HTML (script tag)', path: '/market.html', market: 'fed-cut', author: 'ben', reporters: ['chloe', 'dmitri', 'emeka'] },
  { name: 'Vue 3 app', path: '/vue/', market: 'tokyo-35c', author: 'chloe', reporters: ['ben', 'dmitri', 'farah'] },
  { name: 'Svelte 5 app', path: '/svelte/', market: 'eth-staking-etf', author: 'dmitri', reporters: ['ben', 'emeka', 'farah'] },
  { name: 'React 19 app', path: '/react/', market: 'brazil-election', author: 'emeka', reporters: ['ben', 'chloe', 'farah'] },
]

describe('demo venue end to end (npm run demo, headless Chromium)', () => {
  for (const flow of FLOWS) {
    it(`${flow.name}: sign in, buy, answer the take prompt, see the take live, report it past the threshold, find it in the operator queue`, async () => {
      const path = `${flow.path}?market=${flow.market}`
      const body = `e2e take from ${flow.name} ${Date.now().toString(36)}`

      // A second page on the same market, signed out, open before the take is written.
      const watcher = await openPage(path)
      const watcherThread = watcher.locator('vk-market-comments')
      await watcherThread.locator('[part~="list"]').first().waitFor({ timeout: WAIT })

      // The author: sign in, buy the first side, answer the take prompt.
      const page = await openPage(path)
      await page.locator('.market-head h1').waitFor({ timeout: WAIT })
      await signIn(page, flow.author)
      const buy = page.locator('.demo-buy-0')
      const side = (await seen(buy)).replace(/^Buy /, '')
      await buy.click()
      const prompt = page.locator('vk-take-prompt [part~="prompt"]')
      await prompt.waitFor({ timeout: WAIT })
      assert.match(await seen(prompt.locator('[part~="title"]')), new RegExp(side))
      await prompt.locator('[part~="input"]').fill(body)
      await prompt.locator('[part~="post"]').click()
      await prompt.waitFor({ state: 'detached', timeout: WAIT })

      // In the thread, with its stance: the side bought, proven by the server.
      const row = rowWith(page.locator('vk-market-comments'), body)
      await row.waitFor({ timeout: WAIT })
      assert.match(await seen(row.locator('[part~="stance"]')), stanceOf(side))
      if (flow.path !== '/market.html') {
        // The app's own handler got the element's typed event.
        await page.locator('[data-last-event]').filter({ hasText: 'vk-post-created' }).waitFor({ timeout: WAIT })
      }

      // Live in the second page: it arrives through the stream ("N new", then shown on request).
      const newBar = watcherThread.locator('[part~="new-bar"] button')
      const watcherRow = rowWith(watcherThread, body)
      await Promise.race([newBar.waitFor({ timeout: WAIT }), watcherRow.waitFor({ timeout: WAIT })])
      if (await newBar.isVisible()) await newBar.click()
      await watcherRow.waitFor({ timeout: WAIT })
      assert.match(await seen(watcherRow.locator('[part~="stance"]')), stanceOf(side))

      // In the community feed on the home page, with the same stance.
      const home = await openPage('/')
      const feedRow = rowWith(home.locator('vk-community-takes'), body)
      await feedRow.waitFor({ timeout: WAIT })
      assert.match(await seen(feedRow.locator('[part~="stance"]')), stanceOf(side))

      // Three other wallets report it: the third report hides it pending review.
      for (const who of flow.reporters) {
        const r = await openPage(path)
        await signIn(r, who)
        const card = rowWith(r.locator('vk-market-comments'), body)
        await card.locator('[part~="report"]').click()
        const form = card.locator('[part~="composer"]')
        await form.locator('textarea, input').first().fill(`spam (e2e, reported by ${who})`)
        await form.locator('button[type="submit"]').click()
        // "Reported" — or, after the third report, the post is hidden and the live refetch takes it off this
        // reader's thread (a hidden post is shown to its author only).
        await Promise.race([card.locator('[part~="notice"]').waitFor({ timeout: WAIT }), card.waitFor({ state: 'detached', timeout: WAIT })])
      }

      // The venue's owner (Ada) sees it in the operator queue, marked hidden by reports.
      const op = await openPage('/operator.html')
      await signIn(op, 'ada')
      const queue = op.locator('vk-moderation-queue[venue-id="harbor-markets"]')
      const queued = queue.locator('[part~="row"]').filter({ hasText: body })
      await queued.waitFor({ timeout: WAIT })
      await queued.locator('[part~="threshold-hidden"]').waitFor({ timeout: WAIT })

      for (const p of [watcher, page, home, op]) assert.deepEqual(pageErrors(p), [], `page errors on ${p.url()}`)
    })
  }

  it('"Show earlier replies" in the script bundle: the demo\'s busy take shows its newest 50 replies, and the control reads the rest above them', async () => {
    // The seed's busy take on the Lakers market: 55 replies (seed.ts, LAKERS_TALK).
    const cfg = (await (await fetch(`${demo.url}/demo/config.json`)).json()) as { markets: Record<string, string> }
    const client = createClient({ baseUrl: demo.url, apiKey: null })
    const thread0 = await client.posts('event', cfg.markets['lakers-playoffs'])
    const parent = thread0.posts.find((p) => p.body === 'Their remaining schedule is brutal: six road games against the top four. No.')
    assert.ok(parent, 'the seeded busy take')
    const all = await client.replies(parent.id, { limit: 100 })
    assert.equal(all.hasMore, false)
    const replies = all.posts.map((p) => p.id)
    assert.equal(replies.length, 55)

    const page = await openPage('/market.html?market=lakers-playoffs')
    const thread = page.locator('vk-market-comments')
    const row = thread.locator(`#vk-post-${parent.id}`)
    const replyRows = row.locator('[part~="reply-row"]')
    await row.locator('[part~="earlier"] [part~="more"]').waitFor({ timeout: WAIT })
    assert.deepEqual(await replyRows.evaluateAll((rs) => rs.map((r) => r.id.replace('vk-post-', ''))), replies.slice(-50))
    await row.locator('[part~="earlier"] [part~="more"]').click()
    await row.locator('[part~="earlier"]').waitFor({ state: 'detached', timeout: WAIT })
    assert.deepEqual(await replyRows.evaluateAll((rs) => rs.map((r) => r.id.replace('vk-post-', ''))), replies)
    assert.deepEqual(pageErrors(page), [])
  })

  it('every demo page loads with its elements upgraded and no page error', async () => {
    for (const path of ['/', '/market.html', '/room.html', '/profile.html', '/operator.html', '/vue/', '/svelte/', '/react/']) {
      const page = await openPage(path)
      await page.waitForLoadState('networkidle')
      const undefinedTags = await page.evaluate(() =>
        [...document.querySelectorAll('*')].map((e) => e.localName).filter((t) => t.startsWith('vk-') && !customElements.get(t)),
      )
      assert.deepEqual(undefinedTags, [], `${path}: elements without a definition`)
      assert.deepEqual(pageErrors(page), [], `${path}: page errors`)
    }
  })

  it('§4.4 "Taxonomy-node section: <RoomFeed subject>": the demo\'s /room.html?node=category:crypto draws the seeded signals and settlements', async () => {
    const page = await openPage('/room.html?node=category:crypto')
    const feed = page.locator('vk-room-feed')
    await feed.locator('[part~="signal"]').first().waitFor({ timeout: WAIT })
    await feed.locator('[part~="settlement"]').first().waitFor({ timeout: WAIT })
    assert.match(await seen(feed.locator('[part~="signal"]').first()), /^\d+ ranked callers? moved to \S/)
    assert.equal(await feed.getAttribute('subject-ref'), 'crypto')
    assert.equal(await feed.getAttribute('room-id'), null)
    assert.deepEqual(pageErrors(page), [])
  })

  describe('the script tag on any site', () => {
    /**
     * Another origin — a venue's own site — served by a small HTTP server of the test, on another port of
     * the loopback address (a page served by page.route would count as public, and Chromium keeps public
     * pages from loading local addresses). Each page's HTML is registered under its own path.
     */
    const BTC_TAKE = 'Post-halving rallies top out long before this'
    let btc = ''
    before(async () => {
      const cfg = (await (await fetch(`${demo.url}/demo/config.json`)).json()) as { markets: Record<string, string> }
      btc = cfg.markets['btc-150k']
    })
    const tag = (attrs = `data-base-url="${demo.url}" data-api-key="none"`) => `<script src="${demo.url}/venuekit.js" ${attrs}></script>`

    const sitePages = new Map<string, string>()
    let site: Server
    let SITE = ''
    before(async () => {
      site = createServer((req, res) => {
        if (req.url === '/favicon.ico') return void res.writeHead(204).end()
        const html = sitePages.get(req.url ?? '')
        res.writeHead(html ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? 'not found')
      })
      await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
      SITE = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
    })
    after(() => new Promise<void>((r) => site.close(() => r())))

    async function sitePage(html: string): Promise<Page> {
      const path = `/page-${sitePages.size}.html`
      sitePages.set(path, `<!doctype html><html><head><meta charset="utf-8"><title>A venue</title></head><body>${html}</body></html>`)
      const ctx = await browser.newContext()
      contexts.push(ctx)
      const page = await ctx.newPage()
      const errors: string[] = []
      page.on('pageerror', (e) => errors.push(e.message))
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
      ;(page as Page & { errors: string[] }).errors = errors
      await page.goto(`${SITE}${path}`)
      return page
    }
    const thread = (page: Page, id: string) => page.locator(`#${id} [part~="body"]`, { hasText: BTC_TAKE })

    it('configures the client from the data-* of its own tag; elements written before and after it both upgrade', async () => {
      const page = await sitePage(
        `<vk-market-comments id="before" market-id="${btc}"></vk-market-comments>${tag(`data-base-url="${demo.url}" data-api-key="none" data-venue-id="harbor-markets"`)}
         <script>addEventListener('load', () => { const e = document.createElement('vk-market-comments'); e.id = 'after'; e.setAttribute('market-id', '${btc}'); document.body.append(e) })</script>`,
      )
      await thread(page, 'before').waitFor({ timeout: WAIT })
      await thread(page, 'after').waitFor({ timeout: WAIT })
      const config = await page.evaluate(() => {
        const c = window.venuekit!.client!.config
        return { baseUrl: c.baseUrl, venueId: c.venueId, apiKey: c.apiKey, version: window.venuekit!.version }
      })
      assert.deepEqual(config, { baseUrl: demo.url, venueId: 'harbor-markets', apiKey: null, version: PKG_VERSION })
      assert.deepEqual(pageErrors(page), [])
    })

    it('§9.5 "a development build warns when an explicit host contradicts the named network": the script bundle is a production build and stays quiet', async () => {
      const page = await sitePage(`${tag(`data-network="mainnet" data-base-url="${demo.url}" data-api-key="none"`)}<vk-market-comments id="n" market-id="${btc}"></vk-market-comments>`)
      const warnings: string[] = []
      page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
      await page.reload()
      await thread(page, 'n').waitFor({ timeout: WAIT })
      assert.equal(await page.evaluate(() => window.venuekit!.client!.config.baseUrl), demo.url, 'the explicit address is used')
      assert.deepEqual(warnings.filter((w) => w.includes('contradicts')), [])
      assert.deepEqual(pageErrors(page), [])
    })

    it("the operator's <vk-moderation-queue> comes with venuekit-operator.js, not the readers' bundle; after the venuekit.js tag it uses that tag's context", async () => {
      const page = await sitePage(`${tag(`data-base-url="${demo.url}" data-api-key="none" data-venue-id="harbor-markets"`)}<vk-moderation-queue id="q" venue-id="harbor-markets"></vk-moderation-queue>`)
      await page.waitForFunction(() => customElements.get('vk-market-comments'), undefined, { timeout: WAIT })
      assert.equal(await page.evaluate(() => !!customElements.get('vk-moderation-queue')), false, 'venuekit.js leaves the operator element out')
      await page.evaluate(() => ((window as unknown as { ctx0: unknown }).ctx0 = window.venuekit!.context))
      await page.addScriptTag({ url: `${demo.url}/venuekit-operator.js` })
      // Signed out, the queue asks to sign in: it found the page's context (no context draws nothing).
      await page.locator('#q [part~="sign-in"]').waitFor({ timeout: WAIT })
      assert.equal(await page.evaluate(() => window.venuekit!.context === (window as unknown as { ctx0: unknown }).ctx0 && window.venuekit!.context != null), true, 'one context on the page')
      assert.deepEqual(pageErrors(page), [])
    })

    it('loading the bundle twice (and once more after load) never throws, and keeps one context and one window.venuekit', async () => {
      const page = await sitePage(`${tag()}<script>window.first = window.venuekit; window.firstContext = window.venuekit.context</script>${tag()}<vk-market-comments id="t" market-id="${btc}"></vk-market-comments>`)
      await thread(page, 't').waitFor({ timeout: WAIT })
      await page.evaluate(
        (src) =>
          new Promise<void>((resolve, reject) => {
            const s = document.createElement('script')
            s.src = src
            s.dataset.baseUrl = location.origin
            s.onload = () => resolve()
            s.onerror = () => reject(new Error('did not load'))
            document.head.append(s)
          }),
        `${demo.url}/venuekit.js`,
      )
      const same = await page.evaluate(() => {
        const w = window as unknown as { first: unknown; firstContext: unknown }
        return window.venuekit === w.first && window.venuekit!.context === w.firstContext && window.venuekit!.context != null
      })
      assert.equal(same, true)
      assert.deepEqual(pageErrors(page), [])
    })

    it('a type="module" tag marked data-venuekit is found without document.currentScript', async () => {
      const page = await sitePage(`<script type="module" data-venuekit src="${demo.url}/venuekit.js" data-base-url="${demo.url}" data-api-key="none"></script><vk-market-comments id="m" market-id="${btc}"></vk-market-comments>`)
      await thread(page, 'm').waitFor({ timeout: WAIT })
      assert.equal(await page.evaluate(() => window.venuekit!.client!.config.baseUrl), demo.url)
      assert.deepEqual(pageErrors(page), [])
    })

    it('a tag without configuration installs window.venuekit; configure() then sets up the client', async () => {
      const page = await sitePage(`${tag('')}`)
      assert.equal(await page.evaluate(() => window.venuekit!.context), null)
      await page.evaluate(({ url, id }) => {
        window.venuekit!.configure({ baseUrl: url, apiKey: null })
        const e = document.createElement('vk-market-comments')
        e.id = 'c'
        e.setAttribute('market-id', id)
        document.body.append(e)
      }, { url: demo.url, id: btc })
      await thread(page, 'c').waitFor({ timeout: WAIT })
      assert.deepEqual(pageErrors(page), [])
    })

    it('next to the ESM build (the Vue app), the bundle defines what is missing, uses the app\'s context and throws nothing', async () => {
      const page = await openPage('/vue/?market=btc-150k')
      await page.locator('vk-market-comments [part~="body"]', { hasText: BTC_TAKE }).waitFor({ timeout: WAIT })
      const before = await page.evaluate(() => [customElements.get('vk-market-comments') != null, customElements.get('vk-mini-leaderboard') != null])
      assert.deepEqual(before, [true, false], 'the Vue app defines only the elements it imports')
      await page.evaluate(
        (src) =>
          new Promise<void>((resolve, reject) => {
            const s = document.createElement('script')
            s.src = src
            s.dataset.baseUrl = location.origin
            s.dataset.apiKey = 'none'
            s.onload = () => resolve()
            s.onerror = () => reject(new Error('did not load'))
            document.head.append(s)
            const board = document.createElement('vk-mini-leaderboard')
            board.setAttribute('scope', 'global')
            document.querySelector('.side-col')!.append(board)
          }),
        `${demo.url}/venuekit.js`,
      )
      await page.locator('vk-mini-leaderboard [part~="row"]').first().waitFor({ timeout: WAIT })
      // The bundle found the app's context and made none of its own (a second one would throw session-auth-exists).
      assert.equal(await page.evaluate(() => window.venuekit!.client!.config.apiKey?.startsWith('pck_')), true)
      assert.deepEqual(pageErrors(page), [])
    })
  })
})
