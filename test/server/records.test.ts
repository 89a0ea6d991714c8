/** §2.12: settled records, faceted ranks, batched records, leaderboards, market verdicts. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { RECORD_LOCK_KEY } from '../../src/server/db/record-lock.ts'
import { addMarket, call, expectError, newMarketId, newWallet, ON_POSTGRES, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

let n = 0
const newNode = () => `rec-${Date.now().toString(36)}-${n++}`

/** A take on a fresh market at `node`, then the market resolves to `outcome`. Side price is 4000 for 0, 6000 for 1. */
async function take(s: TestService, u: TestUser, node: string, side: number, outcome: number | 'void', opts: { price?: number | null } = {}) {
  const m = await addMarket(s, { nodes: [{ type: 'category', ref: node }] })
  if (opts.price === null) await s.ctx.db.deleteFrom('prices').where('market_id', '=', m.id).execute()
  else if (opts.price !== undefined) await s.chain.setPrice(m.id, side, opts.price)
  await s.chain.setPosition(u.wallet, m.id, side, 5n)
  const r = await call(s, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'take' } })
  assert.equal(r.body.post.stance?.side, side)
  await s.chain.resolve(m.id, outcome)
  return m.id
}

const records = (s: TestService, wallets: string[], facet?: string) =>
  call(s, 'GET', `/v1/records?wallets=${wallets.join(',')}${facet ? `&facet=${facet}` : ''}`)

describe('§2.12 settled records', () => {
  it('§2.12 "Settled record of an account at a node: right and wrong takes, a void never counted as wrong"', async () => {
    const node = newNode()
    const u = await signIn(svc)
    await take(svc, u, node, 0, 0)
    await take(svc, u, node, 0, 1)
    await take(svc, u, node, 1, 'void')
    await take(svc, u, node, 0, 'void')
    const r = await records(svc, [u.wallet], `category:${node}`)
    assert.equal(r.status, 200)
    const rec = r.body.records[u.wallet]
    assert.deepEqual([rec.right, rec.wrong, rec.void], [1, 1, 2])
    assert.deepEqual(r.body.facet, { type: 'category', ref: node })
    assert.deepEqual(rec.facet, { type: 'category', ref: node })
  })

  it('§2.12 a market\'s result and the records it settles are one write: when the record update fails the market stays unresolved, and resolving it again settles the records', async () => {
    const node = newNode()
    const u = await signIn(svc)
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: node }] })
    await svc.chain.setPosition(u.wallet, m.id, 0, 5n)
    await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'take' } })
    // A record row that counts anything is refused, once: the records update fails after the result was set.
    await sql`alter table records add constraint vk_test_refuse check (right_count + wrong_count + void_count = 0) not valid`.execute(svc.ctx.db)
    try {
      await assert.rejects(svc.chain.resolve(m.id, 0))
    } finally {
      await sql`alter table records drop constraint vk_test_refuse`.execute(svc.ctx.db)
    }
    assert.equal((await svc.chain.markets([m.id])).get(m.id)?.result, null, 'the market is not resolved without its records')
    assert.equal((await records(svc, [u.wallet], `category:${node}`)).body.records[u.wallet].right, 0)
    await svc.chain.resolve(m.id, 0)
    assert.deepEqual((await svc.chain.markets([m.id])).get(m.id)?.result, { winner: 0 })
    assert.equal((await records(svc, [u.wallet], `category:${node}`)).body.records[u.wallet].right, 1)
  })

  it('§2.12 records count every settled take: markets on one node resolving at the same moment all settle, and each lands in its holders\' records', async () => {
    const node = newNode()
    const users = await Promise.all(Array.from({ length: 4 }, () => signIn(svc)))
    const markets = []
    for (let i = 0; i < 6; i++) {
      const m = await addMarket(svc, { nodes: [{ type: 'category', ref: node }] })
      for (const u of users) {
        await svc.chain.setPosition(u.wallet, m.id, 0, 5n)
        await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'take' } })
      }
      markets.push(m.id)
    }
    await Promise.all(markets.map((id, i) => svc.chain.resolve(id, i % 2)))
    for (const facet of [`category:${node}`, undefined]) {
      const got = (await records(svc, users.map((u) => u.wallet), facet)).body.records
      for (const u of users) assert.deepEqual([got[u.wallet].right, got[u.wallet].wrong], [3, 3], `${u.wallet} at ${facet ?? 'global'}`)
    }
  })

  it('§2.12 records count every settled take: a resolution whose holder\'s record is being written waits for that write, then counts the result it committed (no lost update)', { skip: !ON_POSTGRES && 'needs a second connection (PostgreSQL)' }, async () => {
    const node = newNode()
    const u = await signIn(svc)
    const ids: string[] = []
    for (let i = 0; i < 2; i++) {
      const m = await addMarket(svc, { nodes: [{ type: 'category', ref: node }] })
      await svc.chain.setPosition(u.wallet, m.id, 0, 5n)
      await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'take' } })
      ids.push(m.id)
    }
    const [x, y] = ids
    const account = (await svc.ctx.db.selectFrom('wallets').select('account_id').where('address', '=', u.wallet).executeTakeFirstOrThrow()).account_id
    let resolving: Promise<void> | undefined
    // Another writer holds the holder's global record and commits market y's result only after x's resolution started.
    await svc.ctx.db.transaction().execute(async (tx) => {
      const lit = (v: string) => `'${v.replace(/'/g, "''")}'`
      await sql`select pg_advisory_xact_lock(${sql.raw(RECORD_LOCK_KEY(lit(account), lit('*'), lit('*')))})`.execute(tx)
      await tx.updateTable('markets').set({ result: JSON.stringify({ winner: 0 }), resolved_at: new Date() }).where('id', '=', y).execute()
      resolving = svc.chain.resolve(x, 0)
      await Promise.race([resolving, new Promise((r) => setTimeout(r, 500))])
    })
    await resolving
    const got = (await records(svc, [u.wallet])).body.records[u.wallet]
    assert.equal(got.right, 2, "x's resolution read its holder's tallies after y's result committed")
  })

  it('§2.12 "an odds-beaten aggregate": the sum over right takes of 10000 minus the side\'s price at write time (unknown price adds nothing)', async () => {
    const node = newNode()
    const u = await signIn(svc)
    await take(svc, u, node, 0, 0, { price: 2500 }) // beats 7500
    await take(svc, u, node, 1, 1, { price: 9000 }) // beats 1000
    await take(svc, u, node, 0, 1, { price: 100 }) // wrong: no odds beaten
    await take(svc, u, node, 0, 0, { price: null }) // unknown price: right, no odds
    const rec = (await records(svc, [u.wallet], `category:${node}`)).body.records[u.wallet]
    assert.equal(rec.right, 3)
    assert.equal(rec.wrong, 1)
    assert.equal(rec.oddsBeatenBps, 8500)
  })

  it('§2.12 "rank and population at that node"; "A rank is never shown without its population; unranked is a state, not last place"', async () => {
    const node = newNode()
    const [a, b, c] = await Promise.all([signIn(svc), signIn(svc), signIn(svc)])
    await take(svc, a, node, 0, 0)
    await take(svc, a, node, 0, 0)
    await take(svc, b, node, 0, 1)
    await take(svc, c, node, 0, 'void') // only voids: unranked
    const stranger = newWallet().address.toLowerCase()
    const r = await records(svc, [a.wallet, b.wallet, c.wallet, stranger], `category:${node}`)
    const recs = r.body.records
    assert.deepEqual([recs[a.wallet].rank, recs[a.wallet].population], [1, 2])
    assert.deepEqual([recs[b.wallet].rank, recs[b.wallet].population], [2, 2])
    assert.deepEqual([recs[c.wallet].rank, recs[c.wallet].population, recs[c.wallet].void], [null, 2, 1])
    assert.deepEqual(recs[stranger], { facet: { type: 'category', ref: node }, right: 0, wrong: 0, void: 0, oddsBeatenBps: 0, rank: null, population: 2 })
    for (const w of Object.keys(recs)) assert.equal(typeof recs[w].population, 'number')
  })

  it('§9.4 "a faceted rank is not a slice of the global one": the rank at a node is computed within that node', async () => {
    const s = await startTestService()
    try {
      const x = newNode()
      const y = newNode()
      const [a, b, c] = await Promise.all([signIn(s), signIn(s), signIn(s)])
      // Globally: a 4-0, b 2-1, c 1-0. At node x: b 2-0 leads a 1-0 and c has nothing there.
      await take(s, a, x, 0, 0)
      for (let i = 0; i < 3; i++) await take(s, a, y, 0, 0)
      await take(s, b, x, 0, 0)
      await take(s, b, x, 0, 0)
      await take(s, b, y, 0, 1)
      await take(s, c, y, 0, 0)
      const g = (await records(s, [a.wallet, b.wallet, c.wallet])).body
      assert.equal(g.facet, null)
      assert.deepEqual([g.records[a.wallet].rank, g.records[b.wallet].rank, g.records[c.wallet].rank, g.records[a.wallet].population], [1, 2, 3, 3])
      const fx = (await records(s, [a.wallet, b.wallet, c.wallet], `category:${x}`)).body
      assert.deepEqual([fx.records[b.wallet].rank, fx.records[a.wallet].rank, fx.records[c.wallet].rank, fx.records[a.wallet].population], [1, 2, null, 2])
      // A slice of the global board would have put a above b at x.
      assert.ok(fx.records[b.wallet].rank < fx.records[a.wallet].rank)
    } finally {
      await s.close()
    }
  })

  it('§2.12 "useRecords(wallets, facet)": one batched read for many wallets at one facet; linked wallets share the account\'s record; ids are lowercased', async () => {
    const node = newNode()
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => signIn(svc)))
    for (const [i, u] of users.entries()) await take(svc, u, node, 0, i % 2 === 0 ? 0 : 1)
    // Link a second wallet to users[0].
    const second = newWallet()
    const nn = await call(svc, 'POST', '/v1/auth/nonce', { body: { address: second.address } })
    const sig = await second.signMessage({ message: nn.body.message })
    assert.equal((await call(svc, 'POST', '/v1/auth/link', { token: users[0].token, body: { message: nn.body.message, signature: sig } })).status, 200)
    const upper = users.map((u) => u.wallet.replace(/[a-f]/g, (ch) => ch.toUpperCase()).replace('0X', '0x'))
    const r = await records(svc, [...upper, second.address], `category:${node}`)
    assert.equal(r.status, 200)
    assert.equal(Object.keys(r.body.records).length, 6)
    assert.deepEqual(r.body.records[second.address.toLowerCase()], r.body.records[users[0].wallet])
    assert.equal(users.filter((u) => r.body.records[u.wallet].right === 1).length, 3)
  })

  it('records: bad input is a 4xx with a code and a sentence', async () => {
    const w = newWallet().address
    expectError(await call(svc, 'GET', '/v1/records'), 400, 'validation-failed')
    expectError(await call(svc, 'GET', '/v1/records?wallets=nope'), 400, 'validation-failed')
    expectError(await call(svc, 'GET', `/v1/records?wallets=${w}&facet=planet:mars`), 400, 'validation-failed')
    expectError(await call(svc, 'GET', `/v1/records?wallets=${w}&facet=category`), 400, 'validation-failed')
    expectError(await call(svc, 'GET', `/v1/records?wallets=${w}&author=x`), 400, 'unsupported-param')
    const many = Array.from({ length: 201 }, () => newWallet().address)
    expectError(await call(svc, 'GET', `/v1/records?wallets=${many.join(',')}`), 400, 'too-many-ids', "'wallets' names more than 200 wallets; split the request")
    // The same list rules as every other id list (one parser): an empty entry is refused, the cap counts distinct wallets.
    expectError(await call(svc, 'GET', `/v1/records?wallets=${w},,${newWallet().address}`), 400, 'validation-failed', "'wallets' has an empty entry; give a comma-separated list of wallets")
    const same = await call(svc, 'GET', `/v1/records?wallets=${Array(201).fill(w).join(',')}`)
    assert.equal(same.status, 200)
    assert.deepEqual(Object.keys(same.body.records), [w.toLowerCase()])
  })
})

describe('§2.12 leaderboards', () => {
  it('§9.3 "scope is required on <Leaderboard>; scope={null} is the global board": scope=global, and a missing scope is 400', async () => {
    const s = await startTestService()
    try {
      const node = newNode()
      const [a, b] = await Promise.all([signIn(s), signIn(s)])
      await take(s, a, node, 0, 0)
      await take(s, b, `${node}-b`, 0, 1)
      expectError(await call(s, 'GET', '/v1/leaderboard'), 400, 'validation-failed', /'scope'.*required/)
      const g = await call(s, 'GET', '/v1/leaderboard?scope=global')
      assert.equal(g.status, 200)
      assert.equal(g.body.scope, null)
      assert.equal(g.body.population, 2)
      assert.deepEqual(g.body.entries.map((e: { wallet: string; rank: number }) => [e.wallet, e.rank]), [[a.wallet, 1], [b.wallet, 2]])
      const f = await call(s, 'GET', `/v1/leaderboard?scope=category:${node}`)
      assert.deepEqual(f.body.scope, { type: 'category', ref: node })
      assert.equal(f.body.population, 1)
      assert.deepEqual(f.body.entries.map((e: { wallet: string }) => e.wallet), [a.wallet])
      const empty = await call(s, 'GET', '/v1/leaderboard?scope=topic:nobody-here')
      assert.deepEqual([empty.body.population, empty.body.entries.length], [0, 0])
      expectError(await call(s, 'GET', '/v1/leaderboard?scope=planet:x'), 400, 'validation-failed')
      expectError(await call(s, 'GET', '/v1/leaderboard?scope=global&facet=x'), 400, 'unsupported-param')
    } finally {
      await s.close()
    }
  })

  it('§2.12 "Every leaderboard states its population": on every entry and page; pages are keyset-paged; tied scores share a rank', async () => {
    const node = newNode()
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => signIn(svc)))
    // 0 and 1 tie at 2-0; 2 at 1-0; 3 at 1-1; 4 at 0-1.
    await take(svc, users[0], node, 0, 0)
    await take(svc, users[0], node, 0, 0)
    await take(svc, users[1], node, 0, 0)
    await take(svc, users[1], node, 0, 0)
    await take(svc, users[2], node, 0, 0)
    await take(svc, users[3], node, 0, 0)
    await take(svc, users[3], node, 0, 1)
    await take(svc, users[4], node, 0, 1)
    const full = await call(svc, 'GET', `/v1/leaderboard?scope=category:${node}`)
    assert.equal(full.body.population, 5)
    const ranks = full.body.entries.map((e: { rank: number }) => e.rank)
    assert.deepEqual(ranks, [1, 1, 3, 4, 5])
    assert.ok(full.body.entries.every((e: { population: number }) => e.population === 5))
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const p: { body: { entries: { wallet: string }[]; nextCursor: string | null; population: number } } = await call(
        svc,
        'GET',
        `/v1/leaderboard?scope=category:${node}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      )
      assert.equal(p.body.population, 5)
      seen.push(...p.body.entries.map((e) => e.wallet))
      cursor = p.body.nextCursor
      assert.ok(seen.length <= 50, 'the cursor moves the page on (a cursor that does not would loop forever)')
    } while (cursor)
    assert.deepEqual(seen, full.body.entries.map((e: { wallet: string }) => e.wallet))
  })
})

describe('§2.12 market verdicts', () => {
  const verdicts = (ids: string[]) => call(svc, 'GET', `/v1/markets/verdicts?ids=${ids.join(',')}`)

  it('§2.12 "<MarketVerdict marketId>: Settled-market tally (right / wrong / undecided)" among holders', async () => {
    const m = await addMarket(svc)
    const ws = [newWallet(), newWallet(), newWallet(), newWallet()].map((w) => w.address)
    await svc.chain.setPosition(ws[0], m.id, 0, 10n)
    await svc.chain.setPosition(ws[1], m.id, 0, 3n)
    await svc.chain.setPosition(ws[2], m.id, 1, 7n)
    // Hedged equally: no side.
    await svc.chain.setPosition(ws[3], m.id, 0, 5n)
    await svc.chain.setPosition(ws[3], m.id, 1, 5n)
    const open = (await verdicts([m.id])).body.verdicts[m.id]
    assert.deepEqual(open, { marketId: m.id, right: 0, wrong: 0, undecided: 4, void: false, holders: 4, settled: false })
    await svc.chain.resolve(m.id, 0)
    const done = (await verdicts([m.id])).body.verdicts[m.id]
    assert.deepEqual(done, { marketId: m.id, right: 2, wrong: 1, undecided: 1, void: false, holders: 4, settled: true })
  })

  it('§2.12 "A voided market has no winner and every holder\'s verdict is null; those are never counted as wrong"', async () => {
    const m = await addMarket(svc)
    await svc.chain.setPosition(newWallet().address, m.id, 0, 1n)
    await svc.chain.setPosition(newWallet().address, m.id, 1, 1n)
    await svc.chain.resolve(m.id, 'void')
    const v = (await verdicts([m.id])).body.verdicts[m.id]
    assert.deepEqual(v, { marketId: m.id, right: 0, wrong: 0, undecided: 2, void: true, holders: 2, settled: true })
  })

  it('§2.12 "A market nobody held renders nothing": its verdict is null (so is an unknown market\'s)', async () => {
    const m = await addMarket(svc)
    await svc.chain.resolve(m.id, 1)
    const unknown = newMarketId()
    const r = await verdicts([m.id, unknown])
    assert.deepEqual(r.body.verdicts, { [m.id]: null, [unknown]: null })
    // Positions of zero are not holdings.
    const z = await addMarket(svc)
    await svc.chain.setPosition(newWallet().address, z.id, 0, 0n)
    await svc.chain.resolve(z.id, 0)
    assert.equal((await verdicts([z.id])).body.verdicts[z.id], null)
  })

  it('§2.12 verdict counts for many markets in one read; wallets of one account are one holder; ids are lowercased', async () => {
    const a = await addMarket(svc)
    const b = await addMarket(svc, { clob: true })
    const u = await signIn(svc)
    const second = newWallet()
    const nn = await call(svc, 'POST', '/v1/auth/nonce', { body: { address: second.address } })
    await call(svc, 'POST', '/v1/auth/link', { token: u.token, body: { message: nn.body.message, signature: await second.signMessage({ message: nn.body.message }) } })
    await svc.chain.setPosition(u.wallet, a.id, 1, 2n)
    await svc.chain.setPosition(second.address, a.id, 1, 2n)
    await svc.chain.setPosition(newWallet().address, b.id, 0, 2n)
    await svc.chain.resolve(a.id, 1)
    await svc.chain.resolve(b.id, 0)
    const r = await verdicts([a.id.toUpperCase().replace('0X', '0x'), b.id])
    assert.deepEqual(r.body.verdicts[a.id], { marketId: a.id, right: 1, wrong: 0, undecided: 0, void: false, holders: 1, settled: true })
    // A CLOB market has no results (§3.2): its holders stay undecided.
    assert.deepEqual(r.body.verdicts[b.id], { marketId: b.id, right: 0, wrong: 0, undecided: 1, void: false, holders: 1, settled: false })
  })

  it('verdicts: bad input is a 4xx (missing ids, a bad id, more than 100 ids)', async () => {
    expectError(await call(svc, 'GET', '/v1/markets/verdicts'), 400, 'validation-failed')
    expectError(await call(svc, 'GET', '/v1/markets/verdicts?ids=0x12'), 400, 'validation-failed')
    expectError(await call(svc, 'GET', `/v1/markets/verdicts?ids=${newMarketId()}&x=1`), 400, 'unsupported-param')
    const many = Array.from({ length: 101 }, () => newMarketId())
    expectError(await call(svc, 'GET', `/v1/markets/verdicts?ids=${many.join(',')}`), 400, 'too-many-ids', "'ids' names more than 100 market ids; split the request")
    // §4.1 "the same set of ids in any order or casing shares one cached read": a repeated id counts once toward the cap, as on take counts.
    const one = newMarketId()
    const same = await call(svc, 'GET', `/v1/markets/verdicts?ids=${Array(101).fill(one).join(',')}`)
    assert.equal(same.status, 200)
    expectError(await call(svc, 'GET', `/v1/markets/verdicts?ids=${one},`), 400, 'validation-failed', "'ids' has an empty entry; give a comma-separated list of market ids")
  })
})
