/**
 * A reply goes with its parent (§2.6 "Counts are identical for every reader: they include visible posts in
 * public rooms and unroomed threads"; §3.1 "Rules while hidden: the post remains visible to its author";
 * §2.1 "Threads have one level of replies"). A reply is read only folded under its parent, so once the
 * parent is deleted, hidden by reports or removed by an operator, the reply is a visible post for nobody but
 * its author: it leaves the take counts, `/v1/markets/counts`, the feed's settlement tallies, other readers'
 * views of its author's profile, and what others may write on (agree: 404). Restoring the parent brings it
 * back. A venue's overlay does the same on that venue for replies under a post it hid or whose author it
 * banned. A card's `replies` counts the visible replies, the same for every reader. Migration 010.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { PATHS } from '../../src/contract/paths.ts'
import { LIMITS } from '../../src/contract/limits.ts'
import { liveScore } from '../../src/core/ranking.ts'
import { randomHex } from '../../src/core/ids.ts'
import { migrationProvider } from '../../src/server/db/migrations.ts'
import { PGliteDialect } from '../../src/server/db/pglite-dialect.ts'
import type { Database } from '../../src/server/db/schema.ts'
import { freshPgDatabase } from '../../scripts/lib/pg-database.ts'
import { addMarket, call, expectError, ON_POSTGRES, signIn, startWithOperator, type TestService, type TestUser } from '../helpers/service.ts'
import { ban, makeVenue, venueHide, writePost } from '../helpers/read-fixtures.ts'

let svc: TestService
let operator: TestUser
before(async () => {
  ;({ svc, operator } = await startWithOperator())
})
after(() => svc.close())

let n = 0
const uniqueRef = (p: string) => `${p}-${Date.now().toString(36)}-${n++}`

type Gone = 'deleted' | 'hidden' | 'removed'
const WAYS: Gone[] = ['deleted', 'hidden', 'removed']

const takeCounts = async (id: string, venue?: string) => {
  const r = await call(svc, 'GET', `${PATHS.takeCounts}?ids=${id}${venue ? `&venue=${venue}` : ''}`)
  assert.equal(r.status, 200, JSON.stringify(r.body))
  return r.body.counts[id]
}
const groupCounts = async (ref: string) => {
  const r = await call(svc, 'GET', `${PATHS.counts}?by=category`)
  assert.equal(r.status, 200, JSON.stringify(r.body))
  return r.body.groups.find((g: { key: string }) => g.key === ref) ?? { key: ref, posts: 0, takes: 0 }
}
const mod = (action: string, body: Record<string, unknown>) => call(svc, 'POST', PATHS.modAction(action), { token: operator.token, body })
const profileReplies = (wallet: string, reader?: TestUser, qs = '') =>
  call(svc, 'GET', `${PATHS.profilePosts(wallet)}?takes=false&includeReplies=true${qs}`, { token: reader?.token })

/**
 * A market on its own category node; `author`'s take (side 0), `replier`'s reply with a stance (side 1),
 * and `other`'s separate take (side 0) that stays visible throughout.
 */
async function world() {
  const ref = uniqueRef('rv')
  const m = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
  const [author, replier, other] = [await signIn(svc), await signIn(svc), await signIn(svc)]
  await svc.chain.setPosition(author.wallet, m.id, 0, 5n)
  await svc.chain.setPosition(replier.wallet, m.id, 1, 5n)
  await svc.chain.setPosition(other.wallet, m.id, 0, 5n)
  const take = await writePost(svc, author, 'event', m.id, 'yes, surely')
  const reply = await writePost(svc, replier, 'event', m.id, 'no, and here is why', { parentId: take.id })
  assert.equal(reply.stance?.side, 1)
  const still = await writePost(svc, other, 'event', m.id, 'yes as well')
  return { ref, m, author, replier, other, take, reply, still }
}

/** Takes the parent away the way named: its author deletes it, reports hide it, or the operator removes it. */
async function takeAway(way: Gone, parentId: string, author: TestUser) {
  if (way === 'deleted') assert.equal((await call(svc, 'DELETE', PATHS.post(parentId), { token: author.token })).status, 200)
  else if (way === 'hidden')
    for (let i = 0; i < LIMITS.reportThreshold; i++) {
      const r = await call(svc, 'POST', PATHS.report(parentId), { token: (await signIn(svc)).token, body: { reason: 'spam' } })
      assert.equal(r.status, 200, JSON.stringify(r.body))
    }
  else assert.equal((await mod('remove', { postId: parentId })).status, 200)
  const row = await svc.ctx.db.selectFrom('posts').select(['state', 'deleted_at']).where('id', '=', parentId).executeTakeFirstOrThrow()
  assert.ok(way === 'deleted' ? row.deleted_at : row.state === way, `${way}: ${JSON.stringify(row)}`)
}

/** Brings a hidden or removed parent back (operator restore). */
async function restore(parentId: string) {
  assert.equal((await mod('restore', { postId: parentId })).status, 200)
}

describe('a reply goes with its parent', () => {
  it('§2.6 "Counts ... include visible posts": a reply whose parent is deleted, hidden by reports or removed is not counted in the take counts; restoring the parent counts it again', async () => {
    for (const way of WAYS) {
      const { m, take, author } = await world()
      assert.deepEqual(await takeCounts(m.id), { posts: 3, takes: 3, bySide: { 0: 2, 1: 1 } })
      await takeAway(way, take.id, author)
      // Only the other take is left: neither the parent nor the reply under it.
      assert.deepEqual(await takeCounts(m.id), { posts: 1, takes: 1, bySide: { 0: 1 } }, way)
      if (way === 'deleted') continue
      await restore(take.id)
      assert.deepEqual(await takeCounts(m.id), { posts: 3, takes: 3, bySide: { 0: 2, 1: 1 } }, `${way} restored`)
    }
  })

  it('§2.6 "Counts ... include visible posts": a reply written by the author of a hidden post under it is not counted (the author still sees both; nobody else does)', async () => {
    const { m, take, author } = await world()
    await takeAway('hidden', take.id, author)
    const own = await writePost(svc, author, 'event', m.id, 'replying to myself', { parentId: take.id })
    assert.equal(own.stance?.side, 0)
    assert.deepEqual(await takeCounts(m.id), { posts: 1, takes: 1, bySide: { 0: 1 } })
    await restore(take.id)
    assert.deepEqual(await takeCounts(m.id), { posts: 4, takes: 4, bySide: { 0: 3, 1: 1 } })
  })

  it('§2.6 "Counts are identical for every reader": /v1/markets/counts leaves out a reply whose parent is deleted, hidden by reports or removed; restoring the parent counts it again', async () => {
    for (const way of WAYS) {
      const { ref, take, author } = await world()
      assert.deepEqual(await groupCounts(ref), { key: ref, posts: 3, takes: 3 })
      await takeAway(way, take.id, author)
      assert.deepEqual(await groupCounts(ref), { key: ref, posts: 1, takes: 1 }, way)
      if (way === 'deleted') continue
      await restore(take.id)
      assert.deepEqual(await groupCounts(ref), { key: ref, posts: 3, takes: 3 }, `${way} restored`)
    }
  })

  it('§2.2 settlements count "what every reader is counted on" (§2.6 visible posts): a stanced reply under a deleted, hidden or removed parent is neither right nor wrong; restoring the parent tallies it again', async () => {
    for (const way of WAYS) {
      const { ref, m, take, author, still } = await world()
      await svc.chain.resolve(m.id, 0)
      const settlement = async () => {
        const r = await call(svc, 'GET', `${PATHS.feed}?scope=subject&subjectType=category&subjectRef=${ref}`)
        assert.equal(r.status, 200, JSON.stringify(r.body))
        const s = r.body.settlements.find((x: { marketId: string }) => x.marketId === m.id)
        return { right: s.right, wrong: s.wrong }
      }
      assert.deepEqual(await settlement(), { right: 2, wrong: 1 })
      await takeAway(way, take.id, author)
      // The replier's "no" went with the parent: only the other "yes" is tallied.
      assert.deepEqual(await settlement(), { right: 1, wrong: 0 }, way)
      assert.ok(still.id)
      if (way === 'deleted') continue
      await restore(take.id)
      assert.deepEqual(await settlement(), { right: 2, wrong: 1 }, `${way} restored`)
    }
  })

  it('§4.1 rule 5 "venue is a moderation overlay (that venue\'s hides and bans)": on that venue, take counts and settlements leave out a post it hid or whose author it banned, and the replies under it, as its pages do', async () => {
    for (const how of ['hide', 'ban-parent-author', 'ban-replier'] as const) {
      const { ref, m, take, author, replier } = await world()
      const v = await makeVenue(svc)
      if (how === 'hide') await venueHide(svc, v, take.id)
      else await ban(svc, v, how === 'ban-parent-author' ? author : replier)
      await svc.chain.resolve(m.id, 0)
      const settlement = async (venue?: string) => {
        const r = await call(svc, 'GET', `${PATHS.feed}?scope=subject&subjectType=category&subjectRef=${ref}${venue ? `&venue=${venue}` : ''}`)
        assert.equal(r.status, 200, JSON.stringify(r.body))
        const s = r.body.settlements.find((x: { marketId: string }) => x.marketId === m.id)
        return { right: s.right, wrong: s.wrong }
      }
      // Everywhere else nothing changes.
      assert.deepEqual(await takeCounts(m.id), { posts: 3, takes: 3, bySide: { 0: 2, 1: 1 } }, how)
      assert.deepEqual(await settlement(), { right: 2, wrong: 1 }, how)
      // On the venue: the thread shows what is counted.
      const thread = await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}&venue=${v}`)
      const shown = [...thread.body.posts, ...Object.values(thread.body.threads).flat()] as { stance?: { side: number } }[]
      const bySide: Record<string, number> = {}
      for (const p of shown) if (p.stance) bySide[p.stance.side] = (bySide[p.stance.side] ?? 0) + 1
      const onVenue = await takeCounts(m.id, v)
      assert.deepEqual(onVenue, { posts: shown.length, takes: shown.length, bySide }, how)
      assert.deepEqual(onVenue, how === 'ban-replier' ? { posts: 2, takes: 2, bySide: { 0: 2 } } : { posts: 1, takes: 1, bySide: { 0: 1 } }, how)
      assert.deepEqual(await settlement(v), how === 'ban-replier' ? { right: 2, wrong: 0 } : { right: 1, wrong: 0 }, how)
    }
  })

  it('§2.1 the card\'s replies count is its visible replies, the same for every reader: a reply hidden by reports or removed leaves it (and the live score), restored it counts again; deleting an already hidden reply takes nothing more off', async () => {
    const topic = uniqueRef('rv-topic')
    const [author, a, b, c] = [await signIn(svc), await signIn(svc), await signIn(svc), await signIn(svc)]
    const top = await writePost(svc, author, 'topic', topic, 'a question')
    const ra = await writePost(svc, a, 'topic', topic, 'answer a', { parentId: top.id })
    const rb = await writePost(svc, b, 'topic', topic, 'answer b', { parentId: top.id })
    await writePost(svc, c, 'topic', topic, 'answer c', { parentId: top.id })
    const replies = async () => {
      const seen = new Set<number>()
      for (const reader of [undefined, author, a, b]) {
        const t = await call(svc, 'GET', `${PATHS.posts}?subjectType=topic&subjectRef=${topic}`, { token: reader?.token })
        const f = await call(svc, 'GET', `${PATHS.feed}?scope=subject&subjectType=topic&subjectRef=${topic}`, { token: reader?.token })
        for (const r of [t, f]) seen.add(r.body.posts.find((p: { id: string }) => p.id === top.id).replies)
      }
      assert.equal(seen.size, 1, `one count for every reader: ${[...seen]}`)
      const row = await svc.ctx.db.selectFrom('posts').select(['replies', 'agrees', 'score', 'created_at']).where('id', '=', top.id).executeTakeFirstOrThrow()
      const want = liveScore({ createdAtMs: new Date(row.created_at).getTime(), agrees: row.agrees, replies: row.replies, isTake: false })
      assert.ok(Math.abs(row.score - want) < 1e-9, `score ${row.score} weighs ${row.replies} replies`)
      const nodes = await svc.ctx.db.selectFrom('post_nodes').select('score').where('post_id', '=', top.id).execute()
      for (const nd of nodes) assert.equal(nd.score, row.score)
      assert.equal(row.replies, [...seen][0])
      return row.replies
    }
    assert.equal(await replies(), 3)
    await takeAway('hidden', ra.id, a)
    assert.equal(await replies(), 2)
    await takeAway('removed', rb.id, b)
    assert.equal(await replies(), 1)
    await restore(rb.id)
    assert.equal(await replies(), 2)
    // The hidden reply's author deletes it: it was not counted, so the count stays.
    assert.equal((await call(svc, 'DELETE', PATHS.post(ra.id), { token: a.token })).status, 200)
    assert.equal(await replies(), 2)
    await takeAway('deleted', rb.id, b)
    assert.equal(await replies(), 1)
  })

  it('§3.1 "the post remains visible to its author ... on their profile": a reply whose parent is deleted, hidden by reports or removed appears (includeReplies) only to its author, marked hidden: true; restoring the parent shows it to everyone again', async () => {
    for (const way of WAYS) {
      const { take, author, replier, other, reply } = await world()
      const ids = async (reader?: TestUser, qs = '') => {
        const r = await profileReplies(replier.wallet, reader, qs)
        assert.equal(r.status, 200, JSON.stringify(r.body))
        return r.body.posts as { id: string; hidden?: boolean }[]
      }
      assert.deepEqual((await ids()).map((p) => p.id), [reply.id])
      await takeAway(way, take.id, author)
      // Signed out, another reader, and the parent's own author: the reply is gone.
      for (const reader of [undefined, other, author]) assert.deepEqual(await ids(reader), [], `${way}: ${reader?.wallet ?? 'signed out'}`)
      const own = await ids(replier)
      assert.deepEqual(own.map((p) => p.id), [reply.id], way)
      assert.equal(own[0].hidden, true, way)
      // Without replies the profile is unchanged (the reply was never on it).
      assert.deepEqual((await call(svc, 'GET', `${PATHS.profilePosts(replier.wallet)}?takes=false`)).body.posts, [])
      if (way === 'deleted') continue
      await restore(take.id)
      assert.deepEqual((await ids(other)).map((p) => p.id), [reply.id], `${way} restored`)
      assert.equal((await ids(replier))[0].hidden, undefined, `${way} restored`)
    }
  })

  it('§4.1 rule 5 venue overlay on a profile: a reply under a post the venue hid, or by an author it banned, appears there only to the reply\'s author (hidden: true); elsewhere it stays', async () => {
    for (const how of ['hide', 'ban'] as const) {
      const { take, author, replier, other, reply } = await world()
      const v = await makeVenue(svc)
      if (how === 'hide') await venueHide(svc, v, take.id)
      else await ban(svc, v, author)
      const on = async (reader?: TestUser, venue?: string) => (await profileReplies(replier.wallet, reader, venue ? `&venue=${venue}` : '')).body.posts as { id: string; hidden?: boolean }[]
      assert.deepEqual(await on(other, v), [], how)
      assert.deepEqual(await on(undefined, v), [], how)
      const own = await on(replier, v)
      assert.deepEqual(own.map((p) => p.id), [reply.id], how)
      assert.equal(own[0].hidden, true, how)
      assert.deepEqual((await on(other)).map((p) => p.id), [reply.id], how)
      assert.equal((await on(replier))[0].hidden, undefined, how)
    }
  })

  it('§3.1 a reply whose parent is deleted, hidden by reports or removed is gone for everyone but its author (reachablePost): agree is 404 and writes nothing; its author still edits it, a report still reaches it; restoring the parent opens it again', async () => {
    for (const way of WAYS) {
      const { take, author, replier, other, reply } = await world()
      await takeAway(way, take.id, author)
      for (const who of [other, author]) {
        expectError(await call(svc, 'POST', PATHS.react(reply.id), { token: who.token, body: { kind: 'agree', active: true } }), 404, 'post-not-found')
      }
      const agrees = await svc.ctx.db.selectFrom('reactions').select('account_id').where('post_id', '=', reply.id).execute()
      assert.equal(agrees.length, 0, way)
      assert.equal((await call(svc, 'PATCH', PATHS.post(reply.id), { token: replier.token, body: { body: `edited while the parent is ${way}` } })).status, 200, way)
      assert.equal((await call(svc, 'POST', PATHS.report(reply.id), { token: other.token, body: { reason: 'late report' } })).status, 200, way)
      if (way === 'deleted') continue
      await restore(take.id)
      assert.equal((await call(svc, 'POST', PATHS.react(reply.id), { token: other.token, body: { kind: 'agree', active: true } })).status, 200, `${way} restored`)
    }
  })

  it('§3.1 a parent hidden or removed between the reply\'s checks and its write refuses the reply (404, nothing written), as it would have before', async () => {
    for (const way of ['hidden', 'removed', 'deleted'] as const) {
      const { m, take } = await world()
      const late = await signIn(svc)
      await svc.chain.setPosition(late.wallet, m.id, 1, 1n)
      const before = await takeCounts(m.id)
      // The market's stance is read after the parent's first check and before the write's transaction:
      // the parent changes there, as another request would.
      const stanceOf = svc.chain.stanceOf
      svc.chain.stanceOf = async (...args) => {
        svc.chain.stanceOf = stanceOf
        if (way === 'deleted') await svc.ctx.db.updateTable('posts').set({ deleted_at: new Date() }).where('id', '=', take.id).execute()
        else await svc.ctx.db.updateTable('posts').set({ state: way }).where('id', '=', take.id).execute()
        return stanceOf.apply(svc.chain, args)
      }
      try {
        const r = await call(svc, 'POST', PATHS.posts, { token: late.token, body: { subjectType: 'event', subjectRef: m.id, body: 'too late', parentId: take.id } })
        expectError(r, 404, 'post-not-found')
      } finally {
        svc.chain.stanceOf = stanceOf
      }
      const written = await svc.ctx.db.selectFrom('posts').select('id').where('parent_id', '=', take.id).where('body', '=', 'too late').execute()
      assert.deepEqual(written, [], way)
      const after = await takeCounts(m.id)
      // The parent left the counts with its reply; nothing new came in.
      assert.equal(after.bySide[1] ?? 0, 0, way)
      assert.ok(after.posts < before.posts, way)
    }
  })
})

describe('a reply goes with its parent, under concurrent writes', () => {
  it('§2.6 "Counts ... include visible posts": a parent removed and restored while its replies are removed, restored, deleted and agreed with at once — every write answers (no deadlock: parent, then reply), and the counts, reply counts and scores agree with a recount', async () => {
    const m = await addMarket(svc)
    const author = await signIn(svc)
    const fans = [await signIn(svc), await signIn(svc), await signIn(svc)]
    const repliers: TestUser[] = []
    for (let i = 0; i < 6; i++) {
      const u = await signIn(svc)
      await svc.chain.setPosition(u.wallet, m.id, i % 2, 1n)
      repliers.push(u)
    }
    for (let round = 0; round < 4; round++) {
      const take = await writePost(svc, author, 'event', m.id, `round ${round}`)
      const replies: { u: TestUser; id: string }[] = []
      for (const u of repliers) replies.push({ u, id: (await writePost(svc, u, 'event', m.id, 'a reply', { parentId: take.id })).id })
      const writes = [
        mod('remove', { postId: take.id }),
        mod('remove', { postId: replies[0].id }),
        mod('remove', { postId: replies[1].id }),
        call(svc, 'DELETE', PATHS.post(replies[2].id), { token: replies[2].u.token }),
        call(svc, 'DELETE', PATHS.post(replies[3].id), { token: replies[3].u.token }),
        ...fans.map((f) => call(svc, 'POST', PATHS.react(replies[4].id), { token: f.token, body: { kind: 'agree', active: true } })),
        mod('restore', { postId: take.id }),
        mod('restore', { postId: replies[0].id }),
      ]
      for (const r of await Promise.all(writes)) assert.ok(r.status === 200 || r.status === 404, `${r.status} ${JSON.stringify(r.body)}`)
    }
    const counted = await sql<{ n: number }>`select count(*)::int as n from posts p where p.market_id = ${m.id} and p.deleted_at is null and p.state = 'visible'
      and (p.parent_id is null or exists (select 1 from posts pp where pp.id = p.parent_id and pp.deleted_at is null and pp.state = 'visible'))`.execute(svc.ctx.db)
    assert.equal((await takeCounts(m.id)).posts, counted.rows[0].n)
    const off = await sql<{ id: string }>`select p.id from posts p where p.market_id = ${m.id} and p.parent_id is null
      and p.replies <> (select count(*) from posts r where r.parent_id = p.id and r.deleted_at is null and r.state = 'visible')`.execute(svc.ctx.db)
    assert.deepEqual(off.rows, [])
    const shownOff = await sql<{ id: string }>`select r.id from posts r join posts p on p.id = r.parent_id
      where r.market_id = ${m.id} and r.parent_shown <> (p.deleted_at is null and p.state = 'visible')`.execute(svc.ctx.db)
    assert.deepEqual(shownOff.rows, [])
  })
})

describe('migration 010 on stored posts', () => {
  it('§2.6 "Counts ... include visible posts": on a store written before it, migration 010 marks the replies of deleted, hidden and removed parents, recounts each parent\'s visible replies (and its score), and rebuilds the take counts; the triggers then keep them (PGlite and PostgreSQL alike)', async () => {
    let drop = async () => {}
    let db: Kysely<Database>
    if (ON_POSTGRES) {
      const fresh = await freshPgDatabase(process.env.VK_TEST_DATABASE_URL!, 'vk_m010')
      drop = fresh.drop
      db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: fresh.url, max: 2 }) }) })
    } else db = new Kysely<Database>({ dialect: new PGliteDialect(new PGlite()) })
    try {
      const migrator = new Migrator({ db, provider: migrationProvider })
      const to009 = await migrator.migrateTo('009_report_venue_settled')
      if (to009.error) throw to009.error
      const market = `0x${randomHex(32)}`
      await sql`insert into accounts (id) values ('a1'), ('a2')`.execute(db)
      await sql`insert into markets (id, title, outcomes, nodes) values (${market}, 'M', '[]'::jsonb, '[]'::jsonb)`.execute(db)
      const t0 = new Date('2026-01-01T00:00:00.000Z').getTime()
      // Written as the service did before 010: every reply counted in `replies` (deletes took one off).
      const rows: { id: string; parent: string | null; side: number | null; state?: string; deleted?: boolean; replies?: number }[] = [
        { id: 'p_shown', parent: null, side: 0, replies: 3 },
        { id: 'r_shown1', parent: 'p_shown', side: 1 },
        { id: 'r_shown2', parent: 'p_shown', side: null, state: 'hidden' },
        { id: 'r_shown3', parent: 'p_shown', side: 0, state: 'removed' },
        { id: 'p_deleted', parent: null, side: 0, deleted: true, replies: 1 },
        { id: 'r_deleted', parent: 'p_deleted', side: 1 },
        { id: 'p_hidden', parent: null, side: null, state: 'hidden', replies: 1 },
        { id: 'r_hidden', parent: 'p_hidden', side: 1 },
        { id: 'p_removed', parent: null, side: 1, state: 'removed', replies: 1 },
        { id: 'r_removed', parent: 'p_removed', side: 0 },
      ]
      for (const [i, r] of rows.entries()) {
        await db
          .insertInto('posts')
          .values({
            id: r.id,
            subject_type: 'event',
            subject_ref: market,
            account_id: i % 2 ? 'a2' : 'a1',
            author: '0x',
            body: r.id,
            parent_id: r.parent,
            market_id: market,
            stance_side: r.side,
            stance_size: r.side == null ? null : '1',
            state: (r.state ?? 'visible') as 'visible',
            deleted_at: r.deleted ? new Date(t0) : null,
            replies: r.replies ?? 0,
            created_at: new Date(t0 + i * 1000),
            score: 0,
          } as never)
          .execute()
      }
      const counts = async () =>
        Object.fromEntries(
          (await sql<{ side: number; n: number }>`select side, n from market_take_counts where market_id = ${market} and n <> 0 order by side`.execute(db)).rows.map((r) => [r.side, r.n]),
        )
      // Before: the replies of the gone parents count.
      assert.deepEqual(await counts(), { 0: 2, 1: 3 })
      const latest = await migrator.migrateToLatest()
      if (latest.error) throw latest.error
      const shown = Object.fromEntries((await sql<{ id: string; parent_shown: boolean }>`select id, parent_shown from posts`.execute(db)).rows.map((r) => [r.id, r.parent_shown]))
      assert.deepEqual(shown, {
        p_shown: true,
        r_shown1: true,
        r_shown2: true,
        r_shown3: true,
        p_deleted: true,
        r_deleted: false,
        p_hidden: true,
        r_hidden: false,
        p_removed: true,
        r_removed: false,
      })
      // p_shown and r_shown1 only.
      assert.deepEqual(await counts(), { 0: 1, 1: 1 })
      const p = await sql<{ replies: number; score: number; created_at: Date }>`select replies, score, created_at from posts where id = 'p_shown'`.execute(db)
      assert.equal(p.rows[0].replies, 1)
      const want = liveScore({ createdAtMs: new Date(p.rows[0].created_at).getTime(), agrees: 0, replies: 1, isTake: true })
      assert.ok(Math.abs(p.rows[0].score - want) < 1e-9, `${p.rows[0].score} vs ${want}`)
      // The triggers from here on: the hidden parent restored brings its reply back; a new reply under a
      // removed parent starts not shown.
      await sql`update posts set state = 'visible' where id = 'p_hidden'`.execute(db)
      await sql`insert into posts (id, subject_type, subject_ref, account_id, author, body, parent_id, market_id, stance_side, stance_size, created_at, score)
        values ('r_late', 'event', ${market}, 'a1', '0x', 'late', 'p_removed', ${market}, 0, '1', now(), 0)`.execute(db)
      assert.deepEqual(await counts(), { '-1': 1, 0: 1, 1: 2 })
      const late = await sql<{ parent_shown: boolean }>`select parent_shown from posts where id = 'r_late'`.execute(db)
      assert.equal(late.rows[0].parent_shown, false)
    } finally {
      await db.destroy()
      await drop()
    }
  })
})
