/**
 * §3.1 reports and the two queues they feed (the platform's and one venue's): what a repeated report does,
 * what each queue's settlement leaves in the other, which venue a report may reach, and who may report.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { LIMITS } from '../../src/contract/limits.ts'
import { call, expectError, signIn, startWithOperator, type TestService, type TestUser } from '../helpers/service.ts'
import { claimVenue, createRoom, newVenueId, post, type Venue } from '../helpers/venues.ts'

let svc: TestService
let operator: TestUser
before(async () => {
  ;({ svc, operator } = await startWithOperator())
})
after(() => svc.close())

let n = 0
const newTopic = () => `rep-${Date.now().toString(36)}-${n++}`

const act = (who: TestUser, action: string, body: Record<string, unknown>) => call(svc, 'POST', `/v1/mod/${action}`, { token: who.token, body })
const report = (who: TestUser, postId: string, reason = 'spam') => call(svc, 'POST', `/v1/social/posts/${postId}/reports`, { token: who.token, body: { reason } })

interface Item {
  post: { id: string }
  state: string
  reports: number
  reasons: string[]
  lastAction: { action: string } | null
}

/** The post's item in a queue (the platform's without `venueId`), on the Open or Actioned tab, or undefined. */
async function itemOf(who: TestUser, postId: string, venueId: string | null, state: 'open' | 'actioned' = 'open'): Promise<Item | undefined> {
  const qs = [venueId ? `venueId=${venueId}` : '', `state=${state}`, 'limit=100'].filter(Boolean).join('&')
  const q = await call(svc, 'GET', `/v1/mod/queue?${qs}`, { token: who.token })
  assert.equal(q.status, 200, JSON.stringify(q.body))
  return (q.body.items as Item[]).find((i) => i.post.id === postId)
}

async function itemRows(postId: string) {
  return svc.ctx.db.selectFrom('mod_items').select(['scope', 'state', 'updated_at']).where('post_id', '=', postId).orderBy('scope').execute()
}

/** A venue and a post made on it (unroomed, so its reports go to the venue the report is made on). */
async function world(): Promise<{ v: Venue; author: TestUser; postId: string }> {
  const v = await claimVenue(svc)
  const author = await signIn(svc, undefined, v.venueId)
  const p = await post(svc, author, { subjectType: 'topic', subjectRef: newTopic(), body: 'a post to report' })
  assert.equal(p.status, 201)
  return { v, author, postId: p.body.post.id }
}

describe('reports', () => {
  it('reporting again changes nothing when the report is still open in both queues: an item a moderator actioned stays Actioned, in the venue\'s queue and the platform\'s (no reopening by a report they have already seen)', async () => {
    const { v, postId } = await world()
    const reporter = await signIn(svc, undefined, v.venueId)
    assert.equal((await report(reporter, postId, 'first')).status, 200)
    // The venue hides it and the platform removes it: neither settles the report, both items are Actioned.
    assert.equal((await act(v.owner, 'hide', { venueId: v.venueId, postId })).status, 200)
    assert.equal((await act(operator, 'remove', { postId })).status, 200)
    const before = await itemRows(postId)
    assert.deepEqual(before.map((r) => [r.scope, r.state]), [['*', 'actioned'], [v.venueId, 'actioned']].sort())
    const r = await report(reporter, postId, 'again')
    assert.equal(r.status, 200)
    assert.deepEqual(r.body, { postId, reported: true })
    assert.deepEqual(await itemRows(postId), before, 'no item reopened, none bumped')
    assert.equal((await itemOf(v.owner, postId, v.venueId, 'actioned'))?.lastAction?.action, 'hide')
    assert.equal(await itemOf(v.owner, postId, v.venueId), undefined)
    assert.equal(await itemOf(operator, postId, null), undefined)
    const rows = await svc.ctx.db.selectFrom('reports').select(['reason']).where('post_id', '=', postId).execute()
    assert.deepEqual(rows, [{ reason: 'first' }], 'the report is unchanged')
  })

  it('a report settled by one queue is new to it when the same account reports again: that queue\'s item reopens, the other queue\'s is left as it was', async () => {
    const { v, postId } = await world()
    const reporter = await signIn(svc, undefined, v.venueId)
    await report(reporter, postId, 'first')
    // The venue clears it (settled for the venue); the platform item stays open. Reporting again reopens the venue's item only.
    assert.equal((await act(v.owner, 'clear', { venueId: v.venueId, postId })).status, 200)
    const platformBefore = (await itemRows(postId)).find((r) => r.scope === '*')
    await report(reporter, postId, 'second')
    assert.equal((await itemOf(v.owner, postId, v.venueId))?.reports, 1)
    assert.deepEqual((await itemRows(postId)).find((r) => r.scope === '*'), platformBefore)
    // The platform keeps it (settled for the platform); the venue's item stays open. Reporting again reopens the platform's only.
    assert.equal((await act(operator, 'keep', { postId })).status, 200)
    assert.equal(await itemOf(operator, postId, null), undefined)
    const venueBefore = (await itemRows(postId)).find((r) => r.scope === v.venueId)
    await report(reporter, postId, 'third')
    const platformItem = await itemOf(operator, postId, null)
    assert.equal(platformItem?.reports, 1)
    assert.deepEqual(platformItem?.reasons, ['third'])
    assert.deepEqual((await itemRows(postId)).find((r) => r.scope === v.venueId), venueBefore)
  })

  it('§3.1 the platform\'s keep or clear settles the reports for the platform only: a venue\'s open item on the post keeps its reports and reasons (never "0 reports, no reasons"), and the threshold count starts again', async () => {
    for (const action of ['clear', 'keep']) {
      const v = await claimVenue(svc)
      const room = await createRoom(svc, v, { subjectType: 'topic', subjectRef: newTopic() })
      const author = await signIn(svc, undefined, v.venueId)
      assert.equal((await call(svc, 'POST', `/v1/rooms/${room}/join`, { token: author.token })).status, 200)
      const p = await post(svc, author, { room, body: 'in the venue\'s room' })
      assert.equal(p.status, 201, JSON.stringify(p.body))
      const postId = p.body.post.id as string
      for (const reason of ['slur', 'spam']) assert.equal((await report(await signIn(svc, undefined, v.venueId), postId, reason)).status, 200)

      const settled = await act(operator, action, { postId })
      assert.equal(settled.status, 200, JSON.stringify(settled.body))
      assert.equal(settled.body.post.reports, 0, `${action}: nothing left for the platform`)
      assert.equal(await itemOf(operator, postId, null), undefined, `${action}: the platform's item left Open`)
      const inVenue = await itemOf(v.owner, postId, v.venueId)
      assert.ok(inVenue, `${action}: still open in the venue's queue`)
      assert.equal(inVenue.reports, 2, `${action}: the venue still reviews both reports`)
      assert.deepEqual([...inVenue.reasons].sort(), ['slur', 'spam'])

      // The threshold counts from the platform's review on: one more report is 1, not 3, and hides nothing.
      assert.equal((await report(await signIn(svc, undefined, v.venueId), postId, 'late')).status, 200)
      const row = await svc.ctx.db.selectFrom('posts').select(['state', 'report_count']).where('id', '=', postId).executeTakeFirstOrThrow()
      assert.deepEqual(row, { state: 'visible', report_count: 1 }, action)
      assert.equal((await itemOf(operator, postId, null))?.reports, 1)
      assert.deepEqual((await itemOf(operator, postId, null))?.reasons, ['late'])
      assert.equal((await itemOf(v.owner, postId, v.venueId))?.reports, 3)
      // The venue's own settlement then closes its review, as before.
      assert.equal((await act(v.owner, 'clear', { venueId: v.venueId, postId })).body.post.reports, 0)
    }
  })

  it(`§5.4 a keyless session may claim any venue id, but a report only reaches a venue's queue when that venue exists: a report made "on" an id nobody holds goes to the platform's queue only, and whoever claims the id later inherits nothing`, async () => {
    const ghost = newVenueId('ghost')
    const reporter = await signIn(svc, undefined, ghost)
    const author = await signIn(svc)
    const p = await post(svc, author, { subjectType: 'topic', subjectRef: newTopic(), body: 'reported on a ghost venue' })
    const postId = p.body.post.id as string
    assert.equal((await report(reporter, postId, 'filed before the venue existed')).status, 200)
    assert.ok(await itemOf(operator, postId, null), "the platform's queue has it")
    const rows = await svc.ctx.db.selectFrom('reports').select('venue_id').where('post_id', '=', postId).execute()
    assert.deepEqual(rows, [{ venue_id: null }])
    assert.deepEqual((await itemRows(postId)).map((r) => r.scope), ['*'])

    // Someone claims the id afterwards: its queue is empty, Open and Actioned.
    const claimed = await claimVenue(svc, ghost)
    assert.equal(await itemOf(claimed.owner, postId, ghost), undefined)
    assert.equal(await itemOf(claimed.owner, postId, ghost, 'actioned'), undefined)
    // Once the venue exists, a report made on it reaches its queue.
    const onIt = await signIn(svc, undefined, ghost)
    assert.equal((await report(onIt, postId, 'filed on the venue')).status, 200)
    assert.deepEqual((await itemOf(claimed.owner, postId, ghost))?.reasons, ['filed on the venue'])
  })

  it('reporting one\'s own post is 403 forbidden, as agreeing with it is (not 400 validation-failed: the request is well formed); nothing is written', async () => {
    const { author, postId } = await world()
    expectError(await report(author, postId), 403, 'forbidden', "you can't report your own post")
    expectError(await call(svc, 'POST', `/v1/social/posts/${postId}/reactions`, { token: author.token, body: { kind: 'agree', active: true } }), 403, 'forbidden')
    assert.deepEqual(await svc.ctx.db.selectFrom('reports').select('post_id').where('post_id', '=', postId).execute(), [])
    assert.deepEqual(await itemRows(postId), [])
  })

  it(`a repeated report never counts twice toward the threshold (${LIMITS.reportThreshold} distinct reporters hide a post)`, async () => {
    const { v, postId } = await world()
    const reporters = await Promise.all(Array.from({ length: LIMITS.reportThreshold - 1 }, () => signIn(svc, undefined, v.venueId)))
    for (const r of reporters) for (let i = 0; i < 3; i++) assert.equal((await report(r, postId, `try ${i}`)).status, 200)
    const row = await svc.ctx.db.selectFrom('posts').select(['state', 'report_count']).where('id', '=', postId).executeTakeFirstOrThrow()
    assert.deepEqual(row, { state: 'visible', report_count: LIMITS.reportThreshold - 1 })
  })

  it('§8 "Report threshold that auto-hides a post" (ARCHITECTURE "Reports: 3 distinct reporters by default"): on the default configuration two reporters leave a post visible and the third hides it', async () => {
    const { v, postId } = await world()
    const state = () => svc.ctx.db.selectFrom('posts').select(['state', 'report_count']).where('id', '=', postId).executeTakeFirstOrThrow()
    const reporters = await Promise.all([0, 1, 2].map(() => signIn(svc, undefined, v.venueId)))
    for (const r of reporters.slice(0, 2)) assert.equal((await report(r, postId)).status, 200)
    assert.deepEqual(await state(), { state: 'visible', report_count: 2 })
    assert.equal((await report(reporters[2], postId)).status, 200)
    assert.deepEqual(await state(), { state: 'hidden', report_count: 3 })
  })
})
