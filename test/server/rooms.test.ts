/** §2.8, §2.9, §3.3, §5.6, §7: rooms, membership, posting into rooms, boards. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ERROR_CODES, MSG } from '../../src/contract/errors.ts'
import { addMarket, call, expectError, ON_POSTGRES, signIn, startWithOperator, type TestService, type TestUser } from '../helpers/service.ts'
import { claimVenue, createRoom, newVenueId, post } from '../helpers/venues.ts'

let svc: TestService
let operator: TestUser
before(async () => {
  ;({ svc, operator } = await startWithOperator())
})
after(() => svc.close())

const membership = (room: string, u?: TestUser, key?: string) => call(svc, 'GET', `/v1/rooms/${room}/membership`, { token: u?.token, key })
const join = (room: string, u: TestUser, key?: string) => call(svc, 'POST', `/v1/rooms/${room}/join`, { token: u.token, key })
const leave = (room: string, u: TestUser, key?: string) => call(svc, 'POST', `/v1/rooms/${room}/leave`, { token: u.token, key })
const follow = (u: TestUser, type: string, ref: string) => call(svc, 'PUT', `/v1/social/follows/${type}/${ref}`, { token: u.token })

async function accountOf(u: TestUser) {
  return (await svc.ctx.db.selectFrom('wallets').select('account_id').where('address', '=', u.wallet).executeTakeFirstOrThrow()).account_id
}

async function memberRows(roomId: string) {
  return svc.ctx.db.selectFrom('room_members').selectAll().where('room_id', '=', roomId).orderBy('account_id').execute()
}

async function roomWorld() {
  const v = await claimVenue(svc)
  const node = `node-${Math.random().toString(36).slice(2, 8)}`
  const pub = await createRoom(svc, v, { subjectType: 'category', subjectRef: node, visibility: 'public' })
  const priv = await createRoom(svc, v, { subjectType: 'topic', subjectRef: `${node}-inner`, visibility: 'private' })
  return { v, node, pub, priv }
}

describe('rooms: creation and reads', () => {
  it('POST /v1/rooms: a venue\'s owner creates rooms on taxonomy nodes, public or private; the owner is the first member', async () => {
    const v = await claimVenue(svc)
    const r = await call(svc, 'POST', '/v1/rooms', { token: v.owner.token, body: { venueId: v.venueId, subjectType: 'country', subjectRef: 'fr', visibility: 'private', title: ' France ' } })
    assert.equal(r.status, 201)
    assert.deepEqual({ ...r.body.room, id: undefined }, { id: undefined, venueId: v.venueId, subject: { type: 'country', ref: 'fr' }, visibility: 'private', title: 'France' })
    assert.match(r.body.room.id, /^r_[0-9a-z]+$/)
    assert.equal((await membership(r.body.room.id, v.owner)).body.member, true)
    // The venue defaults to the session's venue.
    const d = await call(svc, 'POST', '/v1/rooms', { token: v.owner.token, body: { subjectType: 'topic', subjectRef: 'rates', visibility: 'public', title: 'Rates' } })
    assert.equal(d.body.room.venueId, v.venueId)
  })

  it('POST /v1/rooms is refused for anyone but the venue\'s owner, for market subjects, for a second self room; nothing written', async () => {
    const v = await claimVenue(svc)
    const other = await claimVenue(svc)
    const count = async () => (await svc.ctx.db.selectFrom('rooms').select('id').where('venue_id', '=', v.venueId).execute()).length
    const before = await count()
    const body = { venueId: v.venueId, subjectType: 'topic', subjectRef: 'x', visibility: 'public', title: 'X' }
    expectError(await call(svc, 'POST', '/v1/rooms', { body }), 401, 'unauthenticated')
    expectError(await call(svc, 'POST', '/v1/rooms', { token: other.owner.token, body }), 403, 'forbidden')
    expectError(await call(svc, 'POST', '/v1/rooms', { token: operator.token, body }), 403, 'forbidden')
    expectError(await call(svc, 'POST', '/v1/rooms', { token: v.owner.token, body: { ...body, subjectType: 'event', subjectRef: '0x' + 'a'.repeat(64) } }), 400, 'validation-failed')
    expectError(await call(svc, 'POST', '/v1/rooms', { token: v.owner.token, body: { ...body, visibility: 'secret' } }), 400, 'validation-failed')
    expectError(await call(svc, 'POST', '/v1/rooms', { token: v.owner.token, body: { ...body, title: '' } }), 400, 'validation-failed')
    expectError(await call(svc, 'POST', '/v1/rooms', { token: v.owner.token, body: { ...body, extra: true } }), 400, 'validation-failed')
    expectError(await call(svc, 'POST', '/v1/rooms', { token: v.owner.token, body: { ...body, self: true } }), 409, 'conflict')
    assert.equal(await count(), before)
  })

  it('the venue\'s room list shows public rooms to everyone and private rooms only to insiders', async () => {
    const { v, pub, priv } = await roomWorld()
    const stranger = await signIn(svc)
    const ids = (r: { body: { rooms: { id: string }[] } }) => r.body.rooms.map((x) => x.id).sort()
    assert.deepEqual(ids(await call(svc, 'GET', `/v1/rooms?venueId=${v.venueId}`, { token: stranger.token })), [v.selfRoomId, pub].sort())
    assert.deepEqual(ids(await call(svc, 'GET', `/v1/rooms?venueId=${v.venueId}`, { token: v.owner.token })), [v.selfRoomId, pub, priv].sort())
    assert.deepEqual(ids(await call(svc, 'GET', '/v1/rooms', { key: v.key })), [v.selfRoomId, pub].sort())
  })

  it('§5.1 "Reads fail open": the room list with a key that is not live (revoked, unknown or malformed) is no 401 — it answers, marked X-Venue-Key-Status: refused, for the venue it names or the session\'s venue; with neither, 400 naming venueId', async () => {
    const { v, pub } = await roomWorld()
    const member = await signIn(svc, undefined, v.venueId)
    const ids = (r: { body: { rooms: { id: string }[] } }) => r.body.rooms.map((x) => x.id).sort()
    await svc.ctx.db.updateTable('venue_keys').set({ revoked_at: new Date() }).where('venue_id', '=', v.venueId).execute()
    for (const key of [v.key, `pck_${'0'.repeat(64)}`, 'pck_nothex']) {
      const bySession = await call(svc, 'GET', '/v1/rooms', { token: member.token, key })
      assert.equal(bySession.status, 200, `${key.slice(0, 8)}…: ${JSON.stringify(bySession.body)}`)
      assert.equal(bySession.headers.get('x-venue-key-status'), 'refused')
      assert.deepEqual(ids(bySession), [v.selfRoomId, pub].sort())
      const named = await call(svc, 'GET', `/v1/rooms?venueId=${v.venueId}`, { key })
      assert.equal(named.status, 200)
      assert.equal(named.headers.get('x-venue-key-status'), 'refused')
      assert.deepEqual(ids(named), [v.selfRoomId, pub].sort())
      const neither = await call(svc, 'GET', '/v1/rooms', { key })
      expectError(neither, 400, 'validation-failed')
      assert.equal(neither.body.error.param, 'venueId')
    }
  })

  it('§4.1 rule 7 / §5.6 "room=self on a read needs a venue key": refused with a clear error without one, the key\'s venue room with one', async () => {
    const v = await claimVenue(svc)
    const u = await signIn(svc, undefined, v.venueId)
    for (const path of ['/v1/rooms/self', '/v1/rooms/self/membership', '/v1/rooms/self/board']) {
      const r = await call(svc, 'GET', path, { token: u.token })
      expectError(r, 401, 'venue-key-required', /venue key/)
    }
    const keyed = await membership('self', u, v.key)
    assert.equal(keyed.status, 200)
    assert.equal(keyed.body.room.id, v.selfRoomId)
    assert.deepEqual(keyed.body.room.subject, { type: 'brand', ref: v.venueId })
    const t = await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=x&room=self`, { token: u.token })
    expectError(t, 401, 'venue-key-required')
  })

  it('§5.6 "Join and leave work only for the session\'s own venue\'s room" with §5.4 (keyless): a write to room=self without a key names the venue the session signed in for; a session that named none is refused', async () => {
    const v = await claimVenue(svc)
    const u = await signIn(svc, undefined, v.venueId)
    const joined = await join('self', u)
    assert.equal(joined.status, 200, JSON.stringify(joined.body))
    assert.deepEqual([joined.body.member, joined.body.refused], [true, false])
    assert.equal((await membership(v.selfRoomId, u)).body.member, true)
    assert.equal((await call(svc, 'POST', '/v1/rooms/self/leave', { token: u.token })).status, 200)
    assert.deepEqual(((m) => [m.member, m.left])((await membership(v.selfRoomId, u)).body), [false, true])
    const nowhere = await signIn(svc)
    expectError(await join('self', nowhere), 401, 'venue-key-required', /venue key/)
    // A key speaks for its own venue (§5.3): with one, `self` is the key's venue's room.
    const other = await claimVenue(svc)
    assert.equal((await join('self', u, other.key)).status, 200)
    assert.equal((await membership(other.selfRoomId, u)).body.member, true)
    assert.equal((await membership(v.selfRoomId, u)).body.member, false)
  })
})

describe('§2.8 room membership read', () => {
  it('§2.8 "member: true, false, or null" — null only when unknown (signed out); joinedAt when the caller joined', async () => {
    const { v, pub } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    assert.equal((await membership(pub)).body.member, null)
    const before = await membership(pub, u)
    assert.equal(before.body.member, false)
    assert.equal(before.body.joinedAt, null)
    await join(pub, u)
    const afterJoin = await membership(pub, u)
    assert.equal(afterJoin.body.member, true)
    assert.ok(!Number.isNaN(Date.parse(afterJoin.body.joinedAt)))
  })

  it('§2.8 "members: Headcount; null (never 0) for a private room seen by an outsider"; the outsider is not told the room\'s title either', async () => {
    const { v, pub, priv } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    const outsider = await signIn(svc, undefined, v.venueId)
    assert.equal((await membership(pub, u)).body.members, 1)
    await join(pub, u)
    assert.equal((await membership(pub)).body.members, 2)
    const out = await membership(priv, outsider)
    assert.equal(out.status, 200)
    assert.equal(out.body.members, null)
    assert.equal(out.body.member, false)
    assert.equal(out.body.room.title, null, "an outsider is not told the private room's title")
    assert.equal((await membership(priv)).body.members, null)
    assert.equal((await membership(priv)).body.room.title, null)
    assert.equal((await membership(priv, v.owner)).body.members, 1)
    assert.equal(typeof (await membership(priv, v.owner)).body.room.title, 'string', 'insiders see it')
    assert.equal(typeof (await membership(pub, outsider)).body.room.title, 'string', 'a public room shows it to everyone')
    await call(svc, 'PUT', `/v1/rooms/${priv}/members/${u.wallet}`, { token: v.owner.token })
    assert.equal((await membership(priv, u)).body.members, 2)
  })

  it('§2.8 "members: null … for a private room seen by an outsider": those the room admits without membership (an operator, the venue\'s owner after leaving) are no outsiders — they get the headcount and the title', async () => {
    const { v, priv } = await roomWorld()
    const byOperator = await membership(priv, operator)
    assert.equal(byOperator.status, 200)
    assert.equal(byOperator.body.member, false, 'the operator is no member')
    assert.equal(byOperator.body.members, 1)
    assert.equal(typeof byOperator.body.room.title, 'string')
    assert.equal((await leave(priv, v.owner)).status, 200)
    const byOwner = await membership(priv, v.owner)
    assert.equal(byOwner.body.member, false, 'the owner left')
    assert.equal(byOwner.body.members, 0, 'a headcount, not null: the owner is no outsider')
    assert.equal(typeof byOwner.body.room.title, 'string')
  })
})

describe('§5.1 room reads with an ended or mangled session', () => {
  it('§5.1 "Reads need no credential and work signed out": a session token that ended (signed out) or is mangled reads a room, its membership, its board and the venue\'s room list as signed out — never 401', async () => {
    const { v, pub } = await roomWorld()
    const gone = await signIn(svc, undefined, v.venueId)
    assert.equal((await join(pub, gone)).status, 200)
    assert.equal((await call(svc, 'POST', '/v1/auth/signout', { token: gone.token })).status, 200)
    for (const auth of [{ token: gone.token }, { headers: { authorization: 'Bearer vks_mangled' } }]) {
      const m = await call(svc, 'GET', `/v1/rooms/${pub}/membership`, auth)
      assert.equal(m.status, 200, JSON.stringify(m.body))
      assert.equal(m.body.member, null, 'read as signed out: unknown, not false')
      assert.equal(m.body.members, 2)
      for (const path of [`/v1/rooms/${pub}`, `/v1/rooms/${pub}/board`, `/v1/rooms?venueId=${v.venueId}`]) {
        const r = await call(svc, 'GET', path, auth)
        assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`)
      }
    }
  })
})

describe('§3.3 join and leave', () => {
  it('§3.3 "join: caller\'s session venue owns the room; room is public → member"', async () => {
    const { v, pub } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    const r = await join(pub, u)
    assert.equal(r.status, 200)
    assert.equal(r.body.member, true)
    assert.equal(r.body.refused, false)
    assert.ok(r.body.joinedAt)
    const again = await join(pub, u)
    assert.equal(again.body.joinedAt, r.body.joinedAt, 'joining twice is idempotent')
  })

  it('§3.3 "join: room is private → not a member; refused set: \'this room is not open to join\'"', async () => {
    const { v, priv } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    const before = await memberRows(priv)
    const r = await join(priv, u)
    assert.equal(r.status, 200)
    assert.deepEqual(r.body, { member: false, refused: true, message: 'this room is not open to join', joinedAt: null })
    assert.equal(r.body.message, MSG.ROOM_NOT_OPEN)
    assert.deepEqual(await memberRows(priv), before)
  })

  it('§3.3 "left → join" of a private room: its venue\'s owner or an operator who left it rejoins (they administer it, and are offered Rejoin); a member who left, and an operator who never joined, are refused', async () => {
    const { v, priv } = await roomWorld()
    const member = await signIn(svc, undefined, v.venueId)
    for (const u of [member, operator]) assert.equal((await call(svc, 'PUT', `/v1/rooms/${priv}/members/${u.wallet}`, { token: v.owner.token })).status, 200)
    for (const [u, key] of [[v.owner], [operator, v.key], [member]] as [TestUser, string?][]) {
      assert.equal((await leave(priv, u, key)).status, 200)
      const m = (await membership(priv, u, key)).body
      assert.equal(m.member, false)
      assert.equal(m.left, true)
    }
    // What the owner is told on posting, with 'Rejoin and post' beside it in the elements: the join must then work.
    expectError(await post(svc, v.owner, { room: priv }), 403, 'room-left', MSG.LEFT_ROOM)
    const refused = await join(priv, member)
    assert.deepEqual(refused.body, { member: false, refused: true, message: MSG.ROOM_NOT_OPEN, joinedAt: null })
    for (const [u, key] of [[v.owner], [operator, v.key]] as [TestUser, string?][]) {
      const r = await join(priv, u, key)
      assert.equal(r.status, 200)
      assert.equal(r.body.member, true)
      assert.equal(r.body.refused, false)
      const m = (await membership(priv, u, key)).body
      assert.deepEqual([m.member, m.left], [true, false])
    }
    assert.equal((await post(svc, v.owner, { room: priv })).status, 201, 'the owner posts again')
    // Never a member: the spec's row 'not a member → join → room is private → refused', whoever asks.
    const { v: w, priv: other } = await roomWorld()
    const before = await memberRows(other)
    assert.deepEqual((await join(other, operator, w.key)).body, { member: false, refused: true, message: MSG.ROOM_NOT_OPEN, joinedAt: null })
    assert.deepEqual(await memberRows(other), before)
  })

  it('§3.3 "join: room belongs to another venue → Error (not reported as invite-only)", public or private', async () => {
    const { v, pub, priv } = await roomWorld()
    const elsewhere = await claimVenue(svc)
    const u = await signIn(svc, undefined, elsewhere.venueId)
    const noVenue = await signIn(svc)
    for (const room of [pub, priv]) {
      const before = await memberRows(room)
      for (const who of [u, noVenue, elsewhere.owner]) {
        const r = await join(room, who)
        expectError(r, 403, 'room-other-venue')
        assert.equal(r.body.refused, undefined)
        assert.notEqual(r.body.error.message, MSG.ROOM_NOT_OPEN)
      }
      assert.deepEqual(await memberRows(room), before)
    }
    // The venue key binds the request to the key's venue, and a refusal then says so (not "signed in on", which
    // would name the session's venue, here the room's own).
    assert.equal((await join(pub, u, v.key)).body.member, true)
    const home = await signIn(svc, undefined, v.venueId)
    for (const room of [pub, priv])
      expectError(await join(room, home, elsewhere.key), 403, 'room-other-venue', "this room belongs to another venue; with this venue key you can only join rooms of the key's venue")
    expectError(await join(pub, u), 403, 'room-other-venue', 'this room belongs to another venue; you can only join rooms of the venue you are signed in on')
    expectError(await join(pub, noVenue), 403, 'room-other-venue', "this session names no venue; sign in on the room's venue to join it")
  })

  it('§5.6 "Join and leave work only for the session\'s own venue\'s room": leave of another venue\'s room is an error and changes nothing', async () => {
    const { v, pub } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    await join(pub, u)
    const elsewhere = await claimVenue(svc)
    const sameAccountOtherVenue = await signIn(svc, u.account, elsewhere.venueId)
    const before = await memberRows(pub)
    expectError(await leave(pub, sameAccountOtherVenue), 403, 'room-other-venue')
    assert.deepEqual(await memberRows(pub), before)
  })

  it('§3.3 "member → leave (own venue\'s room) → left. Sticky." and "left → join (public room) → member (Rejoin)"', async () => {
    const { v, pub } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    await join(pub, u)
    const l = await leave(pub, u)
    assert.equal(l.status, 200)
    assert.equal(l.body.member, false)
    assert.equal(l.body.left, true)
    const m = await membership(pub, u)
    assert.equal(m.body.member, false)
    assert.equal(m.body.left, true)
    // Sticky: following the subject does not bring them back.
    await follow(u, 'category', (await membership(pub)).body.room.subject.ref)
    assert.equal((await membership(pub, u)).body.member, false)
    const back = await join(pub, u)
    assert.equal(back.body.member, true)
    const m2 = await membership(pub, u)
    assert.equal(m2.body.member, true)
    assert.equal(m2.body.left, false)
  })

  it('§2.8 "members: Headcount" counts current members: a leave takes one off, a rejoin puts them back', async () => {
    const { v, pub } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    await join(pub, u)
    assert.equal((await membership(pub)).body.members, 2)
    await leave(pub, u)
    assert.equal((await membership(pub)).body.members, 1, 'the member who left is not counted')
    assert.equal((await membership(pub, u)).body.members, 1)
    await join(pub, u)
    assert.equal((await membership(pub)).body.members, 2)
  })

  it('§2.8 "refused: True only for the private-room join answer" to an outsider: a member of a private room who presses join is answered member, not refused', async () => {
    const { v, priv } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    await call(svc, 'PUT', `/v1/rooms/${priv}/members/${u.wallet}`, { token: v.owner.token })
    const before = await memberRows(priv)
    const r = await join(priv, u)
    assert.equal(r.status, 200)
    assert.equal(r.body.member, true)
    assert.equal(r.body.refused, false)
    assert.equal(r.body.message, undefined)
    assert.ok(r.body.joinedAt)
    assert.deepEqual(await memberRows(priv), before)
    const owner = await join(priv, v.owner)
    assert.deepEqual([owner.body.member, owner.body.refused], [true, false], "the room's owner, its first member, too")
  })

  it('join and leave need a session: 401, nothing written', async () => {
    const { pub } = await roomWorld()
    const before = await memberRows(pub)
    expectError(await call(svc, 'POST', `/v1/rooms/${pub}/join`), 401, 'unauthenticated')
    expectError(await call(svc, 'POST', `/v1/rooms/${pub}/leave`), 401, 'unauthenticated')
    assert.deepEqual(await memberRows(pub), before)
    const u = await signIn(svc)
    expectError(await join('r_nosuchroom', u), 404, 'room-not-found')
    expectError(await join('not a room', u), 400, 'validation-failed')
    expectError(await call(svc, 'POST', `/v1/rooms/${pub}/join?x=1`, { token: u.token }), 400, 'unsupported-param')
  })

  it('the owner adds members to a private room (its way in) and removes them; nobody else can', async () => {
    const { v, priv } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    const other = await claimVenue(svc)
    const before = await memberRows(priv)
    expectError(await call(svc, 'PUT', `/v1/rooms/${priv}/members/${u.wallet}`, { token: u.token }), 403, 'forbidden')
    expectError(await call(svc, 'PUT', `/v1/rooms/${priv}/members/${u.wallet}`, { token: other.owner.token }), 403, 'forbidden')
    assert.deepEqual(await memberRows(priv), before)
    const add = await call(svc, 'PUT', `/v1/rooms/${priv}/members/${u.wallet}`, { token: v.owner.token })
    assert.equal(add.status, 200)
    assert.equal((await membership(priv, u)).body.member, true)
    assert.equal((await post(svc, u, { room: priv })).status, 201)
    const rm = await call(svc, 'DELETE', `/v1/rooms/${priv}/members/${u.wallet}`, { token: v.owner.token })
    assert.equal(rm.status, 200)
    assert.equal((await membership(priv, u)).body.member, false)
    expectError(await post(svc, u, { room: priv }), 404, 'room-not-found')
  })
})

describe('§3.3 / §7 posting into a room (POST /v1/social/posts with room)', () => {
  it('§3.3 "a member may post": the post is in the room', async () => {
    const { v, pub } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    await join(pub, u)
    const r = await post(svc, u, { room: pub })
    assert.equal(r.status, 201)
    assert.equal(r.body.post.roomId, pub)
  })

  it('§3.3 "create post in room: caller follows the room\'s subject and the subject is followable → member. Membership recorded on the first post."', async () => {
    const { v, node, pub } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    assert.equal((await follow(u, 'category', node)).status, 200)
    assert.equal((await membership(pub, u)).body.member, false)
    const r = await post(svc, u, { room: pub })
    assert.equal(r.status, 201)
    const m = await membership(pub, u)
    assert.equal(m.body.member, true)
    assert.ok(m.body.joinedAt)
  })

  it('§3.3 "caller follows the room\'s subject … → member": following another node, or the same ref under another type, is not the room\'s subject: 403 \'join this room to post in it\', no membership', async () => {
    const { v, node, pub } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    assert.equal((await follow(u, 'category', `${node}-elsewhere`)).status, 200)
    assert.equal((await follow(u, 'topic', node)).status, 200)
    const before = await memberRows(pub)
    expectError(await post(svc, u, { room: pub }), 403, 'room-join-required', 'join this room to post in it')
    assert.deepEqual(await memberRows(pub), before)
    assert.equal((await membership(pub, u)).body.member, false)
  })

  it('§3.3 "join: caller\'s session venue owns the room" / §5.6 "Join and leave work only for the session\'s own venue\'s room": a follower posting from another venue\'s session (or key, or a session naming no venue) is refused 403 room-other-venue, as join answers them — not \'join this room to post in it\', a join that can only fail — and gets no membership they could not leave, no post', async () => {
    const { v, node, pub } = await roomWorld()
    const w = await claimVenue(svc)
    const u = await signIn(svc, undefined, w.venueId)
    assert.equal((await follow(u, 'category', node)).status, 200)
    const memberRow = async () => svc.ctx.db.selectFrom('room_members').select('account_id').where('room_id', '=', pub).where('account_id', '=', await accountOf(u)).execute()
    const roomPosts = async () => (await svc.ctx.db.selectFrom('posts').select('id').where('room_id', '=', pub).execute()).length
    const top = await post(svc, v.owner, { room: pub })
    assert.equal(top.status, 201)
    const postsBefore = await roomPosts()
    const keyless = await signIn(svc, u.account)
    const attempts = [
      await post(svc, u, { room: pub }),
      await post(svc, u, { parentId: top.body.post.id }),
      await post(svc, keyless, { room: pub }),
      await call(svc, 'POST', '/v1/social/posts', { token: u.token, key: w.key, body: { subjectType: 'topic', subjectRef: 'chatter', body: 'hi', room: pub } }),
    ]
    for (const r of attempts) expectError(r, 403, 'room-other-venue')
    for (const r of attempts) assert.notEqual(r.body.error.message, MSG.JOIN_TO_POST)
    // Join itself answers them the same code.
    expectError(await join(pub, u), 403, 'room-other-venue')
    // A non-follower on another venue still reads the spec's sentence (§7: "a non-member who does not follow").
    const stranger = await signIn(svc, undefined, w.venueId)
    expectError(await post(svc, stranger, { room: pub }), 403, 'room-join-required', MSG.JOIN_TO_POST)
    assert.deepEqual(await memberRow(), [])
    assert.equal(await roomPosts(), postsBefore)
    // The same follower on the room's own venue (session or key) joins with the post, and can leave again.
    const onV = await signIn(svc, u.account, v.venueId)
    assert.equal((await post(svc, onV, { room: pub })).status, 201)
    assert.equal((await memberRow()).length, 1)
    assert.equal((await leave(pub, onV)).status, 200)
    const viaKey = await call(svc, 'POST', '/v1/social/posts', { token: u.token, key: v.key, body: { subjectType: 'topic', subjectRef: 'chatter', body: 'hi', room: pub } })
    expectError(viaKey, 403, 'room-left', MSG.LEFT_ROOM)
  })

  it('§3.3 "A room whose subject is an org: or brand: node has no follow path; members there join explicitly"', async () => {
    const v = await claimVenue(svc)
    const orgRoom = await createRoom(svc, v, { subjectType: 'org', subjectRef: 'acme' })
    const u = await signIn(svc, undefined, v.venueId)
    // Even a follows row (no route can create one for org or brand) does not make a member.
    const account = await accountOf(u)
    for (const [type, ref] of [['org', 'acme'], ['brand', v.venueId]]) {
      await svc.ctx.db.insertInto('follows').values({ account_id: account, subject_type: type, subject_ref: ref }).execute()
    }
    expectError(await post(svc, u, { room: orgRoom }), 403, 'room-join-required', MSG.JOIN_TO_POST)
    expectError(await post(svc, u, { room: 'self' }), 403, 'room-join-required', MSG.JOIN_TO_POST)
    const self = await call(svc, 'POST', '/v1/social/posts', { token: u.token, key: v.key, body: { subjectType: 'topic', subjectRef: 'x', body: 'hi', room: 'self' } })
    expectError(self, 403, 'room-join-required', MSG.JOIN_TO_POST)
    await join(orgRoom, u)
    assert.equal((await post(svc, u, { room: orgRoom })).status, 201)
    await join('self', u, v.key)
    const ok = await call(svc, 'POST', '/v1/social/posts', { token: u.token, key: v.key, body: { subjectType: 'topic', subjectRef: 'x', body: 'hi', room: 'self' } })
    assert.equal(ok.status, 201)
    assert.equal(ok.body.post.roomId, v.selfRoomId)
  })

  it('§7 "Post into a room by a non-member who does not follow the room\'s subject → 403 \'join this room to post in it\'", nothing written', async () => {
    const { v, pub } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    const before = await svc.ctx.db.selectFrom('posts').select('id').where('room_id', '=', pub).execute()
    const r = await post(svc, u, { room: pub })
    expectError(r, 403, 'room-join-required', 'join this room to post in it')
    assert.equal((await svc.ctx.db.selectFrom('posts').select('id').where('room_id', '=', pub).execute()).length, before.length)
    assert.equal((await membership(pub, u)).body.member, false)
  })

  it('§3.3 and §7 a member\'s post landing with their leave: the post waits for the leave, then gets the refusal the room now gives (never a post in a room its author has just left)', { skip: !ON_POSTGRES && 'needs a second connection to hold a row lock (PostgreSQL)' }, async () => {
    const v = await claimVenue(svc)
    const roomId = await createRoom(svc, v, { subjectType: 'topic', subjectRef: `race-${Date.now()}` })
    const u = await signIn(svc, undefined, v.venueId)
    assert.equal((await join(roomId, u)).status, 200)
    const account = await accountOf(u)
    /** A leave written in a transaction held open until `commit()`. */
    const heldLeave = async () => {
      let commit!: () => void
      const held = new Promise<void>((r) => (commit = r))
      let locked!: () => void
      const ready = new Promise<void>((r) => (locked = r))
      const done = svc.ctx.db.transaction().execute(async (tx) => {
        await tx.updateTable('room_members').set({ left_at: new Date() }).where('room_id', '=', roomId).where('account_id', '=', account).execute()
        locked()
        await held
      })
      await ready
      return { commit, done }
    }
    const leave = await heldLeave()
    let answered = false
    const posting = post(svc, u, { room: roomId, body: 'as I leave' }).finally(() => (answered = true))
    await new Promise((r) => setTimeout(r, 300))
    assert.equal(answered, false, 'the post waits for the leave')
    leave.commit()
    await leave.done
    expectError(await posting, 403, 'room-left', MSG.LEFT_ROOM)
    const inRoom = await svc.ctx.db.selectFrom('posts').select('id').where('room_id', '=', roomId).execute()
    assert.deepEqual(inRoom, [])
  })

  it('§3.3 "left" is sticky for a follower too: a follower\'s first post racing their join-and-leave waits for it, then gets \'you left this room — rejoin to post\' (no post, no rejoin)', { skip: !ON_POSTGRES && 'needs a second connection to hold a row lock (PostgreSQL)' }, async () => {
    const { v, node, pub } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    await follow(u, 'category', node)
    const account = await accountOf(u)
    // A join and a leave of this follower, written in a transaction held open: the post's placement (outside its
    // transaction) still finds no membership, so it is placed as a follower's first post, which joins them.
    let commit!: () => void
    const held = new Promise<void>((r) => (commit = r))
    let locked!: () => void
    const ready = new Promise<void>((r) => (locked = r))
    const landing = svc.ctx.db.transaction().execute(async (tx) => {
      await tx.insertInto('room_members').values({ room_id: pub, account_id: account, joined_at: new Date(), left_at: new Date() }).execute()
      locked()
      await held
    })
    await ready
    let answered = false
    const posting = post(svc, u, { room: pub, body: 'first words' }).finally(() => (answered = true))
    await new Promise((r) => setTimeout(r, 300))
    assert.equal(answered, false, 'the post waits for the membership row')
    commit()
    await landing
    expectError(await posting, 403, 'room-left', MSG.LEFT_ROOM)
    assert.deepEqual(await svc.ctx.db.selectFrom('posts').select('id').where('room_id', '=', pub).execute(), [], 'no post in the room')
    const row = await svc.ctx.db.selectFrom('room_members').select('left_at').where('room_id', '=', pub).where('account_id', '=', account).executeTakeFirstOrThrow()
    assert.notEqual(row.left_at, null, 'still left: the post did not rejoin them')
  })

  it('§7 "Post into a room by someone who left it → \'you left this room — rejoin to post\'" even when they follow; it differs from the join message', async () => {
    const { v, node, pub } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    await join(pub, u)
    await leave(pub, u)
    await follow(u, 'category', node)
    const r = await post(svc, u, { room: pub })
    expectError(r, 403, 'room-left', 'you left this room — rejoin to post')
    assert.equal(MSG.LEFT_ROOM, 'you left this room — rejoin to post')
    assert.equal(MSG.JOIN_TO_POST, 'join this room to post in it')
    assert.notEqual(MSG.LEFT_ROOM, MSG.JOIN_TO_POST)
    assert.equal((await membership(pub, u)).body.member, false, 'the refused post did not rejoin them')
    await join(pub, u)
    assert.equal((await post(svc, u, { room: pub })).status, 201)
  })

  it('a private room: an outsider (follower or not) posting into it gets 404, never a member; a member posts', async () => {
    const { v, node, priv } = await roomWorld()
    const outsider = await signIn(svc, undefined, v.venueId)
    await follow(outsider, 'topic', `${node}-inner`)
    expectError(await post(svc, outsider, { room: priv }), 404, 'room-not-found')
    assert.equal((await membership(priv, outsider)).body.member, false)
    assert.equal((await post(svc, v.owner, { room: priv })).status, 201)
  })

  it('§3.3 "create post in room: caller follows the room\'s subject … → member" is no way into a private room ("room is private → not a member"): its venue\'s owner, who sees the room without being a member, follows its node and posts — 403 \'join this room to post in it\', no membership, no post', async () => {
    const { v, node, priv } = await roomWorld()
    // The owner takes themselves off the member list (removed, not left): they still see the room, as its admin.
    assert.equal((await call(svc, 'DELETE', `/v1/rooms/${priv}/members/${v.owner.wallet}`, { token: v.owner.token })).status, 200)
    assert.equal((await follow(v.owner, 'topic', `${node}-inner`)).status, 200)
    const before = await memberRows(priv)
    expectError(await post(svc, v.owner, { room: priv }), 403, 'room-join-required', MSG.JOIN_TO_POST)
    assert.deepEqual(await memberRows(priv), before)
    assert.equal((await membership(priv, v.owner)).body.member, false)
    assert.equal((await svc.ctx.db.selectFrom('posts').select('id').where('room_id', '=', priv).execute()).length, 0)
  })

  it('§7 a private room "read by an outsider → 404 (not 403, so existence is not confirmed)": a member who left it or was removed is an outsider — posting into it is 404 room-not-found, not \'you left this room — rejoin to post\' (a private room refuses the rejoin); nothing written', async () => {
    const { v, priv } = await roomWorld()
    const [left, removed] = [await signIn(svc, undefined, v.venueId), await signIn(svc, undefined, v.venueId)]
    for (const u of [left, removed]) assert.equal((await call(svc, 'PUT', `/v1/rooms/${priv}/members/${u.wallet}`, { token: v.owner.token })).status, 200)
    assert.equal((await post(svc, left, { room: priv })).status, 201, 'a member posts')
    assert.equal((await leave(priv, left)).status, 200)
    assert.equal((await call(svc, 'DELETE', `/v1/rooms/${priv}/members/${removed.wallet}`, { token: v.owner.token })).status, 200)
    const before = (await svc.ctx.db.selectFrom('posts').select('id').where('room_id', '=', priv).execute()).length
    for (const u of [left, removed]) expectError(await post(svc, u, { room: priv }), 404, 'room-not-found')
    // The same answer as someone who never was a member, and as a room that does not exist.
    expectError(await post(svc, await signIn(svc, undefined, v.venueId), { room: priv }), 404, 'room-not-found')
    expectError(await post(svc, left, { room: 'r_doesnotexist' }), 404, 'room-not-found')
    assert.equal((await svc.ctx.db.selectFrom('posts').select('id').where('room_id', '=', priv).execute()).length, before)
    // Joining it again is not open (§3.3), so nothing could have acted on 'rejoin to post'.
    const rejoin = await join(priv, left)
    assert.equal(rejoin.status, 200)
    assert.equal(rejoin.body.refused, true)
  })

  it('§3.3 / §7 "Join a private room → `refused` flag set: \'this room is not open to join\'": a 200 answer, never an error, so `room-not-open` is no wire error code (errors.ts); the client reads the flag', async () => {
    const { v, priv } = await roomWorld()
    const u = await signIn(svc, undefined, v.venueId)
    const r = await join(priv, u)
    assert.equal(r.status, 200)
    assert.deepEqual(r.body, { member: false, refused: true, message: MSG.ROOM_NOT_OPEN, joinedAt: null })
    assert.equal(MSG.ROOM_NOT_OPEN, 'this room is not open to join')
    assert.equal((ERROR_CODES as readonly string[]).includes('room-not-open'), false)
    assert.equal((await membership(priv, u)).body.member, false)
  })

  it('a reply lands in its parent\'s room under the same rules (non-member, left, private outsider)', async () => {
    const { v, pub, priv } = await roomWorld()
    const member = await signIn(svc, undefined, v.venueId)
    await join(pub, member)
    const top = await post(svc, member, { room: pub })
    const privTop = await post(svc, v.owner, { room: priv })
    const stranger = await signIn(svc, undefined, v.venueId)
    expectError(await post(svc, stranger, { parentId: top.body.post.id }), 403, 'room-join-required', MSG.JOIN_TO_POST)
    expectError(await post(svc, stranger, { parentId: privTop.body.post.id }), 404, 'post-not-found')
    const reply = await post(svc, member, { parentId: top.body.post.id })
    assert.equal(reply.status, 201)
    assert.equal(reply.body.post.roomId, pub)
    await leave(pub, member)
    expectError(await post(svc, member, { parentId: top.body.post.id }), 403, 'room-left', MSG.LEFT_ROOM)
  })

  it('§5.7 a wallet banned on the room\'s venue may not post into its rooms, whatever its session venue; reading stays open', async () => {
    const { v, pub } = await roomWorld()
    const elsewhere = await claimVenue(svc)
    const u = await signIn(svc, undefined, v.venueId)
    await join(pub, u)
    const ban = await call(svc, 'POST', '/v1/mod/ban', { token: v.owner.token, body: { venueId: v.venueId, wallet: u.wallet } })
    assert.equal(ban.status, 200)
    const otherSession = await signIn(svc, u.account, elsewhere.venueId)
    expectError(await post(svc, otherSession, { room: pub }), 403, 'banned')
    expectError(await post(svc, u, { room: pub }), 403, 'banned')
    assert.equal((await membership(pub, u)).status, 200)
    assert.equal((await call(svc, 'GET', `/v1/rooms/${pub}/board`, { token: u.token })).status, 200)
  })
})

describe('§7 reads of a private room by outsiders', () => {
  it('§7 "Thread or board of a private room read by an outsider → 404 (not 403, so existence is not confirmed)"', async () => {
    const { v, priv } = await roomWorld()
    await post(svc, v.owner, { room: priv, subjectType: 'topic', subjectRef: 'secret' })
    const outsider = await signIn(svc, undefined, v.venueId)
    const elsewhere = await claimVenue(svc)
    for (const who of [undefined, outsider, elsewhere.owner]) {
      expectError(await call(svc, 'GET', `/v1/rooms/${priv}/board`, { token: who?.token }), 404, 'room-not-found')
      expectError(await call(svc, 'GET', `/v1/rooms/${priv}`, { token: who?.token }), 404, 'room-not-found')
      const thread = await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=secret&room=${priv}`, { token: who?.token })
      expectError(thread, 404, 'room-not-found')
    }
    // Same answer as a room that does not exist.
    const none = await call(svc, 'GET', '/v1/rooms/r_doesnotexist00/board')
    expectError(none, 404, 'room-not-found', (await call(svc, 'GET', `/v1/rooms/${priv}/board`)).body.error.message)
    // Insiders read it.
    assert.equal((await call(svc, 'GET', `/v1/rooms/${priv}/board`, { token: v.owner.token })).status, 200)
    assert.equal((await call(svc, 'GET', `/v1/rooms/${priv}/board`, { token: operator.token })).status, 200)
    const t = await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=secret&room=${priv}`, { token: v.owner.token })
    assert.equal(t.status, 200)
    assert.equal(t.body.posts.length, 1)
  })
})

describe('§2.9 room board', () => {
  async function takeAndResolve(u: TestUser, node: string, winnerSide: number, mySide: number) {
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: node }] })
    await svc.chain.setPosition(u.wallet, m.id, mySide, 10n)
    const r = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'take' } })
    assert.equal(r.body.post.stance.side, mySide)
    await svc.chain.resolve(m.id, winnerSide)
  }

  it('§2.9 "the members ranked at the room\'s node, each as rank of population; rank: null means unranked, not last"', async () => {
    const v = await claimVenue(svc)
    const node = `board-${Math.random().toString(36).slice(2, 8)}`
    const room = await createRoom(svc, v, { subjectType: 'category', subjectRef: node })
    const [a, b, c, d] = await Promise.all([1, 2, 3, 4].map(() => signIn(svc, undefined, v.venueId)))
    for (const u of [a, b, c]) await join(room, u)
    await takeAndResolve(a, node, 0, 0)
    await takeAndResolve(a, node, 0, 0)
    await takeAndResolve(b, node, 0, 0)
    await takeAndResolve(b, node, 0, 1)
    await takeAndResolve(d, node, 1, 1) // d is ranked at the node but not a member
    // b is strong elsewhere: the board ranks at the room's node only.
    for (let i = 0; i < 3; i++) await takeAndResolve(b, `${node}-other`, 0, 0)
    const r = await call(svc, 'GET', `/v1/rooms/${room}/board`)
    assert.equal(r.status, 200)
    assert.deepEqual(r.body.facet, { type: 'category', ref: node })
    assert.equal(r.body.population, 3)
    const rows = r.body.board.map((e: { wallet: string; rank: number | null; population: number; right: number; wrong: number }) => [e.wallet, e.rank, e.population, e.right, e.wrong])
    const owner = v.owner.wallet
    // a: 2-0 ranks 1; d (not a member, 1-0) ranks 2; b: 1-1 ranks 3 of 3. c and the owner have no record: unranked.
    assert.deepEqual(rows.slice(0, 2), [
      [a.wallet, 1, 3, 2, 0],
      [b.wallet, 3, 3, 1, 1],
    ])
    assert.deepEqual(rows.slice(2).sort(), [
      [c.wallet, null, 3, 0, 0],
      [owner, null, 3, 0, 0],
    ].sort())
    assert.equal(r.body.members, 4)
    assert.ok(!rows.some((x: unknown[]) => x[0] === d.wallet), 'non-members are not on the board')
    // A member who leaves is off the board and its headcount (the population stays the node's).
    await leave(room, a)
    const afterLeave = await call(svc, 'GET', `/v1/rooms/${room}/board`)
    assert.ok(!afterLeave.body.board.some((e: { wallet: string }) => e.wallet === a.wallet), 'a member who left is not on the board')
    assert.equal(afterLeave.body.members, 3)
    assert.equal(afterLeave.body.population, 3)
    await join(room, a)
    // Cursor paging walks the same order.
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: { body: { board: { wallet: string }[]; nextCursor: string | null } } = await call(svc, 'GET', `/v1/rooms/${room}/board?limit=1${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...page.body.board.map((e) => e.wallet))
      cursor = page.body.nextCursor
      assert.ok(seen.length <= 50, 'the cursor moves the page on (a cursor that does not would loop forever)')
    } while (cursor)
    assert.deepEqual(seen, r.body.board.map((e: { wallet: string }) => e.wallet))
    expectError(await call(svc, 'GET', `/v1/rooms/${room}/board?cursor=bogus`), 400, 'validation-failed')
    expectError(await call(svc, 'GET', `/v1/rooms/${room}/board?sort=rank`), 400, 'unsupported-param')
  })
})

describe('room ids', () => {
  it('a venue id in a session that is not claimed gives no venue rights', async () => {
    const ghost = newVenueId()
    const u = await signIn(svc, undefined, ghost)
    expectError(await call(svc, 'POST', '/v1/rooms', { token: u.token, body: { subjectType: 'topic', subjectRef: 'x', visibility: 'public', title: 'x' } }), 403, 'forbidden')
  })
})
