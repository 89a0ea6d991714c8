/**
 * §4.1 rule 6 `sort=record` on a taxonomy node: the node's index rows carry the author's record score at
 * the post's facet (`post_nodes.record_score`, migration 006), kept by a trigger on `records` and set by
 * each post write. These tests hold the kept scores against the records, whatever changed them, and the
 * node's record pages against the order computed from the store.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { addMarket, call, ON_POSTGRES, signIn, startTestService, type TestService } from '../helpers/service.ts'
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

/**
 * A post and a change of its author's record, at once (migration 008). PostgreSQL only: PGlite runs one
 * connection, so its transactions never interleave.
 */
describe('sort=record: a post written while its author\'s record changes', { skip: !ON_POSTGRES && 'needs PostgreSQL: PGlite runs one connection, so a post and a record write never overlap there' }, () => {
  /** Resolves once another session of this database waits on a lock, or once `settled` settles (it did not wait). */
  async function untilBlockedOr(settled: Promise<unknown>) {
    let done = false
    settled.then(() => (done = true), () => (done = true))
    for (let i = 0; i < 300 && !done; i++) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(svc.ctx.db)
      if (rows[0].n > 0) return
      await new Promise((r) => setTimeout(r, 10))
    }
  }
  const opened = () => {
    let open!: () => void
    let close!: () => void
    return { isOpen: new Promise<void>((r) => (open = r)), closes: new Promise<void>((r) => (close = r)), open: () => open(), close: () => close() }
  }
  async function recordedWriter() {
    const cat = uniqueRef('cat')
    const writer = await signIn(svc)
    await settleTakes(svc, writer, cat, { right: 1, wrong: 0 })
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: cat }] })
    const account = await accountOf(svc, writer.wallet)
    const raise = sql`update records set score = score + 1 where account_id = ${account} and facet_type = 'category' and facet_ref = ${cat}`
    return { cat, writer, m, raise }
  }

  it('"the author\'s settled record at the prediction\'s node": a post written while the record\'s change is not yet committed carries the new record once it is', async () => {
    const { writer, m, raise } = await recordedWriter()
    const tx = opened()
    const recordTx = svc.ctx.db.transaction().execute(async (t) => {
      await raise.execute(t)
      tx.open()
      await tx.closes
    })
    await tx.isOpen
    const post = writePost(svc, writer, 'event', m.id, 'written while the record changes')
    await untilBlockedOr(post)
    tx.close()
    await recordTx
    await post
    assert.deepEqual(await staleRecordScores(), [])
  })

  it('"the author\'s settled record at the prediction\'s node": a record changed while a post\'s insert is not yet committed reaches that post once it is; the author\'s other posts do not wait on it', async () => {
    const { cat, writer, m, raise } = await recordedWriter()
    const template = await writePost(svc, writer, 'event', m.id, 'a post to copy')
    const id = `${template.id}x`
    const tx = opened()
    const postTx = svc.ctx.db.transaction().execute(async (t) => {
      await sql`insert into posts (id, subject_type, subject_ref, account_id, author, body, market_id, facet_type, facet_ref, created_at, score)
        select ${id}, subject_type, subject_ref, account_id, author, 'inserted while the record changes', market_id, facet_type, facet_ref, created_at, score
        from posts where id = ${template.id}`.execute(t)
      await sql`insert into post_nodes (post_id, node_type, node_ref, score, record_score)
        select id, 'category', ${cat}, score, record_score from posts where id = ${id}`.execute(t)
      tx.open()
      await tx.closes
    })
    await tx.isOpen
    // Posts take the record's lock shared: another post by the same author is written meanwhile.
    await writePost(svc, writer, 'event', m.id, 'written beside the open insert')
    const recordWrite = raise.execute(svc.ctx.db)
    await untilBlockedOr(recordWrite)
    tx.close()
    await postTx
    await recordWrite
    assert.deepEqual(await staleRecordScores(), [])
    const kept = await sql<{ s: number }>`select record_score as s from post_nodes where post_id = ${id}`.execute(svc.ctx.db)
    assert.ok(Number(kept.rows[0].s) > 0)
  })
})
