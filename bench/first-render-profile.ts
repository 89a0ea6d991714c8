/**
 * Diagnostic for the first-render benchmark: a V8 CPU profile of the element's own part, from the moment the
 * page takes the thread's answer (the probe's `body`) to the first take card's paint, summed over RUNS cold
 * navigations (default 8, after one warm-up): the functions with the most time there, inclusive and self.
 * Samples every 50 µs (the profiler slows the page by ~25%; the proportions are the point). It is how
 * docs/PERFORMANCE.md's "First render", session 10, was made.
 *
 *   npm run demo -- --port 8799 &   # then fill the thread and write the floor page once:
 *   VK_BENCH_RENDER_URL=http://127.0.0.1:8799 node --import tsx bench/first-render-cli.ts
 *   WARM=1 node --import tsx bench/first-render-profile.ts http://127.0.0.1:8799/bench-thread-alone.html
 *
 * WARM=1 adds the floor rows' ICU warm-up (WARM_ICU) before any page script; TOP (default 30) rows are printed.
 */
import { launchChromium } from '../scripts/chromium.ts'
import { firstRenderDone, navigationStartOf, probedPage } from './first-render.ts'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  startTime: number
  samples: number[]
  timeDeltas: number[]
}

const url = process.argv[2]
if (!url) throw new Error('usage: node --import tsx bench/first-render-profile.ts <address of a demo page>')
const RUNS = Number(process.env.RUNS ?? 8)
const TOP = Number(process.env.TOP ?? 30)
const name = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\//, '')}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`
const self = new Map<string, number>()
const inclusive = new Map<string, number>()
const add = (m: Map<string, number>, k: string, ms: number) => m.set(k, (m.get(k) ?? 0) + ms)

const browser = await launchChromium()
try {
  for (let run = 0; run <= RUNS; run++) {
    const { ctx, page } = await probedPage(browser, process.env.WARM === '1')
    try {
      const cdp = await ctx.newCDPSession(page)
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: 50 })
      await cdp.send('Profiler.start')
      // The trace gives navigation start on the profiler's clock (both are the browser's monotonic ticks, in µs).
      await browser.startTracing(page, { categories: ['loading', 'navigation', 'blink.user_timing'] })
      const painted = firstRenderDone(page)
      await page.goto(url, { waitUntil: 'commit' })
      await painted
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile }
      const fr = (await page.evaluate('window.__vkFirstRender')) as { body: number; painted: number }
      const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents as { name: string; ts: number; args?: { data?: { documentLoaderURL?: string } } }[]
      if (run === 0) continue
      const nav = navigationStartOf(events)
      const from = nav.ts + fr.body * 1000
      const to = nav.ts + fr.painted * 1000
      const byId = new Map(profile.nodes.map((n) => [n.id, n]))
      const parent = new Map<number, ProfileNode>()
      for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n)
      let t = profile.startTime
      for (let i = 0; i < profile.samples.length; i++) {
        t += profile.timeDeltas[i]
        if (t < from || t > to) continue
        const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000
        const leaf = byId.get(profile.samples[i])!
        add(self, name(leaf), ms)
        const seen = new Set<string>()
        for (let n: ProfileNode | undefined = leaf; n; n = parent.get(n.id)) {
          const k = name(n)
          if (seen.has(k)) continue
          seen.add(k)
          add(inclusive, k, ms)
        }
      }
      console.log(`navigation ${run}: body taken ${fr.body.toFixed(1)} ms, card painted ${fr.painted.toFixed(1)} ms (${(fr.painted - fr.body).toFixed(1)} ms, profiled)`)
    } finally {
      await ctx.close()
    }
  }
} finally {
  await browser.close()
}
const print = (title: string, m: Map<string, number>) => {
  console.log(`${title} (ms per navigation):`)
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${(v / RUNS).toFixed(2).padStart(8)}  ${k}`)
}
print('inclusive', inclusive)
print('self', self)
