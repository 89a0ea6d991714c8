/**
 * Bad input to the SDK's public functions (§4.2, §9.5): every argument that can be checked locally is refused with a
 * `ValidationError` (a `VenuekitError` with code `validation`, naming the argument) before any request, never a raw
 * TypeError from inside the client, and never a request to an address the caller did not mean.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { PATHS } from '../../src/contract/paths.ts'
import { createClient, ValidationError, VenuekitError, type ClientConfig } from '../../src/sdk/index.ts'

const M = `0x${'ab'.repeat(32)}`
const SESSION = { token: `vks_${'c'.repeat(64)}`, expiresAt: '', accountId: 'a_1', wallet: `0x${'1'.repeat(40)}`, wallets: [], venueId: null, operator: false }
const THREAD = { posts: [], threads: {}, series: null, labels: {}, titles: {}, hasMore: false, nextCursor: null }

/** A fetch that records every address asked for and answers an empty thread page. */
const recorder = () => {
  const sent: string[] = []
  const fetchImpl = (async (url: string) => (sent.push(url), Response.json(THREAD))) as unknown as typeof fetch
  return { sent, fetchImpl }
}
const refused = (arg: string) => (e: unknown) => e instanceof ValidationError && e.code === 'validation' && e.argument === arg && e.message.startsWith(arg)

describe('SDK bad input', () => {
  it('§9.5 createClient(config): no config at all (createClient(), or null from JavaScript) is a ValidationError naming baseUrl, not a TypeError', () => {
    for (const config of [undefined, null]) assert.throws(() => createClient(config as unknown as ClientConfig), refused('baseUrl'), String(config))
  })

  it('§9.5 "baseUrl": an address with a query or a fragment is refused (the paths are appended to it: a read would go to the root with the path in the fragment, or into the query)', () => {
    for (const baseUrl of ['http://venuekit.test?x=1', 'http://venuekit.test#top', 'https://venuekit.test/api?', 'http://venuekit.test/#/']) {
      const { sent, fetchImpl } = recorder()
      assert.throws(() => createClient({ baseUrl, apiKey: null, fetchImpl }), refused('baseUrl'), baseUrl)
      assert.deepEqual(sent, [])
    }
    assert.throws(() => createClient({ baseUrl: 'http://venuekit.test', apiKey: null, gatewayUrl: 'http://gw.test?x' }), refused('gatewayUrl'))
    assert.throws(() => createClient({ baseUrl: 'http://venuekit.test', apiKey: null, streamUrl: 'ws://venuekit.test/stream#x' }), refused('streamUrl'))
  })

  it('§9.5 "baseUrl" (fast-check, 200 runs): any web address is either refused with a ValidationError, or every read goes to that address plus the operation\'s path', async () => {
    await fc.assert(
      fc.asyncProperty(fc.webUrl({ withQueryParameters: true, withFragments: true }), async (baseUrl) => {
        const { sent, fetchImpl } = recorder()
        let c
        try {
          c = createClient({ baseUrl, apiKey: null, fetchImpl })
        } catch (e) {
          assert.ok(refused('baseUrl')(e), String(e))
          return
        }
        await c.posts('event', M)
        const u = new URL(sent[0])
        assert.equal(sent[0].split('?')[0], baseUrl.replace(/\/+$/, '') + PATHS.posts, 'the read went to the base address plus its path')
        assert.deepEqual([...u.searchParams.keys()], ['subjectType', 'subjectRef'], 'only the read\'s own query')
        assert.equal(u.hash, '')
      }),
      { numRuns: 200, seed: 4242 },
    )
  })

  it('§9.5 onSessionChange(cb): a callback that is not a function is refused when given (a ValidationError), so it cannot break every later sign-in, sign-out or setSession', () => {
    const c = createClient({ baseUrl: 'http://venuekit.test', apiKey: null })
    for (const cb of [undefined, null, 5, 'cb', {}]) assert.throws(() => c.onSessionChange(cb as never), refused('callback'), String(cb))
    const heard: (string | null)[] = []
    c.onSessionChange((s) => heard.push(s?.token ?? null))
    c.setSession(SESSION)
    c.setSession(null)
    assert.deepEqual(heard, [SESSION.token, null])
  })

  it('§6.2 onComments: a WebSocketImpl that is not a constructor fails as no-websocket (a VenuekitError), not a TypeError from inside the stream', () => {
    for (const WebSocketImpl of ['ws', 5, {}]) {
      const c = createClient({ baseUrl: 'http://venuekit.test', apiKey: null, WebSocketImpl: WebSocketImpl as never })
      assert.throws(
        () => c.onComments('event', M, () => {}),
        (e: unknown) => e instanceof VenuekitError && e.code === 'no-websocket' && /WebSocketImpl/.test(e.message),
        String(WebSocketImpl),
      )
      c.close()
    }
  })

  it('§9.5 "fetchImpl": a fetchImpl that is not a function is refused by createClient (a ValidationError naming it), not a NetworkError at the first read', () => {
    for (const fetchImpl of [5, 'fetch', {}, true]) assert.throws(() => createClient({ baseUrl: 'http://venuekit.test', apiKey: null, fetchImpl: fetchImpl as never }), refused('fetchImpl'), String(fetchImpl))
    assert.doesNotThrow(() => createClient({ baseUrl: 'http://venuekit.test', apiKey: null, fetchImpl: undefined }))
  })

  it('§4.2 options: null as the options object of any operation (from JavaScript) is read as no options: the same request as with none, never a TypeError', async () => {
    const P = 'p_0123456789abc'
    const W = `0x${'2'.repeat(40)}`
    /** Every operation that takes an options object last, called with `o`. */
    const ops: Record<string, (c: ReturnType<typeof createClient>, o: never) => Promise<unknown>> = {
      posts: (c, o) => c.posts('event', M, o),
      postFeed: (c, o) => c.postFeed(o),
      replies: (c, o) => c.replies(P, o),
      postsByAuthor: (c, o) => c.postsByAuthor(W, o),
      forYou: (c, o) => c.forYou(o),
      myStance: (c, o) => c.myStance(M, o),
      createPost: (c, o) => c.createPost('event', M, 'why', null, o),
      editPost: (c, o) => c.editPost(P, 'edited', o),
      deletePost: (c, o) => c.deletePost(P, o),
      reactPost: (c, o) => c.reactPost(P, true, o),
      reportPost: (c, o) => c.reportPost(P, 'spam', o),
      block: (c, o) => c.block(W, o),
      unblock: (c, o) => c.unblock(W, o),
      'rooms.membership': (c, o) => c.rooms.membership('self', o),
      'rooms.board': (c, o) => c.rooms.board('self', o),
      'rooms.join': (c, o) => c.rooms.join('self', o),
      'rooms.leave': (c, o) => c.rooms.leave('self', o),
      'mod.queue': (c, o) => c.mod.queue(o),
      'mod.hide': (c, o) => c.mod.hide(P, o),
      'mod.pin': (c, o) => c.mod.pin(P, o),
      'mod.ban': (c, o) => c.mod.ban(W, o),
      'auth.me': (c, o) => c.auth.me(o),
      profiles: (c, o) => c.profiles([W], o),
      followState: (c, o) => c.followState('event', M, o),
      follow: (c, o) => c.follow('event', M, o),
      unfollow: (c, o) => c.unfollow('event', M, o),
      records: (c, o) => c.records([W], null, o),
      leaderboard: (c, o) => c.leaderboard(null, o),
      verdicts: (c, o) => c.verdicts([M], o),
      markets: (c, o) => c.markets([M], o),
      counts: (c, o) => c.counts('category', o),
    }
    /** What one call sends: method, address and body of every request. The answer's shape is not the point here. */
    const sentBy = async (call: (c: ReturnType<typeof createClient>) => Promise<unknown>) => {
      const sent: string[] = []
      const fetchImpl = (async (url: string, init?: RequestInit) => (sent.push(`${init?.method} ${url} ${init?.body ?? ''}`), Response.json(THREAD))) as unknown as typeof fetch
      const c = createClient({ baseUrl: 'http://venuekit.test', apiKey: null, venueId: 'venue-one', fetchImpl })
      c.setSession(SESSION)
      await call(c).catch((e: unknown) => assert.ok(!(e instanceof TypeError), `a TypeError: ${e}`))
      return sent
    }
    for (const [name, op] of Object.entries(ops)) {
      const none = await sentBy((c) => op(c, undefined as never))
      assert.equal(none.length, 1, `${name} sends one request`)
      assert.deepEqual(await sentBy((c) => op(c, null as never)), none, `${name}(…, null) sends what ${name}(…) sends`)
    }
    // onComments subscribes without a request: null options is the thread outside any room.
    const opened: string[] = []
    const c = createClient({
      baseUrl: 'http://venuekit.test',
      apiKey: null,
      WebSocketImpl: class {
        constructor(url: string) {
          opened.push(url)
        }
        close() {}
      } as never,
    })
    const off = c.onComments('event', M, () => {}, null)
    assert.equal(opened.length, 1)
    off()
    c.close()
  })
})
