/**
 * The authorisation matrix (§5.2, §5.5–5.7, §3.3, §7): every write and moderation route of venues,
 * rooms and moderation, run by each kind of caller, against a fresh world per route. For each call the
 * expected status (and error code) is asserted, and wherever the answer is a refusal the store is
 * compared before and after: nothing may change. The writes that name a post (agree, report, reply,
 * moderation), and the read of a post's earlier replies, are run against a post in the private room too:
 * §7's 404 for outsiders holds for them.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { MSG } from '../../src/contract/errors.ts'
import { call, newWallet, signIn, startTestService, type CallResult, type TestService, type TestUser } from '../helpers/service.ts'
import { claimVenue, createRoom, newVenueId, post, type Venue } from '../helpers/venues.ts'

let svc: TestService
let opAccount: ReturnType<typeof newWallet>
before(async () => {
  opAccount = newWallet()
  svc = await startTestService({ operators: [opAccount.address] })
})
after(() => svc.close())

const CALLERS = ['signedOut', 'otherOwner', 'banned', 'leftMember', 'privateOutsider', 'owner', 'operator'] as const
type CallerName = (typeof CALLERS)[number]

interface World {
  v: Venue
  w: Venue
  pub: string
  priv: string
  postId: string
  /** A post in the private room, written by `privMember`. */
  privPostId: string
  privMember: TestUser
  target: TestUser
  globallyBanned: TestUser
  callers: Record<CallerName, TestUser | undefined>
}

const ok = (status: number, r: CallResult) => r.status === status

async function world(): Promise<World> {
  const v = await claimVenue(svc)
  const w = await claimVenue(svc)
  const pub = await createRoom(svc, v, { subjectType: 'category', subjectRef: `authz-${v.venueId}` })
  const priv = await createRoom(svc, v, { subjectType: 'topic', subjectRef: `authz-${v.venueId}`, visibility: 'private' })
  const [poster, banned, leftMember, privateOutsider, privMember, target, globallyBanned] = await Promise.all(
    [1, 2, 3, 4, 5, 6, 7].map(() => signIn(svc, undefined, v.venueId)),
  )
  const operator = await signIn(svc, opAccount)
  for (const u of [poster, banned, leftMember]) assert.ok(ok(200, await call(svc, 'POST', `/v1/rooms/${pub}/join`, { token: u.token })))
  assert.ok(ok(200, await call(svc, 'POST', `/v1/rooms/${pub}/leave`, { token: leftMember.token })))
  assert.ok(ok(200, await call(svc, 'PUT', `/v1/rooms/${priv}/members/${privMember.wallet}`, { token: v.owner.token })))
  const p = await post(svc, poster, { room: pub })
  assert.equal(p.status, 201)
  const pp = await post(svc, privMember, { room: priv, subjectType: 'topic', subjectRef: `authz-${v.venueId}` })
  assert.equal(pp.status, 201, JSON.stringify(pp.body))
  assert.ok(ok(200, await call(svc, 'POST', '/v1/mod/ban', { token: v.owner.token, body: { venueId: v.venueId, wallet: banned.wallet } })))
  assert.ok(ok(200, await call(svc, 'POST', '/v1/mod/ban', { token: operator.token, body: { wallet: globallyBanned.wallet } })))
  return {
    v,
    w,
    pub,
    priv,
    postId: p.body.post.id,
    privPostId: pp.body.post.id,
    privMember,
    target,
    globallyBanned,
    callers: { signedOut: undefined, otherOwner: w.owner, banned, leftMember, privateOutsider, owner: v.owner, operator },
  }
}

/** Every table but sessions, nonces and usage, as sorted JSON rows. */
async function snapshot(): Promise<Record<string, string>> {
  const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in ('sessions', 'auth_nonces', 'venue_usage')
    and table_name not like 'kysely%' order by table_name`.execute(svc.ctx.db)
  const out: Record<string, string> = {}
  for (const t of tables.rows) {
    const r = await sql<{ j: string }>`select coalesce(json_agg(x order by x::text)::text, '[]') as j from ${sql.table(t.table_name)} x`.execute(svc.ctx.db)
    out[t.table_name] = r.rows[0].j
  }
  return out
}

/** Expected outcome: a status with an error code (and the exact message, where the spec gives it), a success, or the private-room join answer. */
type Expect = { status: number; code?: string; message?: string; refused?: boolean }
const E = {
  unauth: { status: 401, code: 'unauthenticated' },
  forbidden: { status: 403, code: 'forbidden' },
  cannotModerate: { status: 403, code: 'forbidden', message: MSG.CANNOT_MODERATE },
  otherVenue: { status: 403, code: 'room-other-venue' },
  exists: { status: 409, code: 'venue-exists' },
  joinRequired: { status: 403, code: 'room-join-required' },
  left: { status: 403, code: 'room-left' },
  banned: { status: 403, code: 'banned' },
  hiddenRoom: { status: 404, code: 'room-not-found' },
  hiddenPost: { status: 404, code: 'post-not-found' },
  notOpen: { status: 200, refused: true },
  ok: { status: 200 },
  created: { status: 201 },
} satisfies Record<string, Expect>

interface Route {
  name: string
  run(w: World, who: TestUser | undefined): Promise<CallResult>
  expect: Record<CallerName, Expect>
}

const all = (e: Expect, over: Partial<Record<CallerName, Expect>> = {}): Record<CallerName, Expect> =>
  Object.fromEntries(CALLERS.map((c) => [c, c === 'signedOut' ? E.unauth : (over[c] ?? e)])) as Record<CallerName, Expect>

const mod = (action: string, body: (w: World) => Record<string, unknown>) => (w: World, who: TestUser | undefined) =>
  call(svc, 'POST', `/v1/mod/${action}`, { token: who?.token, body: body(w) })

/** Venue-scoped moderation: the venue's owner and operators; everyone else 403. */
const venueMod = all(E.forbidden, { owner: E.ok, operator: E.ok })
/** Platform moderation (no venueId): operators only. */
const platformMod = all(E.forbidden, { operator: E.ok })
/** Moderation reads: §4.4 rule 6, whoever cannot moderate reads 'you can't moderate this venue' (the platform queue too). */
const venueModRead = all(E.cannotModerate, { owner: E.ok, operator: E.ok })
const platformModRead = all(E.cannotModerate, { operator: E.ok })
/** A write naming the private room's post: §7 "404 (not 403, so existence is not confirmed)" for everyone but the room's insiders (members, the venue's owner, operators). */
const privatePost = (over: Partial<Record<CallerName, Expect>>) => all(E.hiddenPost, over)

const ROUTES: Route[] = [
  {
    name: 'POST /admin/keys (mint for the venue)',
    run: (w, who) => call(svc, 'POST', '/admin/keys', { token: who?.token, body: { venueId: w.v.venueId, scopes: ['read'], label: 'x' } }),
    expect: all(E.exists, { owner: E.created }),
  },
  {
    name: 'POST /admin/keys (claim a reserved id)',
    run: (_w, who) => call(svc, 'POST', '/admin/keys', { token: who?.token, body: { venueId: 'gateway', scopes: ['read'], label: 'x' } }),
    expect: all({ status: 403, code: 'venue-id-reserved' }),
  },
  {
    name: 'POST /v1/rooms',
    run: (w, who) => call(svc, 'POST', '/v1/rooms', { token: who?.token, body: { venueId: w.v.venueId, subjectType: 'topic', subjectRef: 'new-room', visibility: 'public', title: 'New' } }),
    expect: all(E.forbidden, { owner: E.created }),
  },
  {
    name: 'POST /v1/rooms/:public/join',
    run: (w, who) => call(svc, 'POST', `/v1/rooms/${w.pub}/join`, { token: who?.token }),
    expect: all(E.ok, { otherOwner: E.otherVenue, operator: E.otherVenue }),
  },
  {
    name: 'POST /v1/rooms/:private/join',
    run: (w, who) => call(svc, 'POST', `/v1/rooms/${w.priv}/join`, { token: who?.token }),
    expect: all(E.notOpen, { otherOwner: E.otherVenue, operator: E.otherVenue, owner: E.ok }),
  },
  {
    name: 'POST /v1/rooms/:public/leave',
    run: (w, who) => call(svc, 'POST', `/v1/rooms/${w.pub}/leave`, { token: who?.token }),
    expect: all(E.ok, { otherOwner: E.otherVenue, operator: E.otherVenue }),
  },
  {
    name: 'PUT /v1/rooms/:private/members/:wallet',
    run: (w, who) => call(svc, 'PUT', `/v1/rooms/${w.priv}/members/${w.target.wallet}`, { token: who?.token }),
    expect: all(E.forbidden, { owner: E.ok, operator: E.ok }),
  },
  {
    name: 'DELETE /v1/rooms/:private/members/:wallet',
    run: (w, who) => call(svc, 'DELETE', `/v1/rooms/${w.priv}/members/${w.privMember.wallet}`, { token: who?.token }),
    expect: all(E.forbidden, { owner: E.ok, operator: E.ok }),
  },
  {
    name: 'POST /v1/social/posts into the public room',
    run: (w, who) => (who ? post(svc, who, { room: w.pub }) : call(svc, 'POST', '/v1/social/posts', { body: { subjectType: 'topic', subjectRef: 'x', body: 'x', room: w.pub } })),
    expect: all(E.joinRequired, { banned: E.banned, leftMember: E.left, owner: E.created }),
  },
  {
    name: 'POST /v1/social/posts into the private room',
    run: (w, who) => (who ? post(svc, who, { room: w.priv }) : call(svc, 'POST', '/v1/social/posts', { body: { subjectType: 'topic', subjectRef: 'x', body: 'x', room: w.priv } })),
    expect: all(E.hiddenRoom, { owner: E.created, operator: E.joinRequired }),
  },
  { name: 'POST /v1/mod/keep (venue)', run: mod('keep', (w) => ({ venueId: w.v.venueId, postId: w.postId })), expect: venueMod },
  { name: 'POST /v1/mod/hide (venue)', run: mod('hide', (w) => ({ venueId: w.v.venueId, postId: w.postId })), expect: venueMod },
  { name: 'POST /v1/mod/hide (platform)', run: mod('hide', (w) => ({ postId: w.postId })), expect: platformMod },
  { name: 'POST /v1/mod/remove (platform)', run: mod('remove', (w) => ({ postId: w.postId })), expect: platformMod },
  { name: 'POST /v1/mod/restore (venue)', run: mod('restore', (w) => ({ venueId: w.v.venueId, postId: w.postId })), expect: venueMod },
  { name: 'POST /v1/mod/restore (platform)', run: mod('restore', (w) => ({ postId: w.postId })), expect: platformMod },
  { name: 'POST /v1/mod/pin (venue)', run: mod('pin', (w) => ({ venueId: w.v.venueId, postId: w.postId })), expect: venueMod },
  { name: 'POST /v1/mod/pin (platform)', run: mod('pin', (w) => ({ postId: w.postId })), expect: platformMod },
  { name: 'POST /v1/mod/clear (venue)', run: mod('clear', (w) => ({ venueId: w.v.venueId, postId: w.postId })), expect: venueMod },
  { name: 'POST /v1/mod/keep (platform)', run: mod('keep', (w) => ({ postId: w.postId })), expect: platformMod },
  { name: 'POST /v1/mod/ban (venue)', run: mod('ban', (w) => ({ venueId: w.v.venueId, wallet: w.target.wallet })), expect: venueMod },
  { name: 'POST /v1/mod/unban (venue)', run: mod('unban', (w) => ({ venueId: w.v.venueId, wallet: w.callers.banned!.wallet })), expect: venueMod },
  { name: 'POST /v1/mod/ban (global)', run: mod('ban', (w) => ({ wallet: w.target.wallet })), expect: platformMod },
  { name: 'POST /v1/mod/unban (global)', run: mod('unban', (w) => ({ wallet: w.globallyBanned.wallet })), expect: platformMod },
  { name: 'POST /v1/mod/hide (another venue named)', run: mod('hide', (w) => ({ venueId: w.w.venueId, postId: w.postId })), expect: all(E.forbidden, { otherOwner: E.ok, operator: E.ok }) },
  { name: 'GET /v1/mod/queue?venueId', run: (w, who) => call(svc, 'GET', `/v1/mod/queue?venueId=${w.v.venueId}`, { token: who?.token }), expect: venueModRead },
  { name: 'GET /v1/mod/queue (platform)', run: (_w, who) => call(svc, 'GET', '/v1/mod/queue', { token: who?.token }), expect: platformModRead },
  { name: 'GET /v1/mod/audit?venueId', run: (w, who) => call(svc, 'GET', `/v1/mod/audit?venueId=${w.v.venueId}`, { token: who?.token }), expect: venueModRead },
  { name: 'GET /v1/mod/audit (platform)', run: (_w, who) => call(svc, 'GET', '/v1/mod/audit', { token: who?.token }), expect: platformModRead },
  {
    name: 'POST /v1/social/posts/:private/reactions',
    run: (w, who) => call(svc, 'POST', `/v1/social/posts/${w.privPostId}/reactions`, { token: who?.token, body: { kind: 'agree', active: true } }),
    expect: privatePost({ owner: E.ok, operator: E.ok }),
  },
  {
    name: 'POST /v1/social/posts/:private/reports',
    run: (w, who) => call(svc, 'POST', `/v1/social/posts/${w.privPostId}/reports`, { token: who?.token, body: { reason: 'spam' } }),
    expect: privatePost({ owner: E.ok, operator: E.ok }),
  },
  {
    name: 'POST /v1/social/posts replying to the private post',
    run: (w, who) =>
      call(svc, 'POST', '/v1/social/posts', { token: who?.token, body: { subjectType: 'topic', subjectRef: `authz-${w.v.venueId}`, body: 'x', parentId: w.privPostId } }),
    // The wallet banned on the venue is refused for its ban first (a ban blocks posting, whatever the parent).
    expect: privatePost({ banned: E.banned, owner: E.created, operator: E.joinRequired }),
  },
  {
    name: 'GET /v1/social/posts/:private/replies',
    run: (w, who) => call(svc, 'GET', `/v1/social/posts/${w.privPostId}/replies`, { token: who?.token }),
    // A read: signed out is an outsider like any other (404, not 401).
    expect: { ...privatePost({ owner: E.ok, operator: E.ok }), signedOut: E.hiddenPost },
  },
  { name: 'POST /v1/mod/hide (venue) of the private post', run: mod('hide', (w) => ({ venueId: w.v.venueId, postId: w.privPostId })), expect: venueMod },
  {
    name: 'POST /v1/mod/ban (another venue named) by the private post',
    run: mod('ban', (w) => ({ venueId: w.w.venueId, postId: w.privPostId })),
    expect: all(E.forbidden, { otherOwner: E.hiddenPost, operator: { status: 403, code: 'forbidden' } }),
  },
  { name: 'GET /v1/venues/:id/usage', run: (w, who) => call(svc, 'GET', `/v1/venues/${w.v.venueId}/usage`, { token: who?.token }), expect: venueMod },
]

describe('authorisation matrix: every venue, room and moderation write (and moderation read) × every kind of caller', () => {
  for (const route of ROUTES) {
    it(`${route.name}: ${CALLERS.map((c) => `${c} ${route.expect[c].status}${route.expect[c].refused ? ' refused' : ''}`).join(', ')}; refusals change nothing`, async () => {
      const w = await world()
      const problems: string[] = []
      for (const name of CALLERS) {
        const exp = route.expect[name]
        const before = await snapshot()
        const r = await route.run(w, w.callers[name])
        const after = await snapshot()
        const codeOk = (!exp.code || r.body?.error?.code === exp.code) && (!exp.message || r.body?.error?.message === exp.message)
        const refusedOk = exp.refused === undefined || r.body?.refused === exp.refused
        const messageOk = r.status < 400 || (typeof r.body?.error?.message === 'string' && r.body.error.message.length > 0)
        if (r.status !== exp.status || !codeOk || !refusedOk || !messageOk) problems.push(`${name}: expected ${JSON.stringify(exp)}, got ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)
        const refusal = r.status >= 400 || exp.refused
        if (refusal) {
          for (const t of Object.keys(before)) if (before[t] !== after[t]) problems.push(`${name}: refused, but table ${t} changed`)
        }
      }
      assert.deepEqual(problems, [])
    })
  }

  it('every matrix route is exercised with all seven callers', () => {
    for (const r of ROUTES) assert.deepEqual(Object.keys(r.expect).sort(), [...CALLERS].sort(), r.name)
    assert.ok(newVenueId())
  })
})
