/** §5.5 "shorter ids are allocated by the operator, not first-come". */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { call, expectError, newWallet, signIn, startTestService, type TestService } from '../helpers/service.ts'
import { randomHex } from '../../src/core/ids.ts'
import { RESERVED_VENUE_IDS } from '../../src/contract/ids.ts'

let svc: TestService
const operatorKey = newWallet()
before(async () => {
  svc = await startTestService({ operators: [operatorKey.address] })
})
after(() => svc.close())

const shortId = () => `s${randomHex(3)}` // 7 characters

describe('operator-allocated venue ids', () => {
  it('§5.5 "shorter ids are allocated by the operator, not first-come": a 6–7 character claim by anyone else is 403 and writes nothing', async () => {
    const u = await signIn(svc)
    for (const id of [shortId(), `ab${randomHex(2)}`]) {
      const r = await call(svc, 'POST', '/admin/keys', { token: u.token, body: { venueId: id, scopes: ['read'], label: 'web' } })
      expectError(r, 403, 'venue-id-reserved', /allocated by the platform operator/)
      assert.equal((await svc.ctx.db.selectFrom('venues').select('id').where('id', '=', id).execute()).length, 0)
    }
  })

  it('an operator allocates a short id to an owner wallet; the owner then mints keys for it and nobody else can', async () => {
    const operator = await signIn(svc, operatorKey)
    const owner = newWallet()
    const id = shortId()
    const r = await call(svc, 'POST', '/admin/keys', { token: operator.token, body: { venueId: id, scopes: ['read', 'trade'], label: 'allocated', owner: owner.address } })
    assert.equal(r.status, 201, JSON.stringify(r.body))
    assert.equal(r.body.claimed, true)
    const ownerSession = await signIn(svc, owner)
    const more = await call(svc, 'POST', '/admin/keys', { token: ownerSession.token, body: { venueId: id, scopes: ['read'], label: 'second' } })
    assert.equal(more.status, 201, JSON.stringify(more.body))
    const other = await signIn(svc)
    expectError(await call(svc, 'POST', '/admin/keys', { token: other.token, body: { venueId: id, scopes: ['read'], label: 'x' } }), 409, 'venue-exists')
  })

  it('§5.5 "ids starting prophecy or somnia are reserved and refused", and the platform names ("such as demo, studio, gateway", and the documented list), to an operator too: allocation covers short ids, not reserved ones', async () => {
    const operator = await signIn(svc, operatorKey)
    for (const id of ['prophecy-labs', 'somnia-bets', 'demo', 'studio', 'gateway', ...RESERVED_VENUE_IDS]) {
      const r = await call(svc, 'POST', '/admin/keys', { token: operator.token, body: { venueId: id, scopes: ['read'], label: 'x', owner: newWallet().address } })
      expectError(r, 403, 'venue-id-reserved')
      assert.equal((await svc.ctx.db.selectFrom('venues').select('id').where('id', '=', id).execute()).length, 0)
    }
  })

  it("only an operator names another 'owner'", async () => {
    const u = await signIn(svc)
    const r = await call(svc, 'POST', '/admin/keys', { token: u.token, body: { venueId: `long-${randomHex(4)}`, scopes: ['read'], label: 'x', owner: newWallet().address } })
    expectError(r, 403, 'forbidden')
  })
})
