/**
 * The first-render benchmark on its own (see bench/first-render.ts): prints its rows as a table.
 *   node --import tsx bench/first-render-cli.ts        (VK_BENCH_RENDER_RUNS, VK_CHROMIUM)
 */
import os from 'node:os'
import { firstRender } from './first-render.ts'

const rows = await firstRender()
const w = (k: 'figure' | 'value' | 'budget') => Math.max(...rows.map((r) => r[k].length))
for (const r of rows) console.log([r.figure.padEnd(w('figure')), r.value.padEnd(w('value')), r.budget.padEnd(w('budget')), r.verdict].join('  ').trimEnd())
for (const r of rows) if (r.raw) console.log(JSON.stringify(r.raw))
console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; ${os.cpus().length} cores`)
