/**
 * `npm run load`: autocannon (pipelining 1, 50 connections, 60 s) against a service on 127.0.0.1, once on
 * PGlite and once on PostgreSQL. The mix is 80% reads (ranked feed, thread, take counts) and 20% writes
 * (posts with a stance, agrees) from 50 signed-in writers (real SIWE sign-ins; each holds positions, so
 * its posts carry a stance). Reports throughput, p99 and errors per store; then checks for lost writes:
 * every acknowledged post reads back through the API as acknowledged, and every acknowledged agree is
 * counted on its post. Exits 1 on any 5xx, error or lost write.
 *
 * The service runs with rate limits OFF: 50 connections from one address write ~20% of several thousand
 * requests a second, far past the production per-address default (docs/RELIABILITY.md). The limiter's own
 * cost is measured by `npm run bench` (rate limits on, limits raised).
 *
 * Env: VK_LOAD_STORES (default "pglite,postgres"), VK_LOAD_SECONDS (60), VK_LOAD_CONNECTIONS (50),
 * VK_LOAD_POSTS (seeded posts, 100000), VK_LOAD_PG_URL (default $VK_PG_URL or postgres://postgres@127.0.0.1:5432/test).
 */
import autocannon, { type Request as CannonRequest } from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import os from 'node:os'
import { createInterface } from 'node:readline'
import pg from 'pg'
import { privateKeyToAccount } from 'viem/accounts'
import { PATHS } from '../src/contract/paths.ts'
import { randomHex } from '../src/core/ids.ts'
import { missingPosts, readThread, type AckedPost } from '../bench/readback.ts'
import { freshPgDatabase } from './lib/pg-database.ts'
import { signIn } from './lib/sign-in.ts'

const STORES = (process.env.VK_LOAD_STORES ?? 'pglite,postgres').split(',').map((s) => s.trim()) as ('pglite' | 'postgres')[]
const SECONDS = Number(process.env.VK_LOAD_SECONDS ?? 60)
const CONNECTIONS = Number(process.env.VK_LOAD_CONNECTIONS ?? 50)
const POSTS = Number(process.env.VK_LOAD_POSTS ?? 100_000)
const PG_ADMIN = process.env.VK_LOAD_PG_URL ?? process.env.VK_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const WRITERS = 50
const WRITER_MARKETS = 20

interface Child {
  url: string
  keys: `0x${string}`[]
  markets: string[]
  proc: ChildProcess
}

async function startChild(kind: 'pglite' | 'postgres', databaseUrl?: string): Promise<Child> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/server-child.ts', JSON.stringify({ kind, posts: POSTS, databaseUrl, writers: WRITERS, writerMarkets: WRITER_MARKETS })],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: proc.stdout! }).once('line', resolve)
    proc.once('exit', (code) => reject(new Error(`load service exited with ${code}`)))
  })
  return { ...JSON.parse(line), proc }
}

const stop = (c: Child) =>
  new Promise<void>((r) => {
    c.proc.once('exit', () => r())
    c.proc.kill('SIGTERM')
  })

const freshDatabase = () => freshPgDatabase(PG_ADMIN, 'vk_load')

const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]

interface StoreResult {
  store: string
  requests: number
  perSecond: number
  p50: number
  p99: number
  errors: number
  timeouts: number
  status: Record<string, number>
  ackedPosts: number
  ackedAgrees: number
  lost: string[]
}

async function loadStore(kind: 'pglite' | 'postgres'): Promise<StoreResult> {
  const label = kind === 'pglite' ? 'PGlite' : 'PostgreSQL'
  const db = kind === 'postgres' ? await freshDatabase() : null
  const c = await startChild(kind, db?.url)
  try {
    const tokens: { token: string; wallet: string }[] = []
    for (const k of c.keys) tokens.push({ token: await signIn(c.url, k), wallet: privateKeyToAccount(k).address.toLowerCase() })
    // Seeded posts (by other authors) on the writer markets: the agree targets.
    const targets: string[] = []
    for (const m of c.markets) for (const id of (await readThread(c.url, 'event', m)).keys()) targets.push(id)
    const takeIds = c.markets.concat(Array.from({ length: 100 - c.markets.length }, (_, i) => `0x${(100 + i).toString(16).padStart(64, '0')}`)).join(',')
    const first = await (await fetch(`${c.url}${PATHS.feed}?limit=20`)).json()

    const acked: AckedPost[] = []
    const agrees: { postId: string; wallet: string }[] = []
    const json = (token: string) => ({ 'content-type': 'application/json', authorization: `Bearer ${token}` })
    const read = (path: () => string): CannonRequest => ({ method: 'GET', setupRequest: (req) => ({ ...req, method: 'GET', path: path(), headers: {}, body: undefined }) })
    const thread = () => `${PATHS.posts}?subjectType=event&subjectRef=${pick(c.markets)}&limit=20`
    const postWrite: CannonRequest = {
      method: 'POST',
      setupRequest: (req, ctx) => {
        const w = pick(tokens)
        const m = pick(c.markets)
        const body = `load ${randomHex(6)}`
        ctx.sent = { m, body }
        return { ...req, method: 'POST', path: PATHS.posts, headers: json(w.token), body: JSON.stringify({ subjectType: 'event', subjectRef: m, body }) }
      },
      onResponse: (status, body, ctx) => {
        if (status !== 201) return
        const sent = ctx.sent as { m: string; body: string }
        const p = JSON.parse(body).post
        acked.push({ id: p.id, subjectType: 'event', subjectRef: sent.m, body: sent.body, parentId: null, stanceSide: p.stance?.side ?? null })
      },
    }
    const agreeWrite: CannonRequest = {
      method: 'POST',
      setupRequest: (req, ctx) => {
        const w = pick(tokens)
        const postId = pick(targets)
        ctx.agree = { postId, wallet: w.wallet }
        return { ...req, method: 'POST', path: PATHS.react(postId), headers: json(w.token), body: JSON.stringify({ kind: 'agree', active: true }) }
      },
      onResponse: (status, _body, ctx) => {
        if (status === 200) agrees.push(ctx.agree as { postId: string; wallet: string })
      },
    }
    // Ten requests per cycle: 8 reads (3 feed, 3 thread, 2 take counts), 2 writes (1 post, 1 agree).
    const requests: CannonRequest[] = [
      read(() => `${PATHS.feed}?limit=20`),
      read(thread),
      read(() => `${PATHS.takeCounts}?ids=${takeIds}`),
      postWrite,
      read(() => `${PATHS.feed}?subjectType=category&subjectRef=${pick(['crypto', 'politics', 'sports', 'weather', 'science'])}&limit=20`),
      read(thread),
      read(() => `${PATHS.takeCounts}?ids=${takeIds}`),
      read(() => `${PATHS.feed}?limit=20&cursor=${first.nextCursor}`),
      agreeWrite,
      read(thread),
    ]
    console.error(`  ${label}: ${CONNECTIONS} connections for ${SECONDS} s…`)
    const r = await autocannon({ url: c.url, connections: CONNECTIONS, pipelining: 1, duration: SECONDS, timeout: 10, requests })
    const status = Object.fromEntries(Object.entries(r.statusCodeStats).map(([k, v]) => [k, Number(v.count)]))

    // Zero lost writes: every acknowledged post reads back as acknowledged; every acknowledged agree counts.
    const lost = await missingPosts(c.url, acked)
    const agreers = new Map<string, Set<string>>()
    for (const a of agrees) agreers.set(a.postId, (agreers.get(a.postId) ?? new Set()).add(a.wallet))
    const seen = new Map<string, number>()
    for (const m of c.markets) for (const [id, p] of await readThread(c.url, 'event', m)) seen.set(id, p.agrees)
    for (const [postId, who] of agreers) if ((seen.get(postId) ?? -1) < who.size) lost.push(`agrees on ${postId}: ${seen.get(postId)} counted, ${who.size} acknowledged`)
    return {
      store: label,
      requests: r.requests.total,
      perSecond: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors,
      timeouts: r.timeouts,
      status,
      ackedPosts: acked.length,
      ackedAgrees: agrees.length,
      lost,
    }
  } finally {
    await stop(c)
    await db?.drop()
  }
}

async function pgAnswers(url: string) {
  const cl = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 })
  try {
    await cl.connect()
    await cl.end()
    return true
  } catch {
    return false
  }
}

const load0 = os.loadavg()
const results: StoreResult[] = []
console.error(`venuekit load: ${STORES.join(', ')}; ${CONNECTIONS} connections, pipelining 1, ${SECONDS} s; 80% reads / 20% writes; ${POSTS.toLocaleString('en')} seeded posts; rate limits off`)
for (const kind of STORES) {
  if (kind === 'postgres' && !(await pgAnswers(PG_ADMIN))) {
    console.error(`  PostgreSQL skipped: no server answers at ${PG_ADMIN}`)
    continue
  }
  results.push(await loadStore(kind))
}
const cpu = os.cpus()
console.log(`\nvenuekit load — autocannon, ${CONNECTIONS} connections, pipelining 1, ${SECONDS} s, 80% reads (feed, thread, take counts) / 20% writes (posts with stance, agrees)`)
console.log(`machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores; node ${process.version}; load average ${load0[0].toFixed(2)} at start, ${os.loadavg()[0].toFixed(2)} at end`)
let failed = false
for (const r of results) {
  const fivexx = Object.entries(r.status).filter(([s]) => s.startsWith('5')).reduce((n, [, v]) => n + v, 0)
  const non2xx = Object.entries(r.status).filter(([s]) => !s.startsWith('2')).reduce((n, [, v]) => n + v, 0)
  console.log(
    `${r.store.padEnd(10)}  ${r.perSecond.toFixed(0)} req/s (${r.requests.toLocaleString('en')} requests)  latency p50 ${r.p50} ms, p99 ${r.p99} ms  ` +
      `errors ${r.errors} (timeouts ${r.timeouts})  5xx ${fivexx}  other non-2xx ${non2xx - fivexx}  status ${JSON.stringify(r.status)}`,
  )
  console.log(`${''.padEnd(10)}  writes acknowledged: ${r.ackedPosts} posts, ${r.ackedAgrees} agrees; lost: ${r.lost.length}${r.lost.length ? `\n    ${r.lost.slice(0, 10).join('\n    ')}` : ''}`)
  if (fivexx || r.errors || r.lost.length || non2xx) failed = true
}
process.exit(failed ? 1 : 0)
