/**
 * A/B of script-bundle builds on the first-render benchmark: against a running `npm run demo` (which reads
 * dist/venuekit.js on every request), each navigation copies one variant over dist/venuekit.js, then
 * measures it exactly as `bench/first-render.ts` does; the variants alternate (in alternating order per
 * round) so both see the same machine. Prints the medians per variant. It decided docs/PERFORMANCE.md's
 * "tried, not kept" items. Leaves the last variant in dist/venuekit.js: rebuild (`npx vite build`) after.
 *
 *   cp dist/venuekit.js /tmp/a.js; (change, npx vite build); cp dist/venuekit.js /tmp/b.js
 *   VK_BENCH_RENDER_URL=http://127.0.0.1:8799 N=24 node --import tsx bench/first-render-ab.ts /tmp/a.js /tmp/b.js
 *
 * N: rounds (default 12, after one warm-up round); VK_BENCH_RENDER_PAGE: the page (default /market.html).
 * Besides the medians of the first card, the JSON and their ratio, it prints the medians per navigation of the
 * request → paint and JSON → paint spans, which a shift of the request (a bundle's size, the machine) does not move.
 */
import { copyFileSync } from 'node:fs'
import { launchChromium } from '../scripts/chromium.ts'
import { alternating, demoMarketId, navigate, summaryLine } from './first-render.ts'
const base = process.env.VK_BENCH_RENDER_URL
const page = process.env.VK_BENCH_RENDER_PAGE ?? '/market.html'
const variants = process.argv.slice(2)
if (!base || variants.length < 2) throw new Error('usage: VK_BENCH_RENDER_URL=<running demo> node --import tsx bench/first-render-ab.ts <bundle A> <bundle B> [...]')
const marketId = await demoMarketId(base)
const browser = await launchChromium()
try {
  const out = await alternating(variants, Number(process.env.N ?? 12), 1, (v) => {
    copyFileSync(v, 'dist/venuekit.js')
    return navigate(browser, `${base}${page}`, marketId)
  })
  for (const [v, samples] of out) console.log(summaryLine(v, samples))
} finally {
  await browser.close()
}
