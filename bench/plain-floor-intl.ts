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
import { launchChromium } from '../scripts/chromium.ts'
import { alternating, DEMO_DIST, demoMarketId, navigate, summaryLine } from './first-render.ts'
import { PLAIN_FLOOR_PAGE, PLAIN_NO_INTL_PAGE, plainFloorHtml } from './plain-floor-page.ts'

const base = process.env.VK_BENCH_RENDER_URL
if (!base) throw new Error('usage: VK_BENCH_RENDER_URL=<running demo> node --import tsx bench/plain-floor-intl.ts')
const marketId = await demoMarketId(base)
writeFileSync(`${DEMO_DIST}${PLAIN_FLOOR_PAGE.slice(1)}`, plainFloorHtml(marketId))
writeFileSync(`${DEMO_DIST}${PLAIN_NO_INTL_PAGE.slice(1)}`, plainFloorHtml(marketId, false))
const browser = await launchChromium()
try {
  const out = await alternating([PLAIN_FLOOR_PAGE, PLAIN_NO_INTL_PAGE], Number(process.env.N ?? 18), 2, async (p, round) => {
    const s = await navigate(browser, `${base}${p}`, marketId)
    if (round === 0 && (s.rows < 5 || !s.stance)) throw new Error(`${p} shows ${s.rows} posts; fill the thread first (bench/first-render-cli.ts against the demo)`)
    return s
  })
  for (const [p, samples] of out) console.log(summaryLine(p, samples))
} finally {
  await browser.close()
}
