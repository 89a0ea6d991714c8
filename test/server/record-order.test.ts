/**
 * §4.1 rule 6 `sort=record` on a taxonomy node: the node's index rows carry the author's record score at
 * the post's facet (`post_nodes.record_score`, migration 006), kept by a trigger on `records` and set by
 * each post write. These tests hold the kept scores against the records, whatever changed them, and the
 * node's record pages against the order computed from the store.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { addMarket, call, signIn, startTestService, type TestService } from '../helpers/service.ts'
import { accountOf, allPages, makeRoom, settleTakes, uniqueRef, writePost } from '../helpers/feed-fixtures.ts'
import { createPost } from '../../src/server/services/posts.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

const actualScore = sql`coalesce((select rec.score from records rec where rec.account_id = p.account_id and rec.facet_type = coalesce(p.facet_type, '*')
  and rec.facet_ref = coalesce(p.facet_ref, '*') and rec.score > 0), 0)`

/**
 * Kept record scores that differ from the author's positive record at the post's facet: on node-index rows
 * (migration 006) and on top-level posts (migration 007); a reply keeps 0.
 */
async function staleRecordScores() {
  const nodes = await sql<{ post_id: string; kept: number; actual: number }>`select pn.post_id, pn.record_score as kept, ${actualScore} as actual
    from post_nodes pn join posts p on p.id = pn.post_id`.execute(svc.ctx.db)
  const posts = await sql<{ post_id: string; kept: number; actual: number }>`select p.id as post_id, p.record_score as kept,
      case when p.parent_id is null then ${actualScore} else 0 end as actual
    from posts p`.execute(svc.ctx.db)
  return [...nodes.rows, ...posts.rows].filter((x) => Math.abs(Number(x.kept) - Number(x.actual)) > 1e-9)
}

describe('sort=record on a taxonomy node and on the global scope', () => {
  it('"the author\'s settled record at the prediction\'s node" is kept on every node row and every top-level post: written before the record, after it, in a room, as a reply, and as the record rises and falls', async () => {
    const cat = uniqueRef('cat')
    const writer = await signIn(svc)
    const other = await signIn(svc)
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: cat }] })
    const before = await writePost(svc, writer, 'event', m.id, 'written before any record')
    await settleTakes(svc, writer, cat, { right: 2, wrong: 0 })
    await settleTakes(svc, other, cat, { right: 0, wrong: 2 })
    const afterRecord = await writePost(svc, writer, 'event', m.id, 'written with a record')
    const fromNegative = await writePost(svc, other, 'event', m.id, 'a negative record ranks as none')
    // A top-level post placed in a room with membership on the post takes the transaction's insert path.
    const { roomId } = await makeRoom(svc, { subject: { type: 'category', ref: cat } })
    const account = await accountOf(svc, writer.wallet)
    const caller = { accountId: account, wallet: writer.wallet, wallets: [writer.wallet], venueId: null, operator: false, tokenHash: '', bans: [] }
    const inRoom = await createPost(svc.ctx, caller, { subjectType: 'event', subjectRef: m.id, body: 'in a room' }, { roomId, private: false, joinOnPost: true })
    const reply = await call(svc, 'POST', '/v1/social/posts', { token: writer.token, body: { subjectType: 'event', subjectRef: m.id, body: 'a reply', parentId: afterRecord.id } })
    assert.equal(reply.status, 201, JSON.stringify(reply.body))
    assert.deepEqual(await staleRecordScores(), [])
    const kept = async (id: string) => Number((await sql<{ s: number }>`select max(record_score) as s from post_nodes where post_id = ${id}`.execute(svc.ctx.db)).rows[0].s)
    const score = Number((await sql<{ s: number }>`select score as s from records where account_id = ${account} and facet_ref = ${cat}`.execute(svc.ctx.db)).rows[0].s)
    assert.ok(score > 0)
    for (const p of [before, afterRecord, inRoom]) assert.equal(await kept(p.id), score)
    assert.equal(await kept(fromNegative.id), 0)
    // The record rises with another right call, and falls with wrong ones: every one of the author's rows
    // follows it. (A record with no right call scores 0, like `other`'s: unranked, never negative.)
    await settleTakes(svc, writer, cat, { right: 1, wrong: 0 })
    assert.deepEqual(await staleRecordScores(), [])
    const risen = await kept(before.id)
    assert.ok(risen > score)
    await settleTakes(svc, writer, cat, { right: 0, wrong: 4 })
    assert.deepEqual(await staleRecordScores(), [])
    assert.ok((await kept(before.id)) < risen)
    for (const p of [before, afterRecord, inRoom]) assert.equal(await kept(p.id), await kept(before.id))
  })

  it('§4.1 rule 6 "sort: record orders by each author\'s settled record at the prediction\'s node": a node\'s pages are the store\'s (record, live score, id) order, every visible post once', async () => {
    const cat = uniqueRef('cat')
    const users = [await signIn(svc), await signIn(svc), await signIn(svc), await signIn(svc)]
    await settleTakes(svc, users[0], cat, { right: 3, wrong: 0 })
    await settleTakes(svc, users[1], cat, { right: 1, wrong: 0 })
    await settleTakes(svc, users[2], cat, { right: 1, wrong: 0 })
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: cat }] })
    // A market on this node whose record is read at another node: its posts rank as unrecorded here.
    const elsewhere = uniqueRef('topic')
    const m2 = await addMarket(svc, { nodes: [{ type: 'topic', ref: elsewhere }, { type: 'category', ref: cat }] })
    const written = []
    for (const u of users) for (const mk of [m, m, m2]) written.push(await writePost(svc, u, 'event', mk.id, 'on the node'))
    const gone = written[1]
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${gone.id}`, { token: users[0].token })).status, 200)

    const pages = await allPages(svc, { subjectType: 'category', subjectRef: cat, sort: 'record', limit: 4 })
    const seen = pages.flatMap((p) => p.posts.map((x: { id: string }) => x.id))
    const expected = await sql<{ id: string }>`select p.id from post_nodes pn join posts p on p.id = pn.post_id
      left join records rec on rec.account_id = p.account_id and rec.facet_type = coalesce(p.facet_type, '*')
        and rec.facet_ref = coalesce(p.facet_ref, '*') and rec.score > 0
      where pn.node_type = 'category' and pn.node_ref = ${cat}
        and p.parent_id is null and p.deleted_at is null and p.state = 'visible' and not p.room_private
      order by coalesce(rec.score, 0) desc, p.score desc, p.id desc`.execute(svc.ctx.db)
    assert.deepEqual(seen, expected.rows.map((r) => r.id))
    assert.equal(new Set(seen).size, seen.length, 'every post once')
    assert.ok(!seen.includes(gone.id))
    assert.equal(pages[0].posts[0].record?.rank, 1)
    assert.ok(pages.every((p) => p.sort === 'record'))
  })
})
