/**
 * Take counts from counters (issue 9, budget "take counts (100 ids) p99 ≤ 15 ms"): `market_take_counts` is
 * kept by a trigger. After a random mix of every change that moves a post in or out of the public count —
 * posts and replies with and without stances, deletes, hides, removals, restores, private-room posts,
 * venue hides and bans, and writes that roll back — the counts answered equal a recount of the posts under
 * the public rule, with and without a venue overlay.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { sql } from 'kysely'
import { PATHS } from '../../src/contract/paths.ts'
import type { TakeCount } from '../../src/contract/types.ts'
import { addMarket, call, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'
import { addMember, ban, makeRoom, makeVenue, setState, venueHide } from '../helpers/read-fixtures.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

/** The public rule, counted from the posts themselves (what the counters replace). */
async function recount(ids: string[], venue: string | null): Promise<Record<string, TakeCount>> {
  const overlay = venue
    ? sql`and not exists (select 1 from venue_hides vh where vh.post_id = p.id and vh.venue_id = ${venue})
          and not exists (select 1 from bans b where b.account_id = p.account_id and b.scope = ${venue})`
    : sql``
  const { rows } = await sql<{ market_id: string; side: number | null; n: number }>`
    select market_id, stance_side as side, count(*)::int as n from posts p
    where market_id in (${sql.join(ids)}) and deleted_at is null and state = 'visible' and not room_private ${overlay}
    group by 1, 2`.execute(svc.ctx.db)
  const out: Record<string, TakeCount> = Object.fromEntries(ids.map((id) => [id, { posts: 0, takes: 0, bySide: {} }]))
  for (const r of rows) {
    out[r.market_id].posts += r.n
    if (r.side != null) {
      out[r.market_id].takes += r.n
      out[r.market_id].bySide[String(r.side)] = r.n
    }
  }
  return out
}

describe('take counts from counters', () => {
  it('"counts are identical to a recount of visible posts" after random posts, replies, deletes, hides, removals, restores, private rooms, venue hides and bans', { timeout: 120_000 }, async () => {
    const markets = [(await addMarket(svc)).id, (await addMarket(svc)).id, (await addMarket(svc)).id]
    const venue = await makeVenue(svc)
    const priv = await makeRoom(svc, { venueId: venue, visibility: 'private' })
    const users: TestUser[] = []
    for (let i = 0; i < 5; i++) {
      const u = await signIn(svc)
      await addMember(svc, priv, u)
      // Four hold positions (takes), one only comments.
      if (i < 4) for (const m of markets) await svc.chain.setPosition(u.wallet, m, i % 2, 1n)
      users.push(u)
    }
    const posts: { id: string; author: number; market: string; top: boolean }[] = []
    const banned = new Set<number>()

    const op = fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('post' as const), u: fc.nat(4), m: fc.nat(2), room: fc.boolean() }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('reply' as const), u: fc.nat(4), p: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), p: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('state' as const), p: fc.nat(), state: fc.constantFrom('visible' as const, 'hidden' as const, 'removed' as const) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('venue-hide' as const), p: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('ban' as const), u: fc.nat(4) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('rolled-back' as const), m: fc.nat(2) }) },
    )
    const ops = fc.sample(fc.array(op, { minLength: 150, maxLength: 150 }), { numRuns: 1, seed: 20261122 })[0]
    for (const o of ops) {
      const target = 'p' in o && posts.length ? posts[o.p % posts.length] : null
      if (o.kind === 'post') {
        // Refused when the author is banned on the room's venue.
        const p = await call(svc, 'POST', PATHS.posts, { token: users[o.u].token, body: { subjectType: 'event', subjectRef: markets[o.m], body: 'a post', ...(o.room ? { room: priv } : {}) } })
        if (p.status === 201) posts.push({ id: p.body.post.id, author: o.u, market: markets[o.m], top: true })
      } else if (o.kind === 'reply' && target?.top) {
        const r = await call(svc, 'POST', PATHS.posts, { token: users[o.u].token, body: { subjectType: 'event', subjectRef: target.market, body: 'a reply', parentId: target.id } })
        if (r.status === 201) posts.push({ id: r.body.post.id, author: o.u, market: target.market, top: false })
      } else if (o.kind === 'delete' && target) {
        await call(svc, 'DELETE', PATHS.post(target.id), { token: users[target.author].token })
      } else if (o.kind === 'state' && target) {
        await setState(svc, target.id, o.state)
      } else if (o.kind === 'venue-hide' && target) {
        await venueHide(svc, venue, target.id).catch(() => {})
      } else if (o.kind === 'ban' && !banned.has(o.u)) {
        banned.add(o.u)
        await ban(svc, venue, users[o.u])
      } else if (o.kind === 'rolled-back') {
        // A post written and changed in a transaction that rolls back leaves the counters as they were.
        await svc.ctx.db
          .transaction()
          .execute(async (tx) => {
            await tx
              .insertInto('posts')
              .values({ id: `p_rollback${Math.random().toString(36).slice(2, 10)}`, subject_type: 'event', subject_ref: markets[o.m], account_id: 'a_none', author: '0x', body: 'x', market_id: markets[o.m], score: 0, created_at: new Date() })
              .execute()
            throw new Error('roll back')
          })
          .catch(() => {})
      }
    }
    assert.ok(posts.length > 30, `${posts.length} posts written`)
    for (const v of [null, venue]) {
      const r = await call(svc, 'GET', `${PATHS.takeCounts}?ids=${markets.join(',')}${v ? `&venue=${v}` : ''}`)
      assert.equal(r.status, 200)
      assert.deepEqual(r.body.counts, await recount(markets, v), `venue ${v}`)
    }
  })
})
