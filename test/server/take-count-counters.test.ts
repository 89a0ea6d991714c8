/**
 * Take counts from counters (issue 9, budget "take counts (100 ids) p99 ≤ 15 ms"): `market_take_counts` is
 * kept by a trigger. After a random mix of every change that moves a post in or out of the public count —
 * posts and replies with and without stances, deletes, hides, removals, restores, private-room posts,
 * venue hides and bans, parents with replies deleted, hidden, removed and restored, and writes that roll
 * back — the counts answered equal a recount of the posts under the public rule, with and without a venue
 * overlay. The rule (§2.6 "they include visible posts"): a post counts while it is visible and so is its
 * parent, since a reply is read only folded under its parent (migration 010). The recount reads the
 * parent itself, not the `parent_shown` column the triggers keep. Each parent's `replies` (and its live
 * score) is checked against its replies the same way.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { sql } from 'kysely'
import { PATHS } from '../../src/contract/paths.ts'
import { liveScore } from '../../src/core/ranking.ts'
import type { TakeCount } from '../../src/contract/types.ts'
import { addMarket, call, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'
import { addMember, ban, makeRoom, makeVenue, setState, venueHide } from '../helpers/read-fixtures.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

/**
 * The public rule, counted from the posts themselves (what the counters replace): visible, not in a
 * private room, and a reply only while its parent is visible too; with a venue, neither the post nor its
 * parent hidden on the venue or written by an account banned on it.
 */
async function recount(ids: string[], venue: string | null): Promise<Record<string, TakeCount>> {
  const overlay = venue
    ? sql`and not exists (select 1 from venue_hides vh where vh.post_id in (p.id, p.parent_id) and vh.venue_id = ${venue})
          and not exists (select 1 from bans b where b.scope = ${venue}
            and b.account_id in (p.account_id, (select pp.account_id from posts pp where pp.id = p.parent_id)))`
    : sql``
  const { rows } = await sql<{ market_id: string; side: number | null; n: number }>`
    select market_id, stance_side as side, count(*)::int as n from posts p
    where market_id in (${sql.join(ids)}) and deleted_at is null and state = 'visible' and not room_private
      and (p.parent_id is null or exists (select 1 from posts pp where pp.id = p.parent_id and pp.deleted_at is null and pp.state = 'visible'))
      ${overlay}
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
  it('§2.6 "Counts ... include visible posts": counts are identical to a recount of visible posts — a reply only while its parent is visible — after random posts, replies, deletes, hides, removals, restores (of parents with replies too), private rooms, venue hides and bans; each parent\'s replies count is its visible replies', { timeout: 180_000 }, async () => {
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
    const posts: { id: string; author: number; market: string; top: boolean; parent?: string }[] = []
    const banned = new Set<number>()

    const op = fc.oneof(
      { weight: 6, arbitrary: fc.record({ kind: fc.constant('post' as const), u: fc.nat(4), m: fc.nat(2), room: fc.boolean() }) },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('reply' as const), u: fc.nat(4), p: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), p: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('state' as const), p: fc.nat(), state: fc.constantFrom('visible' as const, 'hidden' as const, 'removed' as const) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('venue-hide' as const), p: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('ban' as const), u: fc.nat(4) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('rolled-back' as const), m: fc.nat(2) }) },
      // A parent with replies changes: deleted (and, straight in the table, undeleted), hidden, removed, restored.
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('parent-state' as const), p: fc.nat(), state: fc.constantFrom('visible' as const, 'hidden' as const, 'removed' as const) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('parent-delete' as const), p: fc.nat(), undo: fc.boolean() }) },
    )
    const ops = fc.sample(fc.array(op, { minLength: 180, maxLength: 180 }), { numRuns: 1, seed: 20261122 })[0]
    for (const o of ops) {
      const parents = o.kind === 'parent-state' || o.kind === 'parent-delete' ? posts.filter((p) => p.top && posts.some((r) => !r.top && r.parent === p.id)) : posts
      const target = 'p' in o && parents.length ? parents[o.p % parents.length] : null
      if (o.kind === 'post') {
        // Refused when the author is banned on the room's venue.
        const p = await call(svc, 'POST', PATHS.posts, { token: users[o.u].token, body: { subjectType: 'event', subjectRef: markets[o.m], body: 'a post', ...(o.room ? { room: priv } : {}) } })
        if (p.status === 201) posts.push({ id: p.body.post.id, author: o.u, market: markets[o.m], top: true })
      } else if (o.kind === 'reply' && target?.top) {
        const r = await call(svc, 'POST', PATHS.posts, { token: users[o.u].token, body: { subjectType: 'event', subjectRef: target.market, body: 'a reply', parentId: target.id } })
        if (r.status === 201) posts.push({ id: r.body.post.id, author: o.u, market: target.market, top: false, parent: target.id })
      } else if (o.kind === 'delete' && target) {
        await call(svc, 'DELETE', PATHS.post(target.id), { token: users[target.author].token })
      } else if ((o.kind === 'state' || o.kind === 'parent-state') && target) {
        await setState(svc, target.id, o.state)
      } else if (o.kind === 'parent-delete' && target) {
        if (o.undo) await svc.ctx.db.updateTable('posts').set({ deleted_at: null }).where('id', '=', target.id).execute()
        else await call(svc, 'DELETE', PATHS.post(target.id), { token: users[target.author].token })
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
    // The card's reply count is its visible replies (not deleted, not hidden or removed), and the live score
    // (and its node-index rows) weighs those.
    const tops = await sql<{ id: string; replies: number; visible: number; agrees: number; score: number; created_at: Date; stance_side: number | null; nodes_off: number }>`
      select p.id, p.replies, p.agrees, p.score, p.created_at, p.stance_side,
        (select count(*)::int from posts r where r.parent_id = p.id and r.deleted_at is null and r.state = 'visible') as visible,
        (select count(*)::int from post_nodes n where n.post_id = p.id and n.score <> p.score) as nodes_off
      from posts p where p.parent_id is null and p.market_id in (${sql.join(markets)})`.execute(svc.ctx.db)
    assert.ok(tops.rows.some((t) => t.visible > 0))
    for (const t of tops.rows) {
      assert.equal(t.replies, t.visible, `replies of ${t.id}`)
      const want = liveScore({ createdAtMs: new Date(t.created_at).getTime(), agrees: t.agrees, replies: t.visible, isTake: t.stance_side != null })
      assert.ok(Math.abs(t.score - want) < 1e-9, `score of ${t.id}: ${t.score} vs ${want}`)
      assert.equal(t.nodes_off, 0, `node rows of ${t.id}`)
    }
  })
})
