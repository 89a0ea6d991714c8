/**
 * "Nothing is lost or half-written": every write that runs more than one SQL statement is interrupted by a real
 * database failure between its statements, and answers a clean error, leaves nothing of itself behind (read from
 * the tables and through the API), publishes no thread event, and succeeds in full when retried.
 *
 * The failure is a PL/pgSQL trigger that raises on the table the write touches after its first statement (the
 * same SQL on PGlite and PostgreSQL); it is dropped before the checks and the retry.
 */
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { PATHS, SERVICE_PATHS } from '../../src/contract/paths.ts'
import { addMarket, call, newWallet, signIn, startWithOperator, type CallResult, type TestService, type TestUser } from '../helpers/service.ts'
import { claimVenue, createRoom, newVenueId, post } from '../helpers/venues.ts'
import { halfWritten } from '../helpers/invariants.ts'

let svc: TestService
let operator: TestUser
/** Topics the service published since the test began. */
const published: string[] = []
const unhandled: unknown[] = []
const onUnhandled = (e: unknown) => void unhandled.push(e)

before(async () => {
  ;({ svc, operator } = await startWithOperator())
  await sql`create or replace function vk_test_fail() returns trigger language plpgsql as $fn$
    begin
      raise exception 'injected failure on % (%)', tg_table_name, tg_op;
    end
    $fn$`.execute(svc.ctx.db)
  const bus = svc.ctx.bus
  const publish = bus.publish.bind(bus)
  bus.publish = (topic: string) => {
    published.push(topic)
    return publish(topic)
  }
  process.on('unhandledRejection', onUnhandled)
})
after(async () => {
  process.off('unhandledRejection', onUnhandled)
  await svc.close()
})
beforeEach(() => {
  published.length = 0
  unhandled.length = 0
})
afterEach(() => assert.deepEqual(unhandled, [], 'no unhandled rejection'))

const db = () => svc.ctx.db

/**
 * Runs `write` while every `event` on `table` fails (a BEFORE trigger that raises), then drops the trigger.
 * The published topics are counted from here.
 * The service logs the failure it answers 500 for; that log is kept out of the test's output.
 */
async function failingOn<T>(table: string, event: 'insert' | 'update' | 'delete', write: () => Promise<T>): Promise<T> {
  published.length = 0
  await sql`create trigger vk_test_fail before ${sql.raw(event)} on ${sql.table(table)} for each row execute function vk_test_fail()`.execute(db())
  const log = console.error
  const logged: unknown[][] = []
  console.error = (...args: unknown[]) => void logged.push(args)
  try {
    return await write()
  } finally {
    console.error = log
    await sql`drop trigger vk_test_fail on ${sql.table(table)}`.execute(db())
  }
}

/** The answer to an injected database failure: a 500 in the service's error shape, never a hang or a bare status. */
function expectCleanFailure(r: CallResult) {
  assert.equal(r.status, 500, JSON.stringify(r.body))
  assert.equal(r.body?.error?.code, 'internal', JSON.stringify(r.body))
  assert.equal(typeof r.body.error.message, 'string')
  assert.ok(r.body.error.message.length > 0, 'a message')
}

async function assertNothingHalfWritten() {
  const found = await halfWritten(db())
  assert.deepEqual(
    Object.fromEntries(Object.entries(found).filter(([, ids]) => ids.length)),
    {},
    'no row breaks an invariant',
  )
}

const accountOf = async (wallet: string) => (await db().selectFrom('wallets').select('account_id').where('address', '=', wallet).executeTakeFirst())?.account_id ?? null
const count = async (table: 'posts' | 'post_nodes' | 'reactions' | 'reports' | 'mod_items' | 'mod_audit' | 'venue_hides' | 'venues' | 'venue_keys' | 'rooms' | 'room_members' | 'sessions' | 'accounts' | 'wallets' | 'blocks' | 'bans') =>
  Number((await db().selectFrom(table).select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n)
const counts = async () => {
  const out: Record<string, number> = {}
  for (const t of ['posts', 'post_nodes', 'reactions', 'reports', 'mod_items', 'mod_audit', 'venue_hides', 'venues', 'venue_keys', 'rooms', 'room_members', 'sessions', 'accounts', 'wallets', 'blocks', 'bans'] as const)
    out[t] = await count(t)
  return out
}
const thread = async (subjectType: string, subjectRef: string, opts: { token?: string; venue?: string } = {}) => {
  const r = await call(svc, 'GET', `/v1/social/posts?subjectType=${subjectType}&subjectRef=${subjectRef}${opts.venue ? `&venue=${opts.venue}` : ''}`, { token: opts.token })
  assert.equal(r.status, 200, JSON.stringify(r.body))
  return r.body.posts as { id: string; agrees: number; replies: number; body: string }[]
}
const topPost = async (u: TestUser, body: Record<string, unknown> = {}) => {
  const r = await post(svc, u, { subjectRef: `t-${Math.random().toString(36).slice(2, 10)}`, ...body })
  assert.equal(r.status, 201, JSON.stringify(r.body))
  return r.body.post as { id: string; subjectType: string; subjectRef: string }
}
/** A signed sign-in message for `account`, not yet sent. */
const signedNonce = async (account = newWallet()) => {
  const n = await call(svc, 'POST', PATHS.authNonce, { body: { address: account.address } })
  assert.equal(n.status, 200)
  return { account, message: n.body.message as string, signature: await account.signMessage({ message: n.body.message }) }
}

describe('atomic writes: a database failure between the statements of a write leaves nothing of it', () => {
  it('"nothing is lost or half-written": a take (post with stance) whose node-index insert fails leaves no post, no take count and no event; the retry posts it whole', async () => {
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: 'weather' }, { type: 'topic', ref: 'rain' }] })
    const u = await signIn(svc)
    await svc.chain.setPosition(u.wallet, m.id, 1, 2_500_000n)
    const before = await counts()
    const body = { subjectType: 'event', subjectRef: m.id, body: 'No way' }
    const r = await failingOn('post_nodes', 'insert', () => call(svc, 'POST', PATHS.posts, { token: u.token, body }))
    expectCleanFailure(r)
    assert.deepEqual(await counts(), before)
    assert.deepEqual(await thread('event', m.id), [])
    assert.deepEqual(published, [])
    await assertNothingHalfWritten()

    const again = await call(svc, 'POST', PATHS.posts, { token: u.token, body })
    assert.equal(again.status, 201, JSON.stringify(again.body))
    assert.deepEqual(again.body.post.stance, { side: 1, size: '2500000', priceBps: 6000 })
    assert.equal(await count('post_nodes'), before.post_nodes + 2)
    assert.deepEqual((await thread('event', m.id)).map((p) => p.id), [again.body.post.id])
    assert.ok(published.length > 0, 'the retry publishes its thread')
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": a post into a room whose node-index insert fails leaves no post in the room and no event; the retry posts it', async () => {
    const v = await claimVenue(svc)
    const room = await createRoom(svc, v)
    const before = await counts()
    const r = await failingOn('post_nodes', 'insert', () => post(svc, v.owner, { room, body: 'in the room' }))
    expectCleanFailure(r)
    assert.deepEqual(await counts(), before)
    assert.deepEqual(published, [])
    await assertNothingHalfWritten()
    const again = await post(svc, v.owner, { room, body: 'in the room' })
    assert.equal(again.status, 201, JSON.stringify(again.body))
    assert.equal(await count('posts'), before.posts + 1)
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": a follower\'s first post into a room, whose post insert fails after the membership insert, leaves no membership; the retry joins and posts', async () => {
    const v = await claimVenue(svc)
    const node = `node-${Math.random().toString(36).slice(2, 8)}`
    const room = await createRoom(svc, v, { subjectType: 'category', subjectRef: node })
    const u = await signIn(svc, undefined, v.venueId)
    assert.equal((await call(svc, 'PUT', PATHS.follow('category', node), { token: u.token })).status, 200)
    const before = await counts()
    const r = await failingOn('posts', 'insert', () => post(svc, u, { room }))
    expectCleanFailure(r)
    assert.deepEqual(await counts(), before, 'no membership without its post')
    assert.equal((await call(svc, 'GET', PATHS.roomMembership(room), { token: u.token })).body.member, false)
    assert.deepEqual(published, [])
    const again = await post(svc, u, { room })
    assert.equal(again.status, 201, JSON.stringify(again.body))
    assert.equal((await call(svc, 'GET', PATHS.roomMembership(room), { token: u.token })).body.member, true)
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": a reply whose parent\'s node-index rescore fails leaves no reply and the parent\'s reply count as it was; the retry replies', async () => {
    const a = await signIn(svc)
    const b = await signIn(svc)
    const parent = await topPost(a)
    const before = await counts()
    const body = { subjectRef: parent.subjectRef, parentId: parent.id, body: 'a reply' }
    const r = await failingOn('post_nodes', 'update', () => post(svc, b, body))
    expectCleanFailure(r)
    assert.deepEqual(await counts(), before)
    assert.equal((await thread('topic', parent.subjectRef)).find((p) => p.id === parent.id)?.replies, 0)
    assert.deepEqual(published, [])
    await assertNothingHalfWritten()
    const again = await post(svc, b, body)
    assert.equal(again.status, 201, JSON.stringify(again.body))
    assert.equal((await thread('topic', parent.subjectRef)).find((p) => p.id === parent.id)?.replies, 1)
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": an agree whose rescore of the node index fails leaves no reaction and the agree count as it was; the retry agrees', async () => {
    const a = await signIn(svc)
    const b = await signIn(svc)
    const p = await topPost(a)
    const before = await counts()
    const score = async () => (await db().selectFrom('posts').select(['agrees', 'score']).where('id', '=', p.id).executeTakeFirstOrThrow())
    const was = await score()
    const agree = () => call(svc, 'POST', `/v1/social/posts/${p.id}/reactions`, { token: b.token, body: { kind: 'agree', active: true } })
    expectCleanFailure(await failingOn('post_nodes', 'update', agree))
    assert.deepEqual(await counts(), before)
    assert.deepEqual(await score(), was)
    assert.equal((await thread('topic', p.subjectRef)).find((x) => x.id === p.id)?.agrees, 0)
    assert.deepEqual(published, [])
    await assertNothingHalfWritten()
    const again = await agree()
    assert.equal(again.status, 200, JSON.stringify(again.body))
    assert.equal(again.body.agrees, 1)
    assert.ok(published.length > 0, 'the retry publishes')
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": a delete whose node-index delete fails leaves the post in place; the retry deletes it', async () => {
    const a = await signIn(svc)
    const p = await topPost(a)
    const before = await counts()
    const del = () => call(svc, 'DELETE', `/v1/social/posts/${p.id}`, { token: a.token })
    expectCleanFailure(await failingOn('post_nodes', 'delete', del))
    assert.deepEqual(await counts(), before)
    assert.equal((await db().selectFrom('posts').select('deleted_at').where('id', '=', p.id).executeTakeFirstOrThrow()).deleted_at, null)
    assert.deepEqual((await thread('topic', p.subjectRef)).map((x) => x.id), [p.id])
    assert.deepEqual(published, [])
    await assertNothingHalfWritten()
    assert.equal((await del()).status, 200)
    assert.deepEqual(await thread('topic', p.subjectRef), [])
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": the report that reaches the threshold, whose mod item insert fails, neither counts nor hides the post; the retry hides it and opens the item', async () => {
    const a = await signIn(svc)
    const p = await topPost(a)
    const reporters = [await signIn(svc), await signIn(svc), await signIn(svc)]
    const report = (u: TestUser) => call(svc, 'POST', `/v1/social/posts/${p.id}/reports`, { token: u.token, body: { reason: 'spam' } })
    for (const u of reporters.slice(0, 2)) assert.equal((await report(u)).status, 200)
    const before = await counts()
    expectCleanFailure(await failingOn('mod_items', 'insert', () => report(reporters[2])))
    assert.deepEqual(await counts(), before)
    const row = await db().selectFrom('posts').select(['state', 'report_count']).where('id', '=', p.id).executeTakeFirstOrThrow()
    assert.deepEqual(row, { state: 'visible', report_count: 2 })
    assert.deepEqual((await thread('topic', p.subjectRef)).map((x) => x.id), [p.id], 'still shown')
    assert.deepEqual(published, [])
    await assertNothingHalfWritten()
    assert.equal((await report(reporters[2])).status, 200)
    const now = await db().selectFrom('posts').select(['state', 'report_count']).where('id', '=', p.id).executeTakeFirstOrThrow()
    assert.deepEqual(now, { state: 'hidden', report_count: 3 })
    assert.equal((await db().selectFrom('mod_items').select('state').where('post_id', '=', p.id).where('scope', '=', '*').executeTakeFirstOrThrow()).state, 'open')
    assert.deepEqual(await thread('topic', p.subjectRef), [])
    assert.ok(published.length > 0, 'the threshold hide publishes')
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": a venue\'s hide whose audit row fails leaves no hide and no actioned item; the retry hides with its audit row', async () => {
    const v = await claimVenue(svc)
    const a = await signIn(svc)
    const p = await topPost(a)
    const hide = () => call(svc, 'POST', PATHS.modAction('hide'), { token: v.owner.token, body: { venueId: v.venueId, postId: p.id } })
    const before = await counts()
    expectCleanFailure(await failingOn('mod_audit', 'insert', hide))
    assert.deepEqual(await counts(), before)
    assert.deepEqual((await thread('topic', p.subjectRef, { venue: v.venueId })).map((x) => x.id), [p.id], "still shown under the venue's overlay")
    const audit = await call(svc, 'GET', `${SERVICE_PATHS.modAudit}?venueId=${v.venueId}`, { token: v.owner.token })
    assert.equal(audit.status, 200)
    assert.deepEqual(audit.body.entries, [])
    assert.deepEqual(published, [])
    await assertNothingHalfWritten()
    const again = await hide()
    assert.equal(again.status, 200, JSON.stringify(again.body))
    assert.equal(again.body.post.hiddenHere, true)
    assert.equal(await count('mod_audit'), before.mod_audit + 1)
    assert.deepEqual(await thread('topic', p.subjectRef, { venue: v.venueId }), [])
    assert.ok(published.length > 0, 'the hide publishes')
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": a platform ban of a wallet never seen, whose audit row fails, leaves no ban and no account for the wallet; the retry bans', async () => {
    const target = newWallet().address.toLowerCase()
    const ban = () => call(svc, 'POST', PATHS.modAction('ban'), { token: operator.token, body: { wallet: target } })
    const before = await counts()
    expectCleanFailure(await failingOn('mod_audit', 'insert', ban))
    assert.deepEqual(await counts(), before, 'no ban, no account, no wallet row')
    assert.equal(await accountOf(target), null)
    await assertNothingHalfWritten()
    const again = await ban()
    assert.equal(again.status, 200, JSON.stringify(again.body))
    assert.equal(again.body.ban?.banned, true)
    assert.equal(await count('bans'), before.bans + 1)
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": a venue claim whose key insert fails leaves no venue, no self room and no membership; the retry claims it with its key', async () => {
    const venueId = newVenueId()
    const o = await signIn(svc, undefined, venueId)
    const claim = () => call(svc, 'POST', SERVICE_PATHS.adminKeys, { token: o.token, body: { venueId, scopes: ['read', 'trade'], label: 'web' } })
    const before = await counts()
    expectCleanFailure(await failingOn('venue_keys', 'insert', claim))
    assert.deepEqual(await counts(), before)
    assert.equal(await db().selectFrom('venues').select('id').where('id', '=', venueId).executeTakeFirst(), undefined)
    assert.equal((await call(svc, 'GET', `/v1/rooms?venueId=${venueId}`)).body.rooms?.length ?? 0, 0)
    await assertNothingHalfWritten()
    const again = await claim()
    assert.equal(again.status, 201, JSON.stringify(again.body))
    assert.equal(again.body.claimed, true)
    const self = await call(svc, 'GET', '/v1/rooms/self', { key: again.body.key })
    assert.equal(self.status, 200, JSON.stringify(self.body))
    // A second key for the held venue: its one row, or nothing.
    const second = () => call(svc, 'POST', SERVICE_PATHS.adminKeys, { token: o.token, body: { venueId, scopes: ['read'], label: 'second' } })
    const mid = await counts()
    expectCleanFailure(await failingOn('venue_keys', 'insert', second))
    assert.deepEqual(await counts(), mid)
    const ok = await second()
    assert.equal(ok.status, 201, JSON.stringify(ok.body))
    assert.equal(ok.body.claimed, false)
    assert.equal((await call(svc, 'GET', '/v1/rooms/self', { key: ok.body.key })).status, 200)
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": a room whose creator\'s membership insert fails is not created; the retry creates it with its member', async () => {
    const v = await claimVenue(svc)
    const body = { venueId: v.venueId, subjectType: 'category', subjectRef: 'atomic-room', visibility: 'public', title: 'A room' }
    const create = () => call(svc, 'POST', SERVICE_PATHS.rooms, { token: v.owner.token, body })
    const before = await counts()
    expectCleanFailure(await failingOn('room_members', 'insert', create))
    assert.deepEqual(await counts(), before)
    assert.deepEqual(((await call(svc, 'GET', `/v1/rooms?venueId=${v.venueId}`)).body.rooms as { id: string }[]).map((r) => r.id), [v.selfRoomId])
    await assertNothingHalfWritten()
    const again = await create()
    assert.equal(again.status, 201, JSON.stringify(again.body))
    assert.equal((await call(svc, 'GET', PATHS.roomMembership(again.body.room.id), { token: v.owner.token })).body.member, true)
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": a member add of a wallet never seen, whose membership insert fails, leaves no account for the wallet and no event; the retry adds it', async () => {
    const v = await claimVenue(svc)
    const room = await createRoom(svc, v, { visibility: 'private' })
    await post(svc, v.owner, { room, body: 'members only' })
    const member = newWallet()
    const wallet = member.address.toLowerCase()
    const add = () => call(svc, 'PUT', `/v1/rooms/${room}/members/${wallet}`, { token: v.owner.token })
    const before = await counts()
    expectCleanFailure(await failingOn('room_members', 'insert', add))
    assert.deepEqual(await counts(), before, 'no account or wallet row for the wallet')
    assert.equal(await accountOf(wallet), null)
    assert.deepEqual(published, [])
    await assertNothingHalfWritten()
    const again = await add()
    assert.equal(again.status, 200, JSON.stringify(again.body))
    assert.equal(again.body.members, 2)
    assert.ok(published.length > 0, 'the add publishes the room')
    const u = await signIn(svc, member, v.venueId)
    assert.equal((await call(svc, 'GET', PATHS.roomMembership(room), { token: u.token })).body.member, true)
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": a block of a wallet never seen, whose block insert fails, leaves no account for the wallet; the retry blocks', async () => {
    const u = await signIn(svc)
    const wallet = newWallet().address.toLowerCase()
    const block = () => call(svc, 'POST', PATHS.blocks, { token: u.token, body: { wallet } })
    const before = await counts()
    expectCleanFailure(await failingOn('blocks', 'insert', block))
    assert.deepEqual(await counts(), before)
    assert.equal((await block()).status, 200)
    assert.equal(await count('blocks'), before.blocks + 1)
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": a sign-in whose session insert fails creates no account, and the same signed message then signs in', async () => {
    const s = await signedNonce()
    const wallet = s.account.address.toLowerCase()
    const verify = () => call(svc, 'POST', PATHS.authVerify, { body: { message: s.message, signature: s.signature } })
    const before = await counts()
    expectCleanFailure(await failingOn('sessions', 'insert', verify))
    assert.deepEqual(await counts(), before)
    assert.equal(await accountOf(wallet), null)
    const again = await verify()
    assert.equal(again.status, 200, `the signed message was not used up by the failed sign-in: ${JSON.stringify(again.body)}`)
    assert.equal((await call(svc, 'GET', PATHS.me, { token: again.body.token })).body.wallet, wallet)
    // It is used now: a replay is refused.
    assert.equal((await verify()).body.error?.code, 'invalid-nonce')
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": one signed message sent twice at once signs in once (the nonce is consumed in the session\'s transaction, and a replay loses)', async () => {
    const s = await signedNonce()
    const verify = () => call(svc, 'POST', PATHS.authVerify, { body: { message: s.message, signature: s.signature } })
    const answers = await Promise.all([verify(), verify(), verify()])
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400], JSON.stringify(answers.map((a) => a.body)))
    for (const a of answers.filter((x) => x.status === 400)) assert.equal(a.body.error.code, 'invalid-nonce')
    const account = await accountOf(s.account.address.toLowerCase())
    assert.equal((await db().selectFrom('sessions').select('token_hash').where('account_id', '=', account!).execute()).length, 1)
    await assertNothingHalfWritten()
  })

  it('"nothing is lost or half-written": a wallet link that absorbs an unused account and fails at its last statement moves nothing, and the same signed message then links it', async () => {
    const v = await claimVenue(svc)
    const room = await createRoom(svc, v, { visibility: 'private' })
    const second = newWallet()
    const wallet = second.address.toLowerCase()
    // The room's owner names the wallet first: an unused account holds it, with a membership.
    assert.equal((await call(svc, 'PUT', `/v1/rooms/${room}/members/${wallet}`, { token: v.owner.token })).status, 200)
    const unused = (await accountOf(wallet))!
    const u = await signIn(svc)
    const into = (await accountOf(u.wallet))!
    const s = await signedNonce(second)
    const link = () => call(svc, 'POST', PATHS.authLink, { token: u.token, body: { message: s.message, signature: s.signature } })
    const before = await counts()
    expectCleanFailure(await failingOn('accounts', 'delete', link))
    assert.deepEqual(await counts(), before)
    assert.equal(await accountOf(wallet), unused, 'the wallet stays where it was')
    assert.deepEqual((await db().selectFrom('room_members').select('account_id').where('room_id', '=', room).where('account_id', 'in', [unused, into]).execute()).map((r) => r.account_id), [unused])
    assert.deepEqual((await call(svc, 'GET', PATHS.me, { token: u.token })).body.wallets, [u.wallet])
    await assertNothingHalfWritten()
    const again = await link()
    assert.equal(again.status, 200, `the signed message was not used up by the failed link: ${JSON.stringify(again.body)}`)
    assert.deepEqual(again.body.wallets, [u.wallet, wallet])
    assert.equal(await accountOf(wallet), into)
    assert.equal(await db().selectFrom('accounts').select('id').where('id', '=', unused).executeTakeFirst(), undefined)
    assert.equal((await call(svc, 'GET', PATHS.roomMembership(room), { token: u.token })).body.member, true)
    assert.equal((await link()).body.error?.code, 'invalid-nonce', 'a replay is refused')
    await assertNothingHalfWritten()
  })
})
