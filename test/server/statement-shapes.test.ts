/**
 * db/statement-shapes.ts: feed and thread page statements compiled once per shape. A kept statement must be
 * exactly the one a fresh build gives for the same input (text and parameters), for every shape, and one
 * input's values must never reach another's page.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql, type KyselyPlugin } from 'kysely'
import type { FeedScope, FeedSort, RoomInfo } from '../../src/contract/types.ts'
import type { SubjectType } from '../../src/contract/ids.ts'
import { StatementShapes } from '../../src/server/db/statement-shapes.ts'
import { isOneRange, type FeedRequest } from '../../src/server/services/feed-source.ts'
import { oneRangePageStatement } from '../../src/server/services/feed.ts'
import { moversStatement } from '../../src/server/services/feed-signals.ts'
import { threadPageStatement, type ThreadQuery } from '../../src/server/services/threads.ts'
import { addMarket, call, signIn, startTestService, type TestService } from '../helpers/service.ts'
import { block, writePost } from '../helpers/read-fixtures.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

/** A plugin that changes nothing: a Kysely with it compiles every statement afresh (the reference). */
const identity: KyselyPlugin = { transformQuery: (a) => a.node, transformResult: async (a) => a.result }
const fresh = () => ({ ...svc.ctx, db: svc.ctx.db.withPlugin(identity) })

const room = (id: string): RoomInfo => ({ id, venueId: 'v-1', subject: { type: 'category', ref: 'sports' }, visibility: 'private', title: 'R' })

/** Every feed request shape a one-range page can take, with its values drawn from `n` (two calls, two sets of values). */
function feedRequests(n: number): FeedRequest[] {
  const out: FeedRequest[] = []
  const subjects: [FeedScope, FeedRequest['subject']][] = [
    ['global', null],
    ['subject', { type: 'event', ref: `0x${String(n).repeat(64).slice(0, 64)}` }],
    ['subject', { type: 'category', ref: `cat-${n}` }],
    ['subject', { type: 'series', ref: `series-${n}` }],
    ['following', null],
  ]
  for (const [scope, subject] of subjects)
    for (const sort of ['live', 'record'] as FeedSort[])
      for (const withCursor of [false, true])
        for (const reader of [null, `acct-${n}`])
          for (const venue of [null, `venue-${n}`])
            for (const inRoom of [false, true]) {
              if (scope === 'following' && !reader) continue
              const cursor = withCursor ? (sort === 'record' ? [n + 0.5, n * 2 + 0.25, `p-${n}`] : [n + 0.75, `p-${n}`]) : null
              const req: FeedRequest = { scope, subject, room: inRoom ? room(`room-${n}`) : null, sort, limit: 10 + n, cursor, reader, venue }
              if (isOneRange(req)) out.push(req)
            }
  return out
}

function threadQueries(n: number) {
  const out: Parameters<typeof threadPageStatement>[1][] = []
  for (const subjectType of ['event', 'category', 'series'] as SubjectType[])
    for (const includeReplies of [false, true])
      for (const merge of [null, `series-${n}`])
        for (const after of [null, `p-${n}`])
          for (const venue of [null, `venue-${n}`])
            for (const roomId of [null, `room-${n}`])
              for (const reader of [null, `acct-${n}`]) {
                const q: ThreadQuery = { subjectType, subjectRef: `ref-${n}`, includeReplies, includeSeries: merge !== null, limit: 20 + n, after, venue, roomId }
                out.push({ q, reader, merge, rows: q.limit + 1 })
              }
  return out
}

describe('statement shapes', () => {
  it('"a page\'s SQL depends only on its shape": every one-range feed page, kept and filled in, is the statement a fresh build gives (text and parameters)', () => {
    const first = feedRequests(1)
    const second = feedRequests(2)
    assert.equal(first.length, second.length)
    assert.ok(first.length >= 60, `${first.length} shapes`)
    for (let i = 0; i < first.length; i++) {
      // The first call keeps the shape with its values; the second only fills in other values.
      oneRangePageStatement(svc.ctx, { req: first[i], rows: first[i].limit + 1 })
      const kept = oneRangePageStatement(svc.ctx, { req: second[i], rows: second[i].limit + 1 })
      const built = oneRangePageStatement(fresh(), { req: second[i], rows: second[i].limit + 1 })
      const what = JSON.stringify(second[i])
      assert.equal(kept.sql, built.sql, what)
      assert.deepEqual(kept.parameters, built.parameters, what)
      for (const v of [second[i].reader, second[i].venue, second[i].room?.id, second[i].subject?.ref, ...(second[i].cursor ?? [])])
        if (v != null) assert.ok(kept.parameters.includes(v), `${what}: ${v} is a parameter`)
      for (const v of [first[i].reader, first[i].venue, first[i].room?.id, first[i].subject?.ref])
        if (v != null) assert.ok(!kept.parameters.includes(v), `${what}: the first call's ${v} is not`)
    }
  })

  it('"a page\'s SQL depends only on its shape": every thread page, kept and filled in, is the statement a fresh build gives (text and parameters)', () => {
    const first = threadQueries(1)
    const second = threadQueries(2)
    for (let i = 0; i < first.length; i++) {
      threadPageStatement(svc.ctx, first[i])
      const kept = threadPageStatement(svc.ctx, second[i])
      const built = threadPageStatement(fresh(), second[i])
      const what = JSON.stringify(second[i])
      assert.equal(kept.sql, built.sql, what)
      assert.deepEqual(kept.parameters, built.parameters, what)
      assert.ok(!kept.parameters.includes(first[i].q.subjectRef), what)
    }
  })

  it('"a page\'s SQL depends only on its shape": the ranked callers\' moves of every node type, kept and filled in, are the statement a fresh build gives', () => {
    for (const type of ['category', 'topic', 'series', 'country', 'org', 'brand'] as const) {
      const input = (n: number) => ({ node: { type, ref: `${type}-${n}` }, since: new Date(Date.UTC(2026, 0, n)), now: new Date(Date.UTC(2026, 1, n)) })
      moversStatement(svc.ctx, input(1))
      const kept = moversStatement(svc.ctx, input(2))
      const built = moversStatement(fresh(), input(2))
      assert.equal(kept.sql, built.sql, type)
      assert.deepEqual(kept.parameters, built.parameters, type)
      assert.ok(kept.parameters.includes(`${type}-2`) && !kept.parameters.includes(`${type}-1`), type)
    }
  })

  it('a builder that reads a slotted value in JavaScript fails at once, naming the slot', () => {
    const shapes = new StatementShapes<{ n: number }>(({ n }, value) => ({ n: value(n) }))
    assert.throws(
      () => shapes.compile(svc.ctx.db, { n: 3 }, ({ n }) => sql`select ${n + 1} as x`),
      (e: Error) => e instanceof TypeError && /slot 0's value was read while its statement was built/.test(e.message),
    )
  })

  it('null and a value are different shapes; values of one shape share one kept statement', async () => {
    const shapes = new StatementShapes<{ a: string | null; b: number }>(({ a, b }, value) => ({ a: a === null ? null : value(a), b: value(b) }))
    const build = ({ a, b }: { a: string | null; b: number }) => (a === null ? sql<{ x: string }>`select 'none' as x, ${b}::int as b` : sql<{ x: string }>`select ${a}::text as x, ${b}::int as b`)
    const run = async (input: { a: string | null; b: number }) => (await svc.ctx.db.executeQuery(shapes.compile(svc.ctx.db, input, build))).rows[0]
    assert.deepEqual(await run({ a: 'one', b: 1 }), { x: 'one', b: 1 })
    assert.deepEqual(await run({ a: 'two', b: 2 }), { x: 'two', b: 2 })
    assert.deepEqual(await run({ a: null, b: 3 }), { x: 'none', b: 3 })
    assert.equal(shapes.size(svc.ctx.db), 2)
    // A Kysely with a plugin compiles each call itself and keeps nothing.
    const withPlugin = svc.ctx.db.withPlugin(identity)
    assert.deepEqual((await withPlugin.executeQuery(shapes.compile(withPlugin, { a: 'four', b: 4 }, build))).rows[0], { x: 'four', b: 4 })
    assert.equal(shapes.size(withPlugin), 0)
  })

  it('§4.1 rule 5 and §3.1: two readers of one feed shape each get their own page (a reader\'s blocks never reach another\'s)', async () => {
    const m = await addMarket(svc)
    const author = await signIn(svc)
    const blocker = await signIn(svc)
    const other = await signIn(svc)
    const post = await writePost(svc, author, 'event', m.id, 'seen by one reader only')
    await block(svc, blocker, author)
    const page = async (token: string) =>
      (await call(svc, 'GET', `/v1/social/posts/feed?scope=subject&subjectType=event&subjectRef=${m.id}`, { token })).body.posts.map((p: { id: string }) => p.id)
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(await page(other.token), [post.id])
      assert.deepEqual(await page(blocker.token), [])
    }
    const thread = async (token: string) =>
      (await call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${m.id}`, { token })).body.posts.map((p: { id: string }) => p.id)
    for (let round = 0; round < 2; round++) {
      assert.deepEqual(await thread(other.token), [post.id])
      assert.deepEqual(await thread(blocker.token), [])
    }
  })
})
