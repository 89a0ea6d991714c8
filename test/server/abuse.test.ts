/**
 * Abuse (issue 9, docs/RELIABILITY.md "Abuse limits"): ways around the write limits, ways to exhaust the
 * service, and CORS on refusals. One service on a clock the tests set (a fixed instant, so a wait of exactly
 * `Retry-After` is exact); each test sets the limits it needs (the harness starts with them off).
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import net from 'node:net'
import { PATHS, SERVICE_PATHS } from '../../src/contract/paths.ts'
import { randomHex } from '../../src/core/ids.ts'
import { Hub, MAX_UNREAD_BYTES } from '../../src/server/realtime/hub.ts'
import { MemoryPubSub } from '../../src/server/realtime/pubsub.ts'
import type { RateLimits } from '../../src/server/services/rate-limits.ts'
import { call, expectError, signIn, startTestService, type CallResult, type TestService, type TestUser } from '../helpers/service.ts'
import { StreamClient } from '../helpers/stream.ts'
import { claimVenue } from '../helpers/venues.ts'

/** The service's clock: a fixed instant each test moves. */
let nowMs = Math.ceil(Date.now() / 60_000) * 60_000
let svc: TestService
before(async () => {
  svc = await startTestService({ now: () => new Date(nowMs) })
})
after(() => svc.close())

const HIGH = 100_000
/** Sets the limits and moves the clock into a fresh window, `intoWindowMs` after its start. */
function limits(over: Partial<RateLimits>, intoWindowMs = 0) {
  nowMs = (Math.floor(nowMs / 60_000) + 1) * 60_000 + intoWindowMs
  svc.ctx.config.rateLimits = { perAccount: HIGH, perKey: HIGH, perIp: HIGH, signInPerIp: HIGH, streamSocketsPerIp: HIGH, windowSeconds: 60, trustProxy: false, ...over }
}

const write = (u: TestUser | null, headers: Record<string, string> = {}) =>
  call(svc, 'PUT', PATHS.follow('topic', `abuse-${randomHex(3)}`), { token: u?.token, headers })

function expectLimited(r: CallResult, limit: string) {
  expectError(r, 429, 'rate-limited')
  assert.equal(r.body.error.limit, limit, JSON.stringify(r.body))
}

describe('abuse: write rate limits', () => {
  it('issue 9 "Writes are rate-limited … per IP": no header a client sends picks its address (X-Real-IP, Forwarded, CF-Connecting-IP, True-Client-IP; X-Forwarded-For without trustProxy)', async () => {
    limits({ perIp: 3 })
    const u = await signIn(svc)
    const spoofs: Record<string, string>[] = [
      { 'x-real-ip': '203.0.113.1' },
      { forwarded: 'for=203.0.113.2' },
      { 'cf-connecting-ip': '203.0.113.3' },
      { 'true-client-ip': '203.0.113.4' },
      { 'x-forwarded-for': '203.0.113.5' },
    ]
    const answers = []
    for (const h of spoofs) answers.push(await write(u, h))
    assert.deepEqual(
      answers.map((r) => (r.status < 300 ? 'ok' : r.status)),
      ['ok', 'ok', 'ok', 429, 429],
    )
    expectLimited(answers[4], 'ip')
  })

  it('issue 9 "Writes are rate-limited … per IP": behind a trusted proxy, an X-Forwarded-For whose last entry is not an address counts under the socket\'s address, never under none', async () => {
    limits({ perIp: 2, trustProxy: true })
    const u = await signIn(svc)
    const statuses = []
    for (let i = 0; i < 4; i++) statuses.push((await write(u, { 'x-forwarded-for': `not-an-address-${i}` })).status)
    assert.equal(statuses.filter((s) => s === 429).length, 2, `a garbage entry must not escape the per-address limit (statuses ${statuses.join(', ')})`)
    // A proxy that appends `host:port` is not an address either: still counted (under the proxy's address).
    expectLimited(await write(u, { 'x-forwarded-for': '198.51.100.7:4711' }), 'ip')
  })

  it('issue 9 "with 429 and Retry-After": Retry-After is whole seconds ≥ 1, the write one second before it is still refused, and the write exactly that many seconds later goes through', async () => {
    for (const into of [0, 59_999, 30_500]) {
      limits({ perAccount: 1 }, into)
      const u = await signIn(svc)
      assert.equal((await write(u)).status, 200)
      const r = await write(u)
      expectLimited(r, 'account')
      const wait = Number(r.headers.get('retry-after'))
      assert.ok(Number.isInteger(wait) && wait >= 1 && wait <= 60, `Retry-After ${r.headers.get('retry-after')}`)
      assert.match(r.body.error.message, new RegExp(`try again in ${wait} seconds?$`))
      const at = nowMs
      if (wait > 1) {
        nowMs = at + (wait - 1) * 1000
        expectLimited(await write(u), 'account')
      }
      nowMs = at + wait * 1000
      assert.equal((await write(u)).status, 200, `the write ${wait} s later (Retry-After) goes through`)
    }
  })
})

describe('abuse: HTTP errors a browser page can read', () => {
  it('issue 9 "CORS allows each venue\'s configured origins": an answer the HTTP parser gives (headers or URL over 16 KB: 431; malformed: 400) carries Access-Control-Allow-Origin, so the page reads the error', async () => {
    const big = await fetch(`${svc.url}${PATHS.feed}?x=${'a'.repeat(20_000)}`, { headers: { origin: 'https://shop.example' } })
    assert.equal(big.status, 431)
    assert.equal((await big.json()).error.code, 'payload-too-large')
    assert.equal(big.headers.get('access-control-allow-origin'), '*')
    const bad = await rawAnswer(svc.url, 'NOT HTTP AT ALL\r\n\r\n')
    assert.match(bad, /^HTTP\/1\.1 400 /)
    assert.match(bad, /\r\nAccess-Control-Allow-Origin: \*\r\n/i)
  })

  it('issue 9 "CORS allows each venue\'s configured origins": venue A\'s origin with venue B\'s key is refused, and so are A\'s origin\'s near forms (case, trailing slash); the refusal is readable', async () => {
    limits({})
    const a = await claimVenue(svc)
    const b = await claimVenue(svc)
    for (const [v, o] of [
      [a, 'https://a-shop.example'],
      [b, 'https://b-shop.example'],
    ] as const)
      assert.equal((await call(svc, 'PUT', SERVICE_PATHS.venueOrigins(v.venueId), { token: v.owner.token, body: { origins: [o] } })).status, 200)
    const keyed = (key: string, origin: string) => call(svc, 'GET', SERVICE_PATHS.rooms, { key, headers: { origin } })
    assert.equal((await keyed(a.key, 'https://a-shop.example')).status, 200)
    for (const origin of ['https://b-shop.example', 'https://A-SHOP.example', 'https://a-shop.example/', 'https://a-shop.example:443.evil.example']) {
      const r = await keyed(a.key, origin)
      expectError(r, 403, 'origin-not-allowed')
      assert.equal(r.headers.get('access-control-allow-origin'), origin)
    }
  })
})

/** What the service answers to raw bytes, read until it closes the connection. */
async function rawAnswer(url: string, bytes: string): Promise<string> {
  const u = new URL(url)
  const sock = net.connect(Number(u.port), u.hostname)
  let text = ''
  sock.on('data', (d) => (text += d.toString('latin1')))
  sock.write(bytes)
  await new Promise((r) => sock.once('close', r))
  return text
}

/** A raw WebSocket client: the upgrade, then masked text frames written by hand, and nothing ever read. */
async function rawStreamSocket(url: string): Promise<net.Socket> {
  const u = new URL(url)
  const sock = net.connect(Number(u.port), u.hostname)
  await new Promise((r) => sock.once('connect', r))
  sock.write(`GET ${PATHS.stream} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`)
  const head = await new Promise<Buffer>((r) => sock.once('data', r))
  assert.match(head.toString('latin1'), /^HTTP\/1\.1 101/)
  sock.pause()
  return sock
}
function maskedFrame(text: string): Buffer {
  const p = Buffer.from(text)
  const mask = crypto.randomBytes(4)
  return Buffer.concat([Buffer.from([0x81, 0x80 | p.length]), mask, Buffer.from(p.map((b, i) => b ^ mask[i % 4]))])
}
/** Reads the socket's frames until a close frame: its code, or null when the socket ended without one. */
function closeCodeOf(sock: net.Socket): Promise<number | null> {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0)
    const done = (code: number | null) => {
      sock.removeAllListeners('data')
      resolve(code)
    }
    sock.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d])
      for (;;) {
        if (buf.length < 2) return
        let len = buf[1] & 0x7f
        let at = 2
        if (len === 126) [len, at] = [buf.readUInt16BE(2), 4]
        else if (len === 127) [len, at] = [Number(buf.readBigUInt64BE(2)), 10]
        if (buf.length < at + len) return
        if ((buf[0] & 0x0f) === 0x8) return done(len >= 2 ? buf.readUInt16BE(at) : null)
        buf = buf.subarray(at + len)
      }
    })
    sock.once('close', () => done(null))
    sock.once('error', () => done(null))
    sock.resume()
  })
}

describe('abuse: the stream', () => {
  it('issue 9 abuse, the stream: a socket that sends and never reads is closed (1008) once its unread answers pass a bound; the service does not buffer them without end', { timeout: 30_000 }, async () => {
    const before = svc.hub.socketCount
    const sock = await rawStreamSocket(svc.url)
    sock.on('error', () => {})
    try {
      // Each 7-byte frame ('x', not JSON) is answered with a ~75-byte error the client never reads.
      const batch = Buffer.concat(Array(10_000).fill(maskedFrame('x')))
      let frames = 0
      while (svc.hub.socketCount > before && frames < 400_000) {
        sock.write(batch)
        frames += 10_000
        await new Promise((r) => setTimeout(r, 15))
      }
      assert.equal(svc.hub.socketCount, before, `the socket is still followed after ${frames.toLocaleString('en')} unanswered-for frames`)
      assert.equal(await closeCodeOf(sock), 1008)
    } finally {
      sock.destroy()
    }
  })

  it('ARCHITECTURE stream limits "1 MiB unsent per socket (over it: closed with 1008)": a socket with exactly 1,048,576 bytes unread is still answered; one with 1,048,577 is closed with 1008, unanswered, and the hub lets it go (the hub itself, with fake sockets)', () => {
    assert.equal(MAX_UNREAD_BYTES, 1_048_576, '1 MiB')
    const hub = new Hub(new MemoryPubSub())
    try {
      const socketWith = (unread: number) => {
        const sent: string[] = []
        const closed: (number | undefined)[] = []
        const reasons: (string | undefined)[] = []
        hub
          .attach({ send: (t) => void sent.push(JSON.parse(t).type), close: (code, reason) => void (closed.push(code), reasons.push(reason)), unread: () => unread })
          .onMessage(JSON.stringify({ type: 'subscribe', topic: `thread:topic:unread-${unread}` }))
        return { sent, closed, reasons }
      }
      const at = socketWith(1_048_576)
      assert.deepEqual([at.sent, at.closed], [['subscribed'], []], 'exactly 1 MiB unread: answered, and open')
      assert.equal(hub.socketCount, 1)
      const over = socketWith(1_048_577)
      assert.deepEqual([over.sent, over.closed], [[], [1008]], 'one byte over: closed with 1008, and not answered')
      assert.match(over.reasons[0] ?? '', /unread/)
      assert.equal(hub.socketCount, 1, 'the closed socket is no longer followed')
    } finally {
      hub.close()
    }
  })

  it('issue 9 abuse, the stream: sockets per client address are bounded; the one over the bound is refused with 429 rate-limited, and closing one frees its place', async () => {
    limits({ streamSocketsPerIp: 3 })
    const wsUrl = `${svc.url.replace(/^http/, 'ws')}${PATHS.stream}`
    const open = await Promise.all([StreamClient.open(wsUrl), StreamClient.open(wsUrl), StreamClient.open(wsUrl)])
    try {
      await assert.rejects(StreamClient.open(wsUrl), /upgrade refused with 429/)
      const upgrade = `GET ${PATHS.stream} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`
      const refused = await rawAnswer(svc.url, upgrade)
      assert.match(refused, /^HTTP\/1\.1 429 /)
      const body = JSON.parse(refused.slice(refused.indexOf('\r\n\r\n') + 4))
      assert.equal(body.error.code, 'rate-limited')
      assert.equal(body.error.message, 'too many stream sockets from this address: at most 3 open at once; close one first')
      open[0].ws.close()
      await open[0].whenClosed()
      await new Promise((r) => setTimeout(r, 100))
      const again = await StreamClient.open(wsUrl)
      open.push(again)
    } finally {
      for (const c of open) c.ws.terminate()
      limits({})
    }
  })
})
