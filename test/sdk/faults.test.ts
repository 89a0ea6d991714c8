/**
 * Fault injection with MSW (HTTP) : 500s, a hung request under `timeoutMs`, a malformed body, a network
 * failure, the caller's own abort signal; and what every request carries (session only when one exists,
 * the venue key). No reference service here: MSW answers.
 */
import { after, afterEach, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import v8 from 'node:v8'
import vm from 'node:vm'
import { delay, http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { PATHS } from '../../src/contract/paths.ts'
import { createClient, HttpError, NetworkError, TimeoutError, VenuekitError } from '../../src/sdk/index.ts'
import { xhrFetch } from '../../src/sdk/xhr-fetch.ts'
import { TAKE_COUNTS_TTL_MS } from '../../src/sdk/take-counts.ts'

const BASE = 'http://venuekit.test'
const M = `0x${'ab'.repeat(32)}`
const KEY = `pck_${'b'.repeat(64)}`
const server = setupServer()
before(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => server.resetHandlers())
after(() => server.close())

const THREAD = { posts: [], threads: {}, series: null, labels: {}, titles: {}, hasMore: false, nextCursor: null }
const SESSION = { token: `vks_${'c'.repeat(64)}`, expiresAt: '', accountId: 'a_1', wallet: `0x${'1'.repeat(40)}`, wallets: [], venueId: null, operator: false }

describe('SDK faults (MSW)', () => {
  it('a 500 throws HttpError carrying status, code, body and the server\'s message unchanged', async () => {
    const body = { error: { code: 'internal', message: 'the service failed to answer; try again' } }
    server.use(http.get(BASE + PATHS.posts, () => HttpResponse.json(body, { status: 500 })))
    const c = createClient({ baseUrl: BASE, apiKey: null })
    const e = await c.posts('event', M).catch((x) => x)
    assert.ok(e instanceof HttpError && e instanceof VenuekitError)
    assert.deepEqual([e.status, e.code, e.message, e.serverMessage, e.body], [500, 'internal', body.error.message, body.error.message, body])
  })

  it('a 500 whose body is not an error body still throws HttpError (code http-500)', async () => {
    server.use(http.get(BASE + PATHS.feed, () => new HttpResponse('<html>Bad gateway</html>', { status: 502 })))
    const e = await createClient({ baseUrl: BASE, apiKey: null }).postFeed().catch((x) => x)
    assert.ok(e instanceof HttpError)
    assert.equal(e.status, 502)
    assert.equal(e.code, 'http-502')
    assert.equal(e.body, '<html>Bad gateway</html>')
    assert.equal(e.requestId, undefined, 'no X-Request-Id: none')
  })

  it("HttpError.requestId is the answer's X-Request-Id, whatever the body: a proxy's non-JSON 502 and a malformed 200 name theirs too", async () => {
    server.use(
      http.get(BASE + PATHS.feed, () => new HttpResponse('<html>Bad gateway</html>', { status: 502, headers: { 'X-Request-Id': 'edge.7:a-1' } })),
      http.get(BASE + PATHS.takeCounts, () => new HttpResponse('{"counts": {', { status: 200, headers: { 'x-request-id': 'r-2' } })),
    )
    const c = createClient({ baseUrl: BASE, apiKey: null })
    assert.deepEqual(await c.postFeed().catch((x) => [x.code, x.requestId]), ['http-502', 'edge.7:a-1'])
    assert.deepEqual(await c.takeCounts([M]).catch((x) => [x.code, x.requestId]), ['invalid-response', 'r-2'])
  })

  it('§8 "Request deadline (timeoutMs)": a hung request throws TimeoutError after timeoutMs', async () => {
    server.use(http.get(BASE + PATHS.posts, async () => {
      await delay('infinite')
      return HttpResponse.json(THREAD)
    }))
    const c = createClient({ baseUrl: BASE, apiKey: null, timeoutMs: 150 })
    const t0 = Date.now()
    const e = await c.posts('event', M).catch((x) => x)
    assert.ok(e instanceof TimeoutError, String(e))
    assert.equal(e.code, 'timeout')
    assert.equal(e.timeoutMs, 150)
    const took = Date.now() - t0
    assert.ok(took >= 140 && took < 2000, `took ${took} ms`)
  })

  it('§8 "Request deadline (timeoutMs)" covers the body too: headers sent, body hung, TimeoutError', async () => {
    const hung = () => new ReadableStream({ start: (ctl) => ctl.enqueue(new TextEncoder().encode('{"posts":')) })
    server.use(http.get(BASE + PATHS.feed, () => new HttpResponse(hung(), { headers: { 'content-type': 'application/json' } })))
    const e = await createClient({ baseUrl: BASE, apiKey: null, timeoutMs: 150 }).postFeed().catch((x) => x)
    assert.ok(e instanceof TimeoutError, String(e))
  })

  it('§8 "Optional; unset means unbounded": a slow answer succeeds without timeoutMs', async () => {
    server.use(http.get(BASE + PATHS.posts, async () => {
      await delay(400)
      return HttpResponse.json(THREAD)
    }))
    assert.deepEqual(await createClient({ baseUrl: BASE, apiKey: null }).posts('event', M), THREAD)
  })

  it('§8 "Request deadline (timeoutMs): Optional; unset means unbounded": createClient({ baseUrl }) has no deadline, and a request without one arms no timer — ten minutes of (mocked) time later it is still pending and its signal live; then the answer arrives and resolves it', async (t) => {
    t.mock.method(console, 'warn', () => {}) // the omitted apiKey's one-time warning
    assert.equal(createClient({ baseUrl: BASE }).config.timeoutMs, null, 'unset: no deadline in the resolved configuration')

    const TEN_MINUTES = 10 * 60_000
    // Microtasks and real I/O callbacks run; mocked timers fire only on tick.
    const settle = () => new Promise((resolve) => setImmediate(resolve))
    t.mock.timers.enable({ apis: ['setTimeout', 'setInterval'] })
    // A deadline could also come from a timer outside setTimeout: AbortSignal.timeout.
    const abortTimeouts = t.mock.method(AbortSignal, 'timeout')
    /** A fetchImpl that answers only when told. */
    const answerWhenTold = () => {
      const held: { init: RequestInit; answer: (r: Response) => void }[] = []
      const fetchImpl = ((_url: string, init: RequestInit) => new Promise<Response>((answer) => held.push({ init, answer }))) as unknown as typeof fetch
      return { held, fetchImpl }
    }
    const watch = <T,>(p: Promise<T>) => {
      const w = { settled: false, result: p }
      p.then(
        () => (w.settled = true),
        () => (w.settled = true),
      )
      return w
    }

    // Control: the same harness does catch a deadline, however long (five minutes here).
    const bounded = answerWhenTold()
    const late = watch(createClient({ baseUrl: BASE, apiKey: null, timeoutMs: 5 * 60_000, fetchImpl: bounded.fetchImpl }).posts('event', M))
    await settle()
    t.mock.timers.tick(TEN_MINUTES)
    await settle()
    assert.equal(late.settled, true, 'with timeoutMs, ten minutes end the request')
    assert.ok((await late.result.catch((e) => e)) instanceof TimeoutError)

    // No timeoutMs: nothing ends the request.
    const open = answerWhenTold()
    const c = createClient({ baseUrl: BASE, apiKey: null, fetchImpl: open.fetchImpl })
    const read = watch(c.posts('event', M))
    await settle()
    assert.equal(open.held.length, 1)
    t.mock.timers.tick(TEN_MINUTES)
    await settle()
    assert.equal(read.settled, false, 'still pending after ten minutes')
    assert.equal(open.held[0].init.signal?.aborted, false, 'the signal handed to fetch was not aborted')
    assert.equal(abortTimeouts.mock.callCount(), 0, 'no AbortSignal.timeout')
    open.held[0].answer(new Response(JSON.stringify(THREAD), { headers: { 'content-type': 'application/json' } }))
    assert.deepEqual(await read.result, THREAD)

    // The browser transport (xhrFetch, which the page context picks when XMLHttpRequest exists) sets no XHR
    // timeout and is not aborted either.
    const xhrs: FakeXhr[] = []
    class FakeXhr {
      timeout = 0
      status = 0
      statusText = ''
      responseText = ''
      responseURL = ''
      aborted = false
      onload: (() => void) | null = null
      onerror: (() => void) | null = null
      ontimeout: (() => void) | null = null
      onabort: (() => void) | null = null
      open() {}
      setRequestHeader() {}
      getAllResponseHeaders() {
        return 'content-type: application/json\r\n'
      }
      send() {
        xhrs.push(this)
      }
      abort() {
        this.aborted = true
        this.onabort?.()
      }
    }
    const g = globalThis as { XMLHttpRequest?: unknown }
    const had = 'XMLHttpRequest' in g
    const previous = g.XMLHttpRequest
    g.XMLHttpRequest = FakeXhr
    try {
      const viaXhr = watch(createClient({ baseUrl: BASE, apiKey: null, fetchImpl: xhrFetch }).posts('event', M))
      await settle()
      assert.equal(xhrs.length, 1)
      t.mock.timers.tick(TEN_MINUTES)
      await settle()
      assert.equal(viaXhr.settled, false, 'xhr: still pending after ten minutes')
      assert.equal(xhrs[0].timeout, 0, 'xhr.timeout stays 0 (no deadline)')
      assert.equal(xhrs[0].aborted, false)
      Object.assign(xhrs[0], { status: 200, statusText: 'OK', responseText: JSON.stringify(THREAD) })
      xhrs[0].onload!()
      assert.deepEqual(await viaXhr.result, THREAD)
    } finally {
      if (had) g.XMLHttpRequest = previous
      else delete g.XMLHttpRequest
    }
  })

  it('a caller\'s own signal is honoured as well: aborting rejects with the caller\'s reason, not a timeout', async () => {
    server.use(http.get(BASE + PATHS.posts, async () => {
      await delay('infinite')
      return HttpResponse.json(THREAD)
    }))
    const c = createClient({ baseUrl: BASE, apiKey: null, timeoutMs: 10_000 })
    const ctl = new AbortController()
    setTimeout(() => ctl.abort(new Error('navigated away')), 50)
    const e = await c.posts('event', M, { signal: ctl.signal }).catch((x) => x)
    assert.equal(e.message, 'navigated away')
    const pre = new AbortController()
    pre.abort()
    const e2 = await c.postFeed({ signal: pre.signal }).catch((x) => x)
    assert.equal(e2.name, 'AbortError')
  })

  it('a caller\'s own signal is honoured on writes too, and timeoutMs bounds a hung write', async () => {
    server.use(
      http.post(BASE + PATHS.posts, async () => {
        await delay('infinite')
        return HttpResponse.json({}, { status: 201 })
      }),
      http.post(BASE + PATHS.roomJoin('self'), async () => {
        await delay('infinite')
        return HttpResponse.json({})
      }),
    )
    const c = createClient({ baseUrl: BASE, apiKey: null, timeoutMs: 10_000 })
    c.setSession(SESSION)
    const ctl = new AbortController()
    setTimeout(() => ctl.abort(new Error('user cancelled')), 50)
    const e = await c.createPost('event', M, 'why', null, { signal: ctl.signal }).catch((x) => x)
    assert.equal(e.message, 'user cancelled')
    const pre = new AbortController()
    pre.abort()
    assert.equal((await c.rooms.join('self', { signal: pre.signal }).catch((x) => x)).name, 'AbortError')
    // Already aborted: nothing is sent, even through a fetchImpl that ignores signals (a write made anyway
    // would land while the caller was told it was cancelled).
    let sent = 0
    const deaf = createClient({ baseUrl: BASE, apiKey: null, fetchImpl: (async () => (sent++, new Response('{}', { status: 201 }))) as typeof fetch })
    deaf.setSession(SESSION)
    const gone = new AbortController()
    gone.abort(new Error('left the page'))
    assert.equal((await deaf.createPost('event', M, 'why', null, { signal: gone.signal }).catch((x) => x)).message, 'left the page')
    assert.equal((await deaf.postFeed({ signal: gone.signal }).catch((x) => x)).message, 'left the page')
    assert.equal(sent, 0)
    const short = createClient({ baseUrl: BASE, apiKey: null, timeoutMs: 100 })
    short.setSession(SESSION)
    assert.ok((await short.createPost('event', M, 'why').catch((x) => x)) instanceof TimeoutError)
  })

  it('a malformed body on 200 throws HttpError with code invalid-response and the raw text', async () => {
    server.use(http.get(BASE + PATHS.takeCounts, () => new HttpResponse('{"counts": {', { status: 200, headers: { 'content-type': 'application/json' } })))
    const e = await createClient({ baseUrl: BASE, apiKey: null }).takeCounts([M]).catch((x) => x)
    assert.ok(e instanceof HttpError)
    assert.deepEqual([e.status, e.code, e.body], [200, 'invalid-response', '{"counts": {'])
  })

  it('§7.1 "Every client write action throws on failure" and §4.2 reads: a success that is no JSON object with fields (a 204, null, {}, a bare value) throws HttpError invalid-response with the status and the raw body, never a TypeError or an undefined result', async () => {
    const GW = 'http://gateway.venuekit.test'
    const answers: [string, () => Response][] = [
      ['204', () => new HttpResponse(null, { status: 204 })],
      ['null', () => HttpResponse.json(null)],
      ['{}', () => HttpResponse.json({})],
      ['a bare value', () => HttpResponse.json(true)],
    ]
    const P = 'p_0123456789ab'
    const signer = { address: SESSION.wallet, signMessage: (m: string) => `sig:${m}` }
    for (const [what, answer] of answers) {
      server.use(http.all(`${BASE}/*`, answer), http.all(`${GW}/*`, answer))
      const c = createClient({ baseUrl: BASE, gatewayUrl: GW, apiKey: null })
      const ops: [string, () => Promise<unknown>][] = [
        ['posts', () => c.posts('event', M)],
        ['postFeed', () => c.postFeed()],
        ['takeCounts', () => c.takeCounts([M])],
        ['rooms.membership', () => c.rooms.membership()],
        ['createPost', () => c.createPost('event', M, 'why')],
        ['editPost', () => c.editPost(P, 'why not')],
        ['reactPost', () => c.reactPost(P)],
        ['auth.signIn', () => c.auth.signIn(signer)],
        ['auth.linkWallet', () => c.auth.linkWallet(signer)],
      ]
      for (const [name, op] of ops) {
        c.setSession(SESSION)
        const e = await op().then((r) => r, (x) => x)
        assert.ok(e instanceof HttpError, `${name} on ${what}: ${e instanceof Error ? e.stack : JSON.stringify(e)}`)
        assert.equal(e.code, 'invalid-response', `${name} on ${what}`)
        assert.equal(e.status, what === '204' ? 204 : 200)
        assert.equal(e.body, what === '204' ? '' : JSON.stringify(JSON.parse(String(e.body))))
        assert.match(e.message, /^the service answered 20[04] /)
      }
      assert.equal(c.session?.token, SESSION.token, 'a failed sign-in or link left the session as it was')
      server.resetHandlers()
    }
  })

  it('a failed read is not cached: the next take-counts read asks again', async () => {
    let n = 0
    server.use(http.get(BASE + PATHS.takeCounts, () => (++n === 1 ? HttpResponse.json({ error: { code: 'internal', message: 'x' } }, { status: 500 }) : HttpResponse.json({ counts: { [M]: { posts: 2, takes: 1, bySide: { 0: 1 } } } }))))
    const c = createClient({ baseUrl: BASE, apiKey: null })
    await assert.rejects(c.takeCounts([M]), HttpError)
    assert.equal((await c.takeCounts([M])).counts[M].posts, 2)
    assert.equal(n, 2)
  })

  it('§2.6 take counts: a write through the client drops the cached counts, so the next read asks again', async () => {
    let reads = 0
    server.use(
      http.get(BASE + PATHS.takeCounts, () => (reads++, HttpResponse.json({ counts: { [M]: { posts: reads, takes: 0, bySide: {} } } }))),
      http.post(BASE + PATHS.posts, () => HttpResponse.json({ post: { id: 'p_1' } }, { status: 201 })),
    )
    const c = createClient({ baseUrl: BASE, apiKey: null })
    c.setSession(SESSION)
    await c.takeCounts([M])
    await c.takeCounts([M])
    assert.equal(reads, 1, 'cached')
    await c.createPost('event', M, 'one more')
    assert.equal((await c.takeCounts([M])).counts[M].posts, 2)
    assert.equal(reads, 2)
  })

  it(`take counts: a settled read is reused for ${TAKE_COUNTS_TTL_MS} ms, then asked again; an expired read leaves the cache at the next read of any set, so a long-lived client keeps only recent ones`, async (t) => {
    v8.setFlagsFromString('--expose-gc')
    const gc = vm.runInNewContext('gc') as () => void
    const asked: string[] = []
    const fetchImpl = (async (url: string) => {
      const ids = new URL(url).searchParams.get('ids')!.split(',')
      asked.push(ids.join(','))
      return Response.json({ counts: Object.fromEntries(ids.map((id) => [id, { posts: ids.length, takes: 0, bySide: {} }])) })
    }) as unknown as typeof fetch
    const c = createClient({ baseUrl: BASE, apiKey: null, fetchImpl })
    const other = `0x${'cd'.repeat(32)}`
    let now = Date.now()
    const realNow = Date.now
    Date.now = () => now
    t.after(() => void (Date.now = realNow))
    // Held only weakly here: the cache alone keeps the first answer alive.
    const first = await (async () => new WeakRef(await c.takeCounts([M])))()
    now += TAKE_COUNTS_TTL_MS - 1
    assert.equal((await c.takeCounts([M])).counts[M].posts, 1)
    assert.deepEqual(asked, [M], 'reused within the window')
    now += 2
    await c.takeCounts([other])
    assert.deepEqual(asked, [M, other])
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 10))
      gc()
    }
    assert.equal(first.deref(), undefined, 'the expired answer was dropped when another set was read')
    await c.takeCounts([M])
    assert.deepEqual(asked, [M, other, M], 'expired: asked again')
  })

  it('a network failure throws NetworkError', async () => {
    server.use(http.get(BASE + PATHS.posts, () => HttpResponse.error()))
    const e = await createClient({ baseUrl: BASE, apiKey: null }).posts('event', M).catch((x) => x)
    assert.ok(e instanceof NetworkError, String(e))
    assert.equal(e.code, 'network')
  })

  it('§4.2 "Reads … send the session only when one exists"; the venue key travels as X-Venue-Key', async () => {
    const seen: [string | null, string | null][] = []
    server.use(http.get(BASE + PATHS.posts, ({ request }) => {
      seen.push([request.headers.get('authorization'), request.headers.get('x-venue-key')])
      return HttpResponse.json(THREAD)
    }))
    const c = createClient({ baseUrl: BASE, apiKey: KEY })
    await c.posts('event', M)
    c.setSession(SESSION)
    await c.posts('event', M)
    assert.deepEqual(seen, [
      [null, KEY],
      [`Bearer ${SESSION.token}`, KEY],
    ])
  })

  it('§1.4 "The client never sends a stance": createPost sends subject, body and nothing else', async () => {
    let sent: unknown
    server.use(http.post(BASE + PATHS.posts, async ({ request }) => {
      sent = await request.json()
      return HttpResponse.json({ post: { id: 'p_1' } }, { status: 201 })
    }))
    const c = createClient({ baseUrl: BASE, apiKey: null })
    c.setSession(SESSION)
    await c.createPost('event', M.toUpperCase().replace('0X', '0x'), 'Yes')
    assert.deepEqual(sent, { subjectType: 'event', subjectRef: M, body: 'Yes' })
  })

  it('§9.5 auth.signOut "ends the session on the service and in the client (in the client even when the service refuses)" and §7 "Every client write action throws on failure": a 500 or an unreachable service throws, and the client is signed out all the same (listener told once); answered, it resolves signed out', async () => {
    const GW = 'http://gateway.venuekit.test'
    const answers = [
      () => HttpResponse.json({ error: { code: 'internal', message: 'the service failed to answer; try again' } }, { status: 500 }),
      () => HttpResponse.error(),
      () => HttpResponse.json({ signedOut: true }),
    ]
    const sent: (string | null)[] = []
    server.use(http.post(GW + PATHS.authSignOut, ({ request }) => (sent.push(request.headers.get('authorization')), answers[sent.length - 1]())))
    const c = createClient({ baseUrl: BASE, gatewayUrl: GW, apiKey: null })
    const heard: (string | null)[] = []
    c.onSessionChange((s) => heard.push(s?.token ?? null))
    const outcomes = []
    for (let i = 0; i < answers.length; i++) {
      c.setSession(SESSION)
      outcomes.push(await c.auth.signOut().then(() => 'resolved', (e) => e))
      assert.equal(c.session, null, `signed out in the client (answer ${i + 1})`)
    }
    assert.ok(outcomes[0] instanceof HttpError && outcomes[0].status === 500 && outcomes[0].code === 'internal', String(outcomes[0]))
    assert.ok(outcomes[1] instanceof NetworkError, String(outcomes[1]))
    assert.equal(outcomes[2], 'resolved')
    assert.deepEqual(sent, Array(3).fill(`Bearer ${SESSION.token}`), 'each sign-out went to the service with the session')
    assert.deepEqual(heard, [SESSION.token, null, SESSION.token, null, SESSION.token, null], 'set, then signed out, each time')
    // Signed out: a write throws before any request.
    await assert.rejects(c.createPost('event', M, 'still me?'), (e: unknown) => e instanceof VenuekitError && e.code === 'unauthenticated')
  })

  it('auth calls go to the gateway address; data calls to the base address', async () => {
    const hosts: string[] = []
    const GW = 'http://gateway.venuekit.test'
    server.use(
      http.post(GW + PATHS.authNonce, () => (hosts.push('gw nonce'), HttpResponse.json({ nonce: 'n', message: 'sign me', expiresAt: '' }))),
      http.post(GW + PATHS.authVerify, async ({ request }) => {
        hosts.push('gw verify')
        const b = (await request.json()) as { message: string; signature: string; venueId?: string }
        assert.deepEqual(b, { message: 'sign me', signature: 'sig:sign me', venueId: 'acme-venue' })
        return HttpResponse.json(SESSION)
      }),
      http.get(BASE + PATHS.posts, () => (hosts.push('base read'), HttpResponse.json(THREAD))),
    )
    const c = createClient({ baseUrl: BASE, gatewayUrl: GW, apiKey: null, venueId: 'acme-venue' })
    const s = await c.auth.signIn({ address: SESSION.wallet, signMessage: (m) => `sig:${m}` })
    assert.equal(s.token, SESSION.token)
    await c.posts('event', M)
    assert.deepEqual(hosts, ['gw nonce', 'gw verify', 'base read'])
  })
})
