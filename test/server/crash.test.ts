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
import { openStore, type Store } from '../../src/server/db/open.ts'
import { missingPosts, type AckedPost } from '../../bench/readback.ts'
import { newMarketId, newWallet, ON_POSTGRES, signIn, type TestUser } from '../helpers/service.ts'
import { freshPgDatabase } from '../../scripts/lib/pg-database.ts'

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

/** Rows that break an invariant a half-written write would leave behind. */
async function halfWritten(store: Store): Promise<Record<string, string[]>> {
  const q = async (s: ReturnType<typeof sql<{ id: string }>>) => (await s.execute(store.db)).rows.map((r) => r.id)
  return {
    'a top-level post without its node-index rows': await q(sql`select p.id from posts p join markets m on m.id = p.market_id
      where p.parent_id is null and p.deleted_at is null
        and (select count(*) from post_nodes n where n.post_id = p.id) <> jsonb_array_length(m.nodes)`),
    "a parent whose reply count is not its replies' rows": await q(sql`select p.id from posts p
      where p.replies <> (select count(*) from posts r where r.parent_id = p.id and r.deleted_at is null and r.state = 'visible')`),
    "a post whose agree count is not its agrees' rows": await q(sql`select p.id from posts p
      where p.agrees <> (select count(*) from reactions r where r.post_id = p.id and r.kind = 'agree')`),
    'a node-index row whose score is not its post score': await q(sql`select n.post_id as id from post_nodes n join posts p on p.id = n.post_id where n.score <> p.score`),
    'a reply without its parent': await q(sql`select r.id from posts r left join posts p on p.id = r.parent_id where r.parent_id is not null and p.id is null`),
    'a take without its full stance': await q(sql`select id from posts where (stance_side is null) <> (stance_size is null)`),
    'a take counter that is not a recount of its posts': await q(sql`select coalesce(c.market_id, r.market_id) || ':' || coalesce(c.side, r.side) as id
      from market_take_counts c full join (
        select market_id, coalesce(stance_side, -1) as side, count(*)::int as n from posts
        where market_id is not null and deleted_at is null and state = 'visible' and not room_private
          and (parent_id is null or exists (select 1 from posts pp where pp.id = posts.parent_id and pp.deleted_at is null and pp.state = 'visible'))
        group by 1, 2
      ) r on r.market_id = c.market_id and r.side = c.side
      where coalesce(c.n, 0) <> coalesce(r.n, 0)`),
  }
}

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
      const broken = await halfWritten(s)
      for (const [rule, ids] of Object.entries(broken)) assert.deepEqual(ids, [], rule)
      const stored = await s.db.selectFrom('posts').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()
      assert.ok(stored.n >= acked.posts.length)
    } finally {
      await s.close()
    }
  })
})
