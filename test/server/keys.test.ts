/** §2.11, §5.3–5.5: venue keys, claims, and keys at the gateway (metering, sponsorship). */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { createHash } from 'node:crypto'
import { RESERVED_VENUE_IDS, VENUE_KEY_RE } from '../../src/contract/ids.ts'
import { call, expectError, newWallet, signIn, startTestService, type TestService } from '../helpers/service.ts'
import { claimVenue, newVenueId } from '../helpers/venues.ts'

let svc: TestService
const operatorWallet = newWallet()
before(async () => {
  svc = await startTestService({ operators: [operatorWallet.address] })
})
after(() => svc.close())

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex')
const mint = (token: string | undefined, body: unknown) => call(svc, 'POST', '/admin/keys', { token, body })

async function venueRows(id: string) {
  const db = svc.ctx.db
  return {
    venues: await db.selectFrom('venues').selectAll().where('id', '=', id).execute(),
    keys: await db.selectFrom('venue_keys').selectAll().where('venue_id', '=', id).execute(),
    rooms: await db.selectFrom('rooms').selectAll().where('venue_id', '=', id).execute(),
  }
}

async function assertNothingFor(id: string) {
  const r = await venueRows(id)
  assert.equal(r.venues.length + r.keys.length + r.rooms.length, 0, `something was written for ${id}`)
}

describe('venue keys: POST /admin/keys', () => {
  it('§2.11 "Fixed prefix pck_ followed by 64 hexadecimal characters; scopes read + trade", with its label', async () => {
    const u = await signIn(svc)
    const id = newVenueId()
    const r = await mint(u.token, { venueId: id, scopes: ['trade', 'read'], label: 'browser bundle' })
    assert.equal(r.status, 201)
    assert.match(r.body.key, /^pck_[0-9a-f]{64}$/)
    assert.ok(VENUE_KEY_RE.test(r.body.key))
    assert.deepEqual(r.body.scopes, ['read', 'trade'])
    assert.equal(r.body.label, 'browser bundle')
    assert.equal(r.body.venueId, id)
    assert.equal(r.body.claimed, true)
    const ro = await mint(u.token, { venueId: id, scopes: ['read'], label: 'read only' })
    assert.deepEqual(ro.body.scopes, ['read'])
  })

  it('§2.11 "The raw key is returned once and cannot be read again": only its sha256 is stored, nowhere the raw key', async () => {
    const u = await signIn(svc)
    const id = newVenueId()
    const r = await mint(u.token, { venueId: id, scopes: ['read', 'trade'], label: 'k' })
    const key: string = r.body.key
    const stored = await svc.ctx.db.selectFrom('venue_keys').selectAll().where('venue_id', '=', id).execute()
    assert.equal(stored.length, 1)
    assert.equal(stored[0].key_hash, sha256(key))
    // No table holds the raw key in any column.
    const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(svc.ctx.db)
    for (const t of tables.rows) {
      const dump = await sql<{ j: string }>`select coalesce(json_agg(x)::text, '') as j from ${sql.table(t.table_name)} x`.execute(svc.ctx.db)
      assert.equal(dump.rows[0].j.includes(key.slice(4)), false, `table ${t.table_name} holds the raw key`)
    }
    // Minting again gives a different key; no read route lists keys.
    const again = await mint(u.token, { venueId: id, scopes: ['read'], label: 'k2' })
    assert.notEqual(again.body.key, key)
    assert.equal(JSON.stringify(again.body).includes(key), false)
    const list = await call(svc, 'GET', '/admin/keys', { token: u.token })
    expectError(list, 405, 'method-not-allowed')
    assert.equal(list.headers.get('allow'), 'POST', 'the path takes POST only: no read lists keys')
  })

  it('§5.3 "Keys with any other scope ... must stay on a server": any scope but read and trade is refused, nothing written', async () => {
    const u = await signIn(svc)
    for (const scopes of [['read', 'admin'], ['write'], ['mint'], []]) {
      const id = newVenueId()
      expectError(await mint(u.token, { venueId: id, scopes, label: 'x' }), 400, 'invalid-scope')
      await assertNothingFor(id)
    }
  })

  it('§2.11/§8 "venueId: 6 to 64 characters, lowercase alphanumeric with hyphens": anything else is 400 venue-id-invalid, nothing written', async () => {
    const u = await signIn(svc)
    for (const bad of ['abc12', 'a'.repeat(65), 'a'.repeat(201), `prophecy${'a'.repeat(60)}`, 'Venue-one', 'venue-oNe', 'VENUE1', 'venue_one', '------', 'vénue-one', 'venue one', 'venue1\n']) {
      expectError(await mint(u.token, { venueId: bad, scopes: ['read'], label: 'x' }), 400, 'venue-id-invalid')
      await assertNothingFor(bad)
    }
    // Hyphens anywhere: the spec places none, so a leading or trailing one is a venue id too.
    for (const ok of ['abcd1234', `z${'a'.repeat(62)}9`, `-${newVenueId()}`, `${newVenueId()}-`]) {
      const r = await mint(u.token, { venueId: ok, scopes: ['read'], label: 'x' })
      assert.equal(r.status, 201, ok)
    }
  })

  it('§5.5 "ids starting prophecy or somnia are reserved and refused"', async () => {
    const u = await signIn(svc)
    for (const id of ['prophecy', 'prophecy-markets', 'prophecyx', 'somnia', 'somnia-bets', 'somnia123']) {
      expectError(await mint(u.token, { venueId: id, scopes: ['read'], label: 'x' }), 403, 'venue-id-reserved')
      await assertNothingFor(id)
    }
  })

  it('§5.5 "as are platform names such as demo, studio, gateway" (and the documented list)', async () => {
    const u = await signIn(svc)
    for (const id of ['demo', 'studio', 'gateway', ...RESERVED_VENUE_IDS]) {
      expectError(await mint(u.token, { venueId: id, scopes: ['read'], label: 'x' }), 403, 'venue-id-reserved')
      await assertNothingFor(id)
    }
    // A name that merely contains a platform name is not reserved.
    assert.equal((await mint(u.token, { venueId: newVenueId('demo'), scopes: ['read'], label: 'x' })).status, 201)
  })

  it('§5.5 "If no one holds the venue id, the same call claims it: the caller becomes owner and the venue is created with a sponsorship grant" (and its self room)', async () => {
    const u = await signIn(svc)
    const id = newVenueId()
    const r = await mint(u.token, { venueId: id, scopes: ['read', 'trade'], label: 'x' })
    assert.equal(r.body.claimed, true)
    const rows = await venueRows(id)
    const account = (await svc.ctx.db.selectFrom('wallets').select('account_id').where('address', '=', u.wallet).executeTakeFirstOrThrow()).account_id
    assert.equal(rows.venues[0].owner_account_id, account)
    assert.equal(rows.venues[0].sponsorship_grant, true)
    assert.equal(rows.rooms.length, 1)
    assert.equal(rows.rooms[0].is_self, true)
    assert.deepEqual([rows.rooms[0].subject_type, rows.rooms[0].subject_ref], ['brand', id])
    const self = await call(svc, 'GET', '/v1/rooms/self', { key: r.body.key })
    assert.equal(self.body.room.id, rows.rooms[0].id)
  })

  it('§5.5 "a venue that already exists (holds a policy, a grant or any key) cannot be claimed, whether or not an owner is set"', async () => {
    const owner = await signIn(svc)
    const other = await signIn(svc)
    const held = newVenueId()
    await mint(owner.token, { venueId: held, scopes: ['read'], label: 'x' })
    expectError(await mint(other.token, { venueId: held, scopes: ['read'], label: 'x' }), 409, 'venue-exists')
    // Owner-less venues holding a policy, a grant, or a key.
    const withPolicy = newVenueId()
    const withGrant = newVenueId()
    const withKey = newVenueId()
    const db = svc.ctx.db
    await db.insertInto('venues').values({ id: withPolicy, owner_account_id: null, sponsorship_grant: false, policy: JSON.stringify({ sponsor: false }) }).execute()
    await db.insertInto('venues').values({ id: withGrant, owner_account_id: null, sponsorship_grant: true }).execute()
    await db.insertInto('venues').values({ id: withKey, owner_account_id: null, sponsorship_grant: false }).execute()
    await db.insertInto('venue_keys').values({ id: `k_${withKey}`, venue_id: withKey, key_hash: sha256(withKey), scopes: '["read"]', label: 'ops' }).execute()
    for (const id of [withPolicy, withGrant, withKey]) {
      const before = await venueRows(id)
      expectError(await mint(other.token, { venueId: id, scopes: ['read'], label: 'x' }), 409, 'venue-exists')
      assert.deepEqual(await venueRows(id), before)
    }
  })

  it('§5.5 "A claim is permanent": the owner mints more keys for their venue; nobody else can, and the owner never changes', async () => {
    const v = await claimVenue(svc)
    const other = await signIn(svc)
    const more = await mint(v.owner.token, { venueId: v.venueId, scopes: ['read'], label: 'second' })
    assert.equal(more.status, 201)
    assert.equal(more.body.claimed, false)
    const before = await venueRows(v.venueId)
    expectError(await mint(other.token, { venueId: v.venueId, scopes: ['read', 'trade'], label: 'steal' }), 409, 'venue-exists')
    assert.deepEqual(await venueRows(v.venueId), before)
    assert.equal(before.keys.length, 2)
  })

  it('"A claim that loses a race for the same venue id leaves exactly one owner": concurrent claims, exactly one wins', async () => {
    for (let round = 0; round < 4; round++) {
      const id = newVenueId('race')
      const users = await Promise.all([signIn(svc), signIn(svc), signIn(svc)])
      const results = await Promise.all(users.map((u) => mint(u.token, { venueId: id, scopes: ['read', 'trade'], label: 'race' })))
      const won = results.filter((r) => r.status === 201)
      assert.equal(won.length, 1, JSON.stringify(results.map((r) => [r.status, r.body?.error?.code])))
      for (const r of results) if (r.status !== 201) expectError(r, 409, 'venue-exists')
      const rows = await venueRows(id)
      assert.equal(rows.venues.length, 1)
      assert.equal(rows.keys.length, 1)
      assert.equal(rows.rooms.length, 1)
      const winner = users[results.indexOf(won[0])]
      const account = (await svc.ctx.db.selectFrom('wallets').select('account_id').where('address', '=', winner.wallet).executeTakeFirstOrThrow()).account_id
      assert.equal(rows.venues[0].owner_account_id, account)
    }
  })

  it('§4.1 "Caller signed in": without a session POST /admin/keys is 401 and nothing is written', async () => {
    const id = newVenueId()
    expectError(await mint(undefined, { venueId: id, scopes: ['read'], label: 'x' }), 401, 'unauthenticated')
    await assertNothingFor(id)
  })

  it('bad input on POST /admin/keys: strict schema, a 4xx code and a sentence, nothing written', async () => {
    const u = await signIn(svc)
    const id = newVenueId()
    const cases: [unknown, number, string][] = [
      ['{"venueId":', 400, 'invalid-json'],
      [{ venueId: id, scopes: ['read'] }, 400, 'validation-failed'],
      [{ venueId: id, scopes: 'read', label: 'x' }, 400, 'validation-failed'],
      [{ venueId: id, scopes: ['read'], label: '' }, 400, 'validation-failed'],
      [{ venueId: id, scopes: ['read'], label: 'x'.repeat(81) }, 400, 'validation-failed'],
      [{ venueId: id, scopes: ['read'], label: 'x', owner: 'me' }, 400, 'validation-failed'],
      [{ venueId: 42, scopes: ['read'], label: 'x' }, 400, 'validation-failed'],
      [{ venueId: id, scopes: [1], label: 'x' }, 400, 'validation-failed'],
      // Errors (ARCHITECTURE): "Unknown fields in a JSON body are refused", never dropped without a word.
      [{ venueId: id, scopes: ['read'], label: 'x', expiresAt: '2030-01-01' }, 400, 'validation-failed'],
    ]
    for (const [body, status, code] of cases) expectError(await mint(u.token, body), status, code)
    await assertNothingFor(id)
  })
})

describe('keys at the gateway', () => {
  it('§5.3 "It ... attributes and meters usage": keyed requests count per venue per day as reads and writes; keyless ones are not metered', async () => {
    const v = await claimVenue(svc)
    const before = await call(svc, 'GET', `/v1/venues/${v.venueId}/usage`, { token: v.owner.token })
    const base = before.body.days[0] ?? { reads: 0, writes: 0 }
    for (let i = 0; i < 3; i++) assert.equal((await call(svc, 'GET', '/v1/rooms/self/membership', { key: v.key })).status, 200)
    assert.equal((await call(svc, 'POST', '/v1/rooms/self/join', { key: v.key, token: v.owner.token })).status, 200)
    await call(svc, 'GET', '/v1/rooms/self/membership') // keyless: unmetered (and refused)
    await call(svc, 'GET', `/v1/rooms/${v.selfRoomId}/membership`) // keyless: unmetered
    const r = await call(svc, 'GET', `/v1/venues/${v.venueId}/usage`, { token: v.owner.token })
    assert.equal(r.status, 200)
    const today = new Date().toISOString().slice(0, 10)
    assert.equal(r.body.days[0].day, today)
    // The claim's own GET /v1/rooms/self read was metered too; the usage read itself is keyless.
    assert.equal(r.body.days[0].reads - base.reads, 3)
    assert.equal(r.body.days[0].writes - base.writes, 1)
  })

  it('§5.3 usage is per venue per day (UTC), newest first', async () => {
    let clock = new Date('2030-03-01T23:59:00Z')
    const timed = await startTestService({ now: () => clock })
    try {
      const v = await claimVenue(timed)
      await call(timed, 'GET', '/v1/rooms/self/membership', { key: v.key })
      clock = new Date('2030-03-02T00:01:00Z')
      await call(timed, 'GET', '/v1/rooms/self/membership', { key: v.key })
      await call(timed, 'GET', '/v1/rooms/self/membership', { key: v.key })
      const other = await claimVenue(timed)
      await call(timed, 'GET', '/v1/rooms/self/membership', { key: other.key })
      const r = await call(timed, 'GET', `/v1/venues/${v.venueId}/usage`, { token: v.owner.token })
      assert.deepEqual(r.body.days, [
        { day: '2030-03-02', reads: 2, writes: 0 },
        { day: '2030-03-01', reads: 2, writes: 0 },
      ])
      const one = await call(timed, 'GET', `/v1/venues/${v.venueId}/usage?days=1`, { token: v.owner.token })
      assert.deepEqual(one.body.days.map((d: { day: string }) => d.day), ['2030-03-02'])
    } finally {
      await timed.close()
    }
  })

  it('§5.3 "the owner can read it": usage is the owner\'s (and operators\'); anyone else 403, signed out 401', async () => {
    const v = await claimVenue(svc)
    const other = await claimVenue(svc)
    expectError(await call(svc, 'GET', `/v1/venues/${v.venueId}/usage`, { token: other.owner.token }), 403, 'forbidden')
    expectError(await call(svc, 'GET', `/v1/venues/${v.venueId}/usage`), 401, 'unauthenticated')
    expectError(await call(svc, 'GET', `/v1/venues/${v.venueId}/usage?from=1`, { token: v.owner.token }), 400, 'unsupported-param')
    expectError(await call(svc, 'GET', `/v1/venues/${v.venueId}/usage?days=0`, { token: v.owner.token }), 400, 'validation-failed')
    expectError(await call(svc, 'GET', '/v1/venues/NOPE/usage', { token: v.owner.token }), 400, 'validation-failed')
  })

  it('§2.11 "scopes read + trade" and §5.3 "It scopes reads to the venue": only a key with the read scope scopes reads; a trade-only key is ignored on reads (X-Venue-Key-Status: refused) and room=self answers 403 venue-key-scope', async () => {
    const v = await claimVenue(svc)
    const trade = await mint(v.owner.token, { venueId: v.venueId, scopes: ['trade'], label: 'trade only' })
    assert.equal(trade.status, 201, JSON.stringify(trade.body))
    const author = await signIn(svc)
    const topic = `scopes-${v.venueId}`
    const p = await call(svc, 'POST', '/v1/social/posts', { token: author.token, body: { subjectType: 'topic', subjectRef: topic, body: 'hidden on v' } })
    assert.equal(p.status, 201)
    const hide = await call(svc, 'POST', '/v1/mod/hide', { token: v.owner.token, body: { venueId: v.venueId, postId: p.body.post.id } })
    assert.equal(hide.status, 200, JSON.stringify(hide.body))
    const thread = (key: string) => call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=${topic}`, { key })
    const withRead = await thread(v.key)
    assert.deepEqual(withRead.body.posts, [], "the read key's overlay hides the post")
    assert.equal(withRead.headers.get('x-venue-key-status'), null)
    const tradeOnly = await thread(trade.body.key)
    assert.equal(tradeOnly.status, 200, 'reads fail open')
    assert.deepEqual(tradeOnly.body.posts.map((x: { id: string }) => x.id), [p.body.post.id], 'no overlay from a key without read')
    assert.equal(tradeOnly.headers.get('x-venue-key-status'), 'refused')
    expectError(await call(svc, 'GET', '/v1/social/posts/feed?room=self', { key: trade.body.key }), 403, 'venue-key-scope')
    expectError(await call(svc, 'GET', '/v1/rooms/self/board', { key: trade.body.key }), 403, 'venue-key-scope')
    assert.equal((await call(svc, 'GET', '/v1/rooms/self/board', { key: v.key })).status, 200)
  })

  it('a venue key that is not live is refused with a clear 401 (invalid-venue-key)', async () => {
    expectError(await call(svc, 'GET', '/v1/gateway/sponsorship', { key: 'pck_nothex' }), 401, 'invalid-venue-key')
    expectError(await call(svc, 'GET', '/v1/gateway/sponsorship', { key: `pck_${'0'.repeat(64)}` }), 401, 'invalid-venue-key')
  })

  it('ARCHITECTURE "a key that is not live is 401, as on every write" (README: "writes ... throw invalid-venue-key"): a revoked, unknown or malformed key refuses every write — agree, delete, block, unblock, follow, moderation, origins — and writes nothing; reads still answer; a sign-out and key management (mint, list, revoke) are not attributed to a venue and go through', async () => {
    const v = await claimVenue(svc)
    const author = await signIn(svc, undefined, v.venueId)
    const fan = await signIn(svc)
    const write = async (body: string) => {
      const r = await call(svc, 'POST', '/v1/social/posts', { token: author.token, body: { subjectType: 'topic', subjectRef: `dead-key-${v.venueId}`, body } })
      assert.equal(r.status, 201, JSON.stringify(r.body))
      return r.body.post.id as string
    }
    const postId = await write('a post')
    await svc.ctx.db.updateTable('venue_keys').set({ revoked_at: new Date() }).where('venue_id', '=', v.venueId).execute()
    const db = svc.ctx.db
    const state = async () => ({
      reactions: (await db.selectFrom('reactions').select('post_id').where('post_id', '=', postId).execute()).length,
      post: await db.selectFrom('posts').select(['deleted_at', 'state']).where('id', '=', postId).executeTakeFirstOrThrow(),
      hides: (await db.selectFrom('venue_hides').select('post_id').where('venue_id', '=', v.venueId).execute()).length,
      bans: (await db.selectFrom('bans').select('scope').where('scope', '=', v.venueId).execute()).length,
      audit: (await db.selectFrom('mod_audit').select('id').where('scope', '=', v.venueId).execute()).length,
      blocks: (await db.selectFrom('blocks').select('account_id').execute()).length,
      follows: (await db.selectFrom('follows').select('account_id').execute()).length,
      origins: (await db.selectFrom('venues').select('origins').where('id', '=', v.venueId).executeTakeFirstOrThrow()).origins,
      keys: (await db.selectFrom('venue_keys').select('id').where('venue_id', '=', v.venueId).execute()).length,
      sessions: (await db.selectFrom('sessions').select('token_hash').where('revoked_at', 'is', null).execute()).length,
    })
    const before = await state()
    for (const key of [v.key, `pck_${'0'.repeat(64)}`, 'pck_nothex']) {
      const writes: [string, string, string, unknown, string][] = [
        ['agree', 'POST', `/v1/social/posts/${postId}/reactions`, { kind: 'agree', active: true }, fan.token],
        ['delete', 'DELETE', `/v1/social/posts/${postId}`, undefined, author.token],
        ['block', 'POST', '/v1/social/blocks', { wallet: author.wallet }, fan.token],
        ['unblock', 'DELETE', `/v1/social/blocks/${author.wallet}`, undefined, fan.token],
        ['follow', 'PUT', '/v1/social/follows/topic/dead-key', undefined, fan.token],
        ['venue hide', 'POST', '/v1/mod/hide', { venueId: v.venueId, postId }, v.owner.token],
        ['venue ban', 'POST', '/v1/mod/ban', { venueId: v.venueId, wallet: author.wallet }, v.owner.token],
        ['origins', 'PUT', `/v1/venues/${v.venueId}/origins`, { origins: ['https://shop.example'] }, v.owner.token],
      ]
      for (const [name, method, path, body, token] of writes) {
        const r = await call(svc, method, path, { token, key, body })
        assert.equal(r.status, 401, `${name} with ${key.slice(0, 8)}…: ${r.status} ${JSON.stringify(r.body)}`)
        expectError(r, 401, 'invalid-venue-key')
      }
      const read = await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=dead-key-${v.venueId}`, { key })
      assert.equal(read.status, 200, 'reads fail open')
      assert.equal(read.headers.get('x-venue-key-status'), 'refused')
    }
    assert.deepEqual(await state(), before, 'nothing written')
    // Not attributed to a venue: a page whose key died still signs its reader out, and its owner still replaces the key.
    const dead = v.key
    const minted = await call(svc, 'POST', '/admin/keys', { token: v.owner.token, key: dead, body: { venueId: v.venueId, scopes: ['read'], label: 'replacement' } })
    assert.equal(minted.status, 201, JSON.stringify(minted.body))
    assert.equal((await call(svc, 'GET', `/v1/venues/${v.venueId}/keys`, { token: v.owner.token, key: dead })).status, 200)
    assert.equal((await call(svc, 'DELETE', `/v1/venues/${v.venueId}/keys/${minted.body.keyId}`, { token: v.owner.token, key: dead })).status, 200)
    assert.equal((await call(svc, 'POST', '/v1/auth/signout', { token: fan.token, key: dead })).status, 200)
    expectError(await call(svc, 'POST', '/v1/social/blocks', { token: fan.token, body: { wallet: author.wallet } }), 401, 'session-expired')
  })

  it('§5.3 "binds the venue at the gateway so sponsored trading works": a keyed request is attributed to the key\'s venue and sponsored (trade scope)', async () => {
    const v = await claimVenue(svc)
    const r = await call(svc, 'GET', '/v1/gateway/sponsorship', { key: v.key })
    assert.deepEqual(r.body, { venueId: v.venueId, attributed: true, sponsored: true, enforcement: false })
    const ro = await mint(v.owner.token, { venueId: v.venueId, scopes: ['read'], label: 'read only' })
    const r2 = await call(svc, 'GET', '/v1/gateway/sponsorship', { key: ro.body.key })
    assert.equal(r2.body.sponsored, false, 'a key without the trade scope is not sponsored')
  })

  it('§5.4 "Without a key: traffic is unattributed ... the gateway binds sessions to the venue the client claims"', async () => {
    const v = await claimVenue(svc)
    const u = await signIn(svc, undefined, v.venueId)
    const r = await call(svc, 'GET', '/v1/gateway/sponsorship', { token: u.token })
    assert.deepEqual(r.body, { venueId: v.venueId, attributed: false, sponsored: true, enforcement: false })
    const anon = await call(svc, 'GET', '/v1/gateway/sponsorship')
    assert.deepEqual(anon.body, { venueId: null, attributed: false, sponsored: false, enforcement: false })
    const unknownVenue = await signIn(svc, undefined, newVenueId())
    assert.equal((await call(svc, 'GET', '/v1/gateway/sponsorship', { token: unknownVenue.token })).body.sponsored, false, 'a venue with no grant is not sponsored')
  })

  it('§5.3 a key "binds the venue at the gateway", §5.4 the claimed venue only "Without a key": a keyed sign-in\'s session is the key\'s venue\'s (also used later without the key), a claim of another venue with a key is 400 and signs no one in, and a key that is not live is 401', async () => {
    const v = await claimVenue(svc)
    const other = await claimVenue(svc)
    const signInWith = async (body: Record<string, unknown>, key?: string) => {
      const w = newWallet()
      const n = await call(svc, 'POST', '/v1/auth/nonce', { body: { address: w.address } })
      const signature = await w.signMessage({ message: n.body.message })
      return call(svc, 'POST', '/v1/auth/verify', { key, body: { message: n.body.message, signature, ...body } })
    }
    for (const body of [{}, { venueId: v.venueId }]) {
      const r = await signInWith(body, v.key)
      assert.equal(r.status, 200, JSON.stringify(r.body))
      assert.equal((await call(svc, 'GET', '/v1/me', { token: r.body.token })).body.venueId, v.venueId)
      const later = await call(svc, 'GET', '/v1/gateway/sponsorship', { token: r.body.token })
      assert.equal(later.body.venueId, v.venueId, 'the session keeps the key\'s venue without the key')
    }
    const sessions = async () => Number((await sql<{ n: number }>`select count(*)::int as n from sessions`.execute(svc.ctx.db)).rows[0].n)
    const before = await sessions()
    expectError(await signInWith({ venueId: other.venueId }, v.key), 400, 'validation-failed', /venue key's own venue/)
    expectError(await signInWith({}, `pck_${'0'.repeat(64)}`), 401, 'invalid-venue-key')
    assert.equal(await sessions(), before, 'no session was made')
    // Without a key the claim still binds (§5.4).
    const keyless = await signInWith({ venueId: other.venueId })
    assert.equal((await call(svc, 'GET', '/v1/me', { token: keyless.body.token })).body.venueId, other.venueId)
  })

  it('§5.4 "sponsored trading stops when key enforcement is switched on": keyless sessions get no sponsorship; keyed ones keep it', async () => {
    const enforced = await startTestService({ keyEnforcement: true })
    try {
      const v = await claimVenue(enforced)
      const u = await signIn(enforced, undefined, v.venueId)
      const keyless = await call(enforced, 'GET', '/v1/gateway/sponsorship', { token: u.token })
      assert.deepEqual(keyless.body, { venueId: v.venueId, attributed: false, sponsored: false, enforcement: true })
      const keyed = await call(enforced, 'GET', '/v1/gateway/sponsorship', { token: u.token, key: v.key })
      assert.deepEqual(keyed.body, { venueId: v.venueId, attributed: true, sponsored: true, enforcement: true })
    } finally {
      await enforced.close()
    }
  })
})

describe('a venue\'s keys after their one showing: list and revoke (§2.11)', () => {
  it('§2.11 "The raw key is returned once and cannot be read again": the owner (and an operator) lists the venue\'s keys newest first — id, label, scopes, created and revoked times — never a key or its hash; anyone else is 403, signed out 401', async () => {
    const v = await claimVenue(svc)
    const second = await mint(v.owner.token, { venueId: v.venueId, scopes: ['read'], label: 'mobile' })
    assert.equal(second.status, 201)
    const r = await call(svc, 'GET', `/v1/venues/${v.venueId}/keys`, { token: v.owner.token })
    assert.equal(r.status, 200, JSON.stringify(r.body))
    assert.equal(r.body.venueId, v.venueId)
    assert.deepEqual(
      r.body.keys.map((k: Record<string, unknown>) => [k.keyId, k.label, k.scopes, k.revokedAt]),
      [
        [second.body.keyId, 'mobile', ['read'], null],
        [r.body.keys[1].keyId, 'web', ['read', 'trade'], null],
      ],
    )
    assert.equal(r.body.keys[0].createdAt, second.body.createdAt)
    const text = JSON.stringify(r.body)
    for (const raw of [v.key, second.body.key]) {
      assert.ok(!text.includes(raw) && !text.includes(raw.slice(4)), 'no raw key')
      assert.ok(!text.includes(sha256(raw)), 'no key hash')
    }
    for (const k of r.body.keys) assert.deepEqual(Object.keys(k).sort(), ['createdAt', 'keyId', 'label', 'revokedAt', 'scopes'])
    const operator = await signIn(svc, operatorWallet)
    assert.equal((await call(svc, 'GET', `/v1/venues/${v.venueId}/keys`, { token: operator.token })).body.keys.length, 2)
    const stranger = await signIn(svc)
    expectError(await call(svc, 'GET', `/v1/venues/${v.venueId}/keys`, { token: stranger.token }), 403, 'forbidden', "only the venue's owner or a platform operator manages its keys")
    expectError(await call(svc, 'GET', `/v1/venues/${v.venueId}/keys`), 401, 'unauthenticated')
    expectError(await call(svc, 'GET', `/v1/venues/${v.venueId}/keys?all=1`, { token: v.owner.token }), 400, 'unsupported-param')
    expectError(await call(svc, 'GET', `/v1/venues/${newVenueId()}/keys`, { token: operator.token }), 404, 'not-found')
  })

  it('a revoked key stops at once — its writes are 401 invalid-venue-key, its reads go on unattributed — while the venue\'s other keys work; revoking again answers the first time; a key of another venue, an unknown or malformed id is refused; only the owner or an operator revokes', async () => {
    const v = await claimVenue(svc)
    const other = await claimVenue(svc)
    const spare = await mint(v.owner.token, { venueId: v.venueId, scopes: ['read', 'trade'], label: 'spare' })
    const keys = (await call(svc, 'GET', `/v1/venues/${v.venueId}/keys`, { token: v.owner.token })).body.keys
    const webId = keys.find((k: { label: string }) => k.label === 'web').keyId
    const stranger = await signIn(svc)
    expectError(await call(svc, 'DELETE', `/v1/venues/${v.venueId}/keys/${webId}`, { token: stranger.token }), 403, 'forbidden')
    expectError(await call(svc, 'DELETE', `/v1/venues/${v.venueId}/keys/${webId}`), 401, 'unauthenticated')
    const otherId = (await call(svc, 'GET', `/v1/venues/${other.venueId}/keys`, { token: other.owner.token })).body.keys[0].keyId
    expectError(await call(svc, 'DELETE', `/v1/venues/${v.venueId}/keys/${otherId}`, { token: v.owner.token }), 404, 'not-found', 'no key with this id on this venue')
    expectError(await call(svc, 'DELETE', `/v1/venues/${v.venueId}/keys/k_nothing`, { token: v.owner.token }), 404, 'not-found')
    expectError(await call(svc, 'DELETE', `/v1/venues/${v.venueId}/keys/not-a-key`, { token: v.owner.token }), 400, 'validation-failed')
    // The key works until it is revoked.
    const author = await signIn(svc, undefined, v.venueId)
    const write = (key: string, body: string) => call(svc, 'POST', '/v1/social/posts', { token: author.token, key, body: { subjectType: 'topic', subjectRef: `revoke-${v.venueId}`, body } })
    assert.equal((await write(v.key, 'before')).status, 201)

    const revoked = await call(svc, 'DELETE', `/v1/venues/${v.venueId}/keys/${webId}`, { token: v.owner.token })
    assert.equal(revoked.status, 200, JSON.stringify(revoked.body))
    assert.equal(revoked.body.keyId, webId)
    assert.ok(Date.parse(revoked.body.revokedAt) > 0)
    expectError(await write(v.key, 'after'), 401, 'invalid-venue-key')
    const read = await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=revoke-${v.venueId}`, { key: v.key })
    assert.equal(read.status, 200)
    assert.equal(read.headers.get('x-venue-key-status'), 'refused')
    assert.equal((await write(spare.body.key, 'with the spare key')).status, 201, 'the other key still works')
    // Again: the first time stands. An operator may revoke too.
    const again = await call(svc, 'DELETE', `/v1/venues/${v.venueId}/keys/${webId}`, { token: v.owner.token })
    assert.deepEqual([again.status, again.body.revokedAt], [200, revoked.body.revokedAt])
    const operator = await signIn(svc, operatorWallet)
    assert.equal((await call(svc, 'DELETE', `/v1/venues/${v.venueId}/keys/${spare.body.keyId}`, { token: operator.token })).status, 200)
    expectError(await write(spare.body.key, 'spare revoked'), 401, 'invalid-venue-key')
    const listed = (await call(svc, 'GET', `/v1/venues/${v.venueId}/keys`, { token: v.owner.token })).body.keys
    assert.deepEqual(listed.map((k: { revokedAt: string | null }) => k.revokedAt !== null), [true, true])
    // The thread holds exactly the two posts written with live keys.
    const thread = await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=revoke-${v.venueId}`)
    assert.deepEqual(thread.body.posts.map((p: { body: string }) => p.body), ['with the spare key', 'before'])
  })
})
