/**
 * Diagnostic for the first-render benchmark: what a renderer's first Intl object costs. Each row is a fresh
 * browser context (a fresh renderer process) on a data: page in headless Chromium; the kinds in ORDER are
 * built one after the other and each one's time is printed. Whichever kind comes first pays ICU's one-time
 * start-up. It is how docs/PERFORMANCE.md's "First render", session 10, was checked.
 *
 *   node --import tsx bench/icu-startup.ts                      # the default orders below
 *   ORDERS='[["seg","rt"],["loc","rt"]]' RUNS=6 node --import tsx bench/icu-startup.ts
 *
 * Kinds (INTL_KINDS in first-render.ts): rt RelativeTimeFormat, nf NumberFormat, pct NumberFormat (percent), dt DateTimeFormat, pr
 * PluralRules, lf ListFormat, seg Segmenter, col localeCompare (Collator), loc Intl.Locale, sup
 * NumberFormat.supportedLocalesOf, tls Number#toLocaleString, dls Date#toLocaleString.
 */
import { launchChromium } from '../scripts/chromium.ts'
import { INTL_KINDS } from './first-render.ts'
import { median } from './stats.ts'

const ORDERS: string[][] = JSON.parse(process.env.ORDERS ?? '[["rt","nf","pct","dt","pr"],["pr","nf","rt"],["dt","rt","nf"],["lf","rt"],["seg","rt"],["col","rt"],["loc","rt"],["tls","rt"],["dls","rt"]]')
const RUNS = Number(process.env.RUNS ?? 4)
const browser = await launchChromium()
try {
  for (const order of ORDERS) {
    const times = order.map(() => [] as number[])
    for (let i = 0; i < RUNS; i++) {
      const ctx = await browser.newContext()
      try {
        const page = await ctx.newPage()
        await page.goto('data:text/html,<p>venuekit')
        const ms = (await page.evaluate(`(() => { const k = ${INTL_KINDS}; return ${JSON.stringify(order)}.map((n) => { const t = performance.now(); k[n](); return performance.now() - t }) })()`)) as number[]
        ms.forEach((m, j) => times[j].push(m))
      } finally {
        await ctx.close()
      }
    }
    console.log(order.map((k, j) => `${k} ${median(times[j]).toFixed(1)} ms (${Math.min(...times[j]).toFixed(1)}–${Math.max(...times[j]).toFixed(1)})`).join(', then '))
  }
} finally {
  await browser.close()
}
