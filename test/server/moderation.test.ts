/** §3.1, §5.7, §2.10, §4.2 `mod.*`: reports, hides, removal, the other actions, the queue, the audit log, and what reads do with them. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { MSG } from '../../src/contract/errors.ts'
import { LIMITS } from '../../src/contract/limits.ts'
import { addMarket, call, expectError, newWallet, signIn, startTestService, startWithOperator, type TestService, type TestUser } from '../helpers/service.ts'
import { claimVenue, createRoom, post, type Venue } from '../helpers/venues.ts'

let svc: TestService
let operator: TestUser
before(async () => {
  ;({ svc, operator } = await startWithOperator())
})
after(() => svc.close())

let n = 0
const newTopic = () => `mod-${Date.now().toString(36)}-${n++}`

const act = (s: TestService, who: TestUser | undefined, action: string, body: Record<string, unknown>) => call(s, 'POST', `/v1/mod/${action}`, { token: who?.token, body })
const report = (s: TestService, who: TestUser, postId: string, reason = 'spam') => call(s, 'POST', `/v1/social/posts/${postId}/reports`, { token: who.token, body: { reason } })
const queue = (s: TestService, who: TestUser | undefined, qs = '') => call(s, 'GET', `/v1/mod/queue${qs ? `?${qs}` : ''}`, { token: who?.token })

/** Ids of a topic thread as a reader sees it, with an optional venue overlay. */
async function threadIds(s: TestService, topic: string, opts: { token?: string; venue?: string } = {}) {
  const r = await call(s, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=${topic}${opts.venue ? `&venue=${opts.venue}` : ''}`, { token: opts.token })
  assert.equal(r.status, 200, JSON.stringify(r.body))
  return r.body.posts.map((p: { id: string }) => p.id) as string[]
}

async function postState(s: TestService, id: string) {
  return s.ctx.db.selectFrom('posts').select(['state', 'report_count', 'pinned_at']).where('id', '=', id).executeTakeFirstOrThrow()
}

interface World {
  v: Venue
  w: Venue
  author: TestUser
  topic: string
  postId: string
}

async function world(s: TestService = svc): Promise<World> {
  const v = await claimVenue(s)
  const w = await claimVenue(s)
  const author = await signIn(s, undefined, v.venueId)
  const topic = newTopic()
  const p = await post(s, author, { subjectType: 'topic', subjectRef: topic, body: 'a post to moderate' })
  assert.equal(p.status, 201)
  return { v, w, author, topic, postId: p.body.post.id }
}

describe('§3.1 reports', () => {
  it(`§3.1 "Enough reports accumulate (threshold value is in Limits) → hidden pending review; post appears in the moderation queue" — default ${LIMITS.reportThreshold} distinct reporters`, async () => {
    const { v, topic, postId } = await world()
    const reporters = await Promise.all(Array.from({ length: LIMITS.reportThreshold }, () => signIn(svc, undefined, v.venueId)))
    for (const r of reporters.slice(0, -1)) assert.equal((await report(svc, r, postId)).status, 200)
    // The same reporter twice counts once.
    await report(svc, reporters[0], postId, 'again')
    assert.equal((await postState(svc, postId)).state, 'visible')
    const q1 = await queue(svc, v.owner, `venueId=${v.venueId}`)
    const item1 = q1.body.items.find((i: { post: { id: string } }) => i.post.id === postId)
    assert.equal(item1.thresholdHidden, false)
    assert.equal(item1.reports, LIMITS.reportThreshold - 1)
    assert.ok((await threadIds(svc, topic)).includes(postId))
    await report(svc, reporters[reporters.length - 1], postId)
    assert.equal((await postState(svc, postId)).state, 'hidden')
    assert.ok(!(await threadIds(svc, topic)).includes(postId))
    for (const [who, qs] of [[v.owner, `venueId=${v.venueId}`], [operator, '']] as const) {
      const q = await queue(svc, who, qs)
      const item = q.body.items.find((i: { post: { id: string } }) => i.post.id === postId)
      assert.ok(item, `in the ${qs || 'platform'} queue`)
      assert.equal(item.thresholdHidden, true)
      assert.equal(item.postState, 'hidden')
      assert.equal(item.state, 'open')
      assert.equal(item.reports, LIMITS.reportThreshold)
      assert.deepEqual(item.reasons.sort(), ['spam'])
    }
  })

  it('§2.10 queue: a reported post its author deleted leaves both queues (a deleted post is gone from every read, and no action could reach it), in Open and in Actioned', async () => {
    const { v, author, postId } = await world()
    const reporter = await signIn(svc, undefined, v.venueId)
    assert.equal((await report(svc, reporter, postId)).status, 200)
    const inQueue = async (who: TestUser, qs: string) => {
      const q = await queue(svc, who, qs)
      assert.equal(q.status, 200)
      return q.body.items.some((i: { post: { id: string } }) => i.post.id === postId)
    }
    assert.equal(await inQueue(v.owner, `venueId=${v.venueId}`), true, 'reported: in the venue\'s queue')
    assert.equal(await inQueue(operator, ''), true, 'reported: in the platform\'s queue')
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${postId}`, { token: author.token })).status, 200)
    for (const [who, qs] of [[v.owner, `venueId=${v.venueId}`], [operator, '']] as const) {
      assert.equal(await inQueue(who, qs), false, `deleted: gone from ${qs || 'the platform queue'}`)
      assert.equal(await inQueue(who, `${qs ? `${qs}&` : ''}state=actioned`), false)
    }
  })

  it('§3.1 "Rules while hidden: the post remains visible to its author": for anyone else a threshold-hidden or removed post is gone — agree and reply are 404 and write nothing; a report still reaches it (it is evidence for the review); its author cannot edit it while it is under review or removed (403)', async () => {
    const { v, author, topic, postId } = await world()
    const fan = await signIn(svc, undefined, v.venueId)
    const reporters = await Promise.all(Array.from({ length: LIMITS.reportThreshold }, () => signIn(svc, undefined, v.venueId)))
    for (const r of reporters) await report(svc, r, postId)
    for (const state of ['hidden', 'removed']) {
      if (state === 'removed') assert.equal((await act(svc, operator, 'remove', { postId })).status, 200)
      assert.equal((await postState(svc, postId)).state, state)
      const rows = async () => ({
        reactions: (await svc.ctx.db.selectFrom('reactions').select('account_id').where('post_id', '=', postId).execute()).length,
        replies: (await svc.ctx.db.selectFrom('posts').select('id').where('parent_id', '=', postId).execute()).length,
        post: await svc.ctx.db.selectFrom('posts').select(['agrees', 'replies', 'score']).where('id', '=', postId).executeTakeFirstOrThrow(),
      })
      const before = await rows()
      expectError(await call(svc, 'POST', `/v1/social/posts/${postId}/reactions`, { token: fan.token, body: { kind: 'agree', active: true } }), 404, 'post-not-found')
      expectError(await post(svc, fan, { subjectType: 'topic', subjectRef: topic, parentId: postId }), 404, 'post-not-found')
      assert.deepEqual(await rows(), before, `${state}: nothing written`)
      assert.equal((await report(svc, fan, postId, `late ${state}`)).status, 200, `${state}: a report reaches it`)
      expectError(await call(svc, 'PATCH', `/v1/social/posts/${postId}`, { token: author.token, body: { body: `edited while ${state}` } }), 403, 'forbidden')
    }
    assert.equal((await postState(svc, postId)).report_count, LIMITS.reportThreshold + 1)
  })

  it('§8 "Report threshold that auto-hides a post" is configurable (reportThreshold)', async () => {
    const s = await startTestService({ reportThreshold: 1 })
    try {
      const { postId } = await world(s)
      await report(s, await signIn(s), postId)
      assert.equal((await postState(s, postId)).state, 'hidden')
    } finally {
      await s.close()
    }
  })
})

describe('§3.1 hides and removal', () => {
  it('§3.1 "Venue hide (hide with venueId) → hidden on that venue only. Stays live on every other venue."', async () => {
    const { v, w, topic, postId } = await world()
    const r = await act(svc, v.owner, 'hide', { venueId: v.venueId, postId })
    assert.equal(r.status, 200)
    assert.deepEqual(r.body.post, { state: 'visible', hiddenHere: true, pinned: false, reports: 0 })
    assert.ok(!(await threadIds(svc, topic, { venue: v.venueId })).includes(postId))
    assert.ok((await threadIds(svc, topic, { venue: w.venueId })).includes(postId))
    assert.ok((await threadIds(svc, topic)).includes(postId))
    const feedV = await call(svc, 'GET', `/v1/social/posts/feed?scope=subject&subjectType=topic&subjectRef=${topic}&venue=${v.venueId}`)
    assert.ok(!feedV.body.posts.some((p: { id: string }) => p.id === postId))
    const feedW = await call(svc, 'GET', `/v1/social/posts/feed?scope=subject&subjectType=topic&subjectRef=${topic}&venue=${w.venueId}`)
    assert.ok(feedW.body.posts.some((p: { id: string }) => p.id === postId))
  })

  it('§3.1 "Platform-level removal (hide/remove without venueId) → removed everywhere. Platform operator only."', async () => {
    for (const action of ['hide', 'remove']) {
      const { v, w, author, topic, postId } = await world()
      expectError(await act(svc, v.owner, action, { postId }), 403, 'forbidden')
      assert.equal((await postState(svc, postId)).state, 'visible')
      const r = await act(svc, operator, action, { postId })
      assert.equal(r.status, 200)
      assert.equal(r.body.post.state, 'removed')
      for (const venue of [undefined, v.venueId, w.venueId]) assert.ok(!(await threadIds(svc, topic, { venue })).includes(postId), `${action} ${venue}`)
      // The author still sees it on the thread.
      assert.ok((await threadIds(svc, topic, { token: author.token })).includes(postId))
    }
  })

  it('remove is platform-wide: with a venueId it is refused (a venue hides), nothing written', async () => {
    const { v, postId } = await world()
    expectError(await act(svc, v.owner, 'remove', { venueId: v.venueId, postId }), 400, 'validation-failed')
    expectError(await act(svc, operator, 'remove', { venueId: v.venueId, postId }), 400, 'validation-failed')
    assert.equal((await postState(svc, postId)).state, 'visible')
  })
})

describe('§4.2 the other actions', () => {
  it('keep (platform): a threshold-hidden post returns to visible, its reports are settled, the item is Actioned; one new report does not re-hide it', async () => {
    const { v, topic, postId } = await world()
    for (let i = 0; i < LIMITS.reportThreshold; i++) await report(svc, await signIn(svc, undefined, v.venueId), postId)
    assert.equal((await postState(svc, postId)).state, 'hidden')
    const r = await act(svc, operator, 'keep', { postId })
    assert.equal(r.status, 200)
    assert.deepEqual(r.body.post, { state: 'visible', hiddenHere: false, pinned: false, reports: 0 })
    assert.deepEqual(r.body.item, { state: 'actioned' })
    assert.ok((await threadIds(svc, topic)).includes(postId))
    const actioned = await queue(svc, operator, 'state=actioned')
    const item = actioned.body.items.find((i: { post: { id: string } }) => i.post.id === postId)
    assert.equal(item.lastAction.action, 'keep')
    assert.equal(item.lastAction.by, operator.wallet)
    // A new report reopens the item but does not re-hide: the threshold counts reports since the review.
    await report(svc, await signIn(svc), postId)
    assert.equal((await postState(svc, postId)).state, 'visible')
    const reopened = (await queue(svc, operator)).body.items.find((i: { post: { id: string } }) => i.post.id === postId)
    assert.equal(reopened.state, 'open')
    assert.equal(reopened.reports, 1)
  })

  it('keep (venue): closes the venue\'s item and lifts the venue\'s own hide; a threshold hide is the platform\'s and stays', async () => {
    const { v, topic, postId } = await world()
    await act(svc, v.owner, 'hide', { venueId: v.venueId, postId })
    for (let i = 0; i < LIMITS.reportThreshold; i++) await report(svc, await signIn(svc, undefined, v.venueId), postId)
    const r = await act(svc, v.owner, 'keep', { venueId: v.venueId, postId })
    assert.equal(r.body.post.hiddenHere, false)
    assert.equal(r.body.post.state, 'hidden')
    assert.equal(r.body.post.reports, 0, "the venue's reports are settled: none left for the venue to review")
    assert.deepEqual(r.body.item, { state: 'actioned' })
    const open = await queue(svc, operator)
    const platformItem = open.body.items.find((i: { post: { id: string } }) => i.post.id === postId)
    assert.ok(platformItem, 'still open in the platform queue')
    assert.equal(platformItem.reports, LIMITS.reportThreshold, 'the platform still counts them')
    assert.deepEqual(platformItem.reasons, ['spam'])
    assert.ok(!(await threadIds(svc, topic, { venue: v.venueId })).includes(postId))
  })

  it('§3.1 the report threshold is the platform\'s ("Enough reports accumulate → hidden pending review"; removal everywhere is "Platform operator only"): a venue\'s keep or clear settles the reports for its own queue only — they still count toward the threshold and their reasons stay in the platform queue', async () => {
    for (const action of ['keep', 'clear']) {
      const { v, w, topic, postId } = await world()
      for (let i = 0; i < LIMITS.reportThreshold - 1; i++) assert.equal((await report(svc, await signIn(svc, undefined, v.venueId), postId, `from v ${i}`)).status, 200)
      const settled = await act(svc, v.owner, action, { venueId: v.venueId, postId })
      assert.equal(settled.status, 200)
      assert.equal(settled.body.post.reports, 0, `${action}: nothing left for the venue`)
      assert.equal((await postState(svc, postId)).report_count, LIMITS.reportThreshold - 1, `${action}: the platform still counts them`)
      const platformItem = (await queue(svc, operator)).body.items.find((i: { post: { id: string } }) => i.post.id === postId)
      assert.equal(platformItem.reports, LIMITS.reportThreshold - 1)
      assert.equal(platformItem.reasons.length, LIMITS.reportThreshold - 1, `${action}: the platform queue keeps the reasons`)
      assert.equal((await queue(svc, v.owner, `venueId=${v.venueId}`)).body.items.some((i: { post: { id: string } }) => i.post.id === postId), false)
      // One more report, made on another venue, reaches the threshold: hidden everywhere.
      assert.equal((await report(svc, await signIn(svc, undefined, w.venueId), postId)).status, 200)
      assert.equal((await postState(svc, postId)).state, 'hidden', action)
      assert.ok(!(await threadIds(svc, topic, { venue: v.venueId })).includes(postId))
    }
  })

  it('a reporter whose report the venue settled may report again: the venue\'s item reopens with it, and the platform counts that reporter once', async () => {
    const { v, postId } = await world()
    const reporter = await signIn(svc, undefined, v.venueId)
    await report(svc, reporter, postId, 'first')
    assert.equal((await act(svc, v.owner, 'clear', { venueId: v.venueId, postId })).status, 200)
    assert.equal((await report(svc, reporter, postId, 'again')).status, 200)
    const item = (await queue(svc, v.owner, `venueId=${v.venueId}`)).body.items.find((i: { post: { id: string } }) => i.post.id === postId)
    assert.equal(item?.state, 'open')
    assert.equal(item.reports, 1)
    assert.deepEqual(item.reasons, ['again'])
    assert.equal((await postState(svc, postId)).report_count, 1)
  })

  it('clear: the reports are dismissed (settled for the platform) and the item closed; visibility is unchanged', async () => {
    const { v, postId } = await world()
    for (let i = 0; i < LIMITS.reportThreshold; i++) await report(svc, await signIn(svc, undefined, v.venueId), postId)
    const r = await act(svc, operator, 'clear', { postId })
    assert.equal(r.status, 200)
    assert.deepEqual(r.body.post, { state: 'hidden', hiddenHere: false, pinned: false, reports: 0 })
    assert.deepEqual(r.body.item, { state: 'actioned' })
    const open = await svc.ctx.db.selectFrom('reports').select('post_id').where('post_id', '=', postId).where('platform_settled_at', 'is', null).execute()
    assert.equal(open.length, 0, 'every report is settled for the platform')
  })

  it('restore: undoes a venue hide (venueId) or a platform removal / threshold hide (operator)', async () => {
    const { v, topic, postId } = await world()
    await act(svc, v.owner, 'hide', { venueId: v.venueId, postId })
    const r1 = await act(svc, v.owner, 'restore', { venueId: v.venueId, postId })
    assert.equal(r1.body.post.hiddenHere, false)
    assert.ok((await threadIds(svc, topic, { venue: v.venueId })).includes(postId))
    await act(svc, operator, 'remove', { postId })
    expectError(await act(svc, v.owner, 'restore', { postId }), 403, 'forbidden')
    assert.equal((await postState(svc, postId)).state, 'removed')
    const r2 = await act(svc, operator, 'restore', { postId })
    assert.equal(r2.body.post.state, 'visible')
    assert.ok((await threadIds(svc, topic)).includes(postId))
  })

  it('pin: sets the post\'s pin (pinned: false clears it) without changing visibility; a venue pins only posts in its own rooms', async () => {
    const { v, w, author, topic, postId } = await world()
    expectError(await act(svc, v.owner, 'pin', { venueId: v.venueId, postId }), 403, 'forbidden')
    assert.equal((await postState(svc, postId)).pinned_at, null)
    const room = await createRoom(svc, v)
    await call(svc, 'POST', `/v1/rooms/${room}/join`, { token: author.token })
    const inRoom = await post(svc, author, { subjectType: 'topic', subjectRef: topic, room })
    expectError(await act(svc, w.owner, 'pin', { venueId: w.venueId, postId: inRoom.body.post.id }), 403, 'forbidden')
    const r = await act(svc, v.owner, 'pin', { venueId: v.venueId, postId: inRoom.body.post.id })
    assert.deepEqual(r.body.post, { state: 'visible', hiddenHere: false, pinned: true, reports: 0 })
    const t = await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=${topic}`)
    assert.equal(t.body.posts.find((p: { id: string }) => p.id === inRoom.body.post.id).pinned, true)
    const op = await act(svc, operator, 'pin', { postId })
    assert.equal(op.body.post.pinned, true)
    const un = await act(svc, operator, 'pin', { postId, pinned: false })
    assert.equal(un.body.post.pinned, false)
  })

  it('§5.7 "A ban blocks posting only, never reading or trading": a venue ban blocks posting on that venue; the venue= overlay drops the wallet\'s posts; unban lifts it', async () => {
    const { v, w, author, topic, postId } = await world()
    const r = await act(svc, v.owner, 'ban', { venueId: v.venueId, wallet: author.wallet })
    assert.equal(r.status, 200)
    assert.deepEqual(r.body.ban, { wallet: author.wallet, scope: v.venueId, banned: true })
    expectError(await post(svc, author, { subjectType: 'topic', subjectRef: topic }), 403, 'banned')
    // Reading is never blocked; posting from another venue's session is not blocked by this venue's ban.
    assert.equal((await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=${topic}`, { token: author.token })).status, 200)
    assert.equal((await call(svc, 'GET', `/v1/social/posts/feed`, { token: author.token })).status, 200)
    assert.equal((await call(svc, 'GET', `/v1/social/profile/${author.wallet}/posts?takes=false`, { token: author.token })).status, 200)
    const elsewhere = await signIn(svc, author.account, w.venueId)
    assert.equal((await post(svc, elsewhere, { subjectType: 'topic', subjectRef: topic })).status, 201)
    // The venue's overlay drops the banned wallet's posts; other venues still show them.
    assert.ok(!(await threadIds(svc, topic, { venue: v.venueId })).includes(postId))
    assert.ok((await threadIds(svc, topic, { venue: w.venueId })).includes(postId))
    const u = await act(svc, v.owner, 'unban', { venueId: v.venueId, wallet: author.wallet })
    assert.deepEqual(u.body.ban, { wallet: author.wallet, scope: v.venueId, banned: false })
    assert.equal((await post(svc, author, { subjectType: 'topic', subjectRef: topic })).status, 201)
  })

  it('§5.7 "global bans (no venueId) are operator only": a global ban blocks posting everywhere; ban by postId bans its author; you cannot ban yourself', async () => {
    const { v, w, author, topic, postId } = await world()
    expectError(await act(svc, v.owner, 'ban', { wallet: author.wallet }), 403, 'forbidden')
    assert.equal((await svc.ctx.db.selectFrom('bans').selectAll().execute()).filter((b) => b.scope === '*').length, 0)
    const r = await act(svc, operator, 'ban', { postId })
    assert.deepEqual(r.body.ban, { wallet: author.wallet, scope: '*', banned: true })
    assert.deepEqual(r.body.item, { state: 'actioned' })
    expectError(await post(svc, author, { subjectType: 'topic', subjectRef: topic }), 403, 'banned')
    expectError(await post(svc, await signIn(svc, author.account, w.venueId), { subjectType: 'topic', subjectRef: topic }), 403, 'banned')
    expectError(await post(svc, await signIn(svc, author.account), { subjectType: 'topic', subjectRef: topic }), 403, 'banned')
    // Reading and reacting still work.
    assert.ok((await threadIds(svc, topic, { token: author.token })).includes(postId))
    expectError(await act(svc, operator, 'ban', { wallet: operator.wallet }), 400, 'validation-failed')
    // A wallet never seen before can be banned ahead of its first sign-in.
    const fresh = newWallet()
    assert.equal((await act(svc, operator, 'ban', { wallet: fresh.address.toLowerCase() })).status, 200)
    const freshUser = await signIn(svc, fresh)
    expectError(await post(svc, freshUser, { subjectType: 'topic', subjectRef: topic }), 403, 'banned')
    await act(svc, operator, 'unban', { wallet: author.wallet })
    assert.equal((await post(svc, author, { subjectType: 'topic', subjectRef: topic })).status, 201)
  })

  it('§2.10 a queue item says whether its author is banned in that queue\'s scope (authorBanned): a venue ban shows in that venue\'s queue only, a global ban in the platform queue; unban clears each', async () => {
    const { v, author, postId } = await world()
    const reporter = await signIn(svc, undefined, v.venueId)
    assert.equal((await report(svc, reporter, postId)).status, 200)
    const banned = async (who: TestUser, qs = '') => {
      const item = (await queue(svc, who, qs)).body.items.find((i: { post: { id: string } }) => i.post.id === postId)
      assert.ok(item, `the item is in the queue (${qs || 'platform'})`)
      return item.authorBanned
    }
    const venueQ = `venueId=${v.venueId}`
    assert.deepEqual([await banned(v.owner, venueQ), await banned(operator)], [false, false])
    assert.equal((await act(svc, v.owner, 'ban', { venueId: v.venueId, wallet: author.wallet })).status, 200)
    assert.deepEqual([await banned(v.owner, venueQ), await banned(operator)], [true, false])
    assert.equal((await act(svc, operator, 'ban', { wallet: author.wallet })).status, 200)
    assert.deepEqual([await banned(v.owner, venueQ), await banned(operator)], [true, true])
    assert.equal((await act(svc, v.owner, 'unban', { venueId: v.venueId, wallet: author.wallet })).status, 200)
    assert.deepEqual([await banned(v.owner, venueQ), await banned(operator)], [false, true])
    assert.equal((await act(svc, operator, 'unban', { wallet: author.wallet })).status, 200)
    assert.deepEqual([await banned(v.owner, venueQ), await banned(operator)], [false, false])
  })

  it('§5.7 "A ban blocks posting only, never reading or trading": after a venue ban and after a global ban the wallet still reads, its gateway sponsorship still says sponsored (keyless on the venue and with the venue\'s key), and its agree and its report still land', async () => {
    const { v, topic } = await world()
    const banned = await signIn(svc, undefined, v.venueId)
    const other = await signIn(svc, undefined, v.venueId)
    const m = await addMarket(svc)
    await svc.chain.setPosition(banned.wallet, m.id, 0, 5n)
    const own = await post(svc, banned, { subjectType: 'event', subjectRef: m.id, body: 'written before the ban' })
    assert.equal(own.status, 201)
    const target = await post(svc, other, { subjectType: 'topic', subjectRef: topic, body: 'a post to agree with' })
    assert.equal(target.status, 201)
    const targetId: string = target.body.post.id
    const sponsorship = (key?: string) => call(svc, 'GET', '/v1/gateway/sponsorship', { token: banned.token, key })
    // Before any ban: the state the bans must leave unchanged.
    const keylessBefore = await sponsorship()
    const keyedBefore = await sponsorship(v.key)
    assert.deepEqual(keylessBefore.body, { venueId: v.venueId, attributed: false, sponsored: true, enforcement: false })
    assert.deepEqual(keyedBefore.body, { venueId: v.venueId, attributed: true, sponsored: true, enforcement: false })

    const stillTradesAndReads = async (ban: string) => {
      // The ban is in force: posting is refused, keyless and with the key.
      expectError(await post(svc, banned, { subjectType: 'topic', subjectRef: topic }), 403, 'banned')
      expectError(await call(svc, 'POST', '/v1/social/posts', { token: banned.token, key: v.key, body: { subjectType: 'topic', subjectRef: topic, body: 'x' } }), 403, 'banned')
      // Trading: the gateway still sponsors the wallet's trades on v.
      const keyless = await sponsorship()
      assert.equal(keyless.status, 200, `${ban}: ${JSON.stringify(keyless.body)}`)
      assert.deepEqual(keyless.body, keylessBefore.body, `${ban}: keyless on v, still sponsored`)
      const keyed = await sponsorship(v.key)
      assert.equal(keyed.status, 200, `${ban}: ${JSON.stringify(keyed.body)}`)
      assert.deepEqual(keyed.body, keyedBefore.body, `${ban}: with v's key, still sponsored`)
      // Reading: every read answers, keyless and with the key, and the thread still holds the other's post.
      for (const key of [undefined, v.key]) {
        const reads = [
          `/v1/social/posts?subjectType=topic&subjectRef=${topic}`,
          `/v1/social/posts?subjectType=event&subjectRef=${m.id}`,
          '/v1/social/posts/feed',
          `/v1/social/posts/feed?subjectType=topic&subjectRef=${topic}`,
          `/v1/social/profile/${banned.wallet}/posts`,
          `/v1/social/take-counts?ids=${m.id}`,
          `/v1/markets/${m.id}`,
          '/v1/social/for-you',
          '/v1/me',
        ]
        for (const path of reads) {
          const r = await call(svc, 'GET', path, { token: banned.token, key })
          assert.equal(r.status, 200, `${ban}, ${key ? 'keyed' : 'keyless'} ${path}: ${JSON.stringify(r.body)}`)
        }
        assert.ok((await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=${topic}`, { token: banned.token, key })).body.posts.some((p: { id: string }) => p.id === targetId))
      }
      // Reacting is not posting: agree and withdraw it, keyless and with the key.
      for (const key of [undefined, v.key]) {
        for (const active of [true, false]) {
          const r = await call(svc, 'POST', `/v1/social/posts/${targetId}/reactions`, { token: banned.token, key, body: { kind: 'agree', active } })
          assert.equal(r.status, 200, `${ban}, ${key ? 'keyed' : 'keyless'} agree ${active}: ${JSON.stringify(r.body)}`)
          assert.deepEqual(r.body, { postId: targetId, kind: 'agree', agreed: active, agrees: active ? 1 : 0 })
        }
      }
      // Reporting is not posting either: the report lands, keyless and with the key (one report per account and post).
      for (const key of [undefined, v.key]) {
        const r = await call(svc, 'POST', `/v1/social/posts/${targetId}/reports`, { token: banned.token, key, body: { reason: `${ban}: off topic` } })
        assert.equal(r.status, 200, `${ban}, ${key ? 'keyed' : 'keyless'} report: ${JSON.stringify(r.body)}`)
        assert.deepEqual(r.body, { postId: targetId, reported: true })
      }
      const reports = await svc.ctx.db.selectFrom('reports').select('post_id').where('post_id', '=', targetId).execute()
      assert.equal(reports.length, 1, `${ban}: the banned wallet's report is stored`)
    }

    assert.equal((await act(svc, v.owner, 'ban', { venueId: v.venueId, wallet: banned.wallet })).status, 200)
    await stillTradesAndReads('venue ban')
    assert.equal((await act(svc, operator, 'ban', { wallet: banned.wallet })).status, 200)
    await stillTradesAndReads('venue and global ban')
    assert.equal((await act(svc, v.owner, 'unban', { venueId: v.venueId, wallet: banned.wallet })).status, 200)
    await stillTradesAndReads('global ban')
    await act(svc, operator, 'unban', { wallet: banned.wallet })
  })

  it('§5.7 "A ban blocks posting": rewriting a post is posting — a banned author cannot edit (banned everywhere, on the venue of the edit, or on the venue whose room holds the post), and can still delete', async () => {
    const { v, w, author, postId } = await world()
    const edit = (who: TestUser, id: string, key?: string) => call(svc, 'PATCH', `/v1/social/posts/${id}`, { token: who.token, key, body: { body: 'rewritten' } })
    const room = await createRoom(svc, v)
    assert.equal((await call(svc, 'POST', `/v1/rooms/${room}/join`, { token: author.token })).status, 200)
    const inRoom = await post(svc, author, { subjectType: 'topic', subjectRef: newTopic(), room })
    assert.equal(inRoom.status, 201, JSON.stringify(inRoom.body))
    assert.equal((await act(svc, v.owner, 'ban', { venueId: v.venueId, wallet: author.wallet })).status, 200)
    const onW = await signIn(svc, author.account, w.venueId)
    const keyless = await signIn(svc, author.account)
    expectError(await edit(author, postId), 403, 'banned')
    expectError(await edit(keyless, postId, v.key), 403, 'banned')
    expectError(await edit(onW, inRoom.body.post.id), 403, 'banned')
    const there = await edit(onW, postId)
    assert.equal(there.status, 200, "on w's session the unroomed post is w's to show")
    assert.equal(there.body.post.body, 'rewritten')
    assert.equal((await act(svc, operator, 'ban', { wallet: author.wallet })).status, 200)
    expectError(await edit(onW, postId), 403, 'banned')
    expectError(await edit(keyless, postId), 403, 'banned')
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${postId}`, { token: author.token })).status, 200)
    await act(svc, operator, 'unban', { wallet: author.wallet })
  })

  it('§4.2 "Moderation writes are not optimistic": every action answers the new state read back from the store', async () => {
    const { v, postId } = await world()
    const r = await act(svc, v.owner, 'hide', { venueId: v.venueId, postId })
    const hidden = await svc.ctx.db.selectFrom('venue_hides').selectAll().where('post_id', '=', postId).execute()
    assert.equal(hidden.length, 1)
    assert.deepEqual(r.body, { action: 'hide', venueId: v.venueId, postId, post: { state: 'visible', hiddenHere: true, pinned: false, reports: 0 }, item: { state: 'actioned' }, ban: null })
  })
})

describe('§2.10 the queue', () => {
  it('§2.10 "Tabs/state filter: Open and Actioned"; cursor-paged, newest activity first', async () => {
    const v = await claimVenue(svc)
    const author = await signIn(svc, undefined, v.venueId)
    const reporter = await signIn(svc, undefined, v.venueId)
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      const p = await post(svc, author, { subjectType: 'topic', subjectRef: newTopic() })
      ids.push(p.body.post.id)
      await report(svc, reporter, p.body.post.id)
    }
    await act(svc, v.owner, 'keep', { venueId: v.venueId, postId: ids[1] })
    await act(svc, v.owner, 'hide', { venueId: v.venueId, postId: ids[3] })
    const walk = async (state: string) => {
      const out: string[] = []
      let cursor: string | null = null
      do {
        const r: { status: number; body: { items: { post: { id: string }; state: string }[]; nextCursor: string | null } } = await queue(
          svc,
          v.owner,
          `venueId=${v.venueId}&state=${state}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        )
        assert.equal(r.status, 200)
        assert.ok(r.body.items.every((i) => i.state === state))
        out.push(...r.body.items.map((i) => i.post.id))
        cursor = r.body.nextCursor
        assert.ok(out.length <= 50, 'the cursor moves the page on (a cursor that does not would loop forever)')
      } while (cursor)
      return out
    }
    assert.deepEqual(await walk('open'), [ids[4], ids[2], ids[0]])
    assert.deepEqual(await walk('actioned'), [ids[3], ids[1]])
    const def = await queue(svc, v.owner, `venueId=${v.venueId}`)
    assert.deepEqual(def.body.items.map((i: { post: { id: string } }) => i.post.id), [ids[4], ids[2], ids[0]])
    const hiddenItem = (await queue(svc, v.owner, `venueId=${v.venueId}&state=actioned`)).body.items[0]
    assert.equal(hiddenItem.hiddenHere, true)
    expectError(await queue(svc, v.owner, `venueId=${v.venueId}&state=closed`), 400, 'validation-failed')
    expectError(await queue(svc, v.owner, `venueId=${v.venueId}&cursor=abc`), 400, 'validation-failed')
    expectError(await queue(svc, v.owner, `venueId=${v.venueId}&sort=new`), 400, 'unsupported-param')
  })

  it('§7 "Moderation read by someone who cannot moderate the venue → forbidden state, distinct from an empty queue": 403 \'you can\'t moderate this venue\'', async () => {
    const v = await claimVenue(svc)
    const other = await claimVenue(svc)
    const member = await signIn(svc, undefined, v.venueId)
    const empty = await queue(svc, v.owner, `venueId=${v.venueId}`)
    assert.equal(empty.status, 200)
    assert.deepEqual(empty.body, { items: [], nextCursor: null })
    for (const who of [member, other.owner]) {
      expectError(await queue(svc, who, `venueId=${v.venueId}`), 403, 'forbidden', MSG.CANNOT_MODERATE)
      expectError(await call(svc, 'GET', `/v1/mod/audit?venueId=${v.venueId}`, { token: who.token }), 403, 'forbidden', MSG.CANNOT_MODERATE)
    }
    expectError(await queue(svc, member, 'venueId=no-such-venue'), 403, 'forbidden', MSG.CANNOT_MODERATE)
    expectError(await queue(svc, undefined, `venueId=${v.venueId}`), 401, 'unauthenticated')
    // The platform queue (no venueId) is the operator's; §4.4 rule 6: whoever cannot moderate reads the same sentence.
    expectError(await queue(svc, v.owner), 403, 'forbidden', MSG.CANNOT_MODERATE)
    expectError(await queue(svc, member), 403, 'forbidden', MSG.CANNOT_MODERATE)
    assert.equal((await queue(svc, operator)).status, 200)
    assert.equal((await queue(svc, operator, `venueId=${v.venueId}`)).status, 200)
  })
})

describe('§5.7 the audit log', () => {
  it('every action is recorded (who, what, when, which venue) and readable by that venue\'s moderators', async () => {
    const { v, author, postId } = await world()
    const t0 = Date.now()
    const steps: [TestUser, string, Record<string, unknown>][] = [
      [v.owner, 'hide', { venueId: v.venueId, postId }],
      [v.owner, 'restore', { venueId: v.venueId, postId }],
      [v.owner, 'keep', { venueId: v.venueId, postId }],
      [v.owner, 'clear', { venueId: v.venueId, postId }],
      [v.owner, 'ban', { venueId: v.venueId, wallet: author.wallet }],
      [v.owner, 'unban', { venueId: v.venueId, wallet: author.wallet }],
      [operator, 'hide', { venueId: v.venueId, postId }],
      [operator, 'remove', { postId }],
      [operator, 'restore', { postId }],
      [operator, 'pin', { postId }],
    ]
    for (const [who, action, body] of steps) assert.equal((await act(svc, who, action, body)).status, 200, action)
    const venueLog = await call(svc, 'GET', `/v1/mod/audit?venueId=${v.venueId}`, { token: v.owner.token })
    assert.equal(venueLog.status, 200)
    const entries = venueLog.body.entries
    assert.deepEqual(
      entries.map((e: { action: string; actor: string }) => [e.action, e.actor]),
      [
        ['hide', operator.wallet],
        ['unban', v.owner.wallet],
        ['ban', v.owner.wallet],
        ['clear', v.owner.wallet],
        ['keep', v.owner.wallet],
        ['restore', v.owner.wallet],
        ['hide', v.owner.wallet],
      ],
    )
    for (const e of entries) {
      assert.equal(e.venueId, v.venueId)
      assert.ok(Date.parse(e.at) >= t0 - 1000)
      assert.equal(e.target, author.wallet)
    }
    assert.equal(entries.find((e: { action: string }) => e.action === 'ban').postId, null)
    assert.equal(entries.find((e: { action: string }) => e.action === 'keep').postId, postId)
    const platform = await call(svc, 'GET', '/v1/mod/audit?limit=3', { token: operator.token })
    assert.deepEqual(platform.body.entries.map((e: { action: string; venueId: string | null }) => [e.action, e.venueId]), [['pin', null], ['restore', null], ['remove', null]])
    assert.ok(platform.body.nextCursor)
    const next = await call(svc, 'GET', `/v1/mod/audit?limit=3&cursor=${platform.body.nextCursor}`, { token: operator.token })
    assert.ok(next.body.entries.every((e: { id: string }) => e.id < platform.body.entries[2].id))
    expectError(await call(svc, 'GET', '/v1/mod/audit', { token: v.owner.token }), 403, 'forbidden')
  })
})

describe('moderation: bad input', () => {
  it('unknown action, missing or extra fields, a missing post: a 4xx with a code and a sentence, nothing written', async () => {
    const { v, author, postId } = await world()
    const count = async () => ({
      audit: (await svc.ctx.db.selectFrom('mod_audit').select('id').where('scope', '=', v.venueId).execute()).length,
      hides: (await svc.ctx.db.selectFrom('venue_hides').select('post_id').where('venue_id', '=', v.venueId).execute()).length,
      bans: (await svc.ctx.db.selectFrom('bans').select('scope').where('scope', '=', v.venueId).execute()).length,
    })
    const before = await count()
    expectError(await act(svc, v.owner, 'delete', { venueId: v.venueId, postId }), 400, 'validation-failed')
    expectError(await act(svc, v.owner, 'hide', { venueId: v.venueId }), 400, 'validation-failed')
    expectError(await act(svc, v.owner, 'hide', { venueId: v.venueId, postId, reason: 'x' }), 400, 'validation-failed')
    expectError(await act(svc, v.owner, 'hide', { venueId: v.venueId, postId, wallet: author.wallet }), 400, 'validation-failed')
    expectError(await act(svc, v.owner, 'hide', { venueId: v.venueId, postId, pinned: true }), 400, 'validation-failed')
    expectError(await act(svc, v.owner, 'hide', { venueId: v.venueId, postId: 'p_0000000000000' }), 404, 'post-not-found')
    expectError(await act(svc, v.owner, 'ban', { venueId: v.venueId }), 400, 'validation-failed')
    expectError(await act(svc, v.owner, 'ban', { venueId: v.venueId, wallet: 'nope' }), 400, 'validation-failed')
    expectError(await act(svc, v.owner, 'ban', { venueId: v.venueId, wallet: newWallet().address.toLowerCase(), postId }), 400, 'validation-failed')
    expectError(await act(svc, v.owner, 'hide', { venueId: 'Bad Venue', postId }), 400, 'validation-failed')
    expectError(await call(svc, 'POST', '/v1/mod/hide', { token: v.owner.token, body: '{' }), 400, 'invalid-json')
    // A deleted post is gone for moderation too.
    await call(svc, 'DELETE', `/v1/social/posts/${postId}`, { token: author.token })
    expectError(await act(svc, v.owner, 'hide', { venueId: v.venueId, postId }), 404, 'post-not-found')
    assert.deepEqual(await count(), before)
  })
})

describe('downstream: reads respect moderation and private rooms', () => {
  let s: TestService
  let op: TestUser
  before(async () => {
    const w = newWallet()
    s = await startTestService({ operators: [w.address] })
    op = await signIn(s, w)
  })
  after(() => s.close())

  const feedIds = async (token?: string) => {
    const r = await call(s, 'GET', '/v1/social/posts/feed?scope=global&limit=100', { token })
    assert.equal(r.status, 200)
    return r.body.posts.map((p: { id: string }) => p.id) as string[]
  }
  const takeCount = async (marketId: string) => (await call(s, 'GET', `/v1/social/take-counts?ids=${marketId}`)).body.counts[marketId]
  const profileIds = async (wallet: string, token?: string) => {
    const r = await call(s, 'GET', `/v1/social/profile/${wallet}/posts?takes=false`, { token })
    assert.equal(r.status, 200)
    return r.body.posts.map((p: { id: string }) => p.id) as string[]
  }
  const marketThread = async (marketId: string, token?: string) => {
    const r = await call(s, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${marketId}`, { token })
    assert.equal(r.status, 200)
    return r.body.posts as { id: string; hidden?: boolean }[]
  }

  it('§3.1 "while hidden: the post remains visible to its author on the market thread and on their profile; the ranked feed shows visible posts only" — and counts drop it', async () => {
    const m = await addMarket(s)
    const author = await signIn(s)
    await s.chain.setPosition(author.wallet, m.id, 0, 5n)
    const p = await call(s, 'POST', '/v1/social/posts', { token: author.token, body: { subjectType: 'event', subjectRef: m.id, body: 'my take' } })
    const id = p.body.post.id
    assert.deepEqual(await takeCount(m.id), { posts: 1, takes: 1, bySide: { '0': 1 } })
    assert.ok((await feedIds()).includes(id))
    for (let i = 0; i < LIMITS.reportThreshold; i++) await report(s, await signIn(s), id)
    for (const state of ['hidden', 'removed']) {
      if (state === 'removed') assert.equal((await act(s, op, 'remove', { postId: id })).status, 200)
      assert.equal((await postState(s, id)).state, state)
      assert.ok(!(await feedIds()).includes(id), `${state}: not in the feed`)
      assert.ok(!(await feedIds(author.token)).includes(id), `${state}: not in the author's feed either`)
      assert.deepEqual(await takeCount(m.id), { posts: 0, takes: 0, bySide: {} }, `${state}: not counted`)
      assert.ok(!(await marketThread(m.id)).some((x) => x.id === id), `${state}: not on the thread for others`)
      const own = (await marketThread(m.id, author.token)).find((x) => x.id === id)
      assert.equal(own?.hidden, true, `${state}: on the author's thread, flagged hidden`)
      assert.ok(!(await profileIds(author.wallet)).includes(id), `${state}: not on the profile for others`)
      assert.ok((await profileIds(author.wallet, author.token)).includes(id), `${state}: on the author's own profile`)
    }
  })

  it('a venue hide leaves that venue\'s overlay of feed, counts and thread, and nothing else', async () => {
    const v = await claimVenue(s)
    const m = await addMarket(s)
    const author = await signIn(s)
    const p = await call(s, 'POST', '/v1/social/posts', { token: author.token, body: { subjectType: 'event', subjectRef: m.id, body: 'comment' } })
    const id = p.body.post.id
    await act(s, v.owner, 'hide', { venueId: v.venueId, postId: id })
    const tc = async (venue?: string) => (await call(s, 'GET', `/v1/social/take-counts?ids=${m.id}${venue ? `&venue=${venue}` : ''}`)).body.counts[m.id].posts
    assert.equal(await tc(v.venueId), 0)
    assert.equal(await tc(), 1)
    const f = await call(s, 'GET', `/v1/social/posts/feed?scope=global&limit=100&venue=${v.venueId}`)
    assert.ok(!f.body.posts.some((x: { id: string }) => x.id === id))
    assert.ok((await feedIds()).includes(id))
    // §5.3 "It scopes reads to the venue": a read sent with the venue's key takes the venue's overlay.
    const keyed = await call(s, 'GET', '/v1/social/posts/feed?scope=global&limit=100', { key: v.key })
    assert.ok(!keyed.body.posts.some((x: { id: string }) => x.id === id))
  })

  it('§5.3 "It scopes reads to the venue": with the venue\'s key and no `venue`, the market thread, the profile and the take counts take its hides and bans, as the feed does; a keyless session\'s claimed venue (§5.4: it binds the gateway) never scopes a read (ARCHITECTURE "The request\'s venue")', async () => {
    const v = await claimVenue(s)
    const w = await claimVenue(s)
    const m = await addMarket(s)
    const hiddenAuthor = await signIn(s)
    const bannedAuthor = await signIn(s)
    const write = async (who: TestUser, body: string) => {
      const r = await call(s, 'POST', '/v1/social/posts', { token: who.token, body: { subjectType: 'event', subjectRef: m.id, body } })
      assert.equal(r.status, 201, JSON.stringify(r.body))
      return r.body.post.id as string
    }
    const hid = await write(hiddenAuthor, 'hidden on v')
    const banned = await write(bannedAuthor, 'by a wallet banned on v')
    const kept = await write(await signIn(s), 'shown everywhere')
    assert.equal((await act(s, v.owner, 'hide', { venueId: v.venueId, postId: hid })).status, 200)
    assert.equal((await act(s, v.owner, 'ban', { venueId: v.venueId, wallet: bannedAuthor.wallet })).status, 200)

    const read = async (path: string, key?: string) => {
      const r = await call(s, 'GET', path, { key })
      assert.equal(r.status, 200, JSON.stringify(r.body))
      return r.body
    }
    const threadOf = async (key?: string, venue?: string) =>
      (await read(`/v1/social/posts?subjectType=event&subjectRef=${m.id}${venue ? `&venue=${venue}` : ''}`, key)).posts.map((p: { id: string }) => p.id)
    const profileOf = async (wallet: string, key?: string) => (await read(`/v1/social/profile/${wallet}/posts?takes=false`, key)).posts.map((p: { id: string }) => p.id)
    const countOf = async (key?: string) => (await read(`/v1/social/take-counts?ids=${m.id}`, key)).counts[m.id].posts

    assert.deepEqual(await threadOf(v.key), [kept])
    assert.deepEqual((await threadOf()).sort(), [hid, banned, kept].sort(), 'keyless: no overlay')
    assert.deepEqual((await threadOf(w.key)).sort(), [hid, banned, kept].sort(), "another venue's key: its own overlay")
    assert.deepEqual((await threadOf(v.key, w.venueId)).sort(), [hid, banned, kept].sort(), 'a named venue wins over the key')
    assert.deepEqual(await profileOf(hiddenAuthor.wallet, v.key), [])
    assert.deepEqual(await profileOf(bannedAuthor.wallet, v.key), [])
    assert.deepEqual(await profileOf(hiddenAuthor.wallet), [hid])
    assert.equal(await countOf(v.key), 1)
    assert.equal(await countOf(w.key), 3)
    assert.equal(await countOf(), 3)
    // Signed in on v without its key: the session's venue is no overlay on the thread, the feed or the profile.
    const onV = await signIn(s, undefined, v.venueId)
    const idsOnV = async (path: string) => {
      const r = await call(s, 'GET', path, { token: onV.token })
      assert.equal(r.status, 200, JSON.stringify(r.body))
      return r.body.posts.map((p: { id: string }) => p.id).sort()
    }
    assert.deepEqual(await idsOnV(`/v1/social/posts?subjectType=event&subjectRef=${m.id}`), [hid, banned, kept].sort(), 'thread')
    assert.deepEqual(await idsOnV(`/v1/social/posts/feed?subjectType=event&subjectRef=${m.id}`), [hid, banned, kept].sort(), 'feed')
    assert.deepEqual(await idsOnV(`/v1/social/profile/${hiddenAuthor.wallet}/posts?takes=false`), [hid], 'profile')
  })

  it('§5.1 "Reads fail open": a key that is not live (unknown, malformed or revoked) leaves every read working without an overlay, marked X-Venue-Key-Status: refused; room=self still needs a live key', async () => {
    const v = await claimVenue(s)
    const m = await addMarket(s)
    const author = await signIn(s)
    const p = await call(s, 'POST', '/v1/social/posts', { token: author.token, body: { subjectType: 'event', subjectRef: m.id, body: 'hidden on v' } })
    assert.equal((await act(s, v.owner, 'hide', { venueId: v.venueId, postId: p.body.post.id })).status, 200)
    const reads = [
      `/v1/social/posts/feed?scope=global&limit=5`,
      `/v1/social/posts?subjectType=event&subjectRef=${m.id}`,
      `/v1/social/profile/${author.wallet}/posts?takes=false`,
      `/v1/social/take-counts?ids=${m.id}`,
    ]
    const live = await call(s, 'GET', reads[1], { key: v.key })
    assert.equal(live.headers.get('x-venue-key-status'), null, 'a live key is not marked')
    assert.equal(live.body.posts.length, 0, "the live key's overlay hides the post")
    await s.ctx.db.updateTable('venue_keys').set({ revoked_at: new Date() }).where('venue_id', '=', v.venueId).execute()
    for (const key of [v.key, `pck_${'0'.repeat(64)}`, 'pck_nothex']) {
      for (const path of reads) {
        const r = await call(s, 'GET', path, { key, headers: { origin: 'https://venue.example' } })
        assert.equal(r.status, 200, `${path} with ${key.slice(0, 8)}…: ${JSON.stringify(r.body)}`)
        assert.equal(r.headers.get('x-venue-key-status'), 'refused', path)
        assert.match(r.headers.get('access-control-expose-headers') ?? '', /X-Venue-Key-Status/, 'a browser page can read the mark')
      }
      const thread = await call(s, 'GET', reads[1], { key })
      assert.deepEqual(thread.body.posts.map((x: { id: string }) => x.id), [p.body.post.id], 'no overlay from a refused key')
      for (const path of ['/v1/social/posts/feed?room=self', `/v1/social/posts?subjectType=event&subjectRef=${m.id}&room=self`, '/v1/rooms/self/board'])
        expectError(await call(s, 'GET', path, { key }), 401, 'invalid-venue-key')
      expectError(await call(s, 'POST', '/v1/social/posts', { token: author.token, key, body: { subjectType: 'event', subjectRef: m.id, body: 'x' } }), 401, 'invalid-venue-key')
    }
  })

  it('§5.3 the key "binds the venue": a ban on the key\'s venue refuses a post sent with that key, whatever venue the session claimed; a report sent with the key reaches that venue\'s queue', async () => {
    const v = await claimVenue(s)
    const w = await claimVenue(s)
    const author = await signIn(s)
    const onW = await signIn(s, author.account, w.venueId)
    const write = (who: TestUser, key?: string) => call(s, 'POST', '/v1/social/posts', { token: who.token, key, body: { subjectType: 'topic', subjectRef: newTopic(), body: 'hi' } })
    assert.equal((await write(author, v.key)).status, 201)
    assert.equal((await act(s, v.owner, 'ban', { venueId: v.venueId, wallet: author.wallet })).status, 200)
    expectError(await write(author, v.key), 403, 'banned')
    expectError(await write(onW, v.key), 403, 'banned')
    assert.equal((await write(author)).status, 201, 'keyless, no venue claimed: not on v')
    assert.equal((await write(onW)).status, 201, "keyless, on w's session: not on v")
    assert.equal((await write(author, w.key)).status, 201, "w's key: not on v")

    const target = await write(await signIn(s), w.key)
    const reporter = await signIn(s)
    const rep = await call(s, 'POST', `/v1/social/posts/${target.body.post.id}/reports`, { token: reporter.token, key: v.key, body: { reason: 'spam' } })
    assert.equal(rep.status, 200, JSON.stringify(rep.body))
    const inQueue = async (owner: TestUser, venueId: string) =>
      (await queue(s, owner, `venueId=${venueId}`)).body.items.some((i: { post: { id: string } }) => i.post.id === target.body.post.id)
    assert.equal(await inQueue(v.owner, v.venueId), true, "the key's venue's queue")
    assert.equal(await inQueue(w.owner, w.venueId), false)
  })

  it('§2.6 "private-room posts never reach take counts, the global feed, or an outsider"', async () => {
    const v = await claimVenue(s)
    const m = await addMarket(s)
    const priv = await createRoom(s, v, { visibility: 'private' })
    const member = await signIn(s, undefined, v.venueId)
    await call(s, 'PUT', `/v1/rooms/${priv}/members/${member.wallet}`, { token: v.owner.token })
    await s.chain.setPosition(member.wallet, m.id, 1, 5n)
    const p = await call(s, 'POST', '/v1/social/posts', { token: member.token, body: { subjectType: 'event', subjectRef: m.id, body: 'inside', room: priv } })
    assert.equal(p.status, 201)
    const id = p.body.post.id
    assert.deepEqual(await takeCount(m.id), { posts: 0, takes: 0, bySide: {} })
    assert.ok(!(await feedIds()).includes(id))
    assert.ok(!(await feedIds(member.token)).includes(id), 'the global feed never carries private-room posts')
    const outsider = await signIn(s, undefined, v.venueId)
    assert.ok(!(await marketThread(m.id, outsider.token)).some((x) => x.id === id))
    assert.ok(!(await marketThread(m.id)).some((x) => x.id === id))
    assert.ok(!(await profileIds(member.wallet, outsider.token)).includes(id))
    // The member reads it in the room.
    const inRoom = await call(s, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${m.id}&room=${priv}`, { token: member.token })
    assert.ok(inRoom.body.posts.some((x: { id: string }) => x.id === id))
  })
})
