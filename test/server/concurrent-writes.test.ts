/**
 * Concurrent writes on one post (found by `npm run load` on PostgreSQL): agrees and reports recount their
 * rows in the transaction that adds one; without a lock on the post, two concurrent transactions each
 * counted without the other's row and the last one stored a stale count (agrees 2 with 3 rows; a report
 * threshold reached by concurrent reporters left the post visible). Each transaction now locks the post
 * first, so the count it stores includes every committed row.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { PATHS } from '../../src/contract/paths.ts'
import { call, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'

let svc: TestService
before(async () => {
  svc = await startTestService({ reportThreshold: 3 })
})
after(() => svc.close())

async function users(n: number): Promise<TestUser[]> {
  const out: TestUser[] = []
  for (let i = 0; i < n; i++) out.push(await signIn(svc))
  return out
}

async function newPost(author: TestUser) {
  const r = await call(svc, 'POST', PATHS.posts, { token: author.token, body: { subjectType: 'topic', subjectRef: 'concurrency', body: 'agree with me' } })
  assert.equal(r.status, 201)
  return r.body.post.id as string
}

describe('concurrent writes on one post', () => {
  it('"agrees counts every agree": 24 accounts agreeing at once leave agrees equal to the agree rows', async () => {
    const author = (await users(1))[0]
    const fans = await users(24)
    for (let round = 0; round < 3; round++) {
      const id = await newPost(author)
      const answers = await Promise.all(fans.map((f) => call(svc, 'POST', PATHS.react(id), { token: f.token, body: { kind: 'agree', active: true } })))
      for (const a of answers) assert.equal(a.status, 200)
      const row = await svc.ctx.db.selectFrom('posts').select(['agrees']).where('id', '=', id).executeTakeFirstOrThrow()
      const n = await sql<{ n: number }>`select count(*)::int as n from reactions where post_id = ${id} and kind = 'agree'`.execute(svc.ctx.db)
      assert.equal(n.rows[0].n, 24)
      assert.equal(row.agrees, 24, `round ${round}: agrees ${row.agrees} with 24 rows`)
      // Half of them take it back at once.
      await Promise.all(fans.slice(0, 12).map((f) => call(svc, 'POST', PATHS.react(id), { token: f.token, body: { kind: 'agree', active: false } })))
      const after = await svc.ctx.db.selectFrom('posts').select(['agrees']).where('id', '=', id).executeTakeFirstOrThrow()
      assert.equal(after.agrees, 12)
    }
  })

  it('"distinct reporters reach the threshold": reports sent at once hide the post and count every reporter', async () => {
    const author = (await users(1))[0]
    const reporters = await users(6)
    for (let round = 0; round < 3; round++) {
      const id = await newPost(author)
      const answers = await Promise.all(reporters.map((u) => call(svc, 'POST', PATHS.report(id), { token: u.token, body: { reason: 'spam' } })))
      for (const a of answers) assert.equal(a.status, 200)
      const row = await svc.ctx.db.selectFrom('posts').select(['report_count', 'state']).where('id', '=', id).executeTakeFirstOrThrow()
      assert.equal(row.report_count, 6, `round ${round}`)
      assert.equal(row.state, 'hidden')
    }
  })
})
