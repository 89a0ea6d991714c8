/**
 * Write rate limits (issue 9, docs/RELIABILITY.md): per account, per venue key and per client address,
 * counted in the database; 429 `rate-limited` with `Retry-After`. One service whose limits each test sets;
 * each test takes its own client addresses (through a trusted `X-Forwarded-For`) so buckets never overlap.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PATHS } from '../../src/contract/paths.ts'
import { randomHex } from '../../src/core/ids.ts'
import { DEFAULT_RATE_LIMITS, resolveRateLimits, type RateLimits } from '../../src/server/services/rate-limits.ts'
import { addressBucket } from '../../src/server/http/rate-limit.ts'
import { call, expectError, newWallet, ON_POSTGRES, signIn, startTestService, type CallResult, type TestService, type TestUser } from '../helpers/service.ts'
import { claimVenue } from '../helpers/venues.ts'

let clockOffset = 0
const clock = () => new Date(Date.now() + clockOffset)
let svc: TestService
before(async () => {
  svc = await startTestService({ now: clock })
})
after(() => svc.close())

const HIGH = 100_000
/** Sets the limits and moves the service's clock to the start of a fresh window (windows are fixed: a test must not straddle two). */
function limits(over: Partial<RateLimits>): void {
  const t = Date.now() + clockOffset
  clockOffset += Math.ceil((t + 1) / 60_000) * 60_000 - t
  svc.ctx.config.rateLimits = { perAccount: HIGH, perKey: HIGH, perIp: HIGH, signInPerIp: HIGH, streamSocketsPerIp: HIGH, windowSeconds: 60, trustProxy: true, ...over }
}
const newIp = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`

/** Signs in from a given address (the sign-in routes count against that address's sign-in limit). */
async function signInFrom(ip: string, venueId?: string): Promise<TestUser> {
  const account = newWallet()
  const n = await call(svc, 'POST', PATHS.authNonce, { body: { address: account.address }, headers: { 'x-forwarded-for': ip } })
  assert.equal(n.status, 200, JSON.stringify(n.body))
  const signature = await account.signMessage({ message: n.body.message })
  const v = await call(svc, 'POST', PATHS.authVerify, { body: { message: n.body.message, signature, ...(venueId ? { venueId } : {}) }, headers: { 'x-forwarded-for': ip } })
  assert.equal(v.status, 200, JSON.stringify(v.body))
  return { account, wallet: account.address.toLowerCase(), token: v.body.token }
}

const postAs = (u: TestUser | null, ip: string, body = `note ${randomHex(3)}`, key?: string, ref = 'rate-limits') =>
  call(svc, 'POST', PATHS.posts, { token: u?.token, key, headers: { 'x-forwarded-for': ip }, body: { subjectType: 'topic', subjectRef: ref, body } })

function expectLimited(r: CallResult, message: RegExp) {
  expectError(r, 429, 'rate-limited', message)
  const after = Number(r.headers.get('retry-after'))
  assert.ok(Number.isInteger(after) && after >= 1 && after <= 60, `Retry-After is whole seconds within the window (got ${r.headers.get('retry-after')})`)
  assert.match(r.body.error.message, new RegExp(`try again in ${after} seconds?$`))
}

async function threadSize(ref: string) {
  const r = await call(svc, 'GET', `${PATHS.posts}?subjectType=topic&subjectRef=${ref}&limit=100`)
  assert.equal(r.status, 200)
  return r.body.posts.length as number
}

describe('write rate limits', () => {
  it('"writes are rate-limited per account": the write past the limit is 429 rate-limited with Retry-After, and nothing is written', async () => {
    limits({ perAccount: 3 })
    const ip = newIp()
    const u = await signInFrom(ip)
    const ref = `acct-${randomHex(3)}`
    for (let i = 0; i < 3; i++) assert.equal((await postAs(u, ip, `post ${i}`, undefined, ref)).status, 201)
    const r = await postAs(u, ip, 'one too many', undefined, ref)
    expectLimited(r, /^too many writes from this account: at most 3 every 60 seconds; try again in \d+ seconds?$/)
    assert.equal(r.body.error.limit, 'account')
    assert.equal(await threadSize(ref), 3, 'the refused post was not written')
    // Another account from the same address is not affected.
    const other = await signInFrom(ip)
    assert.equal((await postAs(other, ip, 'someone else', undefined, ref)).status, 201)
    // Every write method counts, not only posts.
    const reacted = await call(svc, 'PUT', PATHS.follow('topic', ref), { token: u.token, headers: { 'x-forwarded-for': ip } })
    expectLimited(reacted, /from this account/)
  })

  it('"per account", not per session: a second session of the same account shares the count', async () => {
    limits({ perAccount: 2 })
    const ip = newIp()
    const wallet = newWallet()
    const a = await signIn(svc, wallet)
    const b = await signIn(svc, wallet)
    assert.notEqual(a.token, b.token)
    assert.equal((await postAs(a, ip)).status, 201)
    assert.equal((await postAs(b, ip)).status, 201)
    expectLimited(await postAs(a, ip), /from this account/)
    expectLimited(await postAs(b, ip), /from this account/)
  })

  it('"writes are rate-limited per key": every account writing with one venue key shares its count', async () => {
    const ip = newIp()
    limits({})
    const v = await claimVenue(svc)
    limits({ perKey: 2 })
    const users = [await signInFrom(ip), await signInFrom(ip), await signInFrom(ip)]
    assert.equal((await postAs(users[0], ip, 'a', v.key)).status, 201)
    assert.equal((await postAs(users[1], ip, 'b', v.key)).status, 201)
    const r = await postAs(users[2], ip, 'c', v.key)
    expectLimited(r, /^too many writes with this venue key: at most 2 every 60 seconds/)
    assert.equal(r.body.error.limit, 'key')
    // Without the key the same account writes.
    assert.equal((await postAs(users[2], ip, 'c')).status, 201)
  })

  it('a venue key is public, so writes without a live session never spend its budget: only signed-in writes count per key', async () => {
    limits({})
    const v = await claimVenue(svc)
    const ip = newIp()
    const user = await signInFrom(ip)
    const ended = await signInFrom(ip)
    assert.equal((await call(svc, 'POST', PATHS.authSignOut, { token: ended.token, headers: { 'x-forwarded-for': ip } })).status, 200)
    limits({ perKey: 2 })
    // Anyone can read the key off the venue's page: signed out, with a made-up token or a signed-out
    // session, from many addresses, each refused as it would be without a limit.
    const fake = { token: `vks_${randomHex(32)}` } as TestUser
    for (const who of [null, fake, ended, null, fake, ended]) {
      const r = await postAs(who, newIp(), 'junk', v.key)
      assert.equal(r.status, 401, JSON.stringify(r.body))
      assert.equal(r.body.error.code, who ? 'session-expired' : 'unauthenticated')
    }
    // The venue's signed-in users still have its whole budget.
    assert.equal((await postAs(user, ip, 'one', v.key)).status, 201)
    assert.equal((await postAs(user, ip, 'two', v.key)).status, 201)
    expectLimited(await postAs(user, ip, 'three', v.key), /^too many writes with this venue key: at most 2 every 60 seconds/)
  })

  it('"writes are rate-limited per IP": many accounts from one address share its count; other addresses are not affected', async () => {
    limits({})
    const ip = newIp()
    const users = [await signInFrom(ip), await signInFrom(ip), await signInFrom(ip), await signInFrom(ip)]
    limits({ perIp: 3 })
    for (let i = 0; i < 3; i++) assert.equal((await postAs(users[i], ip)).status, 201)
    const r = await postAs(users[3], ip)
    expectLimited(r, /^too many writes from this address: at most 3 every 60 seconds/)
    assert.equal(r.body.error.limit, 'ip')
    // Signed-out writes count too (and are refused before anything else happens).
    expectLimited(await postAs(null, ip), /from this address/)
    assert.equal((await postAs(users[3], newIp())).status, 201)
  })

  it('per IP from the socket address when no proxy is trusted: X-Forwarded-For is then ignored', async () => {
    limits({ perIp: 2, trustProxy: false })
    clockOffset += 60_000 // a fresh window: earlier tests wrote from 127.0.0.1 without X-Forwarded-For
    const users = [await signIn(svc), await signIn(svc), await signIn(svc)]
    // Each claims another address; without trustProxy all count as 127.0.0.1.
    assert.equal((await postAs(users[0], newIp())).status, 201)
    assert.equal((await postAs(users[1], newIp())).status, 201)
    expectLimited(await postAs(users[2], newIp()), /from this address/)
    limits({})
  })

  it('"sign-in routes get their own per-IP limit": nonce and verify count against it, and not against the write limit', async () => {
    limits({ signInPerIp: 4, perIp: 1 })
    const ip = newIp()
    await signInFrom(ip) // nonce + verify: 2
    const u = await signInFrom(ip) // 4
    const n = await call(svc, 'POST', PATHS.authNonce, { body: { address: newWallet().address }, headers: { 'x-forwarded-for': ip } })
    expectLimited(n, /^too many sign-in attempts from this address: at most 4 every 60 seconds/)
    assert.equal(n.body.error.limit, 'sign-in')
    // The four sign-in requests did not use the address's write allowance of 1.
    assert.equal((await postAs(u, ip)).status, 201)
    expectLimited(await postAs(u, ip), /from this address/)
  })

  it('reads are never rate-limited', async () => {
    limits({ perIp: 1, perAccount: 1 })
    const ip = newIp()
    const u = await signInFrom(ip)
    assert.equal((await postAs(u, ip)).status, 201)
    expectLimited(await postAs(u, ip), /too many writes/)
    for (let i = 0; i < 20; i++) {
      const r = await call(svc, 'GET', `${PATHS.feed}?limit=5`, { token: u.token, headers: { 'x-forwarded-for': ip } })
      assert.equal(r.status, 200)
    }
  })

  it('the count starts again in the next window', async () => {
    limits({ perAccount: 1, windowSeconds: 60 })
    const ip = newIp()
    const u = await signInFrom(ip)
    assert.equal((await postAs(u, ip)).status, 201)
    const r = await postAs(u, ip)
    expectLimited(r, /from this account/)
    clockOffset += (Number(r.headers.get('retry-after')) + 1) * 1000
    assert.equal((await postAs(u, ip)).status, 201)
    expectLimited(await postAs(u, ip), /from this account/)
  })

  it('"counted in the database, not in process memory": the count survives to another instance of the same store', async () => {
    const rl: Partial<RateLimits> = { perAccount: 2, perKey: HIGH, perIp: HIGH, signInPerIp: HIGH, trustProxy: true }
    const ip = newIp()
    if (ON_POSTGRES) {
      // Two live instances over one PostgreSQL database.
      const second = await startTestService({ databaseUrl: svc.databaseUrl, rateLimits: rl, now: clock })
      try {
        limits(rl)
        const u = await signInFrom(ip)
        assert.equal((await postAs(u, ip)).status, 201)
        assert.equal((await call(second, 'POST', PATHS.posts, { token: u.token, body: { subjectType: 'topic', subjectRef: 'x', body: 'b' } })).status, 201)
        expectLimited(await postAs(u, ip), /from this account/)
        expectLimited(await call(second, 'POST', PATHS.posts, { token: u.token, body: { subjectType: 'topic', subjectRef: 'x', body: 'c' } }), /from this account/)
      } finally {
        await second.close()
      }
    } else {
      // PGlite: one instance at a time on a data directory; a restart keeps the count.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vk-rl-'))
      // Windows are fixed: a clock that starts at a window's start, so the restart cannot cross into the next one.
      const base = Date.now()
      const windowStart = Math.ceil(base / 60_000) * 60_000
      const now = () => new Date(windowStart + (Date.now() - base))
      try {
        let one = await startTestService({ dataDir: dir, rateLimits: rl, now })
        const u = await signIn(one)
        for (let i = 0; i < 2; i++) assert.equal((await call(one, 'POST', PATHS.posts, { token: u.token, body: { subjectType: 'topic', subjectRef: 'x', body: `b${i}` } })).status, 201)
        await one.close()
        one = await startTestService({ dataDir: dir, rateLimits: rl, now })
        try {
          expectLimited(await call(one, 'POST', PATHS.posts, { token: u.token, body: { subjectType: 'topic', subjectRef: 'x', body: 'c' } }), /from this account/)
        } finally {
          await one.close()
        }
      } finally {
        fs.rmSync(dir, { recursive: true, force: true })
      }
    }
  })

  it('a 429 carries CORS headers so a browser page can read it, and exposes Retry-After', async () => {
    limits({ perIp: 1 })
    const ip = newIp()
    const headers = { 'x-forwarded-for': ip, origin: 'https://shop.example' }
    await call(svc, 'PUT', PATHS.follow('topic', 'cors-429'), { headers })
    const r = await call(svc, 'PUT', PATHS.follow('topic', 'cors-429'), { headers })
    expectLimited(r, /from this address/)
    assert.equal(r.headers.get('access-control-allow-origin'), 'https://shop.example')
    assert.match(r.headers.get('access-control-expose-headers') ?? '', /Retry-After/i)
  })

  it('the counters hold no raw secret: keys are counted under their SHA-256, accounts under their id', async () => {
    limits({})
    const ip = newIp()
    const v = await claimVenue(svc)
    await postAs(v.owner, ip, 'keyed', v.key)
    const rows = await svc.ctx.db.selectFrom('rate_counters').select('bucket').execute()
    assert.ok(rows.some((r) => r.bucket.startsWith('key:')))
    assert.ok(rows.some((r) => r.bucket.startsWith('acct:a_')))
    for (const r of rows) {
      assert.doesNotMatch(r.bucket, /pck_|vks_/)
    }
  })
})

describe('rate-limit configuration', () => {
  it('production defaults are on unless a service turns them off (rateLimits: false)', async () => {
    const on = await startTestService({ rateLimits: undefined })
    try {
      assert.deepEqual(on.ctx.config.rateLimits, DEFAULT_RATE_LIMITS)
    } finally {
      await on.close()
    }
    assert.equal((await startTestServiceConfig(false)), null)
  })

  it('ARCHITECTURE "Abuse limits" (§8 "Rate limits"): the defaults are the documented ones — writes per account 60, per venue key 6,000 and per client address 600, sign-in per address 60, each per 60-second window, 200 stream sockets per address, no proxy trusted — and a service on them refuses the 61st write of an account and the 61st sign-in request of an address', async () => {
    assert.deepEqual(resolveRateLimits(undefined), { perAccount: 60, perKey: 6000, perIp: 600, signInPerIp: 60, streamSocketsPerIp: 200, windowSeconds: 60, trustProxy: false })
    // Windows are fixed: a clock that starts at a window's start, so the requests below stay in one window.
    const base = Date.now()
    const windowStart = Math.ceil(base / 60_000) * 60_000
    const s = await startTestService({ rateLimits: undefined, now: () => new Date(windowStart + (Date.now() - base)) })
    try {
      const u = await signIn(s) // two sign-in requests: nonce and verify
      const write = (i: number) => call(s, 'POST', PATHS.posts, { token: u.token, body: { subjectType: 'topic', subjectRef: 'rate-defaults', body: `w${i}` } })
      for (let i = 0; i < 60; i++) assert.equal((await write(i)).status, 201, `write ${i + 1} of 60`)
      expectLimited(await write(60), /^too many writes from this account: at most 60 every 60 seconds;/)
      const nonce = () => call(s, 'POST', PATHS.authNonce, { body: { address: newWallet().address } })
      for (let i = 2; i < 60; i++) assert.equal((await nonce()).status, 200, `sign-in request ${i + 1} of 60`)
      expectLimited(await nonce(), /^too many sign-in attempts from this address: at most 60 every 60 seconds;/)
    } finally {
      await s.close()
    }
  })

  it('a partial object overrides the defaults it names; a limit below 1 is refused at start', async () => {
    const s = await startTestService({ rateLimits: { perAccount: 5 } })
    try {
      assert.deepEqual(s.ctx.config.rateLimits, { ...DEFAULT_RATE_LIMITS, perAccount: 5 })
    } finally {
      await s.close()
    }
    assert.throws(() => resolveRateLimits({ perIp: 0 }), /rateLimits\.perIp must be a whole number of at least 1/)
    assert.equal(resolveRateLimits(false), null)
  })

  it('client addresses: IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6 by /64', () => {
    assert.equal(addressBucket('203.0.113.9'), '203.0.113.9')
    assert.equal(addressBucket('::ffff:203.0.113.9'), '203.0.113.9')
    assert.equal(addressBucket('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64')
    assert.equal(addressBucket('2001:db8:1:2::9'), '2001:db8:1:2::/64')
    assert.equal(addressBucket('::1'), '0:0:0:0::/64')
    assert.equal(addressBucket('not an address'), null)
    assert.equal(addressBucket('1:2:3'), null)
  })
})

async function startTestServiceConfig(rateLimits: false) {
  const s = await startTestService({ rateLimits })
  try {
    return s.ctx.config.rateLimits
  } finally {
    await s.close()
  }
}
