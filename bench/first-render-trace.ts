/**
 * Diagnostic for the first-render benchmark: a main-thread timeline of one cold navigation of the demo
 * market page in headless Chromium (Chrome trace events), every task over 1.5 ms from navigation start to
 * the first take card's paint, with what ran inside it, plus the page's resource timings. It is how
 * docs/PERFORMANCE.md's "First render" analysis was made.
 *
 *   npm run demo -- --port 8799 &   # then fill the thread once: VK_BENCH_RENDER_URL=http://127.0.0.1:8799 node --import tsx bench/first-render-cli.ts
 *   node --import tsx bench/first-render-trace.ts http://127.0.0.1:8799/market.html
 *
 * RUNS (default 2): navigations; the first is a warm-up and is not printed.
 */
import { launchChromium } from '../scripts/chromium.ts'
import { firstRenderDone, navigationStartOf, probedPage } from './first-render.ts'
const url = process.argv[2]
const browser = await launchChromium()
for (let run = 0; run < Number(process.env.RUNS ?? 2); run++) {
  const { ctx, page } = await probedPage(browser)
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute', 'toplevel', 'loading', 'navigation', 'blink'] })
  const painted = firstRenderDone(page)
  await page.goto(url, { waitUntil: 'commit' })
  await painted
  const o = await page.evaluate(() => { const r = performance.getEntriesByType('resource') as PerformanceResourceTiming[]; return { fr: (window as any).__vkFirstRender, res: r.map((e) => [e.name.replace(/^https?:\/\/[^/]+/, '').slice(0, 90), Math.round(e.startTime), Math.round(e.responseEnd)]) } })
  const buf = await browser.stopTracing()
  await ctx.close()
  if (run === 0) continue
  const ev = JSON.parse(buf.toString()).traceEvents as any[]
  const nav = navigationStartOf(ev)
  const t0 = nav.ts
  const mainTid = ev.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === nav.pid)?.tid
  const main = ev.filter((e) => e.pid === nav.pid && e.tid === mainTid && e.ph === 'X')
  const tasks = main.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask').sort((a, b) => a.ts - b.ts)
  console.log('painted', o.fr.painted.toFixed(1), 'detected', o.fr.detected.toFixed(1))
  for (const r of o.res) console.log('  res', r.join(' '))
  const end = (o.fr.painted + 5) * 1000
  for (const t of tasks) {
    const st = t.ts - t0, du = t.dur ?? 0
    if (st < 0 || st > end || du < 1500) continue
    const kids = main.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + du && (e.dur ?? 0) > (Number(process.env.KID_US ?? 700)) && !/RunTask/.test(e.name))
    const desc = kids.slice(0, Number(process.env.KIDS ?? 8)).map((k) => `${k.name}${k.args?.data?.url ? '(' + String(k.args.data.url).replace(/^https?:\/\/[^/]+/, '').slice(0, 40) + ')' : ''}${k.args?.data?.functionName ? '[' + k.args.data.functionName + ':' + (k.args.data.lineNumber ?? '') + ']' : ''}${k.args?.data?.type ? '<' + k.args.data.type + '>' : ''}:${((k.dur ?? 0) / 1000).toFixed(1)}`).join(' ')
    console.log(`${(st / 1000).toFixed(1).padStart(7)} +${(du / 1000).toFixed(1).padStart(5)}  ${desc}`)
  }
}
await browser.close()
