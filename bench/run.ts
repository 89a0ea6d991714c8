/**
 * `npm run bench`: prints a table of figures. Each figure is the median over REPEATS runs.
 * - feed page latency (p50, p99), global and category-scoped, first page and a cursor page,
 *   at 100k posts on PGlite and on PostgreSQL (the service runs in its own process; requests are
 *   sequential over keep-alive HTTP on 127.0.0.1, so the figure is the service's answer time);
 * - post-write throughput with a stance attached (16 signed-in writers, concurrency 16, 5 s).
 * Env: VK_BENCH_POSTS (default 100000), VK_BENCH_PG_URL (default postgres://postgres@127.0.0.1:5432/test;
 * the PostgreSQL rows are skipped with a note when it does not answer), VK_BENCH_REPEATS (default 3).
 */
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { privateKeyToAccount } from 'viem/accounts'
import { randomHex } from '../src/core/ids.ts'
import { fmt, median, percentile } from './stats.ts'

const POSTS = Number(process.env.VK_BENCH_POSTS ?? 100_000)
const REPEATS = Number(process.env.VK_BENCH_REPEATS ?? 3)
const SAMPLES = Number(process.env.VK_BENCH_SAMPLES ?? 400)
const PG_ADMIN = process.env.VK_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

interface Child {
  url: string
  keys: `0x${string}`[]
  markets: string[]
  seedMs: number
  stop(): Promise<void>
}

async function startChild(kind: 'pglite' | 'postgres', databaseUrl = ''): Promise<Child> {
  const p = spawn(process.execPath, ['--import', 'tsx', 'bench/server-child.ts', kind, String(POSTS), databaseUrl], { stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: p.stdout! })
    rl.once('line', resolve)
    p.once('exit', (code) => reject(new Error(`bench service exited with ${code}`)))
  })
  const info = JSON.parse(line)
  return {
    ...info,
    stop: () =>
      new Promise<void>((r) => {
        p.once('exit', () => r())
        p.kill('SIGTERM')
      }),
  }
}

async function time(url: string, init?: RequestInit): Promise<{ ms: number; body: any; status: number }> {
  const t = performance.now()
  const res = await fetch(url, init)
  const body = await res.json()
  return { ms: performance.now() - t, body, status: res.status }
}

async function latency(url: string, n = SAMPLES): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 30; i++) await time(url) // warm-up
  const xs: number[] = []
  for (let i = 0; i < n; i++) {
    const r = await time(url)
    if (r.status !== 200) throw new Error(`${url} answered ${r.status} ${JSON.stringify(r.body)}`)
    xs.push(r.ms)
  }
  return { p50: percentile(xs, 50), p99: percentile(xs, 99) }
}

async function signIn(url: string, key: `0x${string}`): Promise<string> {
  const account = privateKeyToAccount(key)
  const n = await (await fetch(`${url}/v1/auth/nonce`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ address: account.address }) })).json()
  const signature = await account.signMessage({ message: n.message })
  const v = await (await fetch(`${url}/v1/auth/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: n.message, signature }) })).json()
  return v.token
}

async function writeThroughput(c: Child, seconds = 5): Promise<{ perSecond: number; withStance: number; errors: number }> {
  const tokens = await Promise.all(c.keys.map((k) => signIn(c.url, k)))
  let ok = 0
  let stance = 0
  let errors = 0
  const until = Date.now() + seconds * 1000
  await Promise.all(
    tokens.map(async (token, w) => {
      let i = 0
      while (Date.now() < until) {
        const m = c.markets[(w + i++) % c.markets.length]
        const res = await fetch(`${c.url}/v1/social/posts`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ subjectType: 'event', subjectRef: m, body: `bench write ${w}-${i}` }),
        })
        const body = await res.json()
        if (res.status === 201) {
          ok++
          if (body.post.stance) stance++
        } else errors++
      }
    }),
  )
  return { perSecond: ok / seconds, withStance: stance / Math.max(1, ok), errors }
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

type Row = [string, string, string, string]
const rows: Row[] = []

/** A fresh PostgreSQL database for one run, dropped afterwards. */
async function freshPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `vk_bench_${randomHex(4)}`
  const admin = new pg.Client({ connectionString: PG_ADMIN })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  const u = new URL(PG_ADMIN)
  u.pathname = `/${name}`
  return {
    url: u.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: PG_ADMIN })
      await d.connect()
      await d.query(`drop database if exists ${name} with (force)`)
      await d.end()
    },
  }
}

async function benchStore(kind: 'pglite' | 'postgres') {
  const label = kind === 'pglite' ? 'PGlite' : 'PostgreSQL'
  const figures: Record<string, { p50: number[]; p99: number[] }> = {}
  const writes: number[] = []
  for (let r = 0; r < REPEATS; r++) {
    const db = kind === 'postgres' ? await freshPgDatabase() : null
    const c = await startChild(kind, db?.url ?? '')
    try {
      const first = await time(`${c.url}/v1/social/posts/feed?limit=20`)
      const cursor = first.body.nextCursor
      const pages: [string, string][] = [
        ['feed global, page 1', `${c.url}/v1/social/posts/feed?limit=20`],
        ['feed global, cursor page', `${c.url}/v1/social/posts/feed?limit=20&cursor=${cursor}`],
        ['feed category (subject), page 1', `${c.url}/v1/social/posts/feed?subjectType=category&subjectRef=crypto&limit=20`],
      ]
      for (const [name, url] of pages) {
        const l = await latency(url)
        ;(figures[name] ??= { p50: [], p99: [] }).p50.push(l.p50)
        figures[name].p99.push(l.p99)
      }
      writes.push((await writeThroughput(c)).perSecond)
    } finally {
      await c.stop()
      await db?.drop()
    }
  }
  for (const [name, f] of Object.entries(figures)) rows.push([label, `${name} @ ${POSTS.toLocaleString('en')} posts`, `p50 ${fmt(median(f.p50))} ms`, `p99 ${fmt(median(f.p99))} ms`])
  rows.push([label, 'post writes with stance (16 writers)', `${median(writes).toFixed(0)} posts/s`, ''])
}

await benchStore('pglite')
if (await pgAnswers(PG_ADMIN)) await benchStore('postgres')
else rows.push(['PostgreSQL', `skipped: no server answers at ${PG_ADMIN}`, '', ''])

const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length), 8))
console.log(`\nvenuekit bench — median of ${REPEATS} runs, ${SAMPLES} sequential requests each; node ${process.version}`)
for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '))
