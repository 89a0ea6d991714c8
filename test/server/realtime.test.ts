/**
 * §6 Events: the stream at PATHS.stream. A socket subscribes to `thread:<subjectType>:<subjectRef>`
 * topics and gets `{type:'changed', topic}` (no payload, §6.1) whenever that thread changes; the client
 * refetches. Real service, real `ws` client, real writes over HTTP.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import pg from 'pg'
import WebSocket from 'ws'
import { threadTopic, PATHS } from '../../src/contract/paths.ts'
import { PgPubSub } from '../../src/server/realtime/pg-pubsub.ts'
import { MAX_MESSAGE_CHARS, MAX_TOPICS_PER_SOCKET, REPLAY_MS } from '../../src/server/realtime/hub.ts'
import { addMarket, call, ON_POSTGRES, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'
import { StreamClient } from '../helpers/stream.ts'
import { startReferenceService } from '../../src/server/node.ts'
import { claimVenue } from '../helpers/venues.ts'

let svc: TestService
let author: TestUser
before(async () => {
  svc = await startTestService()
  author = await signIn(svc)
})
after(() => svc.close())

const open: StreamClient[] = []
after(() => {
  for (const c of open) c.close()
})
async function client(service: { streamUrl: string } = svc) {
  const c = await StreamClient.open(service.streamUrl)
  open.push(c)
  return c
}

async function post(subjectType: string, subjectRef: string, body = 'a take', user = author, service: TestService = svc, parentId?: string) {
  const r = await call(service, 'POST', PATHS.posts, { token: user.token, body: { subjectType, subjectRef, body, ...(parentId ? { parentId } : {}) } })
  assert.equal(r.status, 201, JSON.stringify(r.body))
  return r.body.post as { id: string }
}

/** The next message is exactly `{type:'changed', topic}`: nothing else rides along (§6.1). */
async function expectChanged(c: StreamClient, topic: string) {
  assert.deepEqual(await c.next(), { type: 'changed', topic })
}

/**
 * Proves that nothing arrived for the watched thread: a write on a sentinel thread (also subscribed)
 * is delivered after it, so had the first produced an event, it would be next in the queue.
 */
async function expectQuiet(c: StreamClient, sentinelRef: string) {
  await post('topic', sentinelRef, 'sentinel')
  assert.deepEqual(await c.next(), { type: 'changed', topic: threadTopic('topic', sentinelRef) })
}

/** A market thread with a socket on it (and on a sentinel thread, for expectQuiet), its first post already heard. */
async function watchedPost(sentinel: string, body: string) {
  const m = await addMarket(svc)
  const c = await client()
  const topic = threadTopic('event', m.id)
  await c.subscribe(topic)
  await c.subscribe(threadTopic('topic', sentinel))
  const p = await post('event', m.id, body)
  await expectChanged(c, topic)
  return { m, c, topic, p }
}

describe('realtime: thread events', () => {
  it('§6.1 "fires when the thread changes": a new post on the thread gives {type:"changed", topic} and no payload', async () => {
    const m = await addMarket(svc)
    const c = await client()
    const topic = threadTopic('event', m.id)
    await c.subscribe(topic)
    await post('event', m.id, 'first')
    const msg = await c.next()
    assert.deepEqual(msg, { type: 'changed', topic })
    assert.deepEqual(Object.keys(msg).sort(), ['topic', 'type'])
  })

  it('§6.1 "fires when the thread changes": an edit, a reply and a delete each fire once', async () => {
    const m = await addMarket(svc)
    const c = await client()
    const topic = threadTopic('event', m.id)
    await c.subscribe(topic)
    const p = await post('event', m.id, 'before edit')
    await expectChanged(c, topic)
    const e = await call(svc, 'PATCH', PATHS.post(p.id), { token: author.token, body: { body: 'after edit' } })
    assert.equal(e.status, 200)
    await expectChanged(c, topic)
    const other = await signIn(svc)
    await post('event', m.id, 'a reply', other, svc, p.id)
    await expectChanged(c, topic)
    const d = await call(svc, 'DELETE', PATHS.post(p.id), { token: author.token })
    assert.equal(d.status, 200)
    await expectChanged(c, topic)
    await c.subscribe(threadTopic('topic', 'sentinel-edit'))
    await expectQuiet(c, 'sentinel-edit')
  })

  it('§6.1 "fires when the thread changes": the threshold hide (3 distinct reporters) fires; reports below it (a repeat reporter counts once) do not', async () => {
    const { c, topic, p } = await watchedPost('sentinel-report', 'reported post')
    const reporters = [await signIn(svc), await signIn(svc), await signIn(svc)]
    // Two distinct reporters, one of them twice: still below the threshold.
    for (const r of [reporters[0], reporters[1], reporters[1]]) {
      const res = await call(svc, 'POST', PATHS.report(p.id), { token: r.token, body: { reason: 'spam' } })
      assert.equal(res.status, 200)
    }
    await expectQuiet(c, 'sentinel-report')
    const third = await call(svc, 'POST', PATHS.report(p.id), { token: reporters[2].token, body: { reason: 'spam' } })
    assert.equal(third.status, 200)
    await expectChanged(c, topic)
  })

  it('§6.1 "fires when the thread changes": the market resolving fires on its thread', async () => {
    const m = await addMarket(svc)
    const c = await client()
    const topic = threadTopic('event', m.id)
    await c.subscribe(topic)
    await svc.chain.resolve(m.id, 0)
    await expectChanged(c, topic)
  })

  it('§6.1 "fires when the thread changes": a market\'s new title, close time or outcome labels (svc.chain.updateMarket) fire on its thread, which shows them; a patch that changes nothing, or is refused, does not', async () => {
    const { m, c, topic } = await watchedPost('sentinel-update', 'what a title')
    await c.subscribe(threadTopic('topic', 'sentinel-update'))
    await svc.chain.updateMarket(m.id, { outcomes: [{ label: 'Yes', displayLabel: 'Above' }, { label: 'No', displayLabel: 'Below' }] })
    await expectChanged(c, topic)
    const thread = await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}`)
    assert.deepEqual(thread.body.labels[m.id.toLowerCase()].map((o: { displayLabel?: string }) => o.displayLabel), ['Above', 'Below'], 'the thread reads the new labels')
    await svc.chain.updateMarket(m.id, {})
    await svc.chain.updateMarket(m.id, { outcomes: [{ label: 'Yes' }] }).catch(() => null)
    await expectQuiet(c, 'sentinel-update')
  })

  it('§6.1 "fires when the thread changes": an agree and an un-agree each fire once (the post\'s agrees changed); a repeat that changes nothing does not', async () => {
    const { c, topic, p } = await watchedPost('sentinel-agree', 'agree with me')
    const fan = await signIn(svc)
    const react = async (active: boolean) => {
      const r = await call(svc, 'POST', PATHS.react(p.id), { token: fan.token, body: { kind: 'agree', active } })
      assert.equal(r.status, 200, JSON.stringify(r.body))
      return r.body.agrees as number
    }
    assert.equal(await react(true), 1)
    await expectChanged(c, topic)
    assert.equal(await react(true), 1)
    await expectQuiet(c, 'sentinel-agree')
    assert.equal(await react(false), 0)
    await expectChanged(c, topic)
    assert.equal(await react(false), 0)
    await expectQuiet(c, 'sentinel-agree')
  })

  it('§6.1 "fires when the thread changes": a ban and an unban fire on every thread the banned author wrote in (the venue overlay shows them differently)', async () => {
    const v = await claimVenue(svc)
    const banned = await signIn(svc)
    const [m1, m2] = [await addMarket(svc), await addMarket(svc)]
    const c = await client()
    const topics = [threadTopic('event', m1.id), threadTopic('event', m2.id)]
    for (const t of topics) await c.subscribe(t)
    await c.subscribe(threadTopic('topic', 'sentinel-ban'))
    await post('event', m1.id, 'one', banned)
    await expectChanged(c, topics[0])
    await post('event', m2.id, 'two', banned)
    await expectChanged(c, topics[1])
    for (const action of ['ban', 'unban']) {
      const r = await call(svc, 'POST', `/v1/mod/${action}`, { token: v.owner.token, body: { venueId: v.venueId, wallet: banned.wallet } })
      assert.equal(r.status, 200, JSON.stringify(r.body))
      const got = [await c.next(), await c.next()].map((x) => (x as { topic: string }).topic).sort()
      assert.deepEqual(got, [...topics].sort(), action)
      await expectQuiet(c, 'sentinel-ban')
    }
  })

  it('§6.1 a taxonomy-node thread has its own topic: a post on category "weather" fires thread:category:weather', async () => {
    const c = await client()
    const topic = threadTopic('category', 'weather')
    await c.subscribe(topic)
    await post('category', 'weather', 'rain all week')
    await expectChanged(c, topic)
  })

  it('§6.1 the callback is for ONE thread: writes on other threads do not reach the subscriber', async () => {
    const watched = await addMarket(svc)
    const other = await addMarket(svc)
    const c = await client()
    await c.subscribe(threadTopic('event', watched.id))
    await c.subscribe(threadTopic('topic', 'sentinel-other'))
    await post('event', other.id, 'elsewhere')
    await post('category', 'weather', 'elsewhere too')
    await expectQuiet(c, 'sentinel-other')
  })

  it('§6.1 topics compare market ids lowercased: a subscriber to the lowercase topic hears a post written with an uppercase id', async () => {
    const m = await addMarket(svc)
    const c = await client()
    await c.subscribe(threadTopic('event', m.id))
    await post('event', `0x${m.id.slice(2).toUpperCase()}`, 'shouting id')
    await expectChanged(c, threadTopic('event', m.id))
  })

  it('every socket subscribed to a thread hears it', async () => {
    const m = await addMarket(svc)
    const topic = threadTopic('event', m.id)
    const a = await client()
    const b = await client()
    await a.subscribe(topic)
    await b.subscribe(topic)
    await post('event', m.id, 'to both')
    await expectChanged(a, topic)
    await expectChanged(b, topic)
  })

  it('unsubscribe stops delivery on that topic and keeps the others', async () => {
    const m = await addMarket(svc)
    const topic = threadTopic('event', m.id)
    const c = await client()
    await c.subscribe(topic)
    await c.subscribe(threadTopic('topic', 'sentinel-unsub'))
    c.send({ type: 'unsubscribe', topic })
    await c.ping()
    await post('event', m.id, 'after unsubscribe')
    await expectQuiet(c, 'sentinel-unsub')
  })

  it('a closed socket is dropped from the hub', async () => {
    const before = svc.hub.socketCount
    const c = await client()
    await c.subscribe(threadTopic('topic', 'closing'))
    assert.equal(svc.hub.socketCount, before + 1)
    c.close()
    await c.whenClosed()
    for (let i = 0; i < 50 && svc.hub.socketCount !== before; i++) await new Promise((r) => setTimeout(r, 20))
    assert.equal(svc.hub.socketCount, before)
  })
})

describe('realtime: a recurring market\'s series topic (§2.7 includeSeries)', () => {
  it('§2.7 a round read with includeSeries shows every round\'s posts, so a change on any round of the series (post, edit, reply, delete, resolution) also fires thread:series:<ref>; a market with no series fires no series topic', async () => {
    const seriesRef = `rt-series-${Date.now()}`
    const [x, y] = [await addMarket(svc, { series: seriesRef }), await addMarket(svc, { series: seriesRef })]
    const plain = await addMarket(svc)
    const c = await client()
    const topic = threadTopic('series', seriesRef)
    await c.subscribe(topic)
    await c.subscribe(threadTopic('topic', 'sentinel-series'))
    const p = await post('event', x.id, 'round x')
    await expectChanged(c, topic)
    await post('event', y.id.toUpperCase().replace('0X', '0x'), 'round y, its id in capitals')
    await expectChanged(c, topic)
    assert.equal((await call(svc, 'PATCH', PATHS.post(p.id), { token: author.token, body: { body: 'round x, edited' } })).status, 200)
    await expectChanged(c, topic)
    await post('event', x.id, 'a reply', await signIn(svc), svc, p.id)
    await expectChanged(c, topic)
    assert.equal((await call(svc, 'DELETE', PATHS.post(p.id), { token: author.token })).status, 200)
    await expectChanged(c, topic)
    await svc.chain.resolve(x.id, 0)
    await expectChanged(c, topic)
    await post('event', plain.id, 'no series here')
    await expectQuiet(c, 'sentinel-series')
  })
})

describe('realtime: a change between a client\'s read and its subscription (hub.ts REPLAY_MS)', () => {
  it(`§6.1 "fires when the thread changes": a change committed before a subscription is made, within ${REPLAY_MS / 1000} s, is told to the new subscriber at once (its read may predate it); a thread that has not changed gives "subscribed" alone`, async () => {
    const m = await addMarket(svc)
    const quiet = await addMarket(svc)
    await post('event', m.id, 'written while the reader\'s socket was opening')
    const c = await client()
    const topic = threadTopic('event', m.id)
    await c.subscribe(topic)
    await expectChanged(c, topic)
    await c.subscribe(threadTopic('event', quiet.id))
    // Subscribing again to a topic it already follows (a session change) tells it nothing more.
    await c.subscribe(topic)
    await c.ping()
    assert.deepEqual(c.messages, [], 'nothing else: one change, told once, and nothing for the thread that did not change')
    // A second reader arriving now hears it too, and a later change reaches both as usual.
    const d = await client()
    await d.subscribe(topic)
    await expectChanged(d, topic)
    await post('event', m.id, 'a later take')
    await expectChanged(c, topic)
    await expectChanged(d, topic)
  })

  it('streamReplayMs 0 replays nothing (a subscriber after a change hears "subscribed" alone); a value outside 0–60000 or not whole is refused before anything starts', async () => {
    for (const bad of [-1, 1.5, 60_001, Number.NaN]) {
      await assert.rejects(startReferenceService({ port: 0, streamReplayMs: bad }), { message: `streamReplayMs must be a whole number of milliseconds from 0 (off) to 60000 (got ${bad})` })
    }
    const own = await startTestService({ streamReplayMs: 0 })
    try {
      const m = await addMarket(own)
      await post('event', m.id, 'before the subscription', await signIn(own), own)
      const c = await StreamClient.open(own.streamUrl)
      await c.subscribe(threadTopic('event', m.id))
      await c.ping()
      assert.deepEqual(c.messages, [])
      c.close()
    } finally {
      await own.close()
    }
  })
})

describe('realtime: private rooms and failed publishes', () => {
  it('§7 a private room\'s existence is "not confirmed" to outsiders: private-room activity on a market (post, reply, agree, edit, delete, a venue hide, a ban of an author who wrote only there) fires nothing on the market\'s public thread topic, which anyone may subscribe to', async () => {
    const m = await addMarket(svc)
    const v = await claimVenue(svc)
    const r = await call(svc, 'POST', '/v1/rooms', {
      token: v.owner.token,
      body: { venueId: v.venueId, subjectType: 'topic', subjectRef: `inner-${v.venueId}`, visibility: 'private', title: 'Inner' },
    })
    assert.equal(r.status, 201, JSON.stringify(r.body))
    const room = r.body.room.id as string
    const [a, b] = [await signIn(svc, undefined, v.venueId), await signIn(svc, undefined, v.venueId)]
    for (const u of [a, b]) assert.equal((await call(svc, 'PUT', `/v1/rooms/${room}/members/${u.wallet}`, { token: v.owner.token })).status, 200)
    // An anonymous socket on the market's public thread (and on a sentinel thread, for expectQuiet).
    const c = await client()
    const topic = threadTopic('event', m.id)
    await c.subscribe(topic)
    await c.subscribe(threadTopic('topic', 'sentinel-private'))

    const top = await call(svc, 'POST', PATHS.posts, { token: a.token, body: { subjectType: 'event', subjectRef: m.id, body: 'members only', room } })
    assert.equal(top.status, 201, JSON.stringify(top.body))
    const id = top.body.post.id as string
    const steps = [
      await call(svc, 'POST', PATHS.posts, { token: b.token, body: { subjectType: 'event', subjectRef: m.id, body: 'a reply', parentId: id } }),
      await call(svc, 'POST', PATHS.react(id), { token: b.token, body: { kind: 'agree', active: true } }),
      await call(svc, 'PATCH', PATHS.post(id), { token: a.token, body: { body: 'members only, edited' } }),
      await call(svc, 'POST', '/v1/mod/hide', { token: v.owner.token, body: { venueId: v.venueId, postId: id } }),
      await call(svc, 'POST', '/v1/mod/ban', { token: v.owner.token, body: { venueId: v.venueId, wallet: a.wallet } }),
      await call(svc, 'DELETE', PATHS.post(id), { token: a.token }),
    ]
    for (const s of steps) assert.ok(s.status < 300, JSON.stringify(s.body))
    await expectQuiet(c, 'sentinel-private')
    // The public thread still fires for a post outside the room.
    await post('event', m.id, 'in the open')
    await expectChanged(c, topic)
  })

  it('a publish that fails after the commit does not fail the write: the post, edit, agree and delete answer success (a retry would post twice), and the failure is logged with [venuekit]', async () => {
    const m = await addMarket(svc)
    const fan = await signIn(svc)
    const bus = svc.ctx.bus
    const publish = bus.publish
    const logged: unknown[][] = []
    const error = console.error
    bus.publish = async () => {
      throw new Error('NOTIFY failed: connection terminated')
    }
    console.error = (...args: unknown[]) => void logged.push(args)
    try {
      const p = await call(svc, 'POST', PATHS.posts, { token: author.token, body: { subjectType: 'event', subjectRef: m.id, body: 'written once' } })
      assert.equal(p.status, 201, JSON.stringify(p.body))
      const id = p.body.post.id as string
      assert.equal((await call(svc, 'PATCH', PATHS.post(id), { token: author.token, body: { body: 'edited once' } })).status, 200)
      assert.equal((await call(svc, 'POST', PATHS.react(id), { token: fan.token, body: { kind: 'agree', active: true } })).status, 200)
      assert.equal((await call(svc, 'DELETE', PATHS.post(id), { token: author.token })).status, 200)
    } finally {
      bus.publish = publish
      console.error = error
    }
    assert.equal(logged.length, 4, 'one log line per failed publish')
    for (const line of logged) assert.match(String(line[0]), /^\[venuekit\] /)
    const rows = await svc.ctx.db.selectFrom('posts').select(['body', 'deleted_at']).where('subject_ref', '=', m.id).execute()
    assert.equal(rows.length, 1)
    assert.equal(rows[0].body, 'edited once')
    assert.ok(rows[0].deleted_at)
  })
})

describe('realtime: bad messages get an error message, not a disconnect', () => {
  const cases: [string, string, string][] = [
    ['malformed JSON', '{"type":', 'invalid-json'],
    ['a JSON value that is not an object', '42', 'invalid-json'],
    ['null', 'null', 'invalid-json'],
    ['an array', '[]', 'invalid-json'],
    ['an unknown type', JSON.stringify({ type: 'publish', topic: 'thread:event:x' }), 'validation-failed'],
    ['a missing topic', JSON.stringify({ type: 'subscribe' }), 'validation-failed'],
    ['a topic that is not a thread', JSON.stringify({ type: 'subscribe', topic: 'mod:queue' }), 'validation-failed'],
    ['an unknown subject type', JSON.stringify({ type: 'subscribe', topic: 'thread:planet:mars' }), 'validation-failed'],
    ['an oversized message', JSON.stringify({ type: 'subscribe', topic: 'x'.repeat(MAX_MESSAGE_CHARS) }), 'payload-too-large'],
  ]
  for (const [name, raw, code] of cases) {
    it(`bad message (${name}) → {type:"error", code:"${code}"} with a sentence; the socket stays open`, async () => {
      const c = await client()
      c.send(raw)
      const m = await c.next()
      assert.equal(m.type, 'error')
      assert.equal(m.type === 'error' && m.code, code)
      assert.ok(m.type === 'error' && m.message.length > 5)
      await c.ping()
      assert.equal(c.closed, null)
    })
  }

  it(`a socket over the topic limit (${MAX_TOPICS_PER_SOCKET}) gets an error and keeps its subscriptions`, async () => {
    const c = await client()
    for (let i = 0; i < MAX_TOPICS_PER_SOCKET; i++) c.send({ type: 'subscribe', topic: threadTopic('topic', `t-${i}`) })
    for (let i = 0; i < MAX_TOPICS_PER_SOCKET; i++) assert.deepEqual(await c.next(), { type: 'subscribed', topic: threadTopic('topic', `t-${i}`) })
    c.send({ type: 'subscribe', topic: threadTopic('topic', 'one-too-many') })
    const m = await c.next()
    assert.equal(m.type, 'error')
    assert.equal(m.type === 'error' && m.code, 'rate-limited')
    // Subscribing again to a topic it already holds is not a new topic.
    await c.subscribe(threadTopic('topic', 't-0'))
    await post('topic', 't-7', 'still delivered')
    await expectChanged(c, threadTopic('topic', 't-7'))
    await post('topic', 'one-too-many', 'not subscribed')
    await post('topic', 't-8', 'next')
    await expectChanged(c, threadTopic('topic', 't-8'))
  })

  it('§6.2 and §9.1 the stream lives at PATHS.stream only: an upgrade elsewhere (/stream, /v2/stream, /v1/stream/x, /v1/other) is refused with 404', async () => {
    for (const path of ['/stream', '/v2/stream', '/v1/stream/x', '/v1/other']) {
      await assert.rejects(StreamClient.open(svc.streamUrl.replace(PATHS.stream, path)), /404/, path)
    }
    ;(await StreamClient.open(svc.streamUrl)).close()
  })

  it('stopping the service closes open sockets with 1001 (going away)', async () => {
    const own = await startTestService()
    const c = await StreamClient.open(own.streamUrl)
    await c.subscribe(threadTopic('topic', 'bye'))
    await own.close()
    assert.equal((await c.whenClosed()).code, 1001)
    assert.equal(c.ws.readyState, WebSocket.CLOSED)
  })
})

describe('realtime: keep-alive (realtime/keepalive.ts)', () => {
  /** Waits until `ok()` holds, up to `ms`. */
  const until = async (ok: () => boolean, ms: number) => {
    for (const end = Date.now() + ms; !ok() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20))
  }

  it('a socket that answers no ping is closed within two periods, and its subscriptions are freed; one that answers stays open however long it is silent, and still hears its thread', async () => {
    const own = await startTestService({ streamPingSeconds: 1 })
    try {
      const m = await addMarket(own)
      const topic = threadTopic('event', m.id)
      const gone = await StreamClient.open(own.streamUrl, { autoPong: false })
      const live = await StreamClient.open(own.streamUrl)
      const pings = { gone: 0, live: 0 }
      gone.ws.on('ping', () => pings.gone++)
      live.ws.on('ping', () => pings.live++)
      await gone.subscribe(topic)
      await live.subscribe(topic)
      assert.equal(own.hub.socketCount, 2)
      const opened = Date.now()
      const closed = await Promise.race([gone.whenClosed(), new Promise<null>((r) => setTimeout(() => r(null), 4000))])
      assert.ok(closed, 'the silent socket was closed within 4 s (pings every 1 s)')
      assert.ok(Date.now() - opened >= 900, 'not before a ping went unanswered')
      assert.ok(pings.gone >= 1, 'it was pinged first')
      await until(() => own.hub.socketCount === 1, 1000)
      assert.equal(own.hub.socketCount, 1, 'its subscriptions left the hub')
      // The answering socket has said nothing itself; after three periods it is open and hears the thread.
      await new Promise((r) => setTimeout(r, 3000 - (Date.now() - opened)))
      assert.ok(pings.live >= 2, `it was pinged (${pings.live} times)`)
      assert.equal(live.ws.readyState, WebSocket.OPEN)
      await post('event', m.id, 'still listening', await signIn(own), own)
      await expectChanged(live, topic)
      live.close()
    } finally {
      await own.close()
    }
  })

  it('streamPingSeconds 0 pings nothing; a value outside 0–3600 or not whole is refused before anything starts', async () => {
    for (const bad of [-1, 1.5, 3601, Number.NaN]) {
      await assert.rejects(startReferenceService({ port: 0, streamPingSeconds: bad }), { message: `streamPingSeconds must be a whole number from 0 (off) to 3600 (got ${bad})` })
    }
    const own = await startTestService({ streamPingSeconds: 0 })
    try {
      const c = await StreamClient.open(own.streamUrl, { autoPong: false })
      let pinged = 0
      c.ws.on('ping', () => pinged++)
      await c.subscribe(threadTopic('topic', 'no-pings'))
      await new Promise((r) => setTimeout(r, 1500))
      assert.equal(pinged, 0)
      assert.equal(c.ws.readyState, WebSocket.OPEN)
      c.close()
    } finally {
      await own.close()
    }
  })
})

describe('realtime: fan-out across instances', () => {
  it('a post written through instance A reaches a subscriber on instance B (one PostgreSQL database, LISTEN/NOTIFY)', { skip: !ON_POSTGRES && 'needs PostgreSQL: two instances share one database only there (set VK_TEST_DATABASE_URL)' }, async () => {
    assert.ok(svc.databaseUrl)
    const b = await startTestService({ databaseUrl: svc.databaseUrl })
    try {
      const m = await addMarket(svc)
      const topic = threadTopic('event', m.id)
      const onB = await StreamClient.open(b.streamUrl)
      open.push(onB)
      await onB.subscribe(topic)
      await post('event', m.id, 'written on A')
      await expectChanged(onB, topic)
      // and the other way round: a write on B reaches a subscriber on A
      const onA = await client()
      await onA.subscribe(topic)
      const userOnB = await signIn(b)
      await post('event', m.id, 'written on B', userOnB, b)
      await expectChanged(onA, topic)
      await expectChanged(onB, topic)
    } finally {
      await b.close()
    }
  })

  it('the LISTEN connection is reopened after it drops: events flow again', { skip: !ON_POSTGRES && 'needs PostgreSQL (LISTEN/NOTIFY)' }, async () => {
    const bus = svc.ctx.bus as PgPubSub
    assert.ok(bus instanceof PgPubSub)
    const before = bus.reconnects
    const admin = new pg.Client({ connectionString: svc.databaseUrl! })
    await admin.connect()
    try {
      const killed = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN %'`,
      )
      assert.ok(killed.rowCount && killed.rowCount >= 1, 'a LISTEN backend was terminated')
    } finally {
      await admin.end()
    }
    for (let i = 0; i < 100 && bus.reconnects === before; i++) await new Promise((r) => setTimeout(r, 50))
    assert.equal(bus.listening, true)
    assert.ok(bus.reconnects > before)
    const m = await addMarket(svc)
    const c = await client()
    const topic = threadTopic('event', m.id)
    await c.subscribe(topic)
    await post('event', m.id, 'after the reconnect')
    await expectChanged(c, topic)
  })

  it('§6.1 a change made while the LISTEN connection was down is not lost: once it is back, every followed thread hears one change and its clients refetch', { skip: !ON_POSTGRES && 'needs PostgreSQL (LISTEN/NOTIFY)' }, async () => {
    const bus = svc.ctx.bus as PgPubSub
    const m = await addMarket(svc)
    const c = await client()
    const topic = threadTopic('event', m.id)
    await c.subscribe(topic)
    const before = bus.reconnects
    const admin = new pg.Client({ connectionString: svc.databaseUrl! })
    await admin.connect()
    try {
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and query ilike 'LISTEN %'`)
    } finally {
      await admin.end()
    }
    for (let i = 0; i < 100 && bus.listening; i++) await new Promise((r) => setTimeout(r, 5))
    assert.equal(bus.listening, false, 'the LISTEN connection is down')
    // Written while nobody listens: its NOTIFY reaches no instance.
    await post('event', m.id, 'while the bus was down')
    for (let i = 0; i < 200 && bus.reconnects === before; i++) await new Promise((r) => setTimeout(r, 25))
    assert.ok(bus.reconnects > before, 'reconnected')
    await expectChanged(c, topic)
    const page = await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}`)
    assert.ok(page.body.posts.some((p: { body: string }) => p.body === 'while the bus was down'), 'the refetch finds the post')
  })
})
