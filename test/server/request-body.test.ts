/**
 * Request bodies on the Node server: read from the request stream itself, no further than the byte
 * limit (LIMITS.bodyMaxBytes), whether or not a content-length is sent, and decoded as UTF-8 even when a
 * character is split across network chunks.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { LIMITS } from '../../src/contract/limits.ts'
import { PATHS, SERVICE_PATHS } from '../../src/contract/paths.ts'
import { createApp } from '../../src/server/app.ts'
import { addMarket, call, expectError, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'

let svc: TestService
let user: TestUser
before(async () => {
  svc = await startTestService()
  user = await signIn(svc)
})
after(() => svc.close())

/** Sends `chunks` one write at a time with chunked transfer encoding (no content-length). */
function chunked(path: string, chunks: Uint8Array[], token: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(svc.url + path, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c) => (text += c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }))
    })
    req.on('error', reject)
    ;(async () => {
      for (const c of chunks) {
        req.write(c)
        await new Promise((r) => setTimeout(r, 5))
      }
      req.end()
    })()
  })
}

describe('request bodies (Node)', () => {
  it('a body over the byte limit with its content-length is 413 payload-too-large', async () => {
    const m = await addMarket(svc)
    const body = JSON.stringify({ subjectType: 'event', subjectRef: m.id, body: 'x'.repeat(LIMITS.bodyMaxBytes) })
    expectError(await call(svc, 'POST', PATHS.posts, { token: user.token, body }), 413, 'payload-too-large', `request body is larger than ${LIMITS.bodyMaxBytes} bytes`)
  })

  it('a chunked body (no content-length) is cut off at the byte limit: 413, and nothing is written', async () => {
    const m = await addMarket(svc)
    const head = new TextEncoder().encode(`{"subjectType":"event","subjectRef":"${m.id}","body":"`)
    const filler = new TextEncoder().encode('y'.repeat(16 * 1024))
    const r = await chunked(PATHS.posts, [head, filler, filler, filler, filler, filler, new TextEncoder().encode('"}')], user.token)
    assert.equal(r.status, 413)
    assert.equal(r.body.error.code, 'payload-too-large')
    const thread = await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}`)
    assert.equal(thread.body.posts.length, 0)
  })

  it('multi-byte characters split across chunks arrive whole: the stored body is the text as sent', async () => {
    const m = await addMarket(svc)
    const text = 'Ça monte 📈 — 上がる ✓'
    const bytes = new TextEncoder().encode(JSON.stringify({ subjectType: 'event', subjectRef: m.id, body: text }))
    // one byte per chunk: every multi-byte character is split
    const r = await chunked(PATHS.posts, Array.from(bytes, (b) => Uint8Array.of(b)), user.token)
    assert.equal(r.status, 201, JSON.stringify(r.body))
    assert.equal(r.body.post.body, text)
  })

  it('"nothing is lost or half-written": bytes that are not UTF-8 (alone, or a character cut short at the end) are 400 invalid-json, not stored with replacement characters, and nothing is written', async () => {
    const m = await addMarket(svc)
    const head = new TextEncoder().encode(`{"subjectType":"event","subjectRef":"${m.id}","body":"ab`)
    const tail = new TextEncoder().encode('cd"}')
    for (const [bad, chunks] of [
      ['0xff 0xfe', [head, Uint8Array.of(0xff, 0xfe), tail]],
      ['a lone continuation byte', [head, Uint8Array.of(0x80), tail]],
      ['a cut-short character', [new TextEncoder().encode(`{"subjectType":"event","subjectRef":"${m.id}","body":"x"}`), Uint8Array.of(0xe4, 0xb8)]],
    ] as const) {
      const r = await chunked(PATHS.posts, [...chunks], user.token)
      assert.deepEqual([r.status, r.body.error?.code, r.body.error?.message], [400, 'invalid-json', 'request body is not valid UTF-8'], bad)
    }
    const res = await web().request(PATHS.posts, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` }, body: new Blob([head, Uint8Array.of(0xff), tail]) })
    assert.deepEqual([res.status, ((await res.json()) as any).error.message], [400, 'request body is not valid UTF-8'], 'web runtimes too')
    assert.equal((await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}`)).body.posts.length, 0)
  })

  it('a chunked body that is not JSON is 400 invalid-json', async () => {
    const r = await chunked(PATHS.posts, [new TextEncoder().encode('{"subjectType":'), new TextEncoder().encode('"event"')], user.token)
    assert.equal(r.status, 400)
    assert.equal(r.body.error.code, 'invalid-json')
  })
})

const web = () => createApp(svc.ctx)

describe('request bodies (web runtimes: Deno, app.request)', () => {
  const send = (body: BodyInit) =>
    web().request(PATHS.posts, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` }, body })

  it('the byte limit counts bytes, not characters: a body of three-byte characters under the limit in characters but over it in bytes is 413, and nothing is written', async () => {
    const m = await addMarket(svc)
    const body = JSON.stringify({ subjectType: 'event', subjectRef: m.id, body: '上'.repeat(Math.ceil(LIMITS.bodyMaxBytes / 2)) })
    assert.ok(body.length < LIMITS.bodyMaxBytes * 0.6 && new TextEncoder().encode(body).length > LIMITS.bodyMaxBytes)
    const r = await send(body)
    assert.equal(r.status, 413)
    assert.equal(((await r.json()) as any).error.code, 'payload-too-large')
    assert.equal((await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}`)).body.posts.length, 0)
  })

  it('a streamed body is read no further than the limit, and one under it arrives whole', async () => {
    const m = await addMarket(svc)
    let pulled = 0
    const endless = new ReadableStream<Uint8Array>({
      pull(ctl) {
        // Ends at 1 MB, so a reader that takes it all fails the test instead of hanging it.
        if (++pulled > 128) return ctl.close()
        ctl.enqueue(new TextEncoder().encode(pulled === 1 ? `{"subjectType":"event","subjectRef":"${m.id}","body":"` : 'z'.repeat(8192)))
      },
    })
    const r = await web().request(PATHS.posts, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` }, body: endless, duplex: 'half' } as RequestInit)
    assert.equal(r.status, 413)
    assert.ok(pulled < 20, `stopped reading (${pulled} chunks)`)
    const ok = await send(JSON.stringify({ subjectType: 'event', subjectRef: m.id, body: 'Ça monte 📈' }))
    assert.equal(ok.status, 201)
    assert.equal(((await ok.json()) as any).post.body, 'Ça monte 📈')
  })
})

describe('bad input: every 4xx names the input and the rule it broke', () => {
  it('"Every endpoint answers bad input with a clear error": a wrong type names what was sent, an absent field is required, and sizes and choices read as rules (no raw validator wording)', async () => {
    const key = (body: unknown) => call(svc, 'POST', SERVICE_PATHS.adminKeys, { token: user.token, body: JSON.stringify(body) })
    expectError(await key({ venueId: 5, scopes: ['read'], label: 'x' }), 400, 'validation-failed', "'venueId' must be a string (got a number)")
    expectError(await key({ venueId: 'some-venue-id', scopes: 'read', label: 'x' }), 400, 'validation-failed', "'scopes' must be an array of read, trade")
    expectError(await key({ venueId: 'some-venue-id', scopes: [1], label: 'x' }), 400, 'validation-failed', "'scopes.0' must be a string (got a number)")
    expectError(await key({ venueId: 'some-venue-id', scopes: null, label: 'x' }), 400, 'validation-failed', "'scopes' must be an array of read, trade")
    expectError(await key({ scopes: ['read'], label: 'x' }), 400, 'validation-failed', "'venueId' is required")
    const profile = (body: unknown) => call(svc, 'PUT', SERVICE_PATHS.myProfile, { token: user.token, body: JSON.stringify(body) })
    expectError(await profile({ name: 'n'.repeat(41) }), 400, 'validation-failed', "'name' must be at most 40 characters")
    expectError(await call(svc, 'GET', `${PATHS.profilePosts(user.wallet)}?cursor=`), 400, 'validation-failed', "'cursor' must not be empty")
    expectError(await call(svc, 'GET', `${PATHS.feed}?scope=everyone`), 400, 'validation-failed', "'scope' must be one of global, following, subject")
    // An endpoint without query parameters says so, rather than listing nothing.
    expectError(await call(svc, 'GET', `${PATHS.roomMembership('self')}?foo=1`), 400, 'unsupported-param', "unsupported query parameter 'foo'; this endpoint takes no query parameters")
    for (const r of [await key({ venueId: [], scopes: {}, label: 7 }), await profile({ name: 5 })])
      assert.doesNotMatch(r.body.error.message, /Invalid input|Too (small|big)|Invalid option|got nothing/)
  })

  it('a wrong method on a served path is 405 method-not-allowed naming the methods it takes (Allow), not 404; an unserved path stays 404', async () => {
    const put = await call(svc, 'PUT', PATHS.feed)
    expectError(put, 405, 'method-not-allowed', `PUT is not allowed on ${PATHS.feed}; it takes GET, HEAD`)
    assert.equal(put.headers.get('allow'), 'GET, HEAD')
    const get = await call(svc, 'GET', SERVICE_PATHS.adminKeys)
    expectError(get, 405, 'method-not-allowed', `GET is not allowed on ${SERVICE_PATHS.adminKeys}; it takes POST`)
    assert.equal(get.headers.get('allow'), 'POST')
    const room = await call(svc, 'PATCH', PATHS.roomJoin('some-room'))
    expectError(room, 405, 'method-not-allowed')
    assert.equal(room.headers.get('allow'), 'POST')
    expectError(await call(svc, 'GET', '/v1/social/nothing-here'), 404, 'not-found', 'no route for GET /v1/social/nothing-here')
    expectError(await call(svc, 'DELETE', '/v1/markets/not-a-market'), 404, 'not-found')
    // A route whose parameter pattern holds a slash (`/v1/markets/:id{0x[^/]*}`) is matched whole.
    const market = await call(svc, 'POST', SERVICE_PATHS.market(`0x${'ab'.repeat(32)}`))
    expectError(market, 405, 'method-not-allowed')
    assert.equal(market.headers.get('allow'), 'GET, HEAD')
  })

  it('"Every endpoint answers bad input with a clear error": a write takes no query parameter (400 unsupported-param, nothing written), so a venueId or room put in the query is never silently dropped; an unknown path stays 404 and a wrong method 405', async () => {
    const { startWithOperator } = await import('../helpers/service.ts')
    const { claimVenue } = await import('../helpers/venues.ts')
    const { svc: s2, operator } = await startWithOperator()
    try {
      const v = await claimVenue(s2)
      const m = await addMarket(s2)
      const author = await signIn(s2)
      const p = await call(s2, 'POST', PATHS.posts, { token: author.token, body: { subjectType: 'event', subjectRef: m.id, body: 'keep me' } })
      assert.equal(p.status, 201)
      const id = p.body.post.id as string
      // An operator means the venue's hide, and puts venueId in the query: refused, not a removal everywhere.
      const hide = await call(s2, 'POST', `/v1/mod/hide?venueId=${v.venueId}`, { token: operator.token, body: { postId: id } })
      expectError(hide, 400, 'unsupported-param', "unsupported query parameter 'venueId'; this endpoint takes no query parameters")
      const row = await s2.ctx.db.selectFrom('posts').select('state').where('id', '=', id).executeTakeFirstOrThrow()
      assert.equal(row.state, 'visible', 'nothing written')
      // A post with its room in the query: refused, not posted outside the room.
      const before = (await s2.ctx.db.selectFrom('posts').select('id').execute()).length
      expectError(await call(s2, 'POST', `${PATHS.posts}?room=r_somewhere`, { token: author.token, body: { subjectType: 'event', subjectRef: m.id, body: 'x' } }), 400, 'unsupported-param')
      assert.equal((await s2.ctx.db.selectFrom('posts').select('id').execute()).length, before)
      for (const [method, path] of [['PATCH', PATHS.post(id)], ['DELETE', PATHS.post(id)], ['POST', PATHS.react(id)], ['POST', SERVICE_PATHS.adminKeys], ['PUT', SERVICE_PATHS.myProfile], ['POST', SERVICE_PATHS.rooms]] as const)
        expectError(await call(s2, method, `${path}?x=1`, { token: author.token, body: {} }), 400, 'unsupported-param')
      // Reads keep their own declared parameters; an unknown path and a wrong method are as before.
      assert.equal((await call(s2, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}`)).status, 200)
      expectError(await call(s2, 'POST', '/v1/social/nothing-here?x=1'), 404, 'not-found')
      expectError(await call(s2, 'PUT', `${PATHS.feed}?x=1`), 405, 'method-not-allowed')
    } finally {
      await s2.close()
    }
  })

  it('a path the router does not serve as written (a trailing slash) is 404 for the method its routes take, never "GET is not allowed … it takes GET"', async () => {
    for (const path of [`${PATHS.feed}/`, `${SERVICE_PATHS.rooms}/`, `${PATHS.roomJoin('some-room')}/`]) {
      for (const method of ['GET', 'POST']) {
        const r = await call(svc, method, path)
        assert.equal(r.status, 404, `${method} ${path}: ${JSON.stringify(r.body)}`)
        expectError(r, 404, 'not-found', `no route for ${method} ${path}`)
      }
    }
  })
})
