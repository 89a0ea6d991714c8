/**
 * Crash test (issue 9): the service runs in its own process under write load — posts with stances,
 * replies, agrees — and is killed with SIGKILL mid-load, twice, then restarted on the same store (a PGlite
 * data directory, or the PostgreSQL database). After each restart every acknowledged write is present and
 * reads back as acknowledged, and nothing is half-written: every post has its node-index rows, every
 * parent's reply count and every post's agree count match the rows, index scores match the posts, and the
 * take-count counters match a recount.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import { PATHS } from '../../src/contract/paths.ts'
import { randomHex } from '../../src/core/ids.ts'
import { openStore } from '../../src/server/db/open.ts'
import { missingPosts, type AckedPost } from '../../bench/readback.ts'
import { newMarketId, newWallet, ON_POSTGRES, signIn, type TestUser } from '../helpers/service.ts'
import { freshPgDatabase } from '../../scripts/lib/pg-database.ts'
import { halfWritten } from '../helpers/invariants.ts'

const CHILD = fileURLToPath(new URL('../helpers/service-child.ts', import.meta.url))
const WRITERS = 8
const CYCLES = 2

interface Child {
  url: string
  proc: ChildProcess
  log: string[]
}

function startChild(options: object): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] })
  const log: string[] = []
  proc.stderr!.on('data', (d) => log.push(String(d)))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start within 60 s: ${log.join('')}`)), 60_000)
    proc.once('exit', (code, signal) => reject(new Error(`the service exited (${code ?? signal}) before listening: ${log.join('')}`)))
    createInterface({ input: proc.stdout! }).once('line', (line) => {
      clearTimeout(timer)
      resolve({ url: JSON.parse(line).url, proc, log })
    })
  })
}

const exited = (p: ChildProcess) => new Promise<void>((r) => (p.exitCode !== null || p.signalCode !== null ? r() : p.once('exit', () => r())))

async function kill9(c: Child) {
  c.proc.kill('SIGKILL')
  await exited(c.proc)
  assert.equal(c.proc.signalCode, 'SIGKILL')
}

async function stop(c: Child) {
  c.proc.kill('SIGTERM')
  await exited(c.proc)
}

interface Writer extends TestUser {
  i: number
}
interface Acked {
  posts: (AckedPost & { author: number })[]
  agrees: { postId: string; writer: number }[]
}

const post = (url: string, w: Writer, body: Record<string, unknown>) =>
  fetch(url + PATHS.posts, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${w.token}` }, body: JSON.stringify(body) })

/**
 * Writers loop until the service dies under them: a take on a market (the author holds a position), a
 * reply to an acknowledged post, or an agree with someone else's acknowledged post. Only 2xx answers
 * are recorded as acknowledged.
 */
async function writeUntilKilled(url: string, writers: Writer[], markets: string[], acked: Acked): Promise<void> {
  await Promise.all(
    writers.map(async (w) => {
      for (let n = 0; ; n++) {
        try {
          const r = Math.random()
          const tops = acked.posts.filter((p) => p.parentId === null)
          if (r < 0.55 || tops.length < 5) {
            const m = markets[(w.i + n) % markets.length]
            const body = `take ${w.i}-${n} ${randomHex(4)}`
            const res = await post(url, w, { subjectType: 'event', subjectRef: m, body })
            const j = await res.json()
            assert.equal(res.status, 201, JSON.stringify(j))
            assert.ok(j.post.stance, 'a take carries its stance')
            acked.posts.push({ id: j.post.id, subjectType: 'event', subjectRef: m, body, parentId: null, stanceSide: j.post.stance.side, author: w.i })
          } else if (r < 0.8) {
            const parent = tops[Math.floor(Math.random() * tops.length)]
            const body = `reply ${w.i}-${n} ${randomHex(4)}`
            const res = await post(url, w, { subjectType: 'event', subjectRef: parent.subjectRef, body, parentId: parent.id })
            const j = await res.json()
            assert.equal(res.status, 201, JSON.stringify(j))
            acked.posts.push({ id: j.post.id, subjectType: 'event', subjectRef: parent.subjectRef, body, parentId: parent.id, stanceSide: j.post.stance?.side ?? null, author: w.i })
          } else {
            const others = acked.posts.filter((p) => p.author !== w.i)
            const target = others[Math.floor(Math.random() * others.length)]
            if (!target) continue
            const res = await fetch(url + PATHS.react(target.id), {
              method: 'POST',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${w.token}` },
              body: JSON.stringify({ kind: 'agree', active: true }),
            })
            const j = await res.json()
            assert.equal(res.status, 200, JSON.stringify(j))
            acked.agrees.push({ postId: target.id, writer: w.i })
          }
        } catch (e) {
          if (e instanceof assert.AssertionError) throw e
          return // the service is gone: this request was not acknowledged
        }
      }
    }),
  )
}

const freshDatabase = () => freshPgDatabase(process.env.VK_TEST_DATABASE_URL!, 'vk_crash')

describe('crash: SIGKILL under write load, then restart', () => {
  let dataDir: string | null = null
  let db: { url: string; drop(): Promise<void> } | null = null
  before(async () => {
    if (ON_POSTGRES) db = await freshDatabase()
    else dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vk-crash-'))
  })
  after(async () => {
    await db?.drop()
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true })
  })

  it(`"every acknowledged write is present, and nothing is half-written" after ${CYCLES} kill -9 cycles (${ON_POSTGRES ? 'PostgreSQL' : 'PGlite data directory'})`, { timeout: 180_000 }, async () => {
    const store = ON_POSTGRES ? { databaseUrl: db!.url } : { dataDir: dataDir! }
    const markets = [newMarketId(), newMarketId(), newMarketId()]
    const wallets = Array.from({ length: WRITERS }, () => newWallet())
    const positions = wallets.flatMap((w, i) => markets.map((m) => [w.address.toLowerCase(), m, i % 2, '2500000'] as const))
    let child = await startChild({ ...store, markets, positions })
    const writers: Writer[] = []
    for (const [i, w] of wallets.entries()) writers.push({ ...(await signIn(child, w)), i })
    const acked: Acked = { posts: [], agrees: [] }

    try {
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const before = acked.posts.length + acked.agrees.length
        const load = writeUntilKilled(child.url, writers, markets, acked)
        // Kill once the load is well under way: at least 60 acknowledged writes this cycle and 800 ms.
        const t0 = Date.now()
        while (acked.posts.length + acked.agrees.length - before < 60 || Date.now() - t0 < 800) {
          await new Promise((r) => setTimeout(r, 20))
          if (Date.now() - t0 > 60_000) throw new Error(`the load made no progress: ${child.log.join('')}`)
        }
        await kill9(child)
        await load
        if (!ON_POSTGRES) assert.ok(fs.existsSync(path.join(dataDir!, 'venuekit.lock')), 'the killed process left its lock behind')
        // Restart on the same store; on PGlite the stale lock is taken over.
        child = await startChild(store)
        const missing = await missingPosts(child.url, acked.posts)
        assert.deepEqual(missing, [], `cycle ${cycle + 1}: acknowledged posts lost`)
        // Sessions survive the crash too: a writer still writes with its token.
        const again = await post(child.url, writers[0], { subjectType: 'event', subjectRef: markets[0], body: `after crash ${cycle}` })
        assert.equal(again.status, 201)
        const j = await again.json()
        acked.posts.push({ id: j.post.id, subjectType: 'event', subjectRef: markets[0], body: `after crash ${cycle}`, parentId: null, stanceSide: j.post.stance.side, author: 0 })
      }
    } finally {
      await stop(child)
    }

    console.log(`crash: ${CYCLES} SIGKILLs under load; ${acked.posts.length} acknowledged posts (${acked.posts.filter((p) => p.parentId).length} replies), ${acked.agrees.length} agrees, all present`)
    assert.ok(acked.posts.length >= 50, `acknowledged ${acked.posts.length} posts`)
    assert.ok(acked.posts.some((p) => p.parentId) && acked.agrees.length > 0, 'the load wrote replies and agrees too')
    const s = await openStore(store)
    try {
      const rows = await s.db.selectFrom('reactions as r').innerJoin('wallets as w', 'w.account_id', 'r.account_id').select(['r.post_id', 'w.address']).where('r.kind', '=', 'agree').execute()
      const agreed = new Set(rows.map((r) => `${r.post_id} ${r.address}`))
      const lostAgrees = acked.agrees.filter((a) => !agreed.has(`${a.postId} ${writers[a.writer].wallet}`))
      assert.deepEqual(lostAgrees, [], 'acknowledged agrees lost')
      const broken = await halfWritten(s.db)
      for (const [rule, ids] of Object.entries(broken)) assert.deepEqual(ids, [], rule)
      const stored = await s.db.selectFrom('posts').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
      assert.ok(stored.n >= acked.posts.length)
    } finally {
      await s.close()
    }
  })
})
