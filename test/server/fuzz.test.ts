/**
 * Fuzz (issue 9): fast-check generates at least 10,000 requests across every route — wrong types, huge and
 * odd strings, unknown params, bad ids, forged cursors, bad tokens and keys, odd headers and bodies — and
 * sends them to a real service in batches of 10 concurrent requests. The service must answer every one
 * without a 5xx, and with no unhandled rejection; every 4xx carries `{error:{code, message}}`.
 * Env: VK_FUZZ_RUNS (batches of 10, default 1500), VK_FUZZ_SEED (replay a failure).
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { Buffer } from 'node:buffer'
import { PATHS, SERVICE_PATHS } from '../../src/contract/paths.ts'
import { randomHex } from '../../src/core/ids.ts'
import { addMarket, call, newMarketId, newWallet, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'
import { claimVenue, createRoom, newVenueId, type Venue } from '../helpers/venues.ts'

const BATCH = 10
const RUNS = Number(process.env.VK_FUZZ_RUNS ?? 1500)

let svc: TestService
const operator = newWallet()
let A: TestUser, B: TestUser, O: TestUser
let venue: Venue
let market: string
const posts: string[] = []
let rooms: string[] = []
let revoked: string
const disposable: string[] = []

const problems: string[] = []
const onRejection = (e: unknown) => problems.push(`unhandled rejection: ${String(e)}`)
const onException = (e: unknown) => problems.push(`uncaught exception: ${String(e)}`)

before(async () => {
  process.on('unhandledRejection', onRejection)
  process.on('uncaughtException', onException)
  // Rate limits on, far above what the fuzzer sends, so the middleware parses every odd header too.
  svc = await startTestService({ operators: [operator.address], rateLimits: { perAccount: 1e9, perKey: 1e9, perIp: 1e9, signInPerIp: 1e9, trustProxy: true } })
  A = await signIn(svc)
  B = await signIn(svc)
  O = await signIn(svc, operator)
  venue = await claimVenue(svc, newVenueId(), A)
  const m = await addMarket(svc)
  market = m.id
  await svc.chain.setPosition(A.wallet, market, 0, 5_000_000n)
  rooms = [venue.selfRoomId, await createRoom(svc, venue), await createRoom(svc, venue, { visibility: 'private' })]
  for (let i = 0; i < 6; i++) {
    const author = i % 2 ? A : B
    const r = await call(svc, 'POST', PATHS.posts, { token: author.token, body: { subjectType: 'event', subjectRef: market, body: `fixture post ${i}` } })
    assert.equal(r.status, 201, JSON.stringify(r.body))
    posts.push(r.body.post.id)
  }
  const reply = await call(svc, 'POST', PATHS.posts, { token: A.token, body: { subjectType: 'event', subjectRef: market, body: 'a reply', parentId: posts[0] } })
  posts.push(reply.body.post.id)
  const gone = await signIn(svc)
  await call(svc, 'POST', PATHS.authSignOut, { token: gone.token })
  revoked = gone.token
  for (let i = 0; i < 5; i++) disposable.push((await signIn(svc, B.account)).token)
})

after(async () => {
  await svc.close()
  process.off('unhandledRejection', onRejection)
  process.off('uncaughtException', onException)
})

// ---------------------------------------------------------------------------------------------------
// Values

const ascii = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 })
/** Strings a header can carry (fetch refuses control characters and non-Latin-1). */
const headerValue = fc.oneof(ascii, fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((c) => c !== 0x7f).map((c) => String.fromCharCode(c)), maxLength: 60 }))
const oddStrings = fc.constantFrom(
  '', ' ', '\u0000', 'a\u0000b', '\ud800', '\udfff', '\u202e', '\ufeff', '𝕏𝕏𝕏', 'é', 'ß', '🙂', '../../etc/passwd', "' or 1=1 --", '%00', '%', '%E0%A4%A',
  '%zz', 'null', 'undefined', 'NaN', 'Infinity', '-1', '0', '-0', '1.5', '1e309', '9'.repeat(19), '9'.repeat(20), '9'.repeat(30), '0x', `0x${'g'.repeat(64)}`, `0x${'A'.repeat(64)}`,
  '<script>alert(1)</script>', '\\', '"', "'", '__proto__', 'constructor', 'true', 'false', '[]', '{}', 'self', 'global', ',', ',,', 'a,b',
  'p_', 'r_', 'pck_', 'vks_', `vks_${'0'.repeat(64)}`, `pck_${'f'.repeat(64)}`, 'Bearer', '\t', '\n', '\r\n',
)
/** Long strings; `max` keeps URLs under Node's header limit. */
const long = (max: number) => fc.tuple(fc.integer({ min: Math.min(100, max), max }), fc.constantFrom('x', 'é', '𝕏', '\u0000', ' ', '%', 'a,')).map(([n, ch]) => ch.repeat(Math.ceil(n / ch.length)))
const anyString = (longMax = 3000) =>
  fc
    .tuple(
      fc.oneof(
        { weight: 3, arbitrary: ascii },
        { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
        { weight: 3, arbitrary: oddStrings },
        { weight: 1, arbitrary: long(longMax) },
      ),
      fc.nat(9),
    )
    // One string in five carries a NUL or a lone surrogate, which PostgreSQL text refuses or rewrites.
    .map(([s, n]) => (n === 0 ? `${s}\u0000` : n === 1 ? `\u0000${s}` : n === 2 ? `${s}\ud800` : s))
const jsonish: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: anyString(70_000) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER, 2 ** 63, true, false, null, [], {}, [null], { a: 1 }) },
)

/** A forged cursor: valid base64url of a JSON tuple with odd members, often in a shape some read issues. */
const cursorMember = fc.oneof(fc.double(), fc.integer(), anyString(200), fc.constant(null), fc.constantFrom(1e308, -1e308, 0, -0))
const cursorNumber = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e308, -1e308, 0, 2 ** 63))
const forgedCursor = fc
  .oneof(
    fc.array(cursorMember, { maxLength: 4 }),
    fc.tuple(cursorNumber, anyString(200)),
    fc.tuple(cursorNumber, cursorNumber, anyString(200)),
    fc.tuple(anyString(200)),
    fc.tuple(anyString(200), anyString(200)),
    fc.tuple(cursorNumber, anyString(200), anyString(200)),
  )
  .map((t) => Buffer.from(JSON.stringify(t)).toString('base64url'))

// Fixture-aware values (functions: fixtures exist only once `before` ran).
const pick = <T>(f: () => T[]) => fc.nat().map((i) => f()[i % f().length])
const postId = () => fc.oneof(pick(() => posts), fc.constant(`p_${randomHex(8)}`), anyString(2000))
const wallet = () => fc.oneof(pick(() => [A.wallet, B.wallet, O.wallet, A.wallet.toUpperCase().replace('0X', '0x')]), fc.constant(newWallet().address), anyString(2000))
const venueIdV = () => fc.oneof(fc.constant(venue.venueId), fc.constant(newVenueId()), fc.constantFrom('demo', 'studio', 'prophecy-x1'), anyString(2000))
const roomV = () => fc.oneof(pick(() => rooms), fc.constantFrom('self', `r_${randomHex(4)}`), anyString(2000))
const subjectType = fc.oneof(fc.constantFrom('event', 'category', 'topic', 'series', 'country', 'org', 'brand'), anyString(200))
const subjectRef = () => fc.oneof(fc.constant(market), fc.constant(newMarketId()), fc.constantFrom('crypto', 'weather', 'chatter', venue.venueId), anyString(2000))
const marketList = () =>
  fc.oneof(
    fc.array(fc.oneof(fc.constant(market), fc.constant(newMarketId()), anyString(100)), { maxLength: 120 }).map((xs) => xs.join(',')),
    anyString(3000),
  )
const walletList = () => fc.oneof(fc.array(wallet(), { maxLength: 30 }).map((xs) => xs.join(',')), anyString(3000))
const limitV = fc.oneof(fc.constantFrom('1', '20', '100', '101', '0', '-5', '1.5', '1e2', ' 20', '0020', '99999'), anyString(100))
const boolV = fc.oneof(fc.constantFrom('true', 'false', 'TRUE', '1', '0', 'yes'), anyString(100))
const cursorV = fc.oneof(forgedCursor, anyString(500))

/** Query values by parameter name (unknown names get any string). */
const queryValue = (name: string): fc.Arbitrary<string> => {
  const by: Record<string, () => fc.Arbitrary<string>> = {
    limit: () => limitV,
    cursor: () => cursorV,
    before: () => postId(),
    includeReplies: () => boolV,
    includeSeries: () => boolV,
    takes: () => boolV,
    subjectType: () => subjectType,
    subjectRef: () => subjectRef(),
    venue: () => venueIdV(),
    venueId: () => venueIdV(),
    room: () => roomV(),
    scope: () => fc.oneof(fc.constantFrom('global', 'following', 'subject', 'category:crypto', 'topic:chatter'), anyString(300)),
    sort: () => fc.oneof(fc.constantFrom('live', 'record', 'new'), anyString(100)),
    ids: () => marketList(),
    wallets: () => walletList(),
    by: () => fc.oneof(fc.constantFrom('category', 'topic', 'org', 'brand', 'country', 'series'), anyString(100)),
    facet: () => fc.oneof(fc.constantFrom('category:crypto', 'global', '*', 'event:x'), anyString(300)),
    state: () => fc.oneof(fc.constantFrom('open', 'actioned'), anyString(100)),
    days: () => fc.oneof(fc.constantFrom('1', '30', '366', '367', '0'), anyString(100)),
  }
  return (by[name] ?? (() => anyString(500)))()
}

/** Body field values by field name: plausible values, other types, odd and huge strings. */
const fieldValue = (name: string): fc.Arbitrary<unknown> => {
  const by: Record<string, () => fc.Arbitrary<unknown>> = {
    address: () => wallet(),
    wallet: () => wallet(),
    subjectType: () => subjectType,
    subjectRef: () => subjectRef(),
    body: () => fc.oneof(fc.constantFrom('a fine post', '  ', 'x'.repeat(2000), 'x'.repeat(2001)), anyString(70_000)),
    parentId: () => postId(),
    postId: () => postId(),
    room: () => roomV(),
    venueId: () => venueIdV(),
    kind: () => fc.oneof(fc.constant('agree'), anyString(100)),
    active: () => fc.oneof(fc.boolean(), fc.constantFrom('true', 1, 0)),
    pinned: () => fc.oneof(fc.boolean(), fc.constantFrom('true', 1)),
    reason: () => fc.oneof(fc.constantFrom('spam', 'x'.repeat(501)), anyString(70_000)),
    scopes: () => fc.oneof(fc.subarray(['read', 'trade', 'admin', 'write']), fc.array(jsonish, { maxLength: 10 })),
    label: () => fc.oneof(fc.constant('web'), anyString(5000)),
    visibility: () => fc.oneof(fc.constantFrom('public', 'private'), anyString(100)),
    title: () => fc.oneof(fc.constant('A room'), anyString(5000)),
    self: () => fc.boolean(),
    name: () => fc.oneof(fc.constant('Ada'), anyString(5000)),
    avatarUrl: () => fc.oneof(fc.constantFrom('https://example.com/a.png', 'https://example.com/a\u0000.png', 'https://example.com/?q=\u0000', 'javascript:alert(1)', 'http://'), anyString(2000)),
    message: () => fc.oneof(fc.constant('venuekit wants you to sign in'), anyString(10_000)),
    signature: () => fc.oneof(fc.constant(`0x${'ab'.repeat(65)}`), fc.constant(`0x${'0'.repeat(130)}`), anyString(500)),
    origins: () => fc.oneof(fc.array(fc.oneof(fc.constantFrom('https://shop.example', 'http://localhost:5173', 'https://a.example/x', 'https://a\u0000b.example', 'https://xn--a.example:0'), anyString(400)), { maxLength: 60 }), jsonish),
  }
  return fc.oneof({ weight: 3, arbitrary: (by[name] ?? (() => jsonish))() }, { weight: 1, arbitrary: jsonish })
}

// ---------------------------------------------------------------------------------------------------
// Routes: every route the service mounts, with its path parameters, query names and body fields.

interface Route {
  method: string
  path: () => fc.Arbitrary<string>
  query?: readonly string[]
  body?: readonly string[]
  /** A valid body; the generator sends it as is or with one field replaced, dropped or added. */
  valid?: () => fc.Arbitrary<Record<string, unknown>>
  /** A valid query, likewise. */
  validQuery?: () => fc.Arbitrary<Record<string, string>>
  /** Tokens for this route (sign-out gets disposable sessions only). */
  tokens?: () => string[]
}
const seg = (a: fc.Arbitrary<string>) => a.map((s) => enc(s))
function enc(s: string): string {
  try {
    return encodeURIComponent(s)
  } catch {
    return encodeURIComponent(s.replace(/[\ud800-\udfff]/g, '?'))
  }
}
const fixed = (p: string) => () => fc.constant(p)
const ROUTES: Route[] = [
  { method: 'GET', path: fixed(SERVICE_PATHS.health) },
  { method: 'POST', path: fixed(PATHS.authNonce), body: ['address'], valid: () => fc.record({ address: fc.constant(newWallet().address) }) },
  { method: 'POST', path: fixed(PATHS.authVerify), body: ['message', 'signature', 'venueId'] },
  { method: 'POST', path: fixed(PATHS.authLink), body: ['message', 'signature'] },
  { method: 'POST', path: fixed(PATHS.authSignOut), tokens: () => disposable },
  { method: 'GET', path: fixed(PATHS.me) },
  { method: 'GET', path: () => seg(fc.oneof(fc.constant(market), fc.constant(newMarketId()), anyString(200))).map((id) => `/v1/me/stance/${id}`) },
  { method: 'PUT', path: fixed(SERVICE_PATHS.myProfile), body: ['name', 'avatarUrl'], valid: () => fc.record({ name: fc.constantFrom('Ada', 'Bo'), avatarUrl: fc.constant('https://example.com/a.png') }, { requiredKeys: [] }) },
  {
    method: 'POST',
    path: fixed(PATHS.posts),
    body: ['subjectType', 'subjectRef', 'body', 'parentId', 'room', 'stance'],
    valid: () =>
      fc.oneof(
        fc.record({ subjectType: fc.constant('event'), subjectRef: fc.constant(market), body: fc.constant('a take') }),
        fc.record({ subjectType: fc.constant('event'), subjectRef: fc.constant(market), body: fc.constant('a reply'), parentId: postId() }),
        fc.record({ subjectType: fc.constant('topic'), subjectRef: fc.constantFrom('chatter', 'crypto'), body: fc.constant('hello'), room: roomV() }),
      ),
  },
  {
    method: 'GET',
    path: fixed(PATHS.posts),
    query: ['subjectType', 'subjectRef', 'includeReplies', 'includeSeries', 'limit', 'cursor', 'venue', 'room'],
    validQuery: () => fc.record({ subjectType: fc.constant('event'), subjectRef: fc.constant(market), includeReplies: boolV, limit: limitV }, { requiredKeys: ['subjectType', 'subjectRef'] }),
  },
  {
    method: 'GET',
    path: fixed(PATHS.feed),
    query: ['scope', 'subjectType', 'subjectRef', 'venue', 'room', 'sort', 'limit', 'cursor', 'author'],
    validQuery: () =>
      fc.oneof(
        fc.record({ sort: fc.constantFrom('live', 'record'), limit: limitV, cursor: cursorV }, { requiredKeys: [] }),
        fc.record({ subjectType: fc.constantFrom('event', 'category'), subjectRef: fc.constantFrom(market, 'weather'), sort: fc.constantFrom('live', 'record'), room: roomV() }, { requiredKeys: ['subjectType', 'subjectRef'] }),
        fc.record({ scope: fc.constant('following'), venue: venueIdV() }, { requiredKeys: ['scope'] }),
      ),
  },
  { method: 'PATCH', path: () => seg(postId()).map((id) => `/v1/social/posts/${id}`), body: ['body', 'stance'], valid: () => fc.record({ body: fc.constant('edited') }) },
  { method: 'DELETE', path: () => seg(postId()).map((id) => `/v1/social/posts/${id}`) },
  { method: 'POST', path: () => seg(postId()).map((id) => `/v1/social/posts/${id}/reactions`), body: ['kind', 'active'], valid: () => fc.record({ kind: fc.constant('agree'), active: fc.boolean() }) },
  {
    method: 'GET',
    path: () => seg(postId()).map((id) => `/v1/social/posts/${id}/replies`),
    query: ['before', 'limit', 'venue'],
    validQuery: () => fc.record({ before: pick(() => posts), limit: limitV, venue: venueIdV() }, { requiredKeys: [] }),
  },
  { method: 'POST', path: () => seg(postId()).map((id) => `/v1/social/posts/${id}/reports`), body: ['reason'], valid: () => fc.record({ reason: fc.constant('spam') }) },
  { method: 'POST', path: fixed(PATHS.blocks), body: ['wallet'], valid: () => fc.record({ wallet: wallet() }) },
  { method: 'DELETE', path: () => seg(wallet()).map((w) => `/v1/social/blocks/${w}`) },
  { method: 'GET', path: () => seg(wallet()).map((w) => `/v1/social/profile/${w}/posts`), query: ['takes', 'includeReplies', 'venue', 'limit', 'cursor'] },
  { method: 'GET', path: fixed(PATHS.profiles), query: ['wallets'], validQuery: () => fc.record({ wallets: pick(() => [A.wallet, `${A.wallet},${B.wallet}`]) }) },
  ...['GET', 'PUT', 'DELETE'].map((method) => ({ method, path: () => fc.tuple(seg(subjectType), seg(subjectRef())).map(([t, r]) => `/v1/social/follows/${t}/${r}`) })),
  {
    method: 'GET',
    path: fixed(PATHS.forYou),
    query: ['room', 'subjectType', 'subjectRef', 'limit'],
    validQuery: () => fc.record({ subjectType: fc.constant('category'), subjectRef: fc.constant('weather'), limit: limitV, room: roomV() }, { requiredKeys: [] }),
  },
  { method: 'GET', path: fixed(PATHS.takeCounts), query: ['ids', 'venue'], validQuery: () => fc.record({ ids: fc.constant(`${market},${newMarketId()}`), venue: venueIdV() }, { requiredKeys: ['ids'] }) },
  { method: 'GET', path: fixed(PATHS.counts), query: ['by'], validQuery: () => fc.record({ by: fc.constantFrom('category', 'topic', 'org', 'brand') }) },
  { method: 'GET', path: fixed(PATHS.markets), query: ['ids'], validQuery: () => fc.record({ ids: fc.constant(market) }) },
  { method: 'GET', path: () => seg(fc.oneof(fc.constant(market), fc.constant(newMarketId()), anyString(500).map((s) => `0x${s}`))).map((id) => `/v1/markets/${id}`) },
  { method: 'GET', path: fixed(PATHS.verdicts), query: ['ids'], validQuery: () => fc.record({ ids: fc.constant(market) }) },
  { method: 'GET', path: fixed(PATHS.records), query: ['wallets', 'facet'], validQuery: () => fc.record({ wallets: fc.constant(A.wallet), facet: fc.constantFrom('category:weather', 'global') }, { requiredKeys: ['wallets'] }) },
  { method: 'GET', path: fixed(PATHS.leaderboard), query: ['scope', 'limit', 'cursor'], validQuery: () => fc.record({ scope: fc.constantFrom('global', 'category:weather'), limit: limitV, cursor: cursorV }, { requiredKeys: ['scope'] }) },
  {
    method: 'POST',
    path: fixed(SERVICE_PATHS.rooms),
    body: ['venueId', 'subjectType', 'subjectRef', 'visibility', 'title', 'self'],
    valid: () => fc.record({ venueId: venueIdV(), subjectType: fc.constant('topic'), subjectRef: fc.constantFrom('chatter', 'fuzz'), visibility: fc.constantFrom('public', 'private'), title: fc.constant('Room') }),
  },
  { method: 'GET', path: fixed(SERVICE_PATHS.rooms), query: ['venueId'], validQuery: () => fc.record({ venueId: venueIdV() }) },
  { method: 'GET', path: () => seg(roomV()).map((r) => `/v1/rooms/${r}`) },
  { method: 'GET', path: () => seg(roomV()).map((r) => `/v1/rooms/${r}/membership`) },
  { method: 'POST', path: () => seg(roomV()).map((r) => `/v1/rooms/${r}/join`) },
  { method: 'POST', path: () => seg(roomV()).map((r) => `/v1/rooms/${r}/leave`) },
  ...['PUT', 'DELETE'].map((method) => ({ method, path: () => fc.tuple(seg(roomV()), seg(wallet())).map(([r, w]) => `/v1/rooms/${r}/members/${w}`) })),
  { method: 'GET', path: () => seg(roomV()).map((r) => `/v1/rooms/${r}/board`), query: ['limit', 'cursor'] },
  { method: 'GET', path: fixed(PATHS.modQueue), query: ['venueId', 'state', 'limit', 'cursor'], validQuery: () => fc.record({ venueId: venueIdV(), state: fc.constantFrom('open', 'actioned'), cursor: cursorV }, { requiredKeys: [] }) },
  { method: 'GET', path: fixed(SERVICE_PATHS.modAudit), query: ['venueId', 'limit', 'cursor'], validQuery: () => fc.record({ venueId: venueIdV(), cursor: cursorV }, { requiredKeys: [] }) },
  {
    method: 'POST',
    path: () => seg(fc.oneof(fc.constantFrom('keep', 'hide', 'pin', 'clear', 'ban', 'unban', 'remove', 'restore'), anyString(200))).map((a) => `/v1/mod/${a}`),
    body: ['venueId', 'postId', 'wallet', 'pinned'],
    valid: () => fc.record({ venueId: venueIdV(), postId: postId(), wallet: wallet(), pinned: fc.boolean() }, { requiredKeys: [] }),
  },
  {
    method: 'POST',
    path: fixed(SERVICE_PATHS.adminKeys),
    body: ['venueId', 'scopes', 'label'],
    valid: () => fc.record({ venueId: venueIdV(), scopes: fc.constantFrom(['read'], ['read', 'trade']), label: fc.constant('fuzz') }),
  },
  { method: 'GET', path: () => seg(venueIdV()).map((v) => `/v1/venues/${v}/usage`), query: ['days'], validQuery: () => fc.record({ days: fc.constantFrom('1', '30') }, { requiredKeys: [] }) },
  { method: 'GET', path: fixed(SERVICE_PATHS.sponsorship) },
  { method: 'GET', path: () => seg(venueIdV()).map((v) => `/v1/venues/${v}/origins`) },
  {
    method: 'PUT',
    path: () => seg(venueIdV()).map((v) => `/v1/venues/${v}/origins`),
    body: ['origins'],
    valid: () => fc.record({ origins: fc.constantFrom([], ['https://shop.example', 'http://localhost:5173']) }),
  },
  { method: 'GET', path: () => seg(venueIdV()).map((v) => `/v1/venues/${v}/keys`) },
  {
    method: 'DELETE',
    path: () => fc.tuple(seg(venueIdV()), seg(fc.oneof(fc.constantFrom('k_nothing', 'k_', 'k_0000000000'), anyString(80)))).map(([v, k]) => `/v1/venues/${v}/keys/${k}`),
  },
  { method: 'GET', path: fixed(PATHS.stream) },
  // Unknown paths, wrong methods, raw (unencoded) odd paths.
  {
    method: 'GET',
    path: () =>
      fc.oneof(
        seg(anyString(2000)).map((s) => `/v1/${s}`),
        fc.constantFrom('/v1/social/posts/%E0%A4%A', '/v1/social/posts/%', '/v1/rooms/%zz/board', '/v1/social/profile/%00/posts', '/v1/markets/0x%ff', '/v1//social//posts', '/v1/social/posts/..%2F..%2F', '/v2/x', '/'),
      ),
  },
]

interface Req {
  method: string
  path: string
  query: [string, string][]
  headers: Record<string, string>
  body?: string
}

const tokenFor = (route: Route) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: pick(() => (route.tokens ? route.tokens() : [A.token, B.token, O.token])).map((t) => `Bearer ${t}`) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${revoked}`) },
    { weight: 2, arbitrary: fc.oneof(fc.constantFrom('Bearer', 'Bearer ', `Bearer vks_${'0'.repeat(64)}`, `bearer ${randomHex(4)}`, 'Basic YTpi', `Bearer vks_${'Z'.repeat(64)}`), headerValue.map((s) => `Bearer ${s}`), headerValue) },
  )
const keyHeader = fc.oneof(
  { weight: 5, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constant('VALID') },
  { weight: 2, arbitrary: fc.oneof(fc.constant(`pck_${'0'.repeat(64)}`), fc.constant(`pck_${'A'.repeat(64)}`), headerValue) },
)

/** The object as is (half the time), or with one field replaced by any value for it, dropped, or an unknown one added. */
function mutateOne<T>(v: Record<string, T>, valueFor: (name: string) => fc.Arbitrary<T>): fc.Arbitrary<Record<string, T>> {
  const keys = Object.keys(v)
  const ops: fc.WeightedArbitrary<Record<string, T>>[] = [{ weight: 2, arbitrary: fc.constant(v) }]
  if (keys.length) {
    ops.push({ weight: 4, arbitrary: fc.constantFrom(...keys).chain((k) => valueFor(k).map((x) => ({ ...v, [k]: x }))) })
    ops.push({ weight: 1, arbitrary: fc.constantFrom(...keys).map((k) => Object.fromEntries(Object.entries(v).filter(([n]) => n !== k))) })
  }
  ops.push({ weight: 1, arbitrary: fc.tuple(fc.oneof(ascii, fc.constantFrom('stance', 'author', '__proto__')), valueFor('?')).map(([k, x]) => ({ ...v, [k]: x })) })
  return fc.oneof(...ops)
}

function bodyFor(route: Route): fc.Arbitrary<string | undefined> {
  const fields = route.body ?? []
  const record = fc
    .tuple(
      fc.record(Object.fromEntries(fields.map((f) => [f, fieldValue(f)])), { requiredKeys: [] }),
      fc.option(fc.dictionary(fc.oneof(ascii, fc.constantFrom('__proto__', 'constructor', 'stance', '')), jsonish, { maxKeys: 3 }), { nil: undefined }),
    )
    .map(([r, extra]) => JSON.stringify(extra ? { ...r, ...extra } : r))
  const mutated = route.valid ? route.valid().chain((v) => mutateOne(v, fieldValue)).map((v) => JSON.stringify(v)) : record
  return fc.oneof(
    { weight: route.valid ? 12 : 0, arbitrary: mutated },
    { weight: fields.length ? 5 : 1, arbitrary: record },
    { weight: 2, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        fc.constantFrom('', ' ', 'not json', '{', '{"a":', '[]', 'null', '123', '"str"', 'true', '{"__proto__":{"x":1}}', '\u0000', '{"body":"\\u0000"}'),
        jsonish.map((v) => JSON.stringify(v) ?? ''),
        fc.integer({ min: 1, max: 3 }).map((n) => '['.repeat(n * 10_000)),
        fc.constant(JSON.stringify({ body: 'x'.repeat(70_000) })),
      ),
    },
  )
}

const requestArb: fc.Arbitrary<Req> = fc.constantFrom(...ROUTES).chain((route) =>
  fc
    .record({
      method: fc.oneof({ weight: 12, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD') }),
      path: route.path(),
      query: fc.oneof(
        {
          weight: route.validQuery ? 5 : 0,
          arbitrary: route.validQuery
            ? route.validQuery().chain((q) => mutateOne(q, queryValue)).map((q) => Object.entries(q).filter((e): e is [string, string] => typeof e[1] === 'string'))
            : fc.constant([] as [string, string][]),
        },
        { weight: 4, arbitrary: fc.array(fc.constantFrom(...(route.query?.length ? route.query : ['x'])).chain((n) => fc.tuple(fc.constant(n), queryValue(n))), { maxLength: 5 }) },
        { weight: 1, arbitrary: fc.array(fc.tuple(anyString(200), anyString(500)), { maxLength: 3 }) },
      ),
      auth: tokenFor(route),
      key: keyHeader,
      contentType: fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom(undefined, 'text/plain', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/x-www-form-urlencoded') }),
      forwarded: fc.option(headerValue, { nil: undefined, freq: 3 }),
      origin: fc.option(fc.oneof(fc.constantFrom('https://shop.example', 'null', 'http://localhost:5173'), headerValue), { nil: undefined, freq: 3 }),
      body: bodyFor(route),
    })
    .map((r) => {
      const headers: Record<string, string> = {}
      if (r.auth !== undefined) headers.authorization = r.auth
      if (r.key !== undefined) headers['x-venue-key'] = r.key === 'VALID' ? venue.key : r.key
      if (r.forwarded !== undefined) headers['x-forwarded-for'] = r.forwarded
      if (r.origin !== undefined) headers.origin = r.origin
      if (r.body !== undefined && r.contentType) headers['content-type'] = r.contentType
      const body = r.method === 'GET' || r.method === 'HEAD' ? undefined : r.body
      return { method: r.method, path: r.path, query: r.query, headers, body }
    }),
)

// ---------------------------------------------------------------------------------------------------

let sent = 0
const statuses = new Map<number, number>()

async function send(req: Req): Promise<string | null> {
  const qs = req.query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&')
  const url = `${svc.url}${req.path}${qs ? `?${qs}` : ''}`
  let res: Response
  try {
    res = await fetch(url, { method: req.method, headers: req.headers, body: req.body })
  } catch (e) {
    // The client refused to send it (e.g. a header fetch does not allow): not the service's answer.
    if (e instanceof TypeError && !/fetch failed/.test(e.message)) return null
    return `${req.method} ${url.slice(0, 300)}: request failed: ${(e as Error).message} ${String((e as { cause?: unknown }).cause ?? '')}`
  }
  sent++
  statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
  const text = await res.text()
  if (process.env.VK_FUZZ_DEBUG && req.path === process.env.VK_FUZZ_DEBUG) console.log('DBG', req.method, res.status, text.slice(0, 160), JSON.stringify(req.headers).slice(0, 120), (req.body ?? '').slice(0, 100))
  const where = `${req.method} ${url.slice(0, 300)} ${JSON.stringify(req.headers).slice(0, 200)} body=${(req.body ?? '').slice(0, 200)}`
  if (res.status >= 500) return `${res.status} for ${where}: ${text.slice(0, 300)}`
  if (res.status >= 400 && req.method !== 'HEAD') {
    let body: { error?: { code?: unknown; message?: unknown } } | null = null
    try {
      body = JSON.parse(text)
    } catch {}
    const e = body?.error
    if (!e || typeof e.code !== 'string' || !/^[a-z]+(-[a-z]+)*$/.test(e.code) || typeof e.message !== 'string' || !e.message.trim())
      return `${res.status} without {error:{code,message}} for ${where}: ${text.slice(0, 300)}`
  }
  return null
}

describe('fuzz: every route, generated requests', () => {
  it(`"no 5xx and no unhandled rejection, and every 4xx carries a code and a message" over at least 10,000 requests`, { timeout: 240_000 }, async () => {
    const t0 = Date.now()
    await fc.assert(
      fc.asyncProperty(fc.array(requestArb, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const failures = (await Promise.all(batch.map(send))).filter((x): x is string => x !== null)
        if (failures.length) {
          console.error(`fuzz failure:\n${failures.join('\n')}`)
          throw new Error(failures.join('\n'))
        }
        if (problems.length) throw new Error(problems.join('\n'))
      }),
      { numRuns: RUNS, seed: process.env.VK_FUZZ_SEED ? Number(process.env.VK_FUZZ_SEED) : undefined, endOnFailure: !!process.env.CI },
    )
    const seconds = (Date.now() - t0) / 1000
    const summary = [...statuses.entries()].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`).join(' ')
    console.log(`fuzz: ${sent} requests in ${seconds.toFixed(1)} s (${svc.ctx.store.kind}); statuses ${summary}`)
    assert.deepEqual(problems, [])
    if (RUNS >= 1000) assert.ok(sent >= 10_000, `only ${sent} requests reached the service`)
    // The generator reaches the service's answers, not only its refusals.
    assert.ok((statuses.get(200) ?? 0) + (statuses.get(201) ?? 0) > sent / 20, `too few successful answers: ${summary}`)
  })
})
