/** §7 private rooms: readable by whoever `resolveRoom` admits (members, the venue's owner, operators); 404 for outsiders. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { call, expectError, newWallet, signIn, startTestService, type TestService } from '../helpers/service.ts'
import { claimVenue, createRoom, post } from '../helpers/venues.ts'

let svc: TestService
const operatorAccount = newWallet()
before(async () => {
  svc = await startTestService({ operators: [operatorAccount.address] })
})
after(() => svc.close())

describe('private rooms', () => {
  it('an operator who is not a member reads a private room\'s thread and feed and sees its posts; an outsider gets 404, never 403', async () => {
    const v = await claimVenue(svc)
    const roomId = await createRoom(svc, v, { subjectType: 'topic', subjectRef: 'inner-circle', visibility: 'private' })
    const member = await signIn(svc)
    assert.equal((await call(svc, 'PUT', `/v1/rooms/${roomId}/members/${member.wallet}`, { token: v.owner.token })).status < 300, true)
    const p = await post(svc, member, { subjectType: 'topic', subjectRef: 'inner-circle', body: 'members only', room: roomId })
    assert.equal(p.status, 201, JSON.stringify(p.body))

    const operator = await signIn(svc, operatorAccount)
    const thread = await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=inner-circle&room=${roomId}`, { token: operator.token })
    assert.equal(thread.status, 200)
    assert.deepEqual(thread.body.posts.map((x: any) => x.id), [p.body.post.id])
    const feed = await call(svc, 'GET', `/v1/social/posts/feed?room=${roomId}`, { token: operator.token })
    assert.equal(feed.status, 200)
    assert.deepEqual(feed.body.posts.map((x: any) => x.id), [p.body.post.id])

    const outsider = await signIn(svc)
    expectError(await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=inner-circle&room=${roomId}`, { token: outsider.token }), 404, 'room-not-found')
    expectError(await call(svc, 'GET', `/v1/social/posts/feed?room=${roomId}`, { token: outsider.token }), 404, 'room-not-found')
    // Without `room`, the private post never reaches an outsider's thread or the global feed.
    const open = await call(svc, 'GET', '/v1/social/posts?subjectType=topic&subjectRef=inner-circle', { token: outsider.token })
    assert.equal(open.body.posts.length, 0)
    const global = await call(svc, 'GET', '/v1/social/posts/feed', { token: member.token })
    assert.equal(global.body.posts.some((x: any) => x.id === p.body.post.id), false)
  })
})
