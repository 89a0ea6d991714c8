/**
 * Operations: every answer carries `X-Request-Id` (http/request-id.ts), readable by a browser; a 500's body and its
 * '[venuekit] unhandled error' log line name the same id; the access log (http/access-log.ts) writes one line per
 * request, the stream's upgrade included, and never a query value, a header value, a body, a venue key or a session
 * token. On PGlite, and on PostgreSQL with VK_TEST_DATABASE_URL.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import crypto from 'node:crypto'
import net from 'node:net'
import { sql } from 'kysely'
import WebSocket from 'ws'
import { PATHS, SERVICE_PATHS } from '../../src/contract/paths.ts'
import { isErrorBody } from '../../src/contract/errors.ts'
import { randomHex } from '../../src/core/ids.ts'
import { type AccessLine, accessLogSink } from '../../src/server/http/access-log.ts'
import { requestIdOf } from '../../src/server/http/request-id.ts'
import { call, expectError, signIn, startTestService, type CallResult, type TestService } from '../helpers/service.ts'
import { claimVenue, post } from '../helpers/venues.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

let svc: TestService
const lines: AccessLine[] = []
before(async () => {
  svc = await startTestService({ log: (line) => void lines.push(line) })
})
after(() => svc.close())

/** The answer's request id: a fresh one is a random UUID. */
function idOf(r: CallResult): string {
  const id = r.headers.get('x-request-id')
  assert.ok(id, `the ${r.status} answer carries X-Request-Id`)
  return id
}
const linesOf = (id: string) => lines.filter((l) => l.id === id)
/** The access log's lines of a request, once they are written (the log follows the answer). */
async function loggedLines(id: string, count = 1): Promise<AccessLine[]> {
  for (let i = 0; i < 100 && linesOf(id).length < count; i++) await new Promise((r) => setTimeout(r, 10))
  return linesOf(id)
}

/** Raw bytes to the service, read until it closes the connection (latin1, as sent). */
async function rawAnswer(bytes: Buffer | string): Promise<{ status: number; head: string; body: any }> {
  const u = new URL(svc.url)
  const sock = net.connect(Number(u.port), u.hostname)
  let text = ''
  sock.on('data', (d) => (text += d.toString('latin1')))
  sock.on('error', () => {})
  sock.write(bytes)
  await new Promise((r) => sock.once('close', r))
  const at = text.indexOf('\r\n\r\n')
  let body: unknown = text.slice(at + 4)
  try {
    body = JSON.parse(body as string)
  } catch { /* not JSON */ }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), head: text.slice(0, at), body }
}
const headerIn = (head: string, name: string) => new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1]?.trim()
const handshake = (extra = '') =>
  `GET ${PATHS.stream} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`

/** Runs `write` while every insert into `table` fails (a BEFORE trigger that raises, as atomic-writes.test.ts does). */
async function failingInserts<T>(table: string, write: () => Promise<T>): Promise<{ result: T; logged: unknown[][] }> {
  await sql`create or replace function vk_test_fail() returns trigger language plpgsql as $fn$
    begin
      raise exception 'injected failure on %', tg_table_name;
    end
    $fn$`.execute(svc.ctx.db)
  await sql`create trigger vk_test_fail before insert on ${sql.table(table)} for each row execute function vk_test_fail()`.execute(svc.ctx.db)
  const log = console.error
  const logged: unknown[][] = []
  console.error = (...args: unknown[]) => void logged.push(args)
  try {
    return { result: await write(), logged }
  } finally {
    console.error = log
    await sql`drop trigger vk_test_fail on ${sql.table(table)}`.execute(svc.ctx.db)
  }
}

describe('operations: X-Request-Id on every answer', () => {
  it('a 200, a 400, a 401, a 404, a 405 and a preflight each carry a fresh random id, a different one each', async () => {
    const answers = [
      [await call(svc, 'GET', SERVICE_PATHS.health), 200],
      [await call(svc, 'GET', `${PATHS.feed}?nope=1`), 400],
      [await call(svc, 'POST', PATHS.posts, { body: { subjectType: 'topic', subjectRef: 'ops', body: 'x' } }), 401],
      [await call(svc, 'GET', '/v1/no-such-route'), 404],
      [await call(svc, 'PUT', PATHS.feed, { body: {} }), 405],
      [await call(svc, 'OPTIONS', PATHS.posts, { headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' } }), 204],
    ] as const
    const ids = answers.map(([r, status]) => {
      assert.equal(r.status, status, JSON.stringify(r.body))
      const id = idOf(r)
      assert.match(id, UUID)
      return id
    })
    assert.equal(new Set(ids).size, ids.length, 'ids are not reused')
    // Refusals keep their bodies word for word: the id is only in the header.
    expectError(answers[3][0], 404, 'not-found', 'no route for GET /v1/no-such-route')
    assert.deepEqual(Object.keys(answers[3][0].body.error), ['code', 'message'])
  })

  it('a 429 (rate-limited) carries it', async () => {
    const before = svc.ctx.config.rateLimits
    svc.ctx.config.rateLimits = { perAccount: 1000, perKey: 1000, perIp: 1000, signInPerIp: 1, streamSocketsPerIp: 1000, windowSeconds: 60, trustProxy: true }
    try {
      const ip = `10.9.${crypto.randomInt(250)}.${1 + crypto.randomInt(250)}`
      let r: CallResult | null = null
      // Limits count per fixed window: of three, the last two share one.
      for (let i = 0; i < 3 && r?.status !== 429; i++) r = await call(svc, 'POST', PATHS.authNonce, { body: { address: `0x${randomHex(20)}` }, headers: { 'x-forwarded-for': ip } })
      assert.equal(r!.status, 429, JSON.stringify(r!.body))
      assert.match(idOf(r!), UUID)
    } finally {
      svc.ctx.config.rateLimits = before
    }
  })

  it('a 500: its body (`{ error: { code: internal, message, requestId } }`, the message unchanged), its header, its "[venuekit] unhandled error" log line and its access line name the same id', async () => {
    const u = await signIn(svc)
    const { result: r, logged } = await failingInserts('posts', () => post(svc, u, { body: 'this write fails' }))
    assert.equal(r.status, 500, JSON.stringify(r.body))
    const id = idOf(r)
    assert.match(id, UUID)
    assert.deepEqual(r.body, { error: { code: 'internal', message: 'the service failed to answer; try again', requestId: id } })
    assert.ok(isErrorBody(r.body), "the SDK's isErrorBody takes it")
    const line = logged.find((args) => args[0] === '[venuekit] unhandled error')
    assert.ok(line, `the failure is logged: ${JSON.stringify(logged)}`)
    assert.ok(line.some((a) => typeof a === 'string' && a.includes(id)), `the log line names the id: ${String(line.slice(0, 2))}`)
    const [access] = await loggedLines(id)
    assert.equal(access?.status, 500)
  })

  it('a sane incoming id (1–128 of [A-Za-z0-9._:-], a proxy\'s) is kept; the 500 body carries it too', async () => {
    for (const sent of ['a', 'abc-123', 'Root.1:7f_3-9', 'x'.repeat(128), crypto.randomUUID()]) {
      const r = await call(svc, 'GET', SERVICE_PATHS.health, { headers: { 'x-request-id': sent } })
      assert.equal(r.headers.get('x-request-id'), sent)
    }
    const u = await signIn(svc)
    const { result: r } = await failingInserts('posts', () => call(svc, 'POST', PATHS.posts, { token: u.token, headers: { 'x-request-id': 'lb-7:42' }, body: { subjectType: 'topic', subjectRef: 'ops', body: 'x' } }))
    assert.equal(r.status, 500)
    assert.equal(r.headers.get('x-request-id'), 'lb-7:42')
    assert.equal(r.body.error.requestId, 'lb-7:42')
  })

  it('an insane incoming id (too long, empty, a space, a comma, two of them, non-ASCII) is replaced by a fresh one', async () => {
    for (const sent of ['x'.repeat(129), 'a b', 'a,b', 'id"<script>', '{}']) {
      const r = await call(svc, 'GET', SERVICE_PATHS.health, { headers: { 'x-request-id': sent } })
      assert.equal(r.status, 200)
      assert.match(idOf(r), UUID, `replaced: ${JSON.stringify(sent)}`)
    }
    // As sent on the wire: an empty value, two headers (Node joins them: 'a, b'), UTF-8 bytes.
    for (const extra of ['X-Request-Id: \r\n', 'X-Request-Id: one\r\nX-Request-Id: two\r\n', `X-Request-Id: caf${Buffer.from('é').toString('latin1')}\r\n`]) {
      const r = await rawAnswer(`GET ${SERVICE_PATHS.health} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${extra}\r\n`)
      assert.equal(r.status, 200, r.head)
      assert.match(headerIn(r.head, 'x-request-id') ?? '', UUID, `replaced: ${JSON.stringify(extra)}`)
    }
  })

  it('CRLF: a request id cannot put a line into the answer; a bare CR is a request Node refuses (400), which carries a fresh id too', async () => {
    assert.match(requestIdOf('abc\r\nSet-Cookie: x=1'), UUID)
    assert.match(requestIdOf('abc\n'), UUID)
    const r = await rawAnswer(`GET ${SERVICE_PATHS.health} HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc\rSet-Cookie: x=1\r\n\r\n`)
    assert.equal(r.status, 400, r.head)
    assert.equal(r.body.error.code, 'bad-request')
    assert.match(headerIn(r.head, 'x-request-id') ?? '', UUID)
    assert.doesNotMatch(r.head, /set-cookie/i)
    // Headers too large (431) likewise.
    const big = await rawAnswer(`GET ${SERVICE_PATHS.health} HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(17_000)}\r\n\r\n`)
    assert.equal(big.status, 431)
    assert.match(headerIn(big.head, 'x-request-id') ?? '', UUID)
  })

  it('browsers may read it: Access-Control-Expose-Headers names it, on a read and on a refusal', async () => {
    const origin = { origin: 'https://shop.example' }
    for (const r of [await call(svc, 'GET', SERVICE_PATHS.health, { headers: origin }), await call(svc, 'GET', '/v1/no-such-route', { headers: origin })]) {
      const exposed = (r.headers.get('access-control-expose-headers') ?? '').split(',').map((h) => h.trim().toLowerCase())
      assert.ok(exposed.includes('x-request-id'), `exposed on the ${r.status}: ${exposed.join(',')}`)
      assert.ok(exposed.includes('retry-after') && exposed.includes('x-venue-key-status'), 'the others stay exposed')
    }
  })
})

describe('operations: the stream upgrade', () => {
  it('the 101 carries the id (a sane one kept) and is logged once, when answered; the socket works', async () => {
    const ws = new WebSocket(svc.streamUrl, { headers: { 'x-request-id': 'ws-up-1' } })
    const upgraded = new Promise<string | undefined>((resolve) => ws.once('upgrade', (res) => resolve(res.headers['x-request-id'] as string | undefined)))
    await new Promise((resolve, reject) => {
      ws.once('open', resolve)
      ws.once('error', reject)
    })
    assert.equal(await upgraded, 'ws-up-1')
    ws.send(JSON.stringify({ type: 'ping' }))
    const answer = await new Promise<any>((resolve) => ws.once('message', (d) => resolve(JSON.parse(String(d)))))
    assert.equal(answer.type, 'pong')
    ws.close()
    await new Promise((r) => ws.once('close', r))
    const logged = await loggedLines('ws-up-1')
    assert.equal(logged.length, 1, JSON.stringify(logged))
    assert.deepEqual({ ...logged[0], t: undefined, ms: undefined }, { t: undefined, id: 'ws-up-1', method: 'GET', path: PATHS.stream, status: 101, ms: undefined })
  })

  it('a refused upgrade carries the id and is logged once: a handshake ws cannot take (400, the service\'s error shape), not a GET (405), another path (404)', async () => {
    const noKey = await rawAnswer(handshake('X-Request-Id: ws-bad-1\r\n').replace(/Sec-WebSocket-Key: [^\r]*\r\n/, ''))
    assert.equal(noKey.status, 400, noKey.head)
    assert.equal(noKey.body.error.code, 'bad-request')
    assert.match(noKey.body.error.message, /^not a WebSocket handshake this service takes: /)
    assert.equal(headerIn(noKey.head, 'x-request-id'), 'ws-bad-1')
    const post = await rawAnswer(handshake('X-Request-Id: ws-bad-2\r\n').replace(/^GET/, 'POST'))
    assert.equal(post.status, 405, post.head)
    assert.equal(post.body.error.code, 'method-not-allowed')
    assert.equal(headerIn(post.head, 'allow'), 'GET')
    assert.equal(headerIn(post.head, 'x-request-id'), 'ws-bad-2')
    const other = await rawAnswer(handshake('X-Request-Id: ws-bad-3\r\n').replace(PATHS.stream, '/v1/elsewhere'))
    assert.equal(other.status, 404, other.head)
    assert.equal(headerIn(other.head, 'x-request-id'), 'ws-bad-3')
    for (const [id, status, path] of [['ws-bad-1', 400, PATHS.stream], ['ws-bad-2', 405, PATHS.stream], ['ws-bad-3', 404, '/v1/elsewhere']] as const) {
      const logged = await loggedLines(id)
      assert.deepEqual(logged.map((l) => [l.method, l.path, l.status]), [[id === 'ws-bad-2' ? 'POST' : 'GET', path, status]])
    }
  })
})

describe('operations: the access log', () => {
  it('one line per request, `{ t, id, method, path, status, ms, venue? }`: the venue when the request spoke for one', async () => {
    const v = await claimVenue(svc)
    const r = await call(svc, 'GET', `${PATHS.posts}?subjectType=topic&subjectRef=ops`, { key: v.key, headers: { 'x-request-id': 'read-venue-1' } })
    assert.equal(r.status, 200)
    const anon = await call(svc, 'GET', '/v1/no-such-route', { headers: { 'x-request-id': 'anon-404-1' } })
    assert.equal(anon.status, 404)
    const [line] = await loggedLines('read-venue-1')
    assert.deepEqual(Object.keys(line), ['t', 'id', 'method', 'path', 'status', 'ms', 'venue'])
    assert.equal(new Date(line.t).toISOString(), line.t)
    assert.ok(Math.abs(Date.parse(line.t) - Date.now()) < 60_000)
    assert.ok(typeof line.ms === 'number' && line.ms >= 0 && line.ms < 60_000)
    assert.deepEqual([line.method, line.path, line.status, line.venue], ['GET', PATHS.posts, 200, v.venueId])
    const [noVenue] = await loggedLines('anon-404-1')
    assert.deepEqual(Object.keys(noVenue), ['t', 'id', 'method', 'path', 'status', 'ms'], 'no venue known: omitted')
    assert.deepEqual([noVenue.path, noVenue.status], ['/v1/no-such-route', 404])
  })

  it("the HTTP parser's own refusals (431, 400) are logged once, with their request line's method and path (the query dropped), and with both empty when no whole request line was read", async () => {
    const cases: [string, number, string, string][] = [
      [`GET /v1/social/posts?subjectRef=secret-q HTTP/1.1\r\nHost: x\r\nX-Big: ${'y'.repeat(17_000)}\r\n\r\n`, 431, 'GET', PATHS.posts],
      [`POST /v1/social/posts HTTP/1.1\r\nHost: x\r\nX-Bad: a\rb\r\n\r\n`, 400, 'POST', PATHS.posts],
      // A URL over the parser's limit: no whole request line in what it read.
      [`GET /${'p'.repeat(17_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 431, '', ''],
      ['NOT HTTP AT ALL\r\n\r\n', 400, '', ''],
    ]
    for (const [bytes, status, method, path] of cases) {
      const r = await rawAnswer(bytes)
      assert.equal(r.status, status, r.head)
      const id = headerIn(r.head, 'x-request-id') ?? ''
      assert.match(id, UUID)
      const logged = await loggedLines(id)
      assert.equal(logged.length, 1, `${status} ${method} ${path}: ${JSON.stringify(logged)}`)
      assert.deepEqual([logged[0].method, logged[0].path, logged[0].status], [method, path, status], `${JSON.stringify(bytes.slice(0, 40))}`)
      assert.ok(!JSON.stringify(logged[0]).includes('secret-q'), 'no query value')
    }
  })

  it('§5.3 a venue key "is meant to ship in a browser bundle" and a session is a bearer: a signed-in write with a key, and reads with query values, log none of the key, the token, the query values or the body', async () => {
    const v = await claimVenue(svc)
    const owner = v.owner
    const from = lines.length
    const text = `ops body ${randomHex(8)}`
    const ref = `q-${randomHex(8)}`
    const w = await call(svc, 'POST', PATHS.posts, { token: owner.token, key: v.key, headers: { 'x-request-id': 'write-1' }, body: { subjectType: 'topic', subjectRef: ref, body: text } })
    assert.equal(w.status, 201, JSON.stringify(w.body))
    const cursorish = randomHex(8)
    const read = await call(svc, 'GET', `${PATHS.posts}?subjectType=topic&subjectRef=${ref}&limit=7`, { key: v.key, token: owner.token, headers: { 'x-request-id': 'read-q-1', 'x-secret-header': cursorish } })
    assert.equal(read.status, 200)
    assert.equal(read.body.posts[0].body, text)
    // A refused read with a query value and a malformed key value.
    const refused = await call(svc, 'GET', `${PATHS.feed}?sneaky=${cursorish}`, { key: `pck_${'e'.repeat(64)}`, headers: { 'x-request-id': 'read-q-2' } })
    assert.equal(refused.status, 400)
    await loggedLines('write-1')
    await loggedLines('read-q-1')
    await loggedLines('read-q-2')
    const written = JSON.stringify(lines.slice(from))
    for (const [what, secret] of [['the venue key', v.key], ['the session token', owner.token], ['a query value', ref], ['a query value', cursorish], ['the body', text], ['a key value', 'e'.repeat(64)], ['a query', '?'], ['a header name', 'x-secret']] as const) {
      assert.ok(!written.includes(secret), `${what} (${secret}) is not in the log: ${written}`)
    }
    const [wl] = linesOf('write-1')
    assert.deepEqual([wl.method, wl.path, wl.status, wl.venue], ['POST', PATHS.posts, 201, v.venueId])
    assert.deepEqual(linesOf('read-q-1').map((l) => [l.path, l.status]), [[PATHS.posts, 200]])
    assert.deepEqual(linesOf('read-q-2').map((l) => [l.path, l.status]), [[PATHS.feed, 400]])
  })

  it("off by default: a service started without `log` writes nothing for its requests (nor on a 404 or a write); `log: 'json'` writes JSON lines to stdout", async () => {
    const quiet = await startTestService()
    const loud = await startTestService({ log: 'json' })
    const out: string[] = []
    const { log, info, warn, debug } = console
    console.log = (...a: unknown[]) => void out.push(a.map(String).join(' '))
    Object.assign(console, { info: console.log, warn: console.log, debug: console.log })
    try {
      const u = await signIn(quiet)
      assert.equal((await call(quiet, 'GET', SERVICE_PATHS.health)).status, 200)
      assert.equal((await call(quiet, 'GET', '/v1/no-such-route')).status, 404)
      assert.equal((await post(quiet, u, { body: 'quiet' })).status, 201)
      await new Promise((r) => setTimeout(r, 50))
      assert.deepEqual(out, [], 'nothing written with the log off')
      assert.equal((await call(loud, 'GET', SERVICE_PATHS.health, { headers: { 'x-request-id': 'json-1' } })).status, 200)
      for (let i = 0; i < 100 && !out.length; i++) await new Promise((r) => setTimeout(r, 10))
    } finally {
      Object.assign(console, { log, info, warn, debug })
      await quiet.close()
      await loud.close()
    }
    assert.equal(out.length, 1, JSON.stringify(out))
    const line = JSON.parse(out[0])
    assert.deepEqual([line.id, line.method, line.path, line.status], ['json-1', 'GET', SERVICE_PATHS.health, 200])
  })

  it('a sink that throws changes no answer', async () => {
    const broken = await startTestService({
      log: () => {
        throw new Error('sink down')
      },
    })
    const error = console.error
    const logged: unknown[][] = []
    console.error = (...a: unknown[]) => void logged.push(a)
    try {
      const r = await call(broken, 'GET', SERVICE_PATHS.health)
      assert.equal(r.status, 200)
      assert.deepEqual(r.body, { ok: true, store: broken.ctx.store.kind })
    } finally {
      console.error = error
      await broken.close()
    }
    assert.equal(logged[0]?.[0], '[venuekit] the access log failed')
  })

  it('an unknown `log` option is refused', () => {
    assert.throws(() => accessLogSink('yes' as 'json'), /log must be 'json', 'off' or a function \(got "yes"\)/)
  })
})
