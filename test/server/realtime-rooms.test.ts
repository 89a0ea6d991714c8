/**
 * §6.1 "fires when the thread changes" inside rooms, and §7's private room "not confirmed" to outsiders: a
 * room's threads have their own topics (`room:<roomId>:thread:…`). A private room's changes go out only
 * there, and only a session that may read the room (member, the venue's owner, operator) may follow them; it
 * is asked again before every delivery. Real service, real `ws` sockets, real writes over HTTP.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { PATHS, privateRoomChangeTopic, roomThreadTopic, threadTopic } from '../../src/contract/paths.ts'
import type { StreamServerMessage } from '../../src/contract/types.ts'
import { GATE_RETRY_MS, Hub } from '../../src/server/realtime/hub.ts'
import { callerOfToken, callersOfTokens } from '../../src/server/auth/session.ts'
import { ApiError } from '../../src/server/http/errors.ts'
import { resolveRoom } from '../../src/server/services/rooms.ts'
import { streamGate } from '../../src/server/services/stream-gate.ts'
import type { RequestVenue } from '../../src/server/services/venue-of-request.ts'
import type { KyselyPlugin } from 'kysely'
import { MemoryPubSub, type PubSub } from '../../src/server/realtime/pubsub.ts'
import { addMarket, call, newWallet, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'
import { StreamClient } from '../helpers/stream.ts'
import { claimVenue, createRoom, type Venue } from '../helpers/venues.ts'

let svc: TestService
const operatorWallet = newWallet()
before(async () => {
  svc = await startTestService({ operators: [operatorWallet.address] })
})
after(() => svc.close())

const open: StreamClient[] = []
after(() => {
  for (const c of open) c.close()
})
async function client() {
  const c = await StreamClient.open(svc.streamUrl)
  open.push(c)
  return c
}

/** Subscribes with an optional session token; resolves with the hub's answer. */
async function ask(c: StreamClient, topic: string, token?: string) {
  c.send({ type: 'subscribe', topic, ...(token ? { token } : {}) })
  return c.next()
}
const refusedAnswer = (topic: string) => ({ type: 'error', code: 'room-not-found', message: 'no room with this id, or this session may not follow it', topic })

async function write(method: string, path: string, user: TestUser, body?: unknown) {
  const r = await call(svc, method, path, { token: user.token, body })
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body
}

/** A venue with a private room holding two members, and a market. */
async function privateRoom(): Promise<{ v: Venue; room: string; a: TestUser; b: TestUser; m: { id: string }; topic: string }> {
  const v = await claimVenue(svc)
  const room = await createRoom(svc, v, { subjectType: 'topic', visibility: 'private', title: 'Inner' })
  const [a, b] = [await signIn(svc, undefined, v.venueId), await signIn(svc, undefined, v.venueId)]
  for (const u of [a, b]) await write('PUT', `/v1/rooms/${room}/members/${u.wallet}`, v.owner)
  const m = await addMarket(svc)
  return { v, room, a, b, m, topic: roomThreadTopic(room, 'event', m.id) }
}

/** Nothing arrived on `c` for the watched topic: a change on a sentinel public thread (also followed) comes first. */
async function expectQuiet(c: StreamClient, sentinel: string, author: TestUser) {
  await write('POST', PATHS.posts, author, { subjectType: 'topic', subjectRef: sentinel, body: 'sentinel' })
  assert.deepEqual(await c.next(), { type: 'changed', topic: threadTopic('topic', sentinel) })
}

describe('realtime: room topics', () => {
  it('§6.1 "fires when the thread changes" in a private room: a member following room:<id>:thread:… with their session hears each change (post, reply, agree, edit, venue hide, ban, delete) once, and the public topic hears none', async () => {
    const { v, room, a, b, m, topic } = await privateRoom()
    const member = await client()
    assert.deepEqual(await ask(member, topic, b.token), { type: 'subscribed', topic })
    await member.subscribe(threadTopic('topic', 'sentinel-room'))
    const outsider = await client()
    await outsider.subscribe(threadTopic('event', m.id))
    await outsider.subscribe(threadTopic('topic', 'sentinel-room'))

    const top = await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'members only', room })
    const id = top.post.id as string
    assert.deepEqual(await member.next(), { type: 'changed', topic }, 'post')
    const steps: [string, () => Promise<unknown>][] = [
      ['reply', () => write('POST', PATHS.posts, b, { subjectType: 'event', subjectRef: m.id, body: 'a reply', parentId: id })],
      ['agree', () => write('POST', PATHS.react(id), b, { kind: 'agree', active: true })],
      ['edit', () => write('PATCH', PATHS.post(id), a, { body: 'members only, edited' })],
      ['venue hide', () => write('POST', '/v1/mod/hide', v.owner, { venueId: v.venueId, postId: id })],
      ['ban', () => write('POST', '/v1/mod/ban', v.owner, { venueId: v.venueId, wallet: a.wallet })],
      ['delete', () => write('DELETE', PATHS.post(id), a)],
    ]
    for (const [name, step] of steps) {
      await step()
      assert.deepEqual(await member.next(), { type: 'changed', topic }, name)
    }
    // Nothing more on either socket: the sentinel's change is next on both.
    await expectQuiet(outsider, 'sentinel-room', b)
    assert.deepEqual(await member.next(), { type: 'changed', topic: threadTopic('topic', 'sentinel-room') }, 'each change fired once')
  })

  it('§2.7 and §7 a private room\'s post on a recurring market fires its series topic in the room only: a member following room:<id>:thread:series:<ref> hears it, the public series topic hears nothing', async () => {
    const v = await claimVenue(svc)
    const room = await createRoom(svc, v, { subjectType: 'topic', visibility: 'private', title: 'Inner series' })
    const a = await signIn(svc, undefined, v.venueId)
    await write('PUT', `/v1/rooms/${room}/members/${a.wallet}`, v.owner)
    const seriesRef = `room-series-${Date.now()}`
    const m = await addMarket(svc, { series: seriesRef })
    const inRoom = roomThreadTopic(room, 'series', seriesRef)
    const member = await client()
    assert.deepEqual(await ask(member, inRoom, a.token), { type: 'subscribed', topic: inRoom })
    const outsider = await client()
    await outsider.subscribe(threadTopic('series', seriesRef))
    await outsider.subscribe(threadTopic('topic', 'sentinel-room-series'))
    await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'members only, on a round', room })
    assert.deepEqual(await member.next(), { type: 'changed', topic: inRoom })
    await expectQuiet(outsider, 'sentinel-room-series', a)
  })

  it('§6.1 and §3.1 in a private room, moderation changes fire on its topic too: pin, reports reaching the threshold, platform removal and restore', async () => {
    const { v, room, a, b, m, topic } = await privateRoom()
    const more = [await signIn(svc, undefined, v.venueId), await signIn(svc, undefined, v.venueId)]
    for (const u of more) await write('PUT', `/v1/rooms/${room}/members/${u.wallet}`, v.owner)
    const operator = await signIn(svc, operatorWallet)
    const member = await client()
    assert.deepEqual(await ask(member, topic, b.token), { type: 'subscribed', topic })
    const id = (await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'to be moderated', room })).post.id as string
    assert.deepEqual(await member.next(), { type: 'changed', topic }, 'post')
    await write('POST', '/v1/mod/pin', v.owner, { venueId: v.venueId, postId: id })
    assert.deepEqual(await member.next(), { type: 'changed', topic }, 'pin')
    for (const u of [b, ...more]) await write('POST', PATHS.report(id), u, { reason: 'spam' })
    assert.deepEqual(await member.next(), { type: 'changed', topic }, 'the third report hides it')
    await write('POST', '/v1/mod/remove', operator, { postId: id })
    assert.deepEqual(await member.next(), { type: 'changed', topic }, 'platform removal')
    await write('POST', '/v1/mod/restore', operator, { postId: id })
    assert.deepEqual(await member.next(), { type: 'changed', topic }, 'restore')
  })

  it('§6.1 "fires when the thread changes", and only then: on a public thread each moderation action that changes a read fires once; settling reports, a platform ban (it stops writing, not reading) and an action that finds the post as asked already fire nothing', async () => {
    const v = await claimVenue(svc)
    const [a, b] = [await signIn(svc, undefined, v.venueId), await signIn(svc, undefined, v.venueId)]
    const operator = await signIn(svc, operatorWallet)
    const m = await addMarket(svc)
    const topic = threadTopic('event', m.id)
    const c = await client()
    await c.subscribe(topic)
    await c.subscribe(threadTopic('topic', 'sentinel-mod'))
    const id = (await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'to be moderated' })).post.id as string
    assert.deepEqual(await c.next(), { type: 'changed', topic }, 'post')
    const venue = { venueId: v.venueId, postId: id }
    const steps: [string, boolean, () => Promise<unknown>][] = [
      ['venue hide', true, () => write('POST', '/v1/mod/hide', v.owner, venue)],
      ['venue hide again', false, () => write('POST', '/v1/mod/hide', v.owner, venue)],
      ['venue restore', true, () => write('POST', '/v1/mod/restore', v.owner, venue)],
      ['venue restore again', false, () => write('POST', '/v1/mod/restore', v.owner, venue)],
      ['venue keep of a shown post', false, () => write('POST', '/v1/mod/keep', v.owner, venue)],
      ['a report below the threshold', false, () => write('POST', PATHS.report(id), b, { reason: 'spam' })],
      ['venue clear', false, () => write('POST', '/v1/mod/clear', v.owner, venue)],
      ['platform clear', false, () => write('POST', '/v1/mod/clear', operator, { postId: id })],
      ['pin', true, () => write('POST', '/v1/mod/pin', operator, { postId: id })],
      ['unpin', true, () => write('POST', '/v1/mod/pin', operator, { postId: id, pinned: false })],
      ['unpin again', false, () => write('POST', '/v1/mod/pin', operator, { postId: id, pinned: false })],
      ['platform keep of a shown post', false, () => write('POST', '/v1/mod/keep', operator, { postId: id })],
      ['platform remove', true, () => write('POST', '/v1/mod/remove', operator, { postId: id })],
      ['platform remove again', false, () => write('POST', '/v1/mod/remove', operator, { postId: id })],
      ['platform restore', true, () => write('POST', '/v1/mod/restore', operator, { postId: id })],
      ['platform restore again', false, () => write('POST', '/v1/mod/restore', operator, { postId: id })],
      ['platform hide (a removal)', true, () => write('POST', '/v1/mod/hide', operator, { postId: id })],
      ['platform hide again', false, () => write('POST', '/v1/mod/hide', operator, { postId: id })],
      ['platform restore after the hide', true, () => write('POST', '/v1/mod/restore', operator, { postId: id })],
      ['platform ban', false, () => write('POST', '/v1/mod/ban', operator, { wallet: a.wallet })],
      ['platform unban', false, () => write('POST', '/v1/mod/unban', operator, { wallet: a.wallet })],
      ['venue ban', true, () => write('POST', '/v1/mod/ban', v.owner, { venueId: v.venueId, wallet: a.wallet })],
      ['venue ban again', false, () => write('POST', '/v1/mod/ban', v.owner, { venueId: v.venueId, wallet: a.wallet })],
      ['venue unban', true, () => write('POST', '/v1/mod/unban', v.owner, { venueId: v.venueId, wallet: a.wallet })],
      ['venue unban again', false, () => write('POST', '/v1/mod/unban', v.owner, { venueId: v.venueId, wallet: a.wallet })],
    ]
    for (const [name, fires, step] of steps) {
      await step()
      if (fires) assert.deepEqual(await c.next(), { type: 'changed', topic }, name)
      else {
        await write('POST', PATHS.posts, b, { subjectType: 'topic', subjectRef: 'sentinel-mod', body: 'sentinel' })
        assert.deepEqual(await c.next(), { type: 'changed', topic: threadTopic('topic', 'sentinel-mod') }, `${name}: nothing fired`)
      }
    }
  })

  it('§7 a private room is "not confirmed" to outsiders: signed out, a bad token, a signed-in non-member and a member of another room are refused with the answer a room that does not exist gets; the venue\'s owner and an operator may follow it', async () => {
    const { v, topic, m } = await privateRoom()
    const other = await privateRoom()
    const stranger = await signIn(svc)
    const c = await client()
    assert.deepEqual(await ask(c, topic), refusedAnswer(topic), 'signed out')
    assert.deepEqual(await ask(c, topic, `vks_${'0'.repeat(64)}`), refusedAnswer(topic), 'unknown token')
    assert.deepEqual(await ask(c, topic, 'not a token'), refusedAnswer(topic), 'malformed token')
    assert.deepEqual(await ask(c, topic, stranger.token), refusedAnswer(topic), 'non-member')
    assert.deepEqual(await ask(c, topic, other.a.token), refusedAnswer(topic), "another room's member")
    const nowhere = roomThreadTopic('r_doesnotexist', 'event', m.id)
    assert.deepEqual(await ask(c, nowhere, stranger.token), refusedAnswer(nowhere), 'no such room: the same answer')
    assert.deepEqual(await ask(c, topic, v.owner.token), { type: 'subscribed', topic }, "the venue's owner")
    const op = await client()
    assert.deepEqual(await ask(op, topic, (await signIn(svc, operatorWallet)).token), { type: 'subscribed', topic }, 'an operator')
    await c.ping()
    assert.equal(c.closed, null, 'a refusal leaves the socket open')
  })

  it('§7 the gate looks at an unknown room with the same statements as at a private room it refuses, and so does a read of a room (the time of the answer confirms nothing either)', async () => {
    const { room } = await privateRoom()
    const stranger = await signIn(svc)
    const counting = () => {
      let n = 0
      const plugin: KyselyPlugin = { transformQuery: (a) => (n++, a.node), transformResult: async (a) => a.result }
      return { ctx: { ...svc.ctx, db: svc.ctx.db.withPlugin(plugin) }, count: () => n }
    }
    const statements = async (id: string) => {
      const gate = counting()
      assert.deepEqual(await streamGate(gate.ctx)(roomThreadTopic(id, 'topic', 'chatter'), [stranger.token, null]), [false, false])
      const read = counting()
      const caller = await callerOfToken(svc.ctx, stranger.token)
      await assert.rejects(resolveRoom(read.ctx, id, { venueId: null, keyed: false, scopes: [] } satisfies RequestVenue, caller), (e: unknown) => e instanceof ApiError && e.status === 404)
      return [gate.count(), read.count()]
    }
    const [known, unknown] = [await statements(room), await statements('r_nosuchroom')]
    assert.deepEqual(unknown, known)
    assert.ok(known[0] >= 3, `the gate read the room, the sessions and the membership (${known[0]} statements)`)
  })

  it('the gate reads any number of sessions at once: 70,000 tokens (more parameters than one PostgreSQL statement carries) find the one real session among them', async () => {
    const u = await signIn(svc)
    const tokens = Array.from({ length: 70_000 }, (_, i) => `vks_${i.toString(16).padStart(64, '0')}`)
    tokens[54_321] = u.token
    const callers = await callersOfTokens(svc.ctx, tokens)
    assert.deepEqual([...callers.keys()], [u.token])
    assert.equal(callers.get(u.token)!.wallet, u.wallet)
  })

  it('a member who leaves, or signs out, hears no more, and is not told (an answer then would say the room was active)', async () => {
    const { v, room, a, b, m, topic } = await privateRoom()
    const leaver = await client()
    const signer = await client()
    const second = await signIn(svc, undefined, v.venueId)
    await write('PUT', `/v1/rooms/${room}/members/${second.wallet}`, v.owner)
    assert.deepEqual(await ask(leaver, topic, b.token), { type: 'subscribed', topic })
    assert.deepEqual(await ask(signer, topic, second.token), { type: 'subscribed', topic })
    await leaver.subscribe(threadTopic('topic', 'sentinel-left'))
    await signer.subscribe(threadTopic('topic', 'sentinel-left'))

    await write('POST', `/v1/rooms/${room}/leave`, b)
    await write('POST', PATHS.authSignOut, second)
    await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'after they left', room })
    await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'and again', room })
    // Nothing on either socket: the sentinel's change is next on both.
    await expectQuiet(leaver, 'sentinel-left', a)
    assert.deepEqual(await signer.next(), { type: 'changed', topic: threadTopic('topic', 'sentinel-left') })
  })

  it('a member who leaves and is let back in hears the room again at its next change, on the same socket, without subscribing again', async () => {
    const { v, room, a, b, m, topic } = await privateRoom()
    const c = await client()
    assert.deepEqual(await ask(c, topic, b.token), { type: 'subscribed', topic })
    await c.subscribe(threadTopic('topic', 'sentinel-back'))
    await write('POST', `/v1/rooms/${room}/leave`, b)
    await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'while they were out', room })
    await expectQuiet(c, 'sentinel-back', a)
    await write('PUT', `/v1/rooms/${room}/members/${b.wallet}`, v.owner)
    await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'welcome back', room })
    assert.deepEqual(await c.next(), { type: 'changed', topic })
  })

  it('§6.1 "fires when the thread changes" on the plain thread for a private room\'s members, whom that thread shows the room\'s posts: a member following thread:… with their session hears each change of the room once (post, reply, agree, edit, delete); signed out, a bad token and a signed-in non-member hear none', async () => {
    const { room, a, b, m } = await privateRoom()
    const plain = threadTopic('event', m.id)
    const member = await client()
    assert.deepEqual(await ask(member, plain, b.token), { type: 'subscribed', topic: plain })
    await member.subscribe(threadTopic('topic', 'sentinel-plain'))
    const outsiders = [await client(), await client(), await client()]
    const stranger = await signIn(svc)
    for (const [c, token] of [[outsiders[0], undefined], [outsiders[1], `vks_${'0'.repeat(64)}`], [outsiders[2], stranger.token]] as const) {
      assert.deepEqual(await ask(c, plain, token), { type: 'subscribed', topic: plain })
      await c.subscribe(threadTopic('topic', 'sentinel-plain'))
    }

    const id = (await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'members only', room })).post.id as string
    assert.deepEqual(await member.next(), { type: 'changed', topic: plain }, 'post')
    // What it heard is a change it can read: the plain thread shows the member the room's post.
    const read = await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}`, { token: b.token })
    assert.deepEqual(
      read.body.posts.map((p: { id: string }) => p.id),
      [id],
    )
    const steps: [string, () => Promise<unknown>][] = [
      ['reply', () => write('POST', PATHS.posts, b, { subjectType: 'event', subjectRef: m.id, body: 'a reply', parentId: id })],
      ['agree', () => write('POST', PATHS.react(id), b, { kind: 'agree', active: true })],
      ['edit', () => write('PATCH', PATHS.post(id), a, { body: 'members only, edited' })],
      ['delete', () => write('DELETE', PATHS.post(id), a)],
    ]
    for (const [name, step] of steps) {
      await step()
      assert.deepEqual(await member.next(), { type: 'changed', topic: plain }, name)
    }
    for (const c of outsiders) await expectQuiet(c, 'sentinel-plain', b)
    assert.deepEqual(await member.next(), { type: 'changed', topic: threadTopic('topic', 'sentinel-plain') }, 'each change fired once')
  })

  it('§6.1 a member added to a private room hears the plain threads that now show them its posts change; outsiders hear nothing, and adding a member again fires nothing', async () => {
    const { v, room, a, b, m } = await privateRoom()
    const plain = threadTopic('event', m.id)
    await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'before you came', room })
    const newcomer = await signIn(svc, undefined, v.venueId)
    const joining = await client()
    assert.deepEqual(await ask(joining, plain, newcomer.token), { type: 'subscribed', topic: plain })
    await joining.subscribe(threadTopic('topic', 'sentinel-added'))
    const outsider = await client()
    assert.deepEqual(await ask(outsider, plain, (await signIn(svc)).token), { type: 'subscribed', topic: plain })
    await outsider.subscribe(threadTopic('topic', 'sentinel-added'))
    const before = await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}`, { token: newcomer.token })
    assert.equal(before.body.posts.length, 0)

    await write('PUT', `/v1/rooms/${room}/members/${newcomer.wallet}`, v.owner)
    assert.deepEqual(await joining.next(), { type: 'changed', topic: plain }, 'the new member')
    const after = await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}`, { token: newcomer.token })
    assert.equal(after.body.posts.length, 1, 'what changed: the room\'s post now shows')
    await expectQuiet(outsider, 'sentinel-added', b)
    await write('PUT', `/v1/rooms/${room}/members/${newcomer.wallet}`, v.owner)
    await expectQuiet(joining, 'sentinel-added', b)
  })

  it('§6.1 on the plain thread a private room\'s change follows the session: a member who leaves hears no more; one who signs in on a socket already following the thread hears the room from then on', async () => {
    const { v, room, a, b, m } = await privateRoom()
    const plain = threadTopic('event', m.id)
    const leaver = await client()
    assert.deepEqual(await ask(leaver, plain, b.token), { type: 'subscribed', topic: plain })
    await leaver.subscribe(threadTopic('topic', 'sentinel-plain-left'))
    await write('POST', `/v1/rooms/${room}/leave`, b)
    await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'after they left', room })
    await expectQuiet(leaver, 'sentinel-plain-left', a)

    const late = await signIn(svc, undefined, v.venueId)
    await write('PUT', `/v1/rooms/${room}/members/${late.wallet}`, v.owner)
    const c = await client()
    assert.deepEqual(await ask(c, plain), { type: 'subscribed', topic: plain }, 'signed out at first')
    await c.subscribe(threadTopic('topic', 'sentinel-plain-late'))
    await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'not heard yet', room })
    await expectQuiet(c, 'sentinel-plain-late', a)
    // The SDK subscribes again with the new session (stream.resubscribe); from then on it hears the room.
    assert.deepEqual(await ask(c, plain, late.token), { type: 'subscribed', topic: plain }, 'signed in')
    await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'heard', room })
    assert.deepEqual(await c.next(), { type: 'changed', topic: plain })
  })

  it('§6.1 a public room\'s topic is open to anyone, signed out included, and fires for the room\'s posts', async () => {
    const v = await claimVenue(svc)
    const room = await createRoom(svc, v, { subjectType: 'topic' })
    const m = await addMarket(svc)
    const topic = roomThreadTopic(room, 'event', m.id)
    const c = await client()
    assert.deepEqual(await ask(c, topic), { type: 'subscribed', topic })
    await write('POST', PATHS.posts, v.owner, { subjectType: 'event', subjectRef: m.id, body: 'in the public room', room })
    assert.deepEqual(await c.next(), { type: 'changed', topic })
  })

  it('§6.1 the market resolving fires every room\'s thread on it, a private room\'s for its members', async () => {
    const { room, a, m, topic } = await privateRoom()
    await write('POST', PATHS.posts, a, { subjectType: 'event', subjectRef: m.id, body: 'a take in the room', room })
    const c = await client()
    assert.deepEqual(await ask(c, topic, a.token), { type: 'subscribed', topic })
    await svc.chain.resolve(m.id, 0)
    assert.deepEqual(await c.next(), { type: 'changed', topic })
  })

  it('a thread read in a room names the room (roomId, `self` resolved), which is what a client follows', async () => {
    const { v, room, a, m } = await privateRoom()
    const page = await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}&room=${room}`, { token: a.token })
    assert.equal(page.status, 200)
    assert.equal(page.body.roomId, room)
    const self = await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}&room=self`, { key: v.key })
    assert.equal(self.body.roomId, v.selfRoomId)
    assert.equal((await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}`)).body.roomId, null)
  })
})

describe('realtime: the hub tells a new subscriber of a recent change (REPLAY_MS)', () => {
  const plain = threadTopic('event', '0x' + 'ab'.repeat(32))
  const inRoom = roomThreadTopic('r_abc', 'event', '0x' + 'ab'.repeat(32))
  const privateChange = privateRoomChangeTopic('r_abc', 'event', '0x' + 'ab'.repeat(32))
  /** A hub with a short window, whose gate admits only 'vks_member' (recording each ask), and a socket factory. */
  function hubWithWindow(replayMs: number) {
    const bus = new MemoryPubSub()
    const asks: [string, (string | null)[]][] = []
    const hub = new Hub(bus, async (topic, tokens) => (asks.push([topic, tokens]), tokens.map((t) => t === 'vks_member')), replayMs)
    const socket = (token?: string) => {
      const sent: StreamServerMessage[] = []
      const h = hub.attach({ send: (t: string) => void sent.push(JSON.parse(t)), close() {} })
      return { sent, subscribe: (topic: string) => h.onMessage(JSON.stringify({ type: 'subscribe', topic, ...(token ? { token } : {}) })) }
    }
    const settle = () => new Promise((r) => setTimeout(r, 5))
    return { hub, bus, asks, socket, settle }
  }

  it('a quiet hub forgets a burst once its window has passed, with no publish after it; a close forgets at once', async () => {
    const { hub, bus } = hubWithWindow(30)
    const remembered = () => (hub as unknown as { recent: Map<string, unknown> }).recent.size
    for (let i = 0; i < 50; i++) await bus.publish(threadTopic('event', `0x${i.toString(16).padStart(64, '0')}`))
    assert.equal(remembered(), 50, 'each changed topic, within the window')
    await new Promise((r) => setTimeout(r, 120))
    assert.equal(remembered(), 0, 'forgotten with no publish since')
    await bus.publish(plain)
    assert.equal(remembered(), 1)
    hub.close()
    assert.equal(remembered(), 0, 'closed')
  })

  it('a change older than the window is not told again: a subscriber after it hears "subscribed" alone', async () => {
    const { bus, socket, settle } = hubWithWindow(40)
    await bus.publish(plain)
    const early = socket()
    early.subscribe(plain)
    await settle()
    assert.deepEqual(early.sent, [{ type: 'subscribed', topic: plain }, { type: 'changed', topic: plain }], 'within the window')
    await new Promise((r) => setTimeout(r, 60))
    const late = socket()
    late.subscribe(plain)
    await settle()
    assert.deepEqual(late.sent, [{ type: 'subscribed', topic: plain }], 'after it')
  })

  it('§7 a private room\'s recent change is told, on the plain thread, only to a session the gate admits to that room; an outsider and a signed-out reader hear "subscribed" alone, and the signed-out one is not even asked for', async () => {
    const { bus, asks, socket, settle } = hubWithWindow(10_000)
    await bus.publish(privateChange)
    await settle()
    asks.length = 0
    const member = socket('vks_member')
    const outsider = socket('vks_outsider')
    const signedOut = socket()
    for (const s of [member, outsider, signedOut]) s.subscribe(plain)
    await settle()
    assert.deepEqual(member.sent, [{ type: 'subscribed', topic: plain }, { type: 'changed', topic: plain }])
    assert.deepEqual(outsider.sent, [{ type: 'subscribed', topic: plain }])
    assert.deepEqual(signedOut.sent, [{ type: 'subscribed', topic: plain }])
    assert.deepEqual(asks, [[privateChange, ['vks_member']], [privateChange, ['vks_outsider']]], 'asked with the private change, for each session')
    // The room's own topic: its subscribe passes the gate, and then the recent change is told.
    const roomMember = socket('vks_member')
    roomMember.subscribe(inRoom)
    const roomOutsider = socket('vks_outsider')
    roomOutsider.subscribe(inRoom)
    await settle()
    assert.deepEqual(roomMember.sent, [{ type: 'subscribed', topic: inRoom }, { type: 'changed', topic: inRoom }])
    assert.deepEqual(roomOutsider.sent, [refusedAnswer(inRoom)])
  })
})

describe('realtime: the hub waiting on the gate', () => {
  /** A hub whose gate answers when the test says, and a socket that records what it is sent. */
  function gatedHub() {
    const answers: { topic: string; token: string | null; resolve: (ok: boolean) => void; reject: (e: Error) => void }[] = []
    const bus = new MemoryPubSub()
    // One socket, so each gate call asks for one token.
    const hub = new Hub(bus, (topic, [token]) => new Promise<boolean[]>((resolve, reject) => answers.push({ topic, token, resolve: (ok) => resolve([ok]), reject })))
    const sent: StreamServerMessage[] = []
    const socket = { send: (t: string) => void sent.push(JSON.parse(t)), close() {} }
    const h = hub.attach(socket)
    const flush = () => new Promise((r) => setImmediate(r))
    return { hub, bus, answers, sent, h, flush }
  }
  const topic = roomThreadTopic('r_abc', 'topic', 'chatter')

  it('a subscription unsubscribed while the gate is answering is not followed, and no "subscribed" is sent', async () => {
    const { bus, answers, sent, h, flush } = gatedHub()
    h.onMessage(JSON.stringify({ type: 'subscribe', topic, token: 'vks_x' }))
    await flush()
    assert.deepEqual(answers.map((a) => [a.topic, a.token]), [[topic, 'vks_x']])
    h.onMessage(JSON.stringify({ type: 'unsubscribe', topic }))
    answers[0].resolve(true)
    await flush()
    await bus.publish(topic)
    await flush()
    assert.deepEqual(sent, [])
  })

  it('a socket\'s room subscribes pass the gate one after another: twenty at once are all answered, none refused for waiting', async () => {
    const { answers, sent, h, flush } = gatedHub()
    const topics = Array.from({ length: 20 }, (_, i) => roomThreadTopic(`r_${i}`, 'topic', 'chatter'))
    for (const t of topics) h.onMessage(JSON.stringify({ type: 'subscribe', topic: t }))
    for (const t of topics) {
      await flush()
      assert.deepEqual(
        answers.map((a) => a.topic),
        [t],
        'one at a time',
      )
      answers.shift()!.resolve(true)
    }
    await flush()
    assert.deepEqual(
      sent,
      topics.map((t) => ({ type: 'subscribed', topic: t })),
    )
  })

  it(`a gate that fails (the database away) is asked again (after ${GATE_RETRY_MS.join(', ')} ms) and logged; a subscribe it then admits is followed; one it never answers is 'stream-unavailable'`, async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] })
    const logged = t.mock.method(console, 'error', () => {})
    const { answers, sent, h, flush } = gatedHub()
    h.onMessage(JSON.stringify({ type: 'subscribe', topic }))
    await flush()
    answers.shift()!.reject(new Error('connection refused'))
    await flush()
    assert.deepEqual(sent, [])
    assert.ok(logged.mock.calls.some((c) => /\[venuekit\] stream gate failed/.test(String(c.arguments[0]))), 'logged')
    t.mock.timers.tick(GATE_RETRY_MS[0])
    await flush()
    answers.shift()!.resolve(true)
    await flush()
    assert.deepEqual(sent.splice(0), [{ type: 'subscribed', topic }])

    const other = roomThreadTopic('r_other', 'topic', 'chatter')
    h.onMessage(JSON.stringify({ type: 'subscribe', topic: other }))
    for (let i = 0; i <= GATE_RETRY_MS.length; i++) {
      await flush()
      answers.shift()!.reject(new Error('connection refused'))
      await flush()
      if (i < GATE_RETRY_MS.length) t.mock.timers.tick(GATE_RETRY_MS[i])
    }
    await flush()
    assert.deepEqual(sent, [{ type: 'error', code: 'stream-unavailable', message: 'this room could not be checked now; subscribe again later', topic: other }])
  })

  it('a followed room topic asked again with another session (an account switch) stops hearing with the old one at once', async () => {
    const { bus, answers, sent, h, flush } = gatedHub()
    h.onMessage(JSON.stringify({ type: 'subscribe', topic, token: 'vks_a' }))
    await flush()
    answers.shift()!.resolve(true)
    await flush()
    sent.length = 0
    h.onMessage(JSON.stringify({ type: 'subscribe', topic, token: 'vks_b' }))
    await bus.publish(topic)
    await flush()
    assert.deepEqual(
      answers.map((a) => a.token),
      ['vks_b'],
      'only the new session is asked; the change is not delivered meanwhile',
    )
    answers.shift()!.resolve(false)
    await flush()
    assert.deepEqual(sent, [refusedAnswer(topic)])
  })

  it('a failing gate at a delivery keeps the subscriptions: it is asked again a second later, and the change then delivered', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] })
    t.mock.method(console, 'error', () => {})
    const { bus, answers, sent, h, flush } = gatedHub()
    h.onMessage(JSON.stringify({ type: 'subscribe', topic, token: 'vks_y' }))
    await flush()
    answers.shift()!.resolve(true)
    await flush()
    sent.length = 0
    await bus.publish(topic)
    answers.shift()!.reject(new Error('connection refused'))
    await flush()
    t.mock.timers.tick(GATE_RETRY_MS[0])
    answers.shift()!.resolve(true)
    await flush()
    assert.deepEqual(sent, [{ type: 'changed', topic }])
  })

  it('a delivery asks the gate once for every subscriber of the instance, with each one\'s token, and acts on each answer', async () => {
    const calls: (string | null)[][] = []
    let answer: boolean[] = []
    const bus = new MemoryPubSub()
    const hub = new Hub(bus, async (_topic, tokens) => (calls.push(tokens), answer.length ? answer : tokens.map(() => true)))
    const sockets = ['vks_1', 'vks_2', null].map((token) => {
      const sent: StreamServerMessage[] = []
      const h = hub.attach({ send: (t: string) => void sent.push(JSON.parse(t)), close() {} })
      h.onMessage(JSON.stringify({ type: 'subscribe', topic, ...(token ? { token } : {}) }))
      return sent
    })
    await new Promise((r) => setTimeout(r, 0))
    calls.length = 0
    answer = [true, false, true]
    await bus.publish(topic)
    await new Promise((r) => setTimeout(r, 0))
    assert.deepEqual(calls, [['vks_1', 'vks_2', null]], 'one call')
    assert.deepEqual(
      sockets.map((sent) => sent.slice(1)),
      [[{ type: 'changed', topic }], [], [{ type: 'changed', topic }]],
    )
  })

  it('delivery asks the gate again: a change reaches the socket only once the gate allows it at that moment', async () => {
    const { bus, answers, sent, h, flush } = gatedHub()
    h.onMessage(JSON.stringify({ type: 'subscribe', topic, token: 'vks_y' }))
    await flush()
    answers.shift()!.resolve(true)
    await flush()
    assert.deepEqual(sent.splice(0), [{ type: 'subscribed', topic }])
    await bus.publish(topic)
    assert.deepEqual(sent, [], 'held until the gate answers')
    assert.equal(answers[0].token, 'vks_y', 'with the token it subscribed with')
    answers.shift()!.resolve(true)
    await flush()
    assert.deepEqual(sent.splice(0), [{ type: 'changed', topic }])
    await bus.publish(topic)
    answers.shift()!.resolve(false)
    await flush()
    assert.deepEqual(sent.splice(0), [], 'refused at a delivery: skipped without a word')
    await bus.publish(topic)
    await flush()
    assert.equal(answers[0]?.token, 'vks_y', 'still followed: the next change asks the gate again, with the same token')
    answers.shift()!.resolve(true)
    await flush()
    assert.deepEqual(sent.splice(0), [{ type: 'changed', topic }], 'allowed again (a member who rejoined): delivered')
  })

  it('§6.1 after the bus lost events (its connection dropped and is back), every followed topic hears one change: a plain thread at once, a room topic only through the gate', async () => {
    const mem = new MemoryPubSub()
    let gap: (() => void) | undefined
    const bus: PubSub = { publish: (t) => mem.publish(t), subscribe: (listener, onGap) => ((gap = onGap), mem.subscribe(listener)), close: () => mem.close() }
    const plain = threadTopic('topic', 'gap')
    const other = roomThreadTopic('r_other', 'topic', 'chatter')
    const hub = new Hub(bus, async (t, tokens) => tokens.map(() => t === topic))
    const sent: StreamServerMessage[] = []
    const h = hub.attach({ send: (t: string) => void sent.push(JSON.parse(t)), close() {} })
    h.onMessage(JSON.stringify({ type: 'subscribe', topic: plain }))
    h.onMessage(JSON.stringify({ type: 'subscribe', topic, token: 'vks_g' }))
    h.onMessage(JSON.stringify({ type: 'subscribe', topic: other, token: 'vks_g' }))
    await new Promise((r) => setTimeout(r, 0))
    assert.equal(sent.splice(0).filter((m) => m.type === 'subscribed').length, 2, 'the other room was refused')
    assert.ok(gap, 'the hub listens for gaps')
    gap!()
    await new Promise((r) => setTimeout(r, 0))
    assert.deepEqual(
      sent.map((m) => m.type === 'changed' && m.topic).sort(),
      [plain, topic].sort(),
    )
    hub.close()
  })

  it('an unsubscribed room topic is no longer asked about at a change', async () => {
    const { bus, answers, sent, h, flush } = gatedHub()
    h.onMessage(JSON.stringify({ type: 'subscribe', topic, token: 'vks_z' }))
    await flush()
    answers.shift()!.resolve(true)
    await flush()
    h.onMessage(JSON.stringify({ type: 'unsubscribe', topic }))
    await bus.publish(topic)
    await flush()
    assert.deepEqual([sent, answers.length], [[{ type: 'subscribed', topic }], 0])
  })
})
