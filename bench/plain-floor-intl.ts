/**
 * What ICU's start-up costs the no-framework floor page (`bench/plain-floor-page.ts`): the page as the bench
 * measures it (its times and numbers through Intl) alternating with the same page whose formatters are
 * plain-JS stand-ins, no Intl at all. A diagnostic only: the product formats every number and time with Intl.
 * Against a running demo whose market thread the first-render bench has filled (run it once against the demo):
 *
 *   VK_BENCH_RENDER_URL=http://127.0.0.1:8799 N=30 node --import tsx bench/plain-floor-intl.ts
 *
 * N: rounds (default 18, after 2 warm-up rounds). It writes both pages into demo/dist, which the demo serves.
 */
import { writeFileSync } from 'node:fs'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, navigate, summaryLine, type Sample } from './first-render.ts'
import { PLAIN_FLOOR_PAGE, PLAIN_NO_INTL_PAGE, plainFloorHtml } from './plain-floor-page.ts'

const base = process.env.VK_BENCH_RENDER_URL
if (!base) throw new Error('usage: VK_BENCH_RENDER_URL=<running demo> node --import tsx bench/plain-floor-intl.ts')
const N = Number(process.env.N ?? 18)
const cfg = await (await fetch(`${base}/demo/config.json`)).json()
const marketId: string = cfg.markets['btc-150k']
const dist = (page: string) => new URL(`../demo/dist${page}`, import.meta.url)
writeFileSync(dist(PLAIN_FLOOR_PAGE), plainFloorHtml(marketId))
writeFileSync(dist(PLAIN_NO_INTL_PAGE), plainFloorHtml(marketId, false))
const pages = [PLAIN_FLOOR_PAGE, PLAIN_NO_INTL_PAGE]
const out = new Map<string, Sample[]>(pages.map((p) => [p, []]))
const browser = await chromium.launch({ executablePath: process.env.VK_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
try {
  for (let i = 0; i < N + 2; i++)
    for (const p of i % 2 ? pages : [...pages].reverse()) {
      const s = await navigate(browser, `${base}${p}`, marketId)
      if (i === 0 && (s.rows < 5 || !s.stance)) throw new Error(`${p} shows ${s.rows} posts; fill the thread first (bench/first-render-cli.ts against the demo)`)
      if (i >= 2) out.get(p)!.push(s)
    }
} finally {
  await browser.close()
}
for (const [p, samples] of out) console.log(summaryLine(p, samples))
