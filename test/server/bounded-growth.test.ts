/**
 * Bounded growth over long uptime (docs/RELIABILITY.md "Bounded growth"): rows that every request adds and that
 * can matter no more are deleted, so a venue that runs for days holds only what is live. On the service's clock
 * (test/helpers/service-on-clock.ts); the sweep runs inside the request that triggers it, so every count below is
 * exact when its request has answered.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { LIMITS } from '../../src/contract/limits.ts'
import { PATHS } from '../../src/contract/paths.ts'
import { NONCE_KEPT_MS, SWEEP_MS } from '../../src/server/services/sign-in-sweep.ts'
import { call, expectError, newWallet, signIn, type TestService } from '../helpers/service.ts'
import { serviceOnClock } from '../helpers/service-on-clock.ts'

let svc: TestService
const clock = serviceOnClock((s) => ({ svc } = s))
const MIN = 60_000

const rows = async (table: 'auth_nonces' | 'sessions') => Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(svc.ctx.db)).rows[0].n)
/** A nonce for a fresh wallet, and that wallet's signature of its message. */
async function askNonce() {
  const w = newWallet()
  const n = await call(svc, 'POST', PATHS.authNonce, { body: { address: w.address } })
  assert.equal(n.status, 200, JSON.stringify(n.body))
  return { message: n.body.message as string, signature: await w.signMessage({ message: n.body.message }) }
}
const signOut = async (token: string) => assert.equal((await call(svc, 'POST', PATHS.authSignOut, { token })).status, 200)

describe('bounded growth: sign-in rows (services/sign-in-sweep.ts)', () => {
  it('auth_nonces: a nonce asked for and never used (or used) is deleted an hour after its expiry; until then a late verify is still told "expired", after it the message reads as one never issued (400 invalid-nonce either way)', async () => {
    // Past every earlier nonce's hour: the first nonce's sweep leaves only this test's.
    const T = clock.ms + 2 * NONCE_KEPT_MS
    clock.ms = T
    const unused = []
    for (let i = 0; i < 20; i++) unused.push(await askNonce())
    const used = await askNonce()
    assert.equal((await call(svc, 'POST', PATHS.authVerify, { body: used })).status, 200)
    assert.equal(await rows('auth_nonces'), 21)

    // An hour after their expiry, to the millisecond: a sweep runs (the next nonce) and keeps them.
    clock.ms = T + LIMITS.nonceTtlMs + NONCE_KEPT_MS
    await askNonce()
    assert.equal(await rows('auth_nonces'), 22, 'kept until an hour after their expiry')
    expectError(await call(svc, 'POST', PATHS.authVerify, { body: unused[0] }), 400, 'invalid-nonce', 'this sign-in message has expired; ask for a new nonce')
    expectError(await call(svc, 'POST', PATHS.authVerify, { body: used }), 400, 'invalid-nonce', 'this sign-in message was already used; ask for a new nonce')

    // The next sweep (a minute later): gone, used or not; the nonce asked for an hour later stays.
    clock.ms += SWEEP_MS
    const fresh = await askNonce()
    assert.equal(await rows('auth_nonces'), 2, 'only the two nonces of the last 70 minutes are left')
    expectError(await call(svc, 'POST', PATHS.authVerify, { body: unused[1] }), 400, 'invalid-nonce', 'message is not a sign-in message this service issued')
    expectError(await call(svc, 'POST', PATHS.authVerify, { body: used }), 400, 'invalid-nonce', 'message is not a sign-in message this service issued')
    assert.equal((await call(svc, 'POST', PATHS.authVerify, { body: fresh })).status, 200, 'a live nonce still signs in')
  })

  it('sessions: a signed-out session\'s row and an expired one\'s are deleted at the next sweep; their tokens still answer 401 session-expired, and an account once signed into stays its own (linking its wallet is 409 wallet-linked)', async () => {
    const T = clock.ms + 10 * MIN
    clock.ms = T
    const a = await signIn(svc)
    const b = await signIn(svc)
    await signOut(b.token)
    const live = await rows('sessions')

    clock.ms = T + 2 * MIN
    const c = await signIn(svc)
    assert.equal(await rows('sessions'), live, "the signed-out session's row went (and c's came)")
    expectError(await call(svc, 'GET', PATHS.me, { token: b.token }), 401, 'session-expired', 'your session has ended; sign in again')

    clock.ms = T + LIMITS.sessionTtlMs + 2 * MIN
    const d = await signIn(svc)
    const left = (await svc.ctx.db.selectFrom('sessions').select('wallet').execute()).map((r) => r.wallet).sort()
    assert.deepEqual(left, [d.wallet], 'every session signed in a week ago expired and went; only the new one is left')
    for (const gone of [a, c]) expectError(await call(svc, 'GET', PATHS.me, { token: gone.token }), 401, 'session-expired', 'your session has ended; sign in again')
    expectError(await call(svc, 'POST', PATHS.posts, { token: a.token, body: { subjectType: 'topic', subjectRef: 'gone', body: 'x' } }), 401, 'session-expired')

    // a signed in once and did nothing else: with its session rows gone it is still an account that was used.
    const n = await call(svc, 'POST', PATHS.authNonce, { body: { address: a.account.address } })
    const signature = await a.account.signMessage({ message: n.body.message })
    expectError(await call(svc, 'POST', PATHS.authLink, { token: d.token, body: { message: n.body.message, signature } }), 409, 'wallet-linked')
    assert.equal((await call(svc, 'GET', PATHS.me, { token: (await signIn(svc, a.account)).token })).body.wallets.length, 1, "a's account is still its own")
  })

  it('the tables hold what is live: after 4 hours of sign-in churn (every 10 minutes 10 nonces never used, 3 sign-ins, 2 sign-outs) auth_nonces holds the last 70 minutes of nonces and sessions only the live ones', async () => {
    const T = clock.ms + LIMITS.sessionTtlMs + 10 * MIN
    const live = new Set<string>()
    const issued: number[] = []
    for (let step = 0; step < 24; step++) {
      clock.ms = T + step * 10 * MIN
      for (let i = 0; i < 10; i++) await askNonce()
      const users = [await signIn(svc), await signIn(svc), await signIn(svc)]
      for (let i = 0; i < 13; i++) issued.push(clock.ms)
      for (const u of users.slice(1)) await signOut(u.token)
      live.add(users[0].wallet)
    }
    clock.ms += 10 * MIN
    await askNonce()
    issued.push(clock.ms)
    // Sweeps only: every sign-in of a week ago expired, and those of the churn are all within their 7 days.
    const expected = issued.filter((at) => at + LIMITS.nonceTtlMs >= clock.ms - NONCE_KEPT_MS).length
    assert.equal(await rows('auth_nonces'), expected, `the nonces of the last 70 minutes (${expected} of ${issued.length})`)
    const left = (await svc.ctx.db.selectFrom('sessions').select('wallet').execute()).map((r) => r.wallet)
    assert.deepEqual(left.sort(), [...live].sort(), `the ${live.size} live sessions of ${24 * 3} sign-ins`)
  })
})
