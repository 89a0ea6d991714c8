/**
 * Scale-out (docs/ARCHITECTURE.md Storage: "several stateless instances over one database"): two or three real
 * instances, each with its own pool, bus connection and stream hub, over ONE fresh PostgreSQL database. What one
 * instance writes or ends must hold on the others at once: start-up, stream events and their replay, sign-in
 * nonces and sessions, rate limits, resolutions and counters, venue keys and origins.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { PATHS, SERVICE_PATHS, roomThreadTopic, threadTopic } from '../../src/contract/paths.ts'
import { randomHex } from '../../src/core/ids.ts'
import { freshPgDatabase } from '../../scripts/lib/pg-database.ts'
import { createService } from '../../src/server/service.ts'
import { startReferenceService, type ReferenceService } from '../../src/server/node.ts'
import { seedIfEmpty } from '../../src/server/serve-cli.ts'
import { DEMO_MARKETS } from '../../src/server/seed.ts'
import { addMarket, call, expectError, newWallet, signIn, type TestUser } from '../helpers/service.ts'
import { StreamClient } from '../helpers/stream.ts'
import { claimVenue, createRoom } from '../helpers/venues.ts'

const URL = process.env.VK_TEST_DATABASE_URL
const skip = !URL && 'needs PostgreSQL: instances share one database only there (set VK_TEST_DATABASE_URL)'

describe('several instances started at once on an empty database', { skip }, () => {
  it('"PostgreSQL when it must scale": three instances started at once on an empty database all start (the migrations run once), and the demo data is seeded once: one seeds, the others keep it', async () => {
    const db = await freshPgDatabase(URL!, 'vk_test')
    const started = await Promise.allSettled([0, 1, 2].map(() => createService({ databaseUrl: db.url })))
    const svcs = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
    try {
      assert.deepEqual(
        started.map((s) => s.status),
        ['fulfilled', 'fulfilled', 'fulfilled'],
        String(started.map((s) => (s.status === 'rejected' ? s.reason : '')).join(' ')),
      )
      const seeds = await Promise.allSettled(svcs.map((s) => seedIfEmpty(s, true)))
      const outcomes = seeds.map((s) => (s.status === 'fulfilled' ? s.value : `failed: ${(s.reason as Error).message}`))
      assert.deepEqual([...outcomes].sort(), ['kept', 'kept', 'seeded'])
      const q = svcs[0].ctx.db
      const { rows } = await sql<{ markets: number; twice: number }>`select (select count(*)::int from markets) as markets,
        (select count(*)::int from (select 1 from posts group by account_id, body having count(*) > 1) d) as twice`.execute(q)
      assert.deepEqual(rows[0], { markets: DEMO_MARKETS.length, twice: 0 })
    } finally {
      for (const s of svcs) await s.close()
      await db.drop()
    }
  })
})

describe('two instances over one database', { skip }, () => {
  let db: { url: string; drop(): Promise<void> }
  let a: ReferenceService
  let b: ReferenceService
  const sockets: StreamClient[] = []
  let clockOffset = 0
  const now = () => new Date(Date.now() + clockOffset)
  before(async () => {
    db = await freshPgDatabase(URL!, 'vk_test')
    ;[a, b] = await Promise.all([0, 1].map(() => startReferenceService({ port: 0, databaseUrl: db.url, rateLimits: false, dev: true, now })))
  })
  after(async () => {
    for (const s of sockets) s.close()
    await a?.close()
    await b?.close()
    await db?.drop()
  })

  const open = async (svc: ReferenceService) => {
    const s = await StreamClient.open(svc.streamUrl)
    sockets.push(s)
    return s
  }
  const postOn = async (svc: ReferenceService, u: TestUser, subjectType: string, subjectRef: string, body: string, extra: Record<string, unknown> = {}) => {
    const r = await call(svc, 'POST', PATHS.posts, { token: u.token, body: { subjectType, subjectRef, body, ...extra } })
    assert.equal(r.status, 201, JSON.stringify(r.body))
    return r.body.post as { id: string }
  }
  /** The `want` next messages of `c` (5 s each at most), and any that follow within 300 ms: a repeat would show. */
  async function heard(c: StreamClient, want: number) {
    const out: unknown[] = []
    for (let i = 0; i < want; i++) out.push(await c.next())
    for (;;) {
      try {
        out.push(await c.next(300))
      } catch {
        return out
      }
    }
  }

  it('§6.1 "fires when the thread changes": writes on A reach subscribers on B once each (a thread, a room\'s topic), and a subscriber that reconnects to B after a change made on A hears it', async () => {
    const m = await addMarket(a)
    const topic = threadTopic('event', m.id)
    const u = await signIn(a)
    const onB = await open(b)
    await onB.subscribe(topic)
    for (let i = 0; i < 4; i++) await postOn(a, u, 'event', m.id, `on A ${i}`)
    assert.deepEqual(await heard(onB, 4), Array(4).fill({ type: 'changed', topic }))

    const v = await claimVenue(a)
    const room = await createRoom(a, v, { subjectType: 'category', subjectRef: 'weather' })
    const roomTopic = roomThreadTopic(room, 'event', m.id)
    onB.send({ type: 'subscribe', topic: roomTopic, token: v.owner.token })
    assert.deepEqual(await onB.next(), { type: 'subscribed', topic: roomTopic })
    await postOn(a, v.owner, 'event', m.id, 'in the room', { room })
    // A public room's post changes the plain thread too.
    assert.deepEqual(new Set(await heard(onB, 2)), new Set([{ type: 'changed', topic }, { type: 'changed', topic: roomTopic }]))

    // A reader on A loses its socket; a change is made on A before it reconnects, to B.
    const onA = await open(a)
    await onA.subscribe(topic)
    onA.close()
    await postOn(a, u, 'event', m.id, 'while the reader reconnects')
    const again = await open(b)
    await again.subscribe(topic)
    assert.deepEqual(await heard(again, 1), [{ type: 'changed', topic }])
  })

  it('§5.2 a sign-in message is used once: sent to A and B at once it signs in exactly once, and replayed on B it is refused; a session signed out on A is dead on B at once', async () => {
    for (let round = 0; round < 3; round++) {
      const w = newWallet()
      const n = await call(a, 'POST', PATHS.authNonce, { body: { address: w.address } })
      const signature = await w.signMessage({ message: n.body.message })
      const tries = await Promise.all([a, b, a, b].map((s) => call(s, 'POST', PATHS.authVerify, { body: { message: n.body.message, signature } })))
      assert.deepEqual(tries.map((r) => r.status).sort(), [200, 400, 400, 400])
      for (const r of tries) if (r.status === 400) expectError(r, 400, 'invalid-nonce')
      expectError(await call(b, 'POST', PATHS.authVerify, { body: { message: n.body.message, signature } }), 400, 'invalid-nonce')
    }
    const u = await signIn(a)
    assert.equal((await call(b, 'GET', PATHS.me, { token: u.token })).status, 200)
    assert.equal((await call(a, 'POST', PATHS.authSignOut, { token: u.token })).status, 200)
    expectError(await call(b, 'POST', PATHS.posts, { token: u.token, body: { subjectType: 'topic', subjectRef: 'multi', body: 'after sign-out' } }), 401, 'session-expired')
  })

  it('issue 9 abuse limits hold across instances: writes per account, per venue key and per address, and sign-ins per address, are counted once for all instances', async () => {
    const v = await claimVenue(a)
    const [u, k1, k2] = await Promise.all([signIn(a), signIn(a), signIn(b)])
    // Fixed windows: start at a fresh one, so the counts below never straddle two.
    const t = Date.now() + clockOffset
    clockOffset += Math.ceil((t + 1) / 60_000) * 60_000 - t
    a.ctx.config.rateLimits = b.ctx.config.rateLimits = { perAccount: 4, perKey: 6, perIp: 8, signInPerIp: 3, streamSocketsPerIp: 200, windowSeconds: 60, trustProxy: true }
    try {
      let n = 0
      const from = (ip = `10.${(n >> 8) & 255}.${n++ & 255}.9`) => ({ 'x-forwarded-for': ip })
      const write = (svc: ReferenceService, o: { token?: string; key?: string; headers?: Record<string, string> }) =>
        call(svc, 'POST', PATHS.posts, { token: o.token, key: o.key, headers: o.headers ?? from(), body: { subjectType: 'topic', subjectRef: 'multi-limits', body: `n ${randomHex(3)}` } })
      /** `count` requests, alternately on A and B; their statuses. */
      const alternate = async (count: number, f: (svc: ReferenceService, i: number) => Promise<{ status: number }>) => {
        const out: number[] = []
        for (let i = 0; i < count; i++) out.push((await f(i % 2 ? b : a, i)).status)
        return out
      }
      assert.deepEqual(await alternate(5, (s) => write(s, { token: u.token })), [201, 201, 201, 201, 429], 'per account')
      assert.deepEqual(await alternate(7, (s, i) => write(s, { token: (i % 4 < 2 ? k1 : k2).token, key: v.key })), [201, 201, 201, 201, 201, 201, 429], 'per key')
      const one = from('10.250.0.7')
      assert.deepEqual(await alternate(9, (s) => write(s, { headers: one })), [...Array(8).fill(401), 429], 'per address')
      const w = newWallet()
      assert.deepEqual(await alternate(4, (s) => call(s, 'POST', PATHS.authNonce, { body: { address: w.address }, headers: from('10.250.0.8') })), [200, 200, 200, 429], 'sign-in per address')
    } finally {
      a.ctx.config.rateLimits = b.ctx.config.rateLimits = null
    }
  })

  it('§2.12 a market resolved on A and B at once settles once: one resolution wins (the other 409), each holder\'s record counts the take once; take counts stay exact under writes on both', async () => {
    const m = await addMarket(a)
    const users = await Promise.all(Array.from({ length: 6 }, (_, i) => signIn(i % 2 ? a : b)))
    for (const [i, u] of users.entries()) await a.chain.setPosition(u.wallet, m.id, i % 2, 5n)
    await Promise.all(users.flatMap((u, i) => [a, b].map((s) => postOn(s, u, 'event', m.id, `take ${i} on ${s === a ? 'A' : 'B'}`))))
    for (const s of [a, b]) {
      const r = await call(s, 'GET', `${PATHS.takeCounts}?ids=${m.id}`)
      assert.deepEqual(r.body.counts[m.id], { posts: 12, takes: 12, bySide: { 0: 6, 1: 6 } })
    }
    const resolved = await Promise.all([a, b].map((s) => call(s, 'POST', '/v1/dev/resolve', { body: { marketId: m.id, outcome: 0 } })))
    assert.deepEqual(resolved.map((r) => r.status).sort(), [200, 409])
    const rec = await call(b, 'GET', `${PATHS.records}?wallets=${users.map((u) => u.wallet).join(',')}`)
    for (const [i, u] of users.entries()) {
      const r = rec.body.records[u.wallet]
      assert.deepEqual([r.right, r.wrong], i % 2 ? [0, 1] : [1, 0], u.wallet)
    }
  })

  it('§2.11 a venue key revoked on A is refused on B at once, and origins set on A apply on B at once', async () => {
    const v = await claimVenue(a)
    const keyId = (await call(a, 'GET', `/v1/venues/${v.venueId}/keys`, { token: v.owner.token })).body.keys[0].keyId
    const evil = { origin: 'https://evil.example' }
    assert.equal((await call(b, 'GET', '/v1/rooms/self', { key: v.key, headers: evil })).status, 200)
    assert.equal((await call(a, 'PUT', SERVICE_PATHS.venueOrigins(v.venueId), { token: v.owner.token, body: { origins: ['https://shop.example'] } })).status, 200)
    expectError(await call(b, 'GET', '/v1/rooms/self', { key: v.key, headers: evil }), 403, 'origin-not-allowed')
    assert.equal((await call(a, 'DELETE', `/v1/venues/${v.venueId}/keys/${keyId}`, { token: v.owner.token })).status, 200)
    expectError(await call(b, 'GET', '/v1/rooms/self', { key: v.key }), 401, 'invalid-venue-key')
  })

  it('a migration run by a newer instance adds columns: the instance already serving keeps answering (its kept plans of `*` reads are made again, not a 500 on every sign-in read and take)', async () => {
    const m = await addMarket(a)
    const u = await signIn(a)
    await a.chain.setPosition(u.wallet, m.id, 0, 5n)
    const serve = async () => {
      for (let i = 0; i < 3; i++) {
        const me = await call(a, 'GET', PATHS.me, { token: u.token })
        assert.equal(me.status, 200, JSON.stringify(me.body))
        const take = await call(a, 'POST', PATHS.posts, { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: `take ${randomHex(3)}` } })
        assert.equal(take.status, 201, JSON.stringify(take.body))
        assert.equal(take.body.post.stance?.side, 0)
      }
    }
    await serve() // A's connections keep the plans of the session read, the market-and-stance read and the post insert
    // What an appended migration does, run through B (the newer instance) while A serves.
    for (const table of ['sessions', 'markets', 'posts']) await sql`alter table ${sql.table(table)} add column vk_later_${sql.raw(randomHex(3))} int`.execute(b.ctx.db)
    await serve()
  })
})
