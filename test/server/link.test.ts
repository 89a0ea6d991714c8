/**
 * §2.1 "Any wallet owned by one person yields the same posts, since posts belong to the account":
 * `POST /v1/auth/link` joins a wallet to the signed-in account. Others can name a wallet before its holder
 * ever signs in (a block, a room's member add, a ban, an operator's venue claim), which makes an account for
 * it; linking that wallet later still works, and what others did to the wallet follows it into the account.
 * A wallet whose account was used (signed in) stays its own: 409 `wallet-linked`, nothing changed.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { PrivateKeyAccount } from 'viem/accounts'
import { PATHS } from '../../src/contract/paths.ts'
import { call, expectError, newWallet, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'
import { claimVenue, createRoom, newVenueId, post } from '../helpers/venues.ts'

let svc: TestService
let operator: TestUser
const operatorWallet = newWallet()
before(async () => {
  svc = await startTestService({ operators: [operatorWallet.address] })
  operator = await signIn(svc, operatorWallet)
})
after(() => svc.close())

/** The real SIWE link flow: `u` links `w`. */
async function link(u: TestUser, w: PrivateKeyAccount) {
  const n = await call(svc, 'POST', PATHS.authNonce, { body: { address: w.address } })
  const signature = await w.signMessage({ message: n.body.message })
  return call(svc, 'POST', PATHS.authLink, { token: u.token, body: { message: n.body.message, signature } })
}

const accountsOf = async (wallet: string) =>
  (await svc.ctx.db.selectFrom('wallets').select('account_id').where('address', '=', wallet.toLowerCase()).execute()).map((r) => r.account_id)
const accountOf = async (u: TestUser) => (await accountsOf(u.wallet))[0]

describe('auth: linking a wallet others named first', () => {
  it('§2.1 "posts belong to the account": a wallet another account blocked before its holder signed in still links, and the block now applies to the whole account', async () => {
    const holder = await signIn(svc)
    const blocker = await signIn(svc)
    const second = newWallet()
    assert.equal((await call(svc, 'POST', PATHS.blocks, { token: blocker.token, body: { wallet: second.address } })).status, 200)
    const l = await link(holder, second)
    assert.equal(l.status, 200, JSON.stringify(l.body))
    const account = await accountOf(holder)
    assert.deepEqual(l.body, { accountId: account, wallets: [holder.wallet, second.address.toLowerCase()] })
    assert.deepEqual(await accountsOf(second.address), [account])
    // The blocker blocked that person: the account's posts, written from its first wallet, are gone for them.
    const topic = `link-block-${Date.now()}`
    assert.equal((await post(svc, holder, { subjectRef: topic, body: 'from the first wallet' })).status, 201)
    const seen = (who?: TestUser) => call(svc, 'GET', `${PATHS.posts}?subjectType=topic&subjectRef=${topic}`, { token: who?.token })
    assert.equal((await seen()).body.posts.length, 1)
    assert.equal((await seen(blocker)).body.posts.length, 0)
  })

  it('a wallet a room\'s owner added as a member before it signed in links, and the account is then that private room\'s member', async () => {
    const v = await claimVenue(svc)
    const room = await createRoom(svc, v, { visibility: 'private', subjectType: 'topic', subjectRef: `inner-${Date.now()}` })
    const second = newWallet()
    assert.equal((await call(svc, 'PUT', `/v1/rooms/${room}/members/${second.address.toLowerCase()}`, { token: v.owner.token })).status, 200)
    const holder = await signIn(svc, undefined, v.venueId)
    expectError(await call(svc, 'GET', `${PATHS.posts}?subjectType=topic&subjectRef=x&room=${room}`, { token: holder.token }), 404, 'room-not-found')
    assert.equal((await link(holder, second)).status, 200)
    assert.equal((await call(svc, 'GET', `${PATHS.posts}?subjectType=topic&subjectRef=x&room=${room}`, { token: holder.token })).status, 200)
    assert.equal((await post(svc, holder, { subjectRef: 'x', room, body: 'in the room' })).status, 201)
  })

  it('§3.3 a room the account left, whose owner then added the wallet: linking it makes the account a member again (the newer word wins)', async () => {
    const v = await claimVenue(svc)
    const room = await createRoom(svc, v, { subjectType: 'topic', subjectRef: `back-${Date.now()}` })
    const holder = await signIn(svc, undefined, v.venueId)
    assert.equal((await call(svc, 'POST', `/v1/rooms/${room}/join`, { token: holder.token })).status, 200)
    assert.equal((await call(svc, 'POST', `/v1/rooms/${room}/leave`, { token: holder.token })).status, 200)
    const second = newWallet()
    assert.equal((await call(svc, 'PUT', `/v1/rooms/${room}/members/${second.address.toLowerCase()}`, { token: v.owner.token })).status, 200)
    assert.equal((await link(holder, second)).status, 200)
    const m = await call(svc, 'GET', `/v1/rooms/${room}/membership`, { token: holder.token })
    assert.equal(m.status, 200, JSON.stringify(m.body))
    assert.deepEqual([m.body.member, m.body.left], [true, false])
  })

  it('§5.7 a ban on a wallet never seen follows it into the account that links it (linking is no way around a ban)', async () => {
    const second = newWallet()
    const ban = await call(svc, 'POST', '/v1/mod/ban', { token: operator.token, body: { wallet: second.address.toLowerCase() } })
    assert.equal(ban.status, 200, JSON.stringify(ban.body))
    const holder = await signIn(svc)
    assert.equal((await post(svc, holder, { body: 'before the link' })).status, 201)
    assert.equal((await link(holder, second)).status, 200)
    expectError(await post(svc, holder, { body: 'after the link' }), 403, 'banned')
  })

  it('an operator\'s venue claimed for a wallet never seen: linking that wallet makes the account the venue\'s owner', async () => {
    const second = newWallet()
    const venueId = newVenueId()
    const r = await call(svc, 'POST', '/admin/keys', { token: operator.token, body: { venueId, scopes: ['read'], label: 'web', owner: second.address.toLowerCase() } })
    assert.equal(r.status, 201, JSON.stringify(r.body))
    const holder = await signIn(svc)
    expectError(await call(svc, 'GET', `/v1/venues/${venueId}/usage`, { token: holder.token }), 403)
    assert.equal((await link(holder, second)).status, 200)
    assert.equal((await call(svc, 'GET', `/v1/venues/${venueId}/usage`, { token: holder.token })).status, 200)
  })

  it('a wallet whose account has signed in is another account\'s: 409 wallet-linked, and neither account changes', async () => {
    const holder = await signIn(svc)
    const otherWallet = newWallet()
    const other = await signIn(svc, otherWallet)
    // Blocked by someone too: the block stays on the other account.
    const blocker = await signIn(svc)
    assert.equal((await call(svc, 'POST', PATHS.blocks, { token: blocker.token, body: { wallet: other.wallet } })).status, 200)
    expectError(await link(holder, otherWallet), 409, 'wallet-linked', 'this wallet already belongs to another account')
    const otherAccount = await accountOf(other)
    assert.deepEqual(await accountsOf(other.wallet), [otherAccount])
    assert.deepEqual((await call(svc, 'GET', PATHS.me, { token: holder.token })).body.wallets, [holder.wallet])
    const blocks = await svc.ctx.db.selectFrom('blocks').select('blocked_account_id').where('account_id', '=', await accountOf(blocker)).execute()
    assert.deepEqual(blocks, [{ blocked_account_id: otherAccount }])
  })

  it('linking a wallet already in the account answers the account as it is', async () => {
    const w = newWallet()
    const holder = await signIn(svc, w)
    const l = await link(holder, w)
    assert.equal(l.status, 200)
    assert.deepEqual(l.body.wallets, [holder.wallet])
  })

  it('a block the account already has, or one of the account itself, is not doubled when the wallet joins it', async () => {
    const holder = await signIn(svc)
    const blocker = await signIn(svc)
    const second = newWallet()
    for (const w of [holder.wallet, second.address.toLowerCase()]) {
      assert.equal((await call(svc, 'POST', PATHS.blocks, { token: blocker.token, body: { wallet: w } })).status, 200)
    }
    // The holder blocked the wallet too, before knowing it was theirs.
    assert.equal((await call(svc, 'POST', PATHS.blocks, { token: holder.token, body: { wallet: second.address.toLowerCase() } })).status, 200)
    assert.equal((await link(holder, second)).status, 200)
    const account = await accountOf(holder)
    const rows = await svc.ctx.db.selectFrom('blocks').select(['account_id', 'blocked_account_id']).where('blocked_account_id', '=', account).execute()
    assert.deepEqual(rows, [{ account_id: await accountOf(blocker), blocked_account_id: account }])
  })

  it('§2.1 a block, a member add and a ban of a wallet landing while it is being linked all land on the linking account: no 500, nothing left on the absorbed account', async () => {
    const v = await claimVenue(svc)
    const room = await createRoom(svc, v, { visibility: 'private', subjectType: 'topic', subjectRef: `race-${Date.now()}` })
    const firstBlocker = await signIn(svc)
    const secondBlocker = await signIn(svc)
    for (let round = 0; round < 24; round++) {
      const holder = await signIn(svc)
      const second = newWallet()
      const wallet = second.address.toLowerCase()
      // Someone names the wallet first: it gets an account its holder never used, which the link absorbs.
      assert.equal((await call(svc, 'POST', PATHS.blocks, { token: firstBlocker.token, body: { wallet } })).status, 200)
      const absorbed = (await accountsOf(wallet))[0]
      const n = await call(svc, 'POST', PATHS.authNonce, { body: { address: second.address } })
      const signature = await second.signMessage({ message: n.body.message })
      // The link verifies a signature before its transaction: the writes start a little later each round,
      // so some rounds land inside the link's transaction.
      const linking = call(svc, 'POST', PATHS.authLink, { token: holder.token, body: { message: n.body.message, signature } })
      await new Promise((r) => setTimeout(r, round % 8))
      const [blocked, added, banned] = await Promise.all([
        call(svc, 'POST', PATHS.blocks, { token: secondBlocker.token, body: { wallet } }),
        call(svc, 'PUT', `/v1/rooms/${room}/members/${wallet}`, { token: v.owner.token }),
        call(svc, 'POST', '/v1/mod/ban', { token: operator.token, body: { wallet } }),
      ])
      const linked = await linking
      for (const r of [linked, blocked, added, banned]) assert.equal(r.status, 200, `round ${round}: ${JSON.stringify(r.body)}`)
      const account = await accountOf(holder)
      assert.deepEqual(await accountsOf(wallet), [account])
      const db = svc.ctx.db
      const blockers = await db.selectFrom('blocks').select('account_id').where('blocked_account_id', '=', account).orderBy('account_id').execute()
      assert.deepEqual(blockers.map((b) => b.account_id), [await accountOf(firstBlocker), await accountOf(secondBlocker)].sort())
      assert.equal((await db.selectFrom('room_members').select('account_id').where('room_id', '=', room).where('account_id', '=', account).execute()).length, 1)
      assert.equal((await db.selectFrom('bans').select('account_id').where('account_id', '=', account).execute()).length, 1)
      assert.equal(await db.selectFrom('accounts').select('id').where('id', '=', absorbed).executeTakeFirst(), undefined)
    }
  })
})
