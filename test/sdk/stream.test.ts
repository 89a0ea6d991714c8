/**
 * §6 live threads through the SDK against a stream server we control (a real `ws` server speaking the
 * service's stream messages), so drops can be injected: one shared socket, per-subscription unsubscribe,
 * close with the last subscription, reconnect with backoff and resubscribe after a drop. The keep-alive and the
 * backoff run on node's mocked timers (PING_MS and the backoff delays ticked exactly, Math.random fixed), the
 * keep-alive against the reference service's own stream too.
 */
import { after, afterEach, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket, { WebSocketServer } from 'ws'
import { roomThreadTopic, threadTopic } from '../../src/contract/paths.ts'
import type { StreamClientMessage, StreamServerMessage } from '../../src/contract/types.ts'
import { createClient, VenuekitError, type SocketConstructor } from '../../src/sdk/index.ts'
import { PING_MS, RETRY_MS } from '../../src/sdk/stream.ts'
import { startSdkFixture } from '../helpers/sdk-fixture.ts'
import type { TestService } from '../helpers/service.ts'
import { harness, type Harness } from './harness.ts'

const M = `0x${'ab'.repeat(32)}`
const M2 = `0x${'cd'.repeat(32)}`

/** A stream server that records connections and messages and can drop every socket. */
class FakeStream {
  wss!: WebSocketServer
  url = ''
  connections = 0
  closed = new Set<number>()
  received: { conn: number; m: StreamClientMessage }[] = []
  /** Messages of connections opened after `since` (a `connections` count) only. */
  since = 0
  sockets = new Set<WebSocket>()
  /** Fault: answer nothing (no `subscribed`, no `pong`): an open socket that has gone stale. */
  silent = false
  /** Fault: refuse every new socket at the upgrade (the service down behind a live address). */
  refuse = false
  async start(port = 0) {
    this.wss = new WebSocketServer({ port, host: '127.0.0.1', verifyClient: () => !this.refuse })
    await new Promise((r) => this.wss.once('listening', r))
    this.url = `ws://127.0.0.1:${(this.wss.address() as { port: number }).port}/v1/stream`
    this.wss.on('connection', (ws) => {
      const conn = ++this.connections
      this.sockets.add(ws)
      ws.on('close', () => (this.closed.add(conn), this.sockets.delete(ws)))
      ws.on('message', (d) => {
        const m = JSON.parse(String(d)) as StreamClientMessage
        this.received.push({ conn, m })
        if (this.silent) return
        if (m.type === 'subscribe') ws.send(JSON.stringify({ type: 'subscribed', topic: m.topic }))
        if (m.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }))
      })
    })
  }
  changed(topic: string) {
    for (const s of this.sockets) s.send(JSON.stringify({ type: 'changed', topic }))
  }
  /** The service drops a topic it could not check now (a room gate with its database away). */
  unavailable(topic: string) {
    for (const s of this.sockets) s.send(JSON.stringify({ type: 'error', code: 'stream-unavailable', message: 'this room could not be checked now; subscribe again later', topic }))
  }
  drop() {
    for (const s of this.sockets) s.terminate()
  }
  /** Fault: the sockets open now stop reading (a dead connection: a close sent to them is never answered). Returns the resume. */
  stall() {
    const tcp = [...this.sockets].map((s) => (s as unknown as { _socket: { pause(): void; resume(): void } })._socket)
    tcp.forEach((x) => x.pause())
    return () => tcp.forEach((x) => x.resume())
  }
  subs = () =>
    this.received.filter(({ conn, m }) => conn > this.since && m.type !== 'ping').map(({ m }) => `${m.type} ${'topic' in m ? m.topic : ''}`)
  /** Forget what was heard so far; with `fresh`, ignore every socket opened until now. */
  reset(fresh = true) {
    this.received = []
    if (fresh) this.since = this.connections
  }
  stop() {
    this.drop()
    return new Promise((r) => this.wss.close(r))
  }
}

/** The real setTimeout, kept before any test mocks the timers: `until` polls on it, so it waits for I/O then too. */
const realSetTimeout = globalThis.setTimeout
const until = async (cond: () => boolean, what: string, ms = 5000) => {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => realSetTimeout(r, 10))
  }
}

/** `ws` as the client's WebSocketImpl, keeping every socket the client opens and the type of each message it heard. */
function watchedSockets() {
  const all: (WebSocket & { heard: string[] })[] = []
  class Watched extends WebSocket {
    heard: string[] = []
    constructor(url: string) {
      super(url)
      all.push(this)
      this.on('message', (d) => this.heard.push((JSON.parse(String(d)) as StreamServerMessage).type))
    }
  }
  return { all, last: () => all[all.length - 1], Impl: Watched as unknown as SocketConstructor }
}
const OPEN = 1
const CLOSING = 2
const CLOSED = 3
/**
 * Ends a test on mocked timers: closes the client, then waits until its sockets are closed at both ends, so no
 * timer of ws's outlives the test (ws clears its close timer when a socket closes, and the next test's mocked
 * clearTimeout given this test's mocked timer would drop one of that test's own: node's mock finds a timer by its
 * position in the queue). Cleanup only: it never hides the test's own failure.
 */
const closeAll = (c: { close(): void }, ws: ReturnType<typeof watchedSockets>, serverSockets: () => number) => {
  c.close()
  return until(() => ws.all.every((s) => s.readyState === CLOSED) && serverSockets() === 0, 'every socket closed at both ends').catch(() => {})
}

let fake: FakeStream
before(async () => {
  fake = new FakeStream()
  await fake.start()
})
after(() => fake.stop())

/** Every client a test made, closed after it even when it failed (a failed test's socket would otherwise reconnect forever and keep the file from ending). */
const made: { close(): void }[] = []
const client = (WebSocketImpl = WebSocket as unknown as SocketConstructor) => {
  const c = createClient({ baseUrl: 'http://127.0.0.1:9', streamUrl: fake.url, apiKey: null, WebSocketImpl })
  made.push(c)
  return c
}
afterEach(() => made.splice(0).forEach((c) => c.close()))
const T1 = threadTopic('event', M)
const T2 = threadTopic('category', 'weather')

describe('SDK stream', () => {
  it('§6 one socket per client, shared by every subscription; "The callback carries no payload"', async () => {
    fake.reset()
    const before = fake.connections
    const c = client()
    const got: string[] = []
    const offs = [
      c.onComments('event', M.toUpperCase().replace('0X', '0x'), (...a: unknown[]) => got.push(`a${a.length}`)),
      c.onComments('event', M, (...a: unknown[]) => got.push(`b${a.length}`)),
      c.onComments('category', 'weather', (...a: unknown[]) => got.push(`c${a.length}`)),
    ]
    await until(() => fake.subs().length === 2, 'two subscribes')
    assert.equal(fake.connections - before, 1, 'one socket')
    assert.deepEqual(fake.subs().sort(), [`subscribe ${T2}`, `subscribe ${T1}`].sort(), 'one subscribe per topic, market ref lowercased')
    fake.changed(T1)
    await until(() => got.length === 2, 'two callbacks')
    assert.deepEqual(got.sort(), ['a0', 'b0'])
    fake.changed(threadTopic('event', M2))
    fake.changed(T2)
    await until(() => got.length === 3, 'third callback')
    assert.equal(got[2], 'c0')
    offs.forEach((off) => off())
  })

  it('§6.1 a room\'s thread (`room`: a thread page\'s roomId) is followed on its room topic with the session token, a plain thread with it too (it shows a private room\'s members the room\'s posts), and every topic again after every sign-in or sign-out', async () => {
    fake.reset()
    const c = client()
    const tok = (n: string) => `vks_${n.repeat(64)}`
    c.setSession({ token: tok('a'), accountId: 'acc', wallet: `0x${'12'.repeat(20)}`, wallets: [], venueId: null, operator: false, expiresAt: '2099-01-01T00:00:00Z' })
    const R = roomThreadTopic('r_inner', 'event', M)
    let heard = 0
    const offR = c.onComments('event', M, () => heard++, { room: 'r_inner' })
    const offT = c.onComments('category', 'weather', () => {})
    const subs = () => fake.received.filter(({ conn, m }) => conn > fake.since && m.type === 'subscribe').map(({ m }) => m)
    await until(() => subs().length === 2, 'two subscribes')
    assert.deepEqual(
      subs().map((m) => [m.type === 'subscribe' && m.topic, m.type === 'subscribe' && m.token]),
      [
        [R, tok('a')],
        [T2, tok('a')],
      ],
    )
    fake.changed(R)
    await until(() => heard === 1, 'the room thread fires')
    c.setSession({ ...c.session!, token: tok('b') })
    c.setSession(null)
    await until(() => subs().length === 6, 'both topics again, twice')
    assert.deepEqual(
      subs()
        .slice(2)
        .map((m) => [m.type === 'subscribe' && m.topic, m.type === 'subscribe' && m.token]),
      [
        [R, tok('b')],
        [T2, tok('b')],
        [R, undefined],
        [T2, undefined],
      ],
      'every topic, with the session now held',
    )
    assert.throws(() => c.onComments('event', M, () => {}, { room: 'self' }), (e: unknown) => e instanceof VenuekitError && e.code === 'validation')
    assert.throws(() => c.onComments('event', M, () => {}, { room: 'no room' }), (e: unknown) => e instanceof VenuekitError && e.code === 'validation')
    offR()
    offT()
  })

  it('§6 each subscription returns its unsubscribe; the socket closes when the last subscription ends', async () => {
    fake.reset()
    const mine = fake.since + 1
    const c = client()
    let a = 0
    let b = 0
    const offA = c.onComments('event', M, () => a++)
    const offB = c.onComments('event', M, () => b++)
    const offC = c.onComments('category', 'weather', () => {})
    await until(() => fake.subs().includes(`subscribe ${T1}`) && fake.subs().includes(`subscribe ${T2}`), 'subscribed')
    offA()
    offA()
    fake.changed(T1)
    await until(() => b === 1, 'B still hears')
    assert.equal(a, 0, 'A unsubscribed')
    assert.deepEqual(fake.subs().filter((s) => s.startsWith('unsub')), [], 'topic kept while B listens')
    offB()
    await until(() => fake.subs().includes(`unsubscribe ${T1}`), 'unsubscribe T1')
    assert.equal(fake.connections, mine, 'one socket')
    assert.equal(fake.closed.has(mine), false, 'socket still open for C')
    offC()
    await until(() => fake.closed.has(mine), 'socket closed after the last subscription')
  })

  it(`§6.1 "onComments fires when the thread changes": a room topic the service could not check now (stream-unavailable) is asked again ${RETRY_MS} ms later, and its callback is called once then`, async () => {
    fake.reset()
    const c = client()
    const R = roomThreadTopic('r_abc', 'event', M)
    let calls = 0
    const off = c.onComments('event', M, () => calls++, { room: 'r_abc' })
    await until(() => fake.subs().includes(`subscribe ${R}`), 'subscribed')
    fake.reset(false)
    const t0 = Date.now()
    fake.unavailable(R)
    await until(() => fake.subs().includes(`subscribe ${R}`), 'asked again', RETRY_MS + 2000)
    assert.ok(Date.now() - t0 >= RETRY_MS - 50, 'after RETRY_MS')
    await until(() => calls === 1, 'called once when followed again (changes may have been missed)')
    fake.changed(R)
    await until(() => calls === 2, 'live again')
    // Unsubscribed meanwhile: not asked again.
    fake.reset(false)
    fake.unavailable(R)
    off()
    await new Promise((r) => setTimeout(r, RETRY_MS + 300))
    assert.deepEqual(fake.subs().filter((x) => x.startsWith('subscribe')), [])
    c.close()
  })

  it('§6 "returns its unsubscribe": an unsubscribe of a subscription that close() ended leaves a newer subscription to the same topic alone', async () => {
    fake.reset()
    const c = client()
    let a = 0
    let b = 0
    const offA = c.onComments('event', M, () => a++)
    await until(() => fake.subs().includes(`subscribe ${T1}`), 'A subscribed')
    c.close()
    const offB = c.onComments('event', M, () => b++)
    await until(() => fake.subs().filter((x) => x === `subscribe ${T1}`).length === 2, 'B subscribed on a new socket')
    offA()
    fake.changed(T1)
    await until(() => b === 1, 'B still hears')
    assert.equal(a, 0)
    assert.deepEqual(fake.subs().filter((x) => x.startsWith('unsub')), [])
    offB()
  })

  it('§6 after a drop it reconnects with backoff and resubscribes every topic (fault: dropped socket recovers)', async () => {
    fake.reset()
    const c = client()
    const calls: string[] = []
    const off1 = c.onComments('event', M, () => calls.push('t1'))
    const off2 = c.onComments('category', 'weather', () => calls.push('t2'))
    await until(() => fake.subs().length === 2, 'subscribed')
    const conns = fake.connections
    fake.reset()
    const t0 = Date.now()
    fake.drop()
    await until(() => fake.subs().length === 2, 'resubscribed after the drop')
    assert.equal(fake.connections, conns + 1, 'one new socket')
    assert.ok(Date.now() - t0 >= 200, 'reconnected after a backoff delay')
    assert.deepEqual(fake.subs().sort(), [`subscribe ${T2}`, `subscribe ${T1}`].sort())
    // Changes may have been missed while down: every callback is called once on recovery.
    await until(() => calls.length === 2, 'recovery refetch')
    assert.deepEqual(calls.sort(), ['t1', 't2'])
    fake.changed(T1)
    await until(() => calls.length === 3, 'live again')
    off1()
    off2()
  })

  it('§6 keeps retrying while the server is down, then recovers and resubscribes', async () => {
    const c = client()
    const T3 = threadTopic('event', M2)
    let n = 0
    const off = c.onComments('event', M2, () => n++)
    await until(() => fake.subs().includes(`subscribe ${T3}`), 'subscribed')
    const port = Number(new URL(fake.url).port)
    await fake.stop()
    await new Promise((r) => setTimeout(r, 1200))
    fake.reset()
    await fake.start(port)
    await until(() => fake.subs().includes(`subscribe ${T3}`), 'resubscribed on the restarted server', 15_000)
    await until(() => n === 1, 'recovery refetch')
    fake.changed(T3)
    await until(() => n === 2, 'live again')
    off()
  })

  it('§1.9 "a global WebSocket (realtime only) or an injected WebSocketImpl": an injected WebSocketImpl is the one used, also where a global WebSocket exists', () => {
    const g = globalThis as { WebSocket?: unknown }
    const had = g.WebSocket
    let globalUsed = 0
    g.WebSocket = class {
      constructor() {
        globalUsed++
        throw new Error('the global WebSocket was used')
      }
    }
    const ws = watchedSockets()
    const c = client(ws.Impl)
    try {
      const off = c.onComments('event', M, () => {})
      assert.equal(ws.all.length, 1, 'the injected WebSocketImpl opened the socket')
      assert.equal(globalUsed, 0, 'the global one was not used')
      off()
    } finally {
      c.close()
      if (had) g.WebSocket = had
      else delete g.WebSocket
    }
  })

  it('§1.9 realtime needs a global WebSocket or an injected WebSocketImpl', () => {
    const c = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: null })
    const had = (globalThis as { WebSocket?: unknown }).WebSocket
    delete (globalThis as { WebSocket?: unknown }).WebSocket
    try {
      assert.throws(() => c.onComments('event', M, () => {}), (e: unknown) => e instanceof VenuekitError && e.code === 'no-websocket')
    } finally {
      if (had) (globalThis as { WebSocket?: unknown }).WebSocket = had
    }
  })
})

// The client's timers (the PING_MS keep-alive, the reconnect backoff) on node's mocked timers: a tick runs them at
// their exact time while socket I/O stays real, so nothing here waits on the wall clock for a timer. Math.random
// is fixed at 0, the low end of the jitter: the backoff is then half of "500 ms doubling up to 30 s".
const backoffAt = (n: number) => Math.min(30_000, 500 * 2 ** n) / 2
const TOKEN = `vks_${'e'.repeat(64)}`
const SESSION = { token: TOKEN, accountId: 'acc', wallet: `0x${'12'.repeat(20)}`, wallets: [], venueId: null, operator: false, expiresAt: '2099-01-01T00:00:00Z' }

describe('SDK stream keep-alive and reconnect backoff (mocked timers, fault-injecting stream server)', () => {
  it(`§6 keep-alive "a ping this often (PING_MS); a socket that heard nothing since the last ping is closed and reopened": a stale socket (no message, no pong) is closed one PING_MS after its unanswered ping, reopened after the backoff, and every topic is subscribed again on the new socket (with the session's token), every callback called once`, async (t) => {
    fake.reset()
    t.mock.method(Math, 'random', () => 0)
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] })
    const ws = watchedSockets()
    const c = client(ws.Impl)
    try {
      c.setSession(SESSION)
      const R = roomThreadTopic('r_stale', 'event', M)
      const calls: string[] = []
      c.onComments('event', M, () => calls.push('thread'))
      c.onComments('event', M, () => calls.push('room'), { room: 'r_stale' })
      await until(() => ws.all[0]?.heard.filter((x) => x === 'subscribed').length === 2, 'both topics subscribed')
      const first = ws.all[0]
      const pings = () => fake.received.filter(({ conn, m }) => conn > fake.since && m.type === 'ping').length
      fake.silent = true
      t.mock.timers.tick(PING_MS - 1)
      assert.equal(pings(), 0, 'no ping before PING_MS')
      t.mock.timers.tick(1)
      await until(() => pings() === 1, 'the keep-alive ping at PING_MS')
      assert.equal(first.readyState, OPEN, 'a ping not answered yet is no reason to close')
      t.mock.timers.tick(PING_MS - 1)
      assert.equal(first.readyState, OPEN, 'open until a whole PING_MS passed without a word')
      t.mock.timers.tick(1)
      assert.equal(first.readyState, CLOSING, 'closed at the next ping time: it heard nothing since the last ping')
      assert.equal(pings(), 1, 'closed instead of pinging again')
      fake.silent = false
      fake.reset()
      await until(() => first.readyState === CLOSED, 'the stale socket closed')
      t.mock.timers.tick(backoffAt(0) - 1)
      assert.equal(ws.all.length, 1, 'not reopened before the backoff')
      t.mock.timers.tick(1)
      assert.equal(ws.all.length, 2, 'reopened after the backoff')
      const subs = () => fake.received.filter(({ conn, m }) => conn > fake.since && m.type === 'subscribe').map(({ m }) => m.type === 'subscribe' && [m.topic, m.token ?? null])
      await until(() => subs().length === 2, 'every topic subscribed again on the new socket')
      assert.deepEqual(subs().sort(), [[R, TOKEN], [T1, TOKEN]].sort())
      await until(() => calls.length === 2, 'every callback called once (changes may have been missed)')
      assert.deepEqual(calls.sort(), ['room', 'thread'])
      fake.changed(R)
      await until(() => calls.length === 3, 'live again on the new socket')
    } finally {
      fake.silent = false
      await closeAll(c, ws, () => fake.sockets.size)
    }
  })

  it('§6 keep-alive "a socket that heard nothing since the last ping is closed and reopened": reopened after the backoff even while the stale socket\'s close is never answered (a dead connection)', async (t) => {
    fake.reset()
    t.mock.method(Math, 'random', () => 0)
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] })
    const ws = watchedSockets()
    const c = client(ws.Impl)
    let resume = () => {}
    try {
      c.onComments('event', M, () => {})
      await until(() => ws.all[0]?.heard.includes('subscribed'), 'subscribed')
      const first = ws.all[0]
      resume = fake.stall()
      t.mock.timers.tick(PING_MS)
      t.mock.timers.tick(PING_MS)
      assert.equal(first.readyState, CLOSING, 'stale: closed, and its close is not answered')
      t.mock.timers.tick(backoffAt(0))
      assert.equal(ws.all.length, 2, 'a new socket after the backoff, not after the dead one finally closes')
      assert.equal(first.readyState, CLOSING)
      await until(() => ws.last().readyState === OPEN && ws.last().heard.includes('subscribed'), 'the new socket open and subscribed')
    } finally {
      resume()
      await closeAll(c, ws, () => fake.sockets.size)
    }
  })

  it('§6 "opened with the first and closed with the last": a socket closed with the last subscription, whose close lands after the next subscription opened a new socket, leaves the new socket\'s keep-alive running', async (t) => {
    fake.reset()
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] })
    const ws = watchedSockets()
    const c = client(ws.Impl)
    let resume = () => {}
    try {
      const off = c.onComments('event', M, () => {})
      await until(() => ws.all[0]?.heard.includes('subscribed'), 'subscribed')
      const first = ws.all[0]
      resume = fake.stall()
      off()
      assert.equal(first.readyState, CLOSING, 'closed with the last subscription; the close is not answered yet')
      c.onComments('event', M2, () => {})
      await until(() => ws.all.length === 2 && ws.last().readyState === OPEN && ws.last().heard.includes('subscribed'), 'a new socket for the next subscription')
      const second = fake.connections
      resume()
      await until(() => first.readyState === CLOSED, 'the first socket\'s close landed')
      const pings = () => fake.received.filter(({ conn, m }) => conn === second && m.type === 'ping').length
      t.mock.timers.tick(PING_MS)
      await until(() => pings() === 1, "the new socket's keep-alive ping")
      t.mock.timers.tick(PING_MS)
      await until(() => pings() === 2, 'and the next')
      assert.equal(ws.last().readyState, OPEN)
    } finally {
      resume()
      await closeAll(c, ws, () => fake.sockets.size)
    }
  })

  it('§6 "After a drop it reconnects with backoff": 500 ms doubling up to 30 s, with jitter — each failed attempt doubles the wait up to the cap, and a socket that opens starts it again from 500 ms (here the low end of the jitter: half of each)', async (t) => {
    fake.reset()
    t.mock.method(Math, 'random', () => 0)
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] })
    const ws = watchedSockets()
    const c = client(ws.Impl)
    /** The latest socket closes; the next is opened exactly `ms` later, not a millisecond sooner. */
    const reopensAfter = async (ms: number, attempt: number) => {
      await until(() => ws.last().readyState === CLOSED, `attempt ${attempt} closed`)
      const n = ws.all.length
      t.mock.timers.tick(ms - 1)
      assert.equal(ws.all.length, n, `attempt ${attempt + 1} not before ${ms} ms`)
      t.mock.timers.tick(1)
      assert.equal(ws.all.length, n + 1, `attempt ${attempt + 1} at ${ms} ms`)
    }
    const waits = [250, 500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000]
    assert.deepEqual(waits, waits.map((_, n) => backoffAt(n)))
    try {
      let calls = 0
      c.onComments('event', M, () => calls++)
      await until(() => ws.all[0]?.heard.includes('subscribed'), 'subscribed')
      fake.refuse = true
      fake.drop()
      // Every attempt but the last is refused at the upgrade: the wait doubles each time, then holds at the cap.
      for (let n = 0; n < waits.length - 1; n++) await reopensAfter(waits[n], n)
      await until(() => ws.last().readyState === CLOSED, 'the last refused attempt closed')
      fake.refuse = false
      await reopensAfter(waits.at(-1)!, waits.length - 1)
      await until(() => ws.last().readyState === OPEN && ws.last().heard.includes('subscribed'), 'open and subscribed again')
      await until(() => calls === 1, 'the recovery refetch')
      // Opened: the next drop waits 500 ms (×0.5) again, not the cap.
      fake.drop()
      await reopensAfter(backoffAt(0), 0)
      await until(() => ws.last().readyState === OPEN && ws.last().heard.includes('subscribed'), 'open and subscribed again')
    } finally {
      fake.refuse = false
      await closeAll(c, ws, () => fake.sockets.size)
    }
  })
})

describe('SDK stream keep-alive against the reference service', () => {
  let svc: TestService
  let h: Harness
  before(async () => {
    svc = await startSdkFixture()
    h = harness({ url: svc.url, streamUrl: svc.streamUrl, WebSocketImpl: WebSocket as unknown as SocketConstructor })
  })
  after(() => svc.close())

  it(`§6 keep-alive "a ping this often (PING_MS)": a socket whose pings the service answers stays open — one socket through many PING_MS, a pong after each ping, and the thread's changes still arrive on it`, async (t) => {
    const m = await h.addMarket()
    const writer = await h.signedIn()
    const ws = watchedSockets()
    const c = h.client({ WebSocketImpl: ws.Impl })
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] })
    try {
      let calls = 0
      c.onComments('event', m.id, () => calls++)
      await until(() => ws.all[0]?.heard.includes('subscribed'), 'subscribed')
      const socket = ws.all[0]
      const pongs = () => socket.heard.filter((x) => x === 'pong').length
      for (let beat = 1; beat <= 4; beat++) {
        t.mock.timers.tick(PING_MS)
        await until(() => pongs() === beat || socket.readyState !== OPEN, `pong ${beat}`)
        assert.equal(socket.readyState, OPEN, `open after ${beat} × PING_MS`)
        assert.equal(pongs(), beat, 'one ping (and its pong) per PING_MS')
      }
      assert.equal(ws.all.length, 1, 'never reopened')
      await writer.createPost('event', m.id, 'still live')
      await until(() => calls === 1, 'the change arrives on the same socket')
      assert.equal(ws.all.length, 1)
    } finally {
      await closeAll(c, ws, () => svc.hub.socketCount)
    }
  })
})
