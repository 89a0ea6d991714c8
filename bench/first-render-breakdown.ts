/**
 * Diagnostic for the first-render benchmark: where the page's main thread spends its time, by kind of
 * task, in four windows of a cold navigation of a demo page (default /market.html): navigation start →
 * the thread read's request, request → its JSON loaded (responseEnd), JSON → the page takes its body
 * (`text()` resolves, noted by the benchmark's probe), body → first take card painted. Medians over RUNS
 * navigations (default 8, after one warm-up), from Chrome trace events. Tracing slows the page by ~10%,
 * so the times here are a little longer than `bench/first-render.ts` reports; the proportions are the
 * point. It is how docs/PERFORMANCE.md's "First render" decomposition was made.
 *
 *   npm run demo -- --port 8799 &   # then fill the thread once: VK_BENCH_RENDER_URL=http://127.0.0.1:8799 node --import tsx bench/first-render-cli.ts
 *   node --import tsx bench/first-render-breakdown.ts http://127.0.0.1:8799/market.html
 */
import { launchChromium } from '../scripts/chromium.ts'
import { firstRenderDone, navigationStartOf, probedPage } from './first-render.ts'
import { median } from './stats.ts'

const url = process.argv[2]
if (!url) throw new Error('usage: node --import tsx bench/first-render-breakdown.ts <address of a demo page>')
const RUNS = Number(process.env.RUNS ?? 8)

interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: { name?: string; data?: { documentLoaderURL?: string; url?: string } }
}

/** The kind of a top-level main-thread task, from what ran inside it. */
function kindOf(task: TraceEvent, inside: TraceEvent[]): string {
  const has = (re: RegExp) => inside.some((e) => re.test(e.name))
  if (has(/CommitNavigation/)) return 'navigation commit'
  if (inside.some((e) => e.name === 'EvaluateScript' && /venuekit\.js/.test(e.args?.data?.url ?? ''))) return 'venuekit.js: evaluate (define elements, create the client)'
  if (has(/^EvaluateScript$/)) return 'script compile'
  if (has(/v8\.evaluateModule|FinishedParsing/)) return "the page's module scripts, DOMContentLoaded"
  if (has(/HTMLDocumentParser::(Deferred)?PumpTokenizer/)) return 'HTML parsing, with the elements it upgrades (connect, first render, requests)'
  if (has(/BeginMainFrame|UpdateLifecycle/)) return 'frames (style, layout, paint)'
  if (has(/TimerFire/)) return 'timers (stores, formatter warm-up, batches)'
  if (has(/RunMicrotasks|PerformMicrotaskCheckpoint/) || task.name === 'BlinkScheduler_PerformMicrotaskCheckpoint') return 'promise callbacks (answers arriving, their renders)'
  if (has(/FunctionCall|EventDispatch/)) return 'event callbacks (sockets, messages)'
  return 'other (IPC, network, GC)'
}

const browser = await launchChromium()
const WINDOWS = ['navigation → request', 'request → JSON loaded', 'JSON loaded → body taken', 'body taken → card painted'] as const
const busy = new Map<string, number[]>()
const spans = new Map<string, number[]>()
try {
  for (let run = 0; run <= RUNS; run++) {
    const { ctx, page } = await probedPage(browser)
    try {
      await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'toplevel', 'blink', 'loading', 'navigation', 'blink.user_timing'] })
      const painted = firstRenderDone(page)
      await page.goto(url, { waitUntil: 'commit' })
      await painted
      const o = await page.evaluate(() => {
        const r = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) => e.name.includes('/v1/social/posts?') && !e.name.includes('cursor='))
        const f = (window as unknown as { __vkFirstRender: { painted: number; body: number } }).__vkFirstRender
        return { request: r?.startTime ?? NaN, json: r?.responseEnd ?? NaN, body: f.body, painted: f.painted }
      })
      const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents as TraceEvent[]
      if (run === 0) continue
      const nav = navigationStartOf(events)
      const mainTid = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === nav.pid)?.tid
      const main = events.filter((e) => e.pid === nav.pid && e.tid === mainTid && e.ph === 'X')
      const tasks = main.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'BlinkScheduler_PerformMicrotaskCheckpoint')
      const bounds = [0, o.request, o.json, o.body, o.painted]
      WINDOWS.forEach((w, i) => spans.set(w, [...(spans.get(w) ?? []), bounds[i + 1] - bounds[i]]))
      const sums = new Map<string, number>()
      for (const t of tasks) {
        const start = (t.ts - nav.ts) / 1000
        const end = start + (t.dur ?? 0) / 1000
        const inside = main.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + (t.dur ?? 0))
        // A microtask checkpoint nested in a RunTask is counted with its task.
        if (t.name === 'BlinkScheduler_PerformMicrotaskCheckpoint' && tasks.some((x) => x !== t && x.ts <= t.ts && x.ts + (x.dur ?? 0) >= t.ts + (t.dur ?? 0))) continue
        const kind = kindOf(t, inside)
        // The parser runs a microtask checkpoint before it upgrades each custom element: promise callbacks
        // that were waiting (an answer's render) run inside parser tasks. Those count as promise callbacks.
        const parts: [string, number, number][] = []
        if (kind.startsWith('HTML parsing')) {
          const mts = inside.filter((e) => e.name === 'RunMicrotasks')
          const top = mts.filter((e) => !mts.some((x) => x !== e && x.ts <= e.ts && x.ts + (x.dur ?? 0) >= e.ts + (e.dur ?? 0)))
          for (const m of top) parts.push(['promise callbacks (answers arriving, their renders)', (m.ts - nav.ts) / 1000, (m.ts - nav.ts + (m.dur ?? 0)) / 1000])
        }
        WINDOWS.forEach((w, i) => {
          const clip = (a: number, b: number) => Math.max(0, Math.min(b, bounds[i + 1]) - Math.max(a, bounds[i]))
          const nested = parts.reduce((sum, [, a, b]) => sum + clip(a, b), 0)
          const add = (k: string, v: number) => v > 0 && sums.set(`${w}|${k}`, (sums.get(`${w}|${k}`) ?? 0) + v)
          add(kind, clip(start, end) - nested)
          for (const [k, a, b] of parts) add(k, clip(a, b))
        })
      }
      const keys = new Set([...busy.keys(), ...sums.keys()])
      for (const k of keys) busy.set(k, [...(busy.get(k) ?? Array(run - 1).fill(0)), sums.get(k) ?? 0])
    } finally {
      await ctx.close()
    }
  }
} finally {
  await browser.close()
}

console.log(`${url}: main-thread time by kind of task, median of ${RUNS} cold navigations (ms; traced)`)
for (const w of WINDOWS) {
  const rows = [...busy.entries()].filter(([k]) => k.startsWith(`${w}|`)).map(([k, v]) => [k.split('|')[1], median(v)] as const)
  const total = rows.reduce((a, [, v]) => a + v, 0)
  console.log(`\n${w}: ${median(spans.get(w)!).toFixed(1)} ms (main thread busy ${total.toFixed(1)} ms, sum of medians)`)
  for (const [k, v] of rows.sort((a, b) => b[1] - a[1])) if (v >= 0.5) console.log(`  ${v.toFixed(1).padStart(6)}  ${k}`)
}
