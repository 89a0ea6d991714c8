/**
 * Diagnostic for the first-render benchmark: what a renderer's first Intl object costs. Each row is a fresh
 * browser context (a fresh renderer process) on a data: page in headless Chromium; the kinds in ORDER are
 * built one after the other and each one's time is printed. Whichever kind comes first pays ICU's one-time
 * start-up. It is how docs/PERFORMANCE.md's "First render", session 10, was checked.
 *
 *   node --import tsx bench/icu-startup.ts                      # the default orders below
 *   ORDERS='[["seg","rt"],["loc","rt"]]' RUNS=6 node --import tsx bench/icu-startup.ts
 *   WORKER=1 ORDERS='[["dt","rt","pct","nf","pr"]]' RUNS=8 node --import tsx bench/icu-startup.ts
 *
 * Kinds (INTL_KINDS in first-render.ts): rt RelativeTimeFormat, nf NumberFormat, pct NumberFormat (percent), dt DateTimeFormat, pr
 * PluralRules, lf ListFormat, seg Segmenter, col localeCompare (Collator), loc Intl.Locale, sup
 * NumberFormat.supportedLocalesOf, tls Number#toLocaleString, dls Date#toLocaleString.
 *
 * WORKER=1: before the page's own formatters, a Web Worker (from a blob: URL) builds the same kinds in the same
 * order, and the time from `new Worker` to its answer is printed too. ICU's data and caches belong to the
 * renderer process, so the page's first formatter then costs a fraction of a millisecond ("First render →
 * Session 13" in docs/PERFORMANCE.md).
 */
import { launchChromium } from '../scripts/chromium.ts'
import { INTL_KINDS } from './first-render.ts'
import { median } from './stats.ts'

const ORDERS: string[][] = JSON.parse(process.env.ORDERS ?? '[["rt","nf","pct","dt","pr"],["pr","nf","rt"],["dt","rt","nf"],["lf","rt"],["seg","rt"],["col","rt"],["loc","rt"],["tls","rt"],["dls","rt"]]')
const RUNS = Number(process.env.RUNS ?? 4)
const WORKER = process.env.WORKER === '1'
/** In the page: a worker builds `order`'s kinds; resolves with the ms from `new Worker` to its answer. */
const inWorker = (order: string[]) => `new Promise((resolve) => {
  const src = 'const k = ' + ${JSON.stringify(INTL_KINDS)} + '; for (const n of ' + ${JSON.stringify(JSON.stringify(order))} + ') k[n](); postMessage(0)'
  const t = performance.now()
  const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })))
  w.onmessage = () => resolve(performance.now() - t)
})`
/** Median and range of a kind's times over the runs. */
const spread = (ms: number[]) => `${median(ms).toFixed(1)} ms (${Math.min(...ms).toFixed(1)}–${Math.max(...ms).toFixed(1)})`
const browser = await launchChromium()
try {
  for (const order of ORDERS) {
    const times = order.map(() => [] as number[])
    const workerMs: number[] = []
    for (let i = 0; i < RUNS; i++) {
      const ctx = await browser.newContext()
      try {
        const page = await ctx.newPage()
        await page.goto('data:text/html,<p>venuekit')
        if (WORKER) workerMs.push((await page.evaluate(inWorker(order))) as number)
        const ms = (await page.evaluate(`(() => { const k = ${INTL_KINDS}; return ${JSON.stringify(order)}.map((n) => { const t = performance.now(); k[n](); return performance.now() - t }) })()`)) as number[]
        ms.forEach((m, j) => times[j].push(m))
      } finally {
        await ctx.close()
      }
    }
    if (WORKER) process.stdout.write(`worker done after ${spread(workerMs)}; then the page: `)
    console.log(order.map((k, j) => `${k} ${spread(times[j])}`).join(', then '))
  }
} finally {
  await browser.close()
}
