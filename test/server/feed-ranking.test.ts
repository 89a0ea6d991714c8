/** §4.1 `sort=live` ranking and keyset paging of the ranked feed (core/ranking.ts liveScore). */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { addMarket, call, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'
import { accountOf, allPages, feed, settleTakes, uniqueRef, writePost } from '../helpers/feed-fixtures.ts'
import { sql } from 'kysely'

let svc: TestService
let clock = Date.now()
const HOUR = 3600_000
before(async () => {
  svc = await startTestService({ now: () => new Date(clock) })
})
after(() => svc.close())

const ids = (body: any) => body.posts.map((p: any) => p.id)
/** Writes at a given age (ms before the test's "now"), then restores the clock. */
async function writeAt(age: number, user: TestUser, subjectType: string, subjectRef: string, body = 'post', extra: { parentId?: string } = {}) {
  const now = clock
  clock = now - age
  try {
    return await writePost(svc, user, subjectType, subjectRef, body, extra)
  } finally {
    clock = now
  }
}
async function agree(user: TestUser, postId: string) {
  const r = await call(svc, 'POST', `/v1/social/posts/${postId}/reactions`, { token: user.token, body: { kind: 'agree', active: true } })
  assert.equal(r.status, 200)
}

describe('feed ranking: sort=live', () => {
  it('§1.5 and §4.1 live ranking "takes above bare comments": at the same age a take ranks above a comment, and keeps its take weight once engaged (an agree rescores it as a take), on its market, its node and the global feed', async () => {
    const ref = uniqueRef('cat')
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    const holder = await signIn(svc)
    const watcher = await signIn(svc)
    const fan = await signIn(svc)
    await svc.chain.setPosition(holder.wallet, m.id, 0, 10n)
    const take = await writeAt(HOUR, holder, 'event', m.id, 'a take')
    const comment = await writeAt(HOUR, watcher, 'event', m.id, 'a comment, written after at the same instant')
    assert.ok(take.stance && !comment.stance)
    assert.equal(take.createdAt, comment.createdAt)
    const takeFirst = async (when: string) => {
      for (const q of [{ subjectType: 'event', subjectRef: m.id }, { subjectType: 'category', subjectRef: ref }]) {
        assert.deepEqual(ids((await feed(svc, q)).body), [take.id, comment.id], `${when}: ${q.subjectType}`)
      }
      const global = (await allPages(svc, { limit: 100 })).flatMap((p) => ids(p)).filter((id: string) => id === take.id || id === comment.id)
      assert.deepEqual(global, [take.id, comment.id], `${when}: global`)
    }
    await takeFirst('as written')
    for (const id of [take.id, comment.id]) await agree(fan, id)
    await takeFirst('one agree each')
  })

  it('§4.1 live ranking: newer above older at equal engagement', async () => {
    const ref = uniqueRef('cat')
    const u = await signIn(svc)
    const older = await writeAt(3 * HOUR, u, 'category', ref, 'older')
    const newer = await writeAt(1 * HOUR, u, 'category', ref, 'newer')
    const oldest = await writeAt(30 * HOUR, u, 'category', ref, 'oldest')
    assert.deepEqual(ids((await feed(svc, { subjectType: 'category', subjectRef: ref })).body), [newer.id, older.id, oldest.id])
  })

  it('§4.1 live ranking: engagement lifts an older post (agrees, and replies)', async () => {
    const ref = uniqueRef('cat')
    const u = await signIn(svc)
    const older = await writeAt(2 * HOUR, u, 'category', ref, 'older, will be agreed with')
    const newer = await writeAt(1 * HOUR, u, 'category', ref, 'newer')
    const q = { subjectType: 'category', subjectRef: ref }
    assert.deepEqual(ids((await feed(svc, q)).body), [newer.id, older.id])
    for (let i = 0; i < 3; i++) await agree(await signIn(svc), older.id)
    const lifted = await feed(svc, q)
    assert.deepEqual(ids(lifted.body), [older.id, newer.id])
    assert.equal(lifted.body.posts[0].agrees, 3)
    // Replies are engagement too (each counts twice): three replies lift a 4-hour-old post to the top.
    const third = await writeAt(4 * HOUR, u, 'category', ref, 'oldest')
    await writePost(svc, await signIn(svc), 'category', ref, 'reply 1', { parentId: third.id })
    await writePost(svc, await signIn(svc), 'category', ref, 'reply 2', { parentId: third.id })
    await writePost(svc, await signIn(svc), 'category', ref, 'reply 3', { parentId: third.id })
    const r = await feed(svc, q)
    assert.equal(r.body.posts[0].id, third.id)
    assert.equal(r.body.threads[third.id].length, 3)
  })

  it('§4.1 subject scope on a taxonomy node "includes takes on markets in that category"; on a market, only its posts', async () => {
    const ref = uniqueRef('cat')
    const m1 = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    const m2 = await addMarket(svc, { nodes: [{ type: 'category', ref }, { type: 'topic', ref: `${ref}-t` }] })
    const elsewhere = await addMarket(svc, { nodes: [{ type: 'category', ref: uniqueRef('cat') }] })
    const u = await signIn(svc)
    const a = await writeAt(3 * HOUR, u, 'category', ref, 'on the node')
    const b = await writeAt(2 * HOUR, u, 'event', m1.id, 'on market 1')
    const c = await writeAt(1 * HOUR, u, 'event', m2.id, 'on market 2')
    await writeAt(1 * HOUR, u, 'event', elsewhere.id, 'elsewhere')
    assert.deepEqual(ids((await feed(svc, { subjectType: 'category', subjectRef: ref })).body), [c.id, b.id, a.id])
    assert.deepEqual(ids((await feed(svc, { subjectType: 'topic', subjectRef: `${ref}-t` })).body), [c.id])
    assert.deepEqual(ids((await feed(svc, { subjectType: 'event', subjectRef: m1.id })).body), [b.id])
  })
})

describe('feed ranking: keyset paging', () => {
  /** Posts of mixed age and engagement, several with identical scores (same instant, no engagement). */
  async function mixedPosts(ref: string, n: number) {
    const u = await signIn(svc)
    const out = []
    for (let i = 0; i < n; i++) out.push(await writeAt((i % 4) * HOUR, u, 'category', ref, `post ${i}`))
    const fan = await signIn(svc)
    for (const p of out.filter((_, i) => i % 5 === 0)) await agree(fan, p.id)
    return out
  }

  it('§4.1 cursor paging returns every post exactly once, with no overlap, in the one-page order', async () => {
    const ref = uniqueRef('cat')
    const posts = await mixedPosts(ref, 23)
    const whole = await feed(svc, { subjectType: 'category', subjectRef: ref, limit: 100 })
    assert.equal(whole.body.posts.length, 23)
    for (const limit of [1, 4, 7, 23]) {
      const pages = await allPages(svc, { subjectType: 'category', subjectRef: ref, limit })
      const seen = pages.flatMap((p) => ids(p))
      assert.equal(new Set(seen).size, seen.length, `no overlap at limit ${limit}`)
      assert.deepEqual(seen, ids(whole.body), `same order at limit ${limit}`)
      assert.deepEqual(new Set(seen), new Set(posts.map((p) => p.id)))
      assert.ok(pages.slice(0, -1).every((p) => p.posts.length === limit && p.nextCursor))
      assert.equal(pages.at(-1).nextCursor, null)
    }
  })

  it('§4.1 global feed paging covers every visible top-level post outside private rooms exactly once', async () => {
    const pages = await allPages(svc, { limit: 9 })
    const seen = pages.flatMap((p) => ids(p))
    assert.equal(new Set(seen).size, seen.length)
    const expected = await svc.ctx.db
      .selectFrom('posts')
      .select('id')
      .where('parent_id', 'is', null)
      .where('deleted_at', 'is', null)
      .where('state', '=', 'visible')
      .where('room_private', '=', false)
      .execute()
    assert.deepEqual(new Set(seen), new Set(expected.map((r) => r.id)))
    // Scores never increase down the feed.
    const scores = await svc.ctx.db.selectFrom('posts').select(['id', 'score']).where('id', 'in', seen).execute()
    const byId = new Map(scores.map((r) => [r.id, r.score]))
    for (let i = 1; i < seen.length; i++) assert.ok(byId.get(seen[i - 1])! >= byId.get(seen[i])!)
  })

  it('§4.1 rule 4 following paging: every followed post exactly once across pages', async () => {
    const ref = uniqueRef('cat')
    const posts = await mixedPosts(ref, 11)
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: uniqueRef('cat') }] })
    const u = await signIn(svc)
    const onMarket = [await writeAt(HOUR / 2, u, 'event', m.id, 'on followed market'), await writeAt(5 * HOUR, u, 'event', m.id, 'older on followed market')]
    const reader = await signIn(svc)
    const acc = await accountOf(svc, reader.wallet)
    await svc.ctx.db
      .insertInto('follows')
      .values([
        { account_id: acc, subject_type: 'category', subject_ref: ref },
        { account_id: acc, subject_type: 'event', subject_ref: m.id },
      ])
      .execute()
    const whole = await feed(svc, { scope: 'following', limit: 100 }, { token: reader.token })
    assert.equal(whole.body.posts.length, 13)
    const pages = await allPages(svc, { scope: 'following', limit: 3 }, { token: reader.token })
    const seen = pages.flatMap((p) => ids(p))
    assert.equal(new Set(seen).size, seen.length)
    assert.deepEqual(seen, ids(whole.body))
    assert.deepEqual(new Set(seen), new Set([...posts, ...onMarket].map((p) => p.id)))
    // The same under sort=record (every author here is unranked, so it is the live order).
    const byRecord = await allPages(svc, { scope: 'following', sort: 'record', limit: 4 }, { token: reader.token })
    assert.deepEqual(byRecord.flatMap((p) => ids(p)), ids(whole.body))
  })

  it('§4.1 rule 6 sort=record paging: record order first, live order within a record, every post once', async () => {
    const ref = uniqueRef('cat')
    const good = await signIn(svc)
    await settleTakes(svc, good, ref, { right: 2, wrong: 0 })
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    const plain = await signIn(svc)
    const fromGood = [await writeAt(3 * HOUR, good, 'event', m.id, 'g old'), await writeAt(2 * HOUR, good, 'event', m.id, 'g new')]
    const fromPlain = [await writeAt(1 * HOUR, plain, 'event', m.id, 'p old'), await writeAt(0, plain, 'event', m.id, 'p new')]
    const q = { subjectType: 'event', subjectRef: m.id, sort: 'record' }
    const pages = await allPages(svc, { ...q, limit: 1 })
    const seen = pages.flatMap((p) => ids(p))
    assert.deepEqual(seen, [fromGood[1].id, fromGood[0].id, fromPlain[1].id, fromPlain[0].id])
    assert.ok(pages.every((p) => p.sort === 'record' && p.posts.every((x: any) => x.record && typeof x.record.population === 'number')))
  })
})

describe('feed ranking: sort=record on the global feed', () => {
  it('§4.1 rule 6 "sort: record orders by each author\'s settled record at the prediction\'s node": the global feed, page by page, is the store\'s (record at the post\'s node, live score, id) order, every visible post once', async () => {
    const catA = uniqueRef('cat')
    const catB = uniqueRef('cat')
    const best = await signIn(svc)
    const tied1 = await signIn(svc)
    const tied2 = await signIn(svc)
    const bad = await signIn(svc)
    const plain = await signIn(svc)
    await settleTakes(svc, best, catA, { right: 3, wrong: 0 })
    await settleTakes(svc, tied1, catA, { right: 1, wrong: 0 })
    await settleTakes(svc, tied2, catA, { right: 1, wrong: 0 })
    await settleTakes(svc, bad, catA, { right: 0, wrong: 2 })
    const mA = await addMarket(svc, { nodes: [{ type: 'category', ref: catA }] })
    const mB = await addMarket(svc, { nodes: [{ type: 'category', ref: catB }] })
    const written: string[] = []
    let age = 10 * HOUR
    for (const u of [best, tied1, tied2, bad, plain])
      for (const m of [mA, mA, mB]) written.push((await writeAt((age -= 10 * 60_000), u, 'event', m.id, 'on the record')).id)
    // Gone from every feed: a deleted post of the best record, and a reply (replies are never rows).
    const gone = written[0]
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${gone}`, { token: best.token })).status, 200)
    const reply = await writePost(svc, tied1, 'event', mA.id, 'a reply', { parentId: written[12] })

    const pages = await allPages(svc, { sort: 'record', limit: 3 })
    const seen = pages.flatMap((p) => ids(p))
    const expected = await sql<{ id: string }>`select p.id from posts p
      left join records rec on rec.account_id = p.account_id and rec.facet_type = coalesce(p.facet_type, '*')
        and rec.facet_ref = coalesce(p.facet_ref, '*') and rec.score > 0
      where p.parent_id is null and p.deleted_at is null and p.state = 'visible' and not p.room_private
      order by coalesce(rec.score, 0) desc, p.score desc, p.id desc`.execute(svc.ctx.db)
    assert.deepEqual(seen, expected.rows.map((r) => r.id))
    assert.equal(new Set(seen).size, seen.length, 'every post once')
    assert.ok(!seen.includes(gone) && !seen.includes(reply.id))
    // The best record's posts on its node come first; a post where the author holds no record ranks with
    // the unranked, and so do a negative record's posts.
    const bestAccount = await accountOf(svc, best.wallet)
    const first = pages[0].posts[0]
    assert.equal(first.record?.rank, 1)
    assert.equal((await sql<{ account_id: string }>`select account_id from posts where id = ${first.id}`.execute(svc.ctx.db)).rows[0].account_id, bestAccount)
    const position = (id: string) => seen.indexOf(id)
    const lastRecorded = Math.max(position(written[1]), ...[3, 4, 6, 7].map((i) => position(written[i])))
    for (const i of [2, 5, 8, 9, 10, 11, 12, 13, 14]) assert.ok(position(written[i]) > lastRecorded, `post ${i} (no positive record at its node) ranks after the recorded ones`)
  })
})
