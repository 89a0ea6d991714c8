/**
 * §6 live threads through the SDK against a stream server we control (a real `ws` server speaking the
 * service's stream messages), so drops can be injected: one shared socket, per-subscription unsubscribe,
 * close with the last subscription, reconnect with backoff and resubscribe after a drop.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket, { WebSocketServer } from 'ws'
import { roomThreadTopic, threadTopic } from '../../src/contract/paths.ts'
import type { StreamClientMessage } from '../../src/contract/types.ts'
import { createClient, VenuekitError, type SocketConstructor } from '../../src/sdk/index.ts'
import { RETRY_MS } from '../../src/sdk/stream.ts'

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
  async start(port = 0) {
    this.wss = new WebSocketServer({ port, host: '127.0.0.1' })
    await new Promise((r) => this.wss.once('listening', r))
    this.url = `ws://127.0.0.1:${(this.wss.address() as { port: number }).port}/v1/stream`
    this.wss.on('connection', (ws) => {
      const conn = ++this.connections
      this.sockets.add(ws)
      ws.on('close', () => (this.closed.add(conn), this.sockets.delete(ws)))
      ws.on('message', (d) => {
        const m = JSON.parse(String(d)) as StreamClientMessage
        this.received.push({ conn, m })
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

const until = async (cond: () => boolean, what: string, ms = 5000) => {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

let fake: FakeStream
before(async () => {
  fake = new FakeStream()
  await fake.start()
})
after(() => fake.stop())

const client = () => createClient({ baseUrl: 'http://127.0.0.1:9', streamUrl: fake.url, apiKey: null, WebSocketImpl: WebSocket as unknown as SocketConstructor })
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

  it('§6.1 a room\'s thread (`room`: a thread page\'s roomId) is followed on its room topic with the session token, and again after every sign-in or sign-out; thread topics carry no token', async () => {
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
        [T2, undefined],
      ],
    )
    fake.changed(R)
    await until(() => heard === 1, 'the room thread fires')
    c.setSession({ ...c.session!, token: tok('b') })
    c.setSession(null)
    await until(() => subs().length === 4, 'the room topic again, twice')
    assert.deepEqual(
      subs()
        .slice(2)
        .map((m) => [m.type === 'subscribe' && m.topic, m.type === 'subscribe' && m.token]),
      [
        [R, tok('b')],
        [R, undefined],
      ],
      'the room topic only, with the session now held',
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
