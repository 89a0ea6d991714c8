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
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS, navigate, summaryLine, type Sample } from './first-render.ts'
const base = process.env.VK_BENCH_RENDER_URL
const page = process.env.VK_BENCH_RENDER_PAGE ?? '/market.html'
const variants = process.argv.slice(2)
if (!base || variants.length < 2) throw new Error('usage: VK_BENCH_RENDER_URL=<running demo> node --import tsx bench/first-render-ab.ts <bundle A> <bundle B> [...]')
const N = Number(process.env.N ?? 12)
const cfg = await (await fetch(`${base}/demo/config.json`)).json()
const marketId = cfg.markets['btc-150k']
const browser = await chromium.launch({ executablePath: process.env.VK_CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
const out = new Map<string, Sample[]>(variants.map((v) => [v, []]))
try {
  for (let i = 0; i < N + 1; i++)
    for (const v of i % 2 ? variants : [...variants].reverse()) {
      copyFileSync(v, 'dist/venuekit.js')
      const s = await navigate(browser, `${base}${page}`, marketId)
      if (i === 0) continue
      out.get(v)!.push(s)
    }
} finally {
  await browser.close()
}
for (const [v, samples] of out) console.log(summaryLine(v, samples))
