/**
 * `npm run bench`: one harness, one table. Every figure is the median over VK_BENCH_REPEATS rounds; each
 * ratio is measured side by side in the same round (service and raw SQL alternate, in alternating order).
 *
 * Per store (PGlite at 100k posts, PostgreSQL at 1M posts; the service runs in its own process, seeded
 * with bench/bulk-seed.ts; requests are sequential over keep-alive HTTP on 127.0.0.1, signed out):
 * - feed page latency p50 / p99: the global feed's first page, a cursor page, a category feed's first page;
 *   and in `sort=record` order (a room discussion's default; the seed gives one author in five a record):
 *   the global first and cursor pages and the category's first page, latency only;
 * - service overhead: the endpoint's p50 over the p50 of the raw SQL of the same page: every statement the
 *   service runs for that page (a `live` page is one statement: rows, replies, agrees and labels), captured
 *   from the service's own code and run straight on its store connection, already compiled. The profile
 *   row shows the rows' query alone and the HTTP floor (GET /v1/health);
 * - take counts: one read of 100 market ids, p50 / p99;
 * - writes: sustained post-write throughput with a stance attached (16 signed-in writers, each holding a
 *   position, 16 concurrent requests), with rate limits off and with them on (limits raised so nothing is
 *   refused: the cost of counting).
 * - first render: the elements' benchmark (bench/first-render.ts), in headless Chromium.
 *
 * Env: VK_BENCH_STORES (default "pglite,postgres"), VK_BENCH_POSTS_PGLITE (100000), VK_BENCH_POSTS_PG
 * (1000000), VK_BENCH_PG_URL (default $VK_PG_URL or postgres://postgres@127.0.0.1:5432/test; the PostgreSQL
 * rows are skipped with a note when no server answers), VK_BENCH_REPEATS (5), VK_BENCH_SAMPLES (300
 * sequential requests per figure per round), VK_BENCH_WRITE_SECONDS (5), VK_BENCH_JSON (write the rows
 * as JSON to this file too), VK_BENCH_PROFILE (a directory: the service process writes a V8 CPU profile there),
 * VK_BENCH_PARTS (default "feed,writes,render": run only some parts, e.g. "writes" while working on the write path;
 * "feed" is the feed pages, the overhead ratios and the take counts).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { PATHS, SERVICE_PATHS } from '../src/contract/paths.ts'
import { firstRender } from './first-render.ts'
import type { FeedPageSpec } from './server-child.ts'
import { fmt, median, percentile } from './stats.ts'
import { freshPgDatabase } from '../scripts/lib/pg-database.ts'
import { signIn } from '../scripts/lib/sign-in.ts'

const STORES = (process.env.VK_BENCH_STORES ?? 'pglite,postgres').split(',').map((s) => s.trim()) as ('pglite' | 'postgres')[]
const POSTS = { pglite: Number(process.env.VK_BENCH_POSTS_PGLITE ?? 100_000), postgres: Number(process.env.VK_BENCH_POSTS_PG ?? 1_000_000) }
const REPEATS = Number(process.env.VK_BENCH_REPEATS ?? 5)
const SAMPLES = Number(process.env.VK_BENCH_SAMPLES ?? 300)
const WRITE_SECONDS = Number(process.env.VK_BENCH_WRITE_SECONDS ?? 5)
const PG_ADMIN = process.env.VK_BENCH_PG_URL ?? process.env.VK_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const WRITERS = 16
const PARTS = new Set((process.env.VK_BENCH_PARTS ?? 'feed,writes,render').split(',').map((s) => s.trim()))

/** Budgets (issue 9), for the verdict column. */
const BUDGET = {
  feedP99: { pglite: 25, postgres: 15 },
  overhead: 2.0,
  takeCountsP99: 15,
  writesPerSecond: { postgres: 500 } as Record<string, number>,
}

interface Child {
  url: string
  keys: `0x${string}`[]
  markets: string[]
  seedMs: number
  proc: ChildProcess
  ask<T>(msg: object): Promise<T>
  stop(): Promise<void>
}

async function startChild(kind: 'pglite' | 'postgres', posts: number, databaseUrl?: string): Promise<Child> {
  const profile = process.env.VK_BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.VK_BENCH_PROFILE}`] : []
  const proc = spawn(process.execPath, [...profile, '--import', 'tsx', 'bench/server-child.ts', JSON.stringify({ kind, posts, databaseUrl, writers: WRITERS })], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  })
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve)
    proc.once('exit', (code) => reject(new Error(`bench service exited with ${code}`)))
  })
  let next = 0
  const waiting = new Map<number, (v: any) => void>()
  proc.on('message', (m: any) => waiting.get(m.id)?.(m))
  return {
    ...JSON.parse(line),
    proc,
    ask<T>(msg: object) {
      const id = ++next
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, (m) => (waiting.delete(id), m.error ? reject(new Error(m.error)) : resolve(m)))
        proc.send({ ...msg, id })
      })
    },
    stop: () =>
      new Promise<void>((r) => {
        proc.once('exit', () => r())
        proc.kill('SIGTERM')
      }),
  }
}

/**
 * Sequential samples use node:http over one keep-alive socket: the time from the request to the last
 * byte of the answer. The body is read whole but not parsed (a client's own JSON parse is not the
 * endpoint's time); `timed` parses it for the checks.
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
/** One request over node:http on a keep-alive agent: status and the whole body as text. */
function send(url: string, via: http.Agent, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = opts.body === undefined ? opts.headers : { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) }
    const req = http.request(url, { method: opts.method ?? 'GET', agent: via, headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(opts.body)
  })
}
const get = (url: string) => send(url, agent)

async function timed(url: string): Promise<{ ms: number; status: number; body: any }> {
  const t = performance.now()
  const res = await get(url)
  const ms = performance.now() - t
  return { ms, status: res.status, body: JSON.parse(res.text) }
}

async function httpSamples(url: string, n: number): Promise<number[]> {
  const xs: number[] = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    const r = await get(url)
    xs.push(performance.now() - t)
    if (r.status !== 200) throw new Error(`${url} answered ${r.status} ${r.text.slice(0, 300)}`)
  }
  return xs
}

/**
 * The raw SQL of a page, `n` samples, one per IPC message: the service process waits between samples as it
 * waits between HTTP requests. (On this VM a process that idles between runs is slower per run than one
 * that runs back to back — an idle vCPU comes back with cold caches: the same page read took 1.6 ms back
 * to back and 2.1 ms after 1 ms asleep. Timing the SQL in a tight loop and the endpoint request by request
 * would charge that to the service.)
 */
async function pacedSql(c: Child, page: FeedPageSpec, what: 'rows' | 'page', n: number) {
  const ms: number[] = []
  let statements = 0
  for (let i = 0; i < n; i++) {
    const one = await c.ask<{ ms: number[]; statements: number }>({ cmd: 'raw-feed', page, what, samples: 1 })
    ms.push(one.ms[0])
    statements = one.statements
  }
  return { ms, statements }
}

/**
 * CPU seconds used so far (user + system, from /proc; Linux only, else null) by the service process, by
 * PostgreSQL's processes and by this process (the bench client): where a write's CPU goes on a machine
 * where all three share the cores.
 */
function cpuSeconds(servicePid: number | undefined): { service: number; postgres: number; client: number } | null {
  const ticks = (pid: number | string) => {
    try {
      const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
      return (Number(f[11]) + Number(f[12])) / 100
    } catch {
      return 0
    }
  }
  try {
    let postgres = 0
    for (const d of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(d)) continue
      let comm = ''
      try {
        comm = fs.readFileSync(`/proc/${d}/comm`, 'utf8').trim()
      } catch {}
      if (comm === 'postgres') postgres += ticks(d)
    }
    return { service: servicePid ? ticks(servicePid) : 0, postgres, client: ticks(process.pid) }
  } catch {
    return null
  }
}

/**
 * Sustained post writes from every writer at once, for `seconds`: posts/s, share with a stance, refusals.
 * Each writer is one keep-alive connection (node:http: the client shares the 2 cores with the service and
 * PostgreSQL, and `fetch` cost it about twice the CPU per request).
 */
async function writeThroughput(c: Child, tokens: string[], seconds: number) {
  let ok = 0
  let stance = 0
  let errors = 0
  const until = performance.now() + seconds * 1000
  const t0 = performance.now()
  const cpu0 = cpuSeconds(c.proc.pid)
  const url = c.url + PATHS.posts
  await Promise.all(
    tokens.map(async (token, w) => {
      const writer = new http.Agent({ keepAlive: true, maxSockets: 1 })
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` }
      try {
        for (let i = 0; performance.now() < until; i++) {
          const m = c.markets[(w * 7 + i) % c.markets.length]
          const res = await send(url, writer, { method: 'POST', headers, body: JSON.stringify({ subjectType: 'event', subjectRef: m, body: `bench write ${w}-${i}` }) })
          if (res.status === 201) {
            ok++
            if (JSON.parse(res.text).post.stance) stance++
          } else errors++
        }
      } finally {
        writer.destroy()
      }
    }),
  )
  const cpu1 = cpuSeconds(c.proc.pid)
  // CPU milliseconds per acknowledged write, per process group.
  const cpuPerWrite = cpu0 && cpu1 && ok ? { service: ((cpu1.service - cpu0.service) * 1000) / ok, postgres: ((cpu1.postgres - cpu0.postgres) * 1000) / ok, client: ((cpu1.client - cpu0.client) * 1000) / ok } : null
  return { perSecond: ok / ((performance.now() - t0) / 1000), withStance: stance / Math.max(1, ok), errors, cpuPerWrite }
}

async function pgAnswers(url: string) {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 })
  try {
    await c.connect()
    await c.end()
    return true
  } catch {
    return false
  }
}

const freshDatabase = () => freshPgDatabase(PG_ADMIN, 'vk_bench')

export interface BenchRow {
  store: string
  figure: string
  value: string
  budget: string
  verdict: '' | 'ok' | 'MISSED'
  raw?: Record<string, number>
}
const rows: BenchRow[] = []
const verdict = (ok: boolean): 'ok' | 'MISSED' => (ok ? 'ok' : 'MISSED')

async function benchStore(kind: 'pglite' | 'postgres') {
  const label = kind === 'pglite' ? 'PGlite' : 'PostgreSQL'
  const posts = POSTS[kind]
  const db = kind === 'postgres' ? await freshDatabase() : null
  const tSeed = Date.now()
  const c = await startChild(kind, posts, db?.url)
  console.error(`  ${label}: service up, ${posts.toLocaleString('en')} posts seeded in ${(c.seedMs / 1000).toFixed(1)} s (start to ready ${((Date.now() - tSeed) / 1000).toFixed(1)} s)`)
  try {
    if (PARTS.has('feed')) await benchReads(c, kind)
    if (PARTS.has('writes')) await benchWrites(c, kind)
  } finally {
    await c.stop()
    await db?.drop()
  }
}

async function benchReads(c: Child, kind: 'pglite' | 'postgres') {
  const label = kind === 'pglite' ? 'PGlite' : 'PostgreSQL'
  const at = `@ ${POSTS[kind].toLocaleString('en')} posts`
  {
    const feed = `${c.url}${PATHS.feed}`
    const first = await timed(`${feed}?limit=20`)
    const firstRecord = await timed(`${feed}?sort=record&limit=20`)
    const pages: { name: string; url: string; spec: FeedPageSpec }[] = [
      { name: 'feed global, first page', url: `${feed}?limit=20`, spec: { subject: null, cursor: null, limit: 20 } },
      { name: 'feed global, cursor page', url: `${feed}?limit=20&cursor=${first.body.nextCursor}`, spec: { subject: null, cursor: first.body.nextCursor, limit: 20 } },
      {
        name: 'feed category, first page',
        url: `${feed}?subjectType=category&subjectRef=crypto&limit=20`,
        spec: { subject: { type: 'category', ref: 'crypto' }, cursor: null, limit: 20 },
      },
    ]
    // The order a room's discussion uses by default (§4.4 rule 5): authors' settled records at the post's
    // node. Latency only (a slow page cannot take the overhead comparison's samples): see recordPageRows.
    const recordPages = [
      { name: 'feed global, sort=record, first page', url: `${feed}?sort=record&limit=20` },
      { name: 'feed global, sort=record, cursor page', url: `${feed}?sort=record&limit=20&cursor=${firstRecord.body.nextCursor}` },
      { name: 'feed category, sort=record, first page', url: `${feed}?subjectType=category&subjectRef=crypto&sort=record&limit=20` },
    ]
    // A record page ranks recorded authors first: the seed gives them (bench/bulk-seed.ts), so check it does.
    if (firstRecord.body.posts[0]?.record?.rank == null) throw new Error('the sort=record page does not start with a ranked author: the seed gave no records')
    const ids = Array.from({ length: 100 }, (_, i) => `0x${(1 + i * 5).toString(16).padStart(64, '0')}`)
    const takeCountsUrl = `${c.url}${PATHS.takeCounts}?ids=${ids.join(',')}`
    const check = await timed(takeCountsUrl)
    if (check.status !== 200 || Object.keys(check.body.counts).length !== 100) throw new Error(`take counts answered ${check.status}`)

    // Warm-up: caches, JIT, connection pools.
    for (const p of pages) {
      await httpSamples(p.url, 50)
      await pacedSql(c, p.spec, 'page', 50)
      await pacedSql(c, p.spec, 'rows', 50)
    }
    await httpSamples(takeCountsUrl, 30)

    const feedFig: Record<string, { p50: number[]; p99: number[]; raw50: number[]; rows50: number[]; statements: number; ratio: number[] }> = {}
    const tc = { p50: [] as number[], p99: [] as number[] }
    const floor: number[] = []
    const healthUrl = `${c.url}${SERVICE_PATHS.health}`
    await httpSamples(healthUrl, 30)
    for (let r = 0; r < REPEATS; r++) {
      floor.push(percentile(await httpSamples(healthUrl, SAMPLES), 50))
      for (const p of pages) {
        // Side by side: the endpoint and the raw SQL of the same page in the same round, the order alternating.
        // Both paced alike: one HTTP request, or one IPC message asking for one run of the page's SQL, at a
        // time, so the service process idles between samples in both (see pacedSql).
        type Raw = { ms: number[]; statements: number }
        const pageSql = () => pacedSql(c, p.spec, 'page', SAMPLES)
        let endpoint: number[]
        let raw: Raw
        if (r % 2 === 0) {
          endpoint = await httpSamples(p.url, SAMPLES)
          raw = await pageSql()
        } else {
          raw = await pageSql()
          endpoint = await httpSamples(p.url, SAMPLES)
        }
        // Profile: the query of the page's rows alone (no replies, agrees or labels).
        const rows = await pacedSql(c, p.spec, 'rows', Math.ceil(SAMPLES / 3))
        const f = (feedFig[p.name] ??= { p50: [], p99: [], raw50: [], rows50: [], statements: 0, ratio: [] })
        f.p50.push(percentile(endpoint, 50))
        f.p99.push(percentile(endpoint, 99))
        f.raw50.push(percentile(raw.ms, 50))
        f.rows50.push(percentile(rows.ms, 50))
        f.statements = raw.statements
        f.ratio.push(percentile(endpoint, 50) / percentile(raw.ms, 50))
      }
      const t = await httpSamples(takeCountsUrl, SAMPLES)
      tc.p50.push(percentile(t, 50))
      tc.p99.push(percentile(t, 99))
    }
    for (const [name, f] of Object.entries(feedFig)) {
      const p99 = median(f.p99)
      rows.push({
        store: label,
        figure: `${name} ${at}`,
        value: `p50 ${fmt(median(f.p50))} ms, p99 ${fmt(p99)} ms`,
        budget: `p99 ≤ ${BUDGET.feedP99[kind]} ms`,
        verdict: verdict(p99 <= BUDGET.feedP99[kind]),
        raw: { p50: median(f.p50), p99 },
      })
      const ratio = median(f.ratio)
      rows.push({
        store: label,
        figure: `  service overhead: endpoint p50 / p50 of the page's SQL (${f.statements === 1 ? 'one statement' : `${f.statements} statements`}, ${fmt(median(f.raw50))} ms)`,
        value: `${ratio.toFixed(2)}×`,
        budget: `≤ ${BUDGET.overhead.toFixed(1)}×`,
        verdict: verdict(ratio <= BUDGET.overhead),
        raw: { ratio, pageSqlP50: median(f.raw50), rowsSqlP50: median(f.rows50), statements: f.statements, httpFloorP50: median(floor) },
      })
      rows.push({
        store: label,
        figure: `  profile: the rows' query alone (no replies, agrees, labels) / HTTP floor (GET /v1/health)`,
        value: `${fmt(median(f.rows50))} ms / ${fmt(median(floor))} ms`,
        budget: '',
        verdict: '',
      })
    }
    const tc99 = median(tc.p99)
    rows.push({
      store: label,
      figure: `take counts, 100 ids ${at}`,
      value: `p50 ${fmt(median(tc.p50))} ms, p99 ${fmt(tc99)} ms`,
      budget: `p99 ≤ ${BUDGET.takeCountsP99} ms`,
      verdict: verdict(tc99 <= BUDGET.takeCountsP99),
      raw: { p50: median(tc.p50), p99: tc99 },
    })
    rows.push(...(await recordPageRows(label, at, kind, recordPages)))
  }
}

/** Time a record page may take per round: a page far over its budget is measured with fewer samples. */
const RECORD_ROUND_MS = 3000

/**
 * `sort=record` pages (§4.1 rule 6): endpoint latency p50 / p99 per round, median over the rounds, against
 * the same feed budget. Each round takes up to SAMPLES requests or RECORD_ROUND_MS, whichever comes first
 * (at least 5), so a page of a second still gets a figure without holding the bench for an hour.
 */
async function recordPageRows(label: string, at: string, kind: 'pglite' | 'postgres', pages: { name: string; url: string }[]): Promise<BenchRow[]> {
  const out: BenchRow[] = []
  for (const p of pages) {
    const warm = await httpSamples(p.url, 5)
    const n = Math.max(5, Math.min(SAMPLES, Math.floor(RECORD_ROUND_MS / Math.max(0.1, percentile(warm, 50)))))
    const p50: number[] = []
    const p99: number[] = []
    for (let r = 0; r < REPEATS; r++) {
      const xs = await httpSamples(p.url, n)
      p50.push(percentile(xs, 50))
      p99.push(percentile(xs, 99))
    }
    const q99 = median(p99)
    out.push({
      store: label,
      figure: `${p.name} ${at}${n < SAMPLES ? ` (${n} requests a round)` : ''}`,
      value: `p50 ${fmt(median(p50))} ms, p99 ${fmt(q99)} ms`,
      budget: `p99 ≤ ${BUDGET.feedP99[kind]} ms`,
      verdict: verdict(q99 <= BUDGET.feedP99[kind]),
      raw: { p50: median(p50), p99: q99, samplesPerRound: n },
    })
  }
  return out
}

async function benchWrites(c: Child, kind: 'pglite' | 'postgres') {
  const label = kind === 'pglite' ? 'PGlite' : 'PostgreSQL'
  {
    const tokens = await Promise.all(c.keys.map((k) => signIn(c.url, k)))
    for (const limits of [false, true]) {
      await c.ask({ cmd: 'rate-limits', value: limits ? { perAccount: 1e9, perKey: 1e9, perIp: 1e9, signInPerIp: 1e9 } : null })
      const per: number[] = []
      let stance = 1
      let errors = 0
      const cpu: { service: number[]; postgres: number[]; client: number[] } = { service: [], postgres: [], client: [] }
      for (let r = 0; r < REPEATS; r++) {
        const w = await writeThroughput(c, tokens, WRITE_SECONDS)
        per.push(w.perSecond)
        stance = Math.min(stance, w.withStance)
        errors += w.errors
        if (w.cpuPerWrite) for (const k of ['service', 'postgres', 'client'] as const) cpu[k].push(w.cpuPerWrite[k])
      }
      const v = median(per)
      const budget = BUDGET.writesPerSecond[kind]
      rows.push({
        store: label,
        figure: `post writes with stance, ${WRITERS} writers, rate limits ${limits ? 'on (counted, raised)' : 'off'}`,
        value: `${v.toFixed(0)} posts/s (${(stance * 100).toFixed(0)}% with stance, ${errors} refused)`,
        budget: budget ? `≥ ${budget} posts/s` : '',
        verdict: budget ? verdict(v >= budget && errors === 0 && stance === 1) : errors === 0 && stance === 1 ? '' : 'MISSED',
        raw: { perSecond: v, stance, errors },
      })
      if (cpu.service.length) {
        const [sv, db, cl] = [median(cpu.service), median(cpu.postgres), median(cpu.client)]
        rows.push({
          store: label,
          figure: `  profile: CPU per write (service / ${kind === 'postgres' ? 'PostgreSQL' : 'PostgreSQL processes (none)'} / bench client)`,
          value: `${fmt(sv)} / ${fmt(db)} / ${fmt(cl)} ms`,
          budget: '',
          verdict: '',
          raw: { service: sv, postgres: db, client: cl },
        })
      }
    }
    await c.ask({ cmd: 'rate-limits', value: null })
  }
}

const load0 = os.loadavg()
const t0 = Date.now()
console.error(`venuekit bench: stores ${STORES.join(', ')}; ${REPEATS} rounds × ${SAMPLES} samples; writes ${WRITE_SECONDS} s × ${REPEATS}`)
for (const kind of STORES) {
  if (kind === 'postgres' && !(await pgAnswers(PG_ADMIN))) {
    rows.push({ store: 'PostgreSQL', figure: `skipped: no server answers at ${PG_ADMIN}`, value: '', budget: '', verdict: '' })
    continue
  }
  await benchStore(kind)
}
if (PARTS.has('render')) {
  const fr = await firstRender()
  if (fr) rows.push(...fr)
  else rows.push({ store: 'elements', figure: 'first render (hook: bench/first-render.ts)', value: 'not measured yet', budget: '', verdict: '' })
}

const cpu = os.cpus()
const machine = `${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB; ${os.type()} ${os.release()}; node ${process.version}; load average ${load0[0].toFixed(2)} at start, ${os.loadavg()[0].toFixed(2)} at end`
const header: BenchRow = { store: 'store', figure: 'figure', value: 'median', budget: 'budget', verdict: '' }
const table = [header, ...rows]
const widths = (['store', 'figure', 'value', 'budget'] as const).map((k) => Math.max(...table.map((r) => r[k].length)))
console.log(`\nvenuekit bench — median of ${REPEATS} rounds (${SAMPLES} sequential requests per figure per round); ${((Date.now() - t0) / 60000).toFixed(1)} min`)
console.log(`machine: ${machine}`)
for (const r of table) console.log([r.store.padEnd(widths[0]), r.figure.padEnd(widths[1]), r.value.padEnd(widths[2]), r.budget.padEnd(widths[3]), r.verdict].join('  ').trimEnd())
if (process.env.VK_BENCH_JSON) fs.writeFileSync(process.env.VK_BENCH_JSON, JSON.stringify({ machine, repeats: REPEATS, samples: SAMPLES, rows }, null, 2))
