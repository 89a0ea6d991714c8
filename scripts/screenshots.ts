/**
 * `npm run screenshots`: the README's pictures, taken with headless Chromium against `npm run demo`.
 * Writes docs/screenshots/{market,room,moderation}-{light,dark}.png (light and dark through
 * `prefers-color-scheme` emulation). Before the moderation shots, one demo wallet posts a spam comment and
 * three others report it through the SDK, so the queue has something in it.
 *
 *   npm run screenshots          (sets up Chromium when missing; VK_CHROMIUM overrides the browser)
 */
import { mkdirSync } from 'node:fs'
import process from 'node:process'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { privateKeyToAccount } from 'viem/accounts'
import { createClient } from '../src/sdk/index.ts'
import { DEMO_KEYS, type DemoHandle } from '../src/server/demo-wallets.ts'
import { launchChromium } from './chromium.ts'
import { startDemoProcess } from './demo-process.ts'

const out = fileURLToPath(new URL('../docs/screenshots/', import.meta.url))

async function signedIn(baseUrl: string, handle: DemoHandle) {
  const account = privateKeyToAccount(DEMO_KEYS[handle])
  const client = createClient({ baseUrl, apiKey: null, venueId: 'harbor-markets' })
  await client.auth.signIn({ address: account.address, signMessage: (message) => account.signMessage({ message }) })
  return client
}

/** Something for the queue: a spam comment, reported by three people (the third report hides it). */
async function seedReports(baseUrl: string, marketId: string) {
  const spammer = await signedIn(baseUrl, 'dmitri')
  const post = await spammer.createPost('event', marketId, 'FREE AIRDROP for the first 100 wallets: send 0.1 ETH to claim 10x back!!!')
  for (const who of ['ben', 'chloe', 'emeka'] as const) await (await signedIn(baseUrl, who)).reportPost(post.id, 'spam: an airdrop scam')
}

async function pickWallet(page: Page, handle: string) {
  await page.locator('#demo-wallet').selectOption(handle)
  await page.locator('.demo-status').filter({ hasText: 'Signed in' }).waitFor({ timeout: 20_000 })
}

async function main() {
  mkdirSync(out, { recursive: true })
  const demo = await startDemoProcess()
  const browser = await launchChromium(['--hide-scrollbars'])
  try {
    const config = (await (await fetch(`${demo.url}/demo/config.json`)).json()) as { markets: Record<string, string> }
    await seedReports(demo.url, config.markets['eth-4k-friday'])
    const shots: { name: string; path: string; as: string; prepare?: (page: Page) => Promise<void>; ready: string }[] = [
      {
        name: 'market',
        path: '/market.html?market=btc-150k',
        as: 'farah',
        // A buy through the dev button: the take prompt opens above the thread.
        prepare: async (page) => {
          await page.locator('.demo-buy-0').click()
          await page.locator('vk-take-prompt [part~="prompt"]').waitFor({ timeout: 20_000 })
          await page.locator('vk-take-prompt [part~="input"]').fill('ETF demand keeps absorbing supply; 38¢ is too cheap.')
        },
        ready: 'vk-market-comments [part~="body"]',
      },
      { name: 'room', path: '/room.html', as: 'chloe', ready: 'vk-room-feed [part~="body"]' },
      { name: 'moderation', path: '/operator.html', as: 'ada', ready: 'vk-moderation-queue [part~="row"]' },
    ]
    for (const scheme of ['light', 'dark'] as const) {
      for (const shot of shots) {
        const ctx = await browser.newContext({ viewport: { width: 1200, height: 860 }, colorScheme: scheme, deviceScaleFactor: 1 })
        const page = await ctx.newPage()
        await page.goto(`${demo.url}${shot.path}`)
        await pickWallet(page, shot.as)
        await page.locator(shot.ready).first().waitFor({ timeout: 20_000 })
        await shot.prepare?.(page)
        await page.waitForLoadState('networkidle')
        await page.waitForTimeout(400)
        const file = `${out}${shot.name}-${scheme}.png`
        await page.screenshot({ path: file })
        console.log(`wrote ${file}`)
        await ctx.close()
      }
    }
  } finally {
    await browser.close()
    await demo.stop()
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
