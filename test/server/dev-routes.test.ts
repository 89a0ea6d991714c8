/**
 * The DEV-ONLY fixture-chain routes (`/v1/dev/*`): mounted only when the service starts with `dev: true`,
 * strict bodies, and every call goes through the chain controller (so stances read what they set).
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { DEV_PATHS } from '../../src/server/routes/dev.ts'
import { PATHS, SERVICE_PATHS } from '../../src/contract/paths.ts'
import { call, expectError, newMarketId, newWallet, ON_POSTGRES, signIn, startTestService, type TestService } from '../helpers/service.ts'

let dev: TestService
before(async () => {
  dev = await startTestService({ dev: true })
})
after(() => dev.close())

async function market(body: Record<string, unknown> = {}) {
  const r = await call(dev, 'POST', DEV_PATHS.markets, { body: { title: 'Will it snow in Oslo?', prices: [3000, 7000], ...body } })
  assert.equal(r.status, 201, JSON.stringify(r.body))
  return r.body.market as { id: string; outcomes: { label: string; displayLabel?: string }[] }
}

async function take(user: { token: string }, marketId: string, body = 'my take') {
  const r = await call(dev, 'POST', PATHS.posts, { token: user.token, body: { subjectType: 'event', subjectRef: marketId, body } })
  assert.equal(r.status, 201, JSON.stringify(r.body))
  return r.body.post
}

describe('dev routes: off by default', () => {
  it('dev routes are "never on by default": without dev every /v1/dev path is 404 and nothing is written', async () => {
    const plain = await startTestService()
    try {
      const id = newMarketId()
      for (const path of Object.values(DEV_PATHS)) {
        const r = await call(plain, 'POST', path, { body: { id, title: 'x', marketId: id, wallet: newWallet().address, side: 0, size: '1', priceBps: 1, outcome: 0 } })
        expectError(r, 404, 'not-found')
      }
      assert.equal((await plain.chain.markets([id])).size, 0)
    } finally {
      await plain.close()
    }
  })
})

describe('dev routes: driving the fixture chain', () => {
  it('POST /v1/dev/markets adds a market with outcomes (displayLabel), nodes, series, CLOB flag, close time and prices', async () => {
    const id = newMarketId().toUpperCase().replace('0X', '0x')
    const closesAt = new Date(Date.now() + 3600_000).toISOString()
    const r = await call(dev, 'POST', DEV_PATHS.markets, {
      body: {
        id,
        title: 'ETH above $4,000 on Friday?',
        outcomes: [
          { label: 'Yes', displayLabel: 'Above' },
          { label: 'No', displayLabel: 'Below' },
        ],
        nodes: [{ type: 'category', ref: 'crypto' }, { type: 'topic', ref: 'ethereum' }],
        series: 'eth-weekly',
        clob: false,
        closesAt,
        prices: [4700, 5300],
      },
    })
    assert.equal(r.status, 201)
    const m = r.body.market
    assert.equal(m.id, id.toLowerCase())
    assert.deepEqual(m.outcomes, [
      { label: 'Yes', displayLabel: 'Above' },
      { label: 'No', displayLabel: 'Below' },
    ])
    assert.equal(m.series, 'eth-weekly')
    assert.deepEqual(m.facet, { type: 'category', ref: 'crypto' })
    assert.ok(m.nodes.some((n: { type: string; ref: string }) => n.type === 'series' && n.ref === 'eth-weekly'))
    assert.equal(m.closesAt, closesAt)
    assert.equal(await dev.chain.priceOf(m.id, 0), 4700)
    assert.equal(await dev.chain.priceOf(m.id, 1), 5300)
    const read = await call(dev, 'GET', SERVICE_PATHS.market(m.id))
    assert.equal(read.status, 200)
    assert.equal(read.body.title, 'ETH above $4,000 on Friday?')
  })

  it('POST /v1/dev/markets without an id makes one up; the same id twice is 409 conflict', async () => {
    const m = await market()
    assert.match(m.id, /^0x[0-9a-f]{64}$/)
    expectError(await call(dev, 'POST', DEV_PATHS.markets, { body: { id: m.id, title: 'again' } }), 409, 'conflict')
  })

  it('POST /v1/dev/positions sets a position that proves the stance of the next take (side, size, side price)', async () => {
    const m = await market()
    const u = await signIn(dev)
    const r = await call(dev, 'POST', DEV_PATHS.positions, { body: { wallet: u.wallet, marketId: m.id, side: 1, size: '2500000' } })
    assert.equal(r.status, 200)
    const post = await take(u, m.id)
    assert.deepEqual(post.stance, { side: 1, size: '2500000', priceBps: 7000 })
  })

  it('POST /v1/dev/prices changes the side price a new stance freezes', async () => {
    const m = await market()
    const u = await signIn(dev)
    await call(dev, 'POST', DEV_PATHS.positions, { body: { wallet: u.wallet, marketId: m.id, side: 0, size: 5 } })
    const r = await call(dev, 'POST', DEV_PATHS.prices, { body: { marketId: m.id, side: 0, priceBps: 1234 } })
    assert.equal(r.status, 200)
    assert.deepEqual((await take(u, m.id)).stance, { side: 0, size: '5', priceBps: 1234 })
  })

  it('POST /v1/dev/trades records trades that add up to the position', async () => {
    const m = await market()
    const u = await signIn(dev)
    for (const size of ['1000', '500']) {
      const r = await call(dev, 'POST', DEV_PATHS.trades, { body: { wallet: u.wallet, marketId: m.id, side: 0, size } })
      assert.equal(r.status, 201)
    }
    assert.deepEqual(await dev.chain.positionOf([u.wallet], m.id), { side: 0, size: '1500' })
    const trades = await dev.ctx.db.selectFrom('trades').select(['size', 'price_bps']).where('market_id', '=', m.id).execute()
    assert.equal(trades.length, 2)
    assert.ok(trades.every((t) => t.price_bps === 3000))
    expectError(await call(dev, 'POST', DEV_PATHS.trades, { body: { wallet: u.wallet, marketId: m.id, side: 0, size: '0' } }), 400, 'validation-failed')
  })

  it('POST /v1/dev/resolve settles a market (winner or void) once; a second resolve is 409', async () => {
    const won = await market()
    const r = await call(dev, 'POST', DEV_PATHS.resolve, { body: { marketId: won.id, outcome: 1 } })
    assert.equal(r.status, 200)
    assert.deepEqual(r.body.market.result, { winner: 1 })
    expectError(await call(dev, 'POST', DEV_PATHS.resolve, { body: { marketId: won.id, outcome: 0 } }), 409, 'conflict')
    const voided = await market()
    const v = await call(dev, 'POST', DEV_PATHS.resolve, { body: { marketId: voided.id, outcome: 'void' } })
    assert.deepEqual(v.body.market.result, { void: true })
  })

  it('POST /v1/dev/resolve: two resolutions of one market at once record one result; the other is 409 and changes nothing', async () => {
    const m = await market()
    let rs: { status: number; body: { market: { result: unknown } } }[] = []
    const both = async () => (rs = await Promise.all([0, 1].map((outcome) => call(dev, 'POST', DEV_PATHS.resolve, { body: { marketId: m.id, outcome } }))))
    if (ON_POSTGRES) {
      // Both requests get past any check while another transaction holds the market's row, and write after it commits.
      let sent: Promise<unknown> | undefined
      await dev.ctx.db.transaction().execute(async (tx) => {
        await tx.selectFrom('markets').select('id').where('id', '=', m.id).forUpdate().execute()
        sent = both()
        await new Promise((r) => setTimeout(r, 500))
      })
      await sent
    } else await both()
    assert.deepEqual(rs.map((r) => r.status).sort(), [200, 409])
    const won = rs.find((r) => r.status === 200)!
    assert.deepEqual((await dev.chain.markets([m.id])).get(m.id)?.result, won.body.market.result)
  })
})

describe('dev routes: bad input is a 4xx with a code and a sentence, nothing written', () => {
  it('strict bodies: an unknown field is 400 validation-failed', async () => {
    const id = newMarketId()
    expectError(await call(dev, 'POST', DEV_PATHS.markets, { body: { id, title: 't', color: 'red' } }), 400, 'validation-failed', /unknown field 'color'/)
    assert.equal((await dev.chain.markets([id])).size, 0)
  })

  it('malformed JSON is 400 invalid-json', async () => {
    expectError(await call(dev, 'POST', DEV_PATHS.positions, { body: '{"wallet":' }), 400, 'invalid-json')
  })

  it('field checks: market id, wallet, side, size, price and outcome', async () => {
    const m = await market()
    const w = newWallet().address
    const bad: [string, Record<string, unknown>][] = [
      [DEV_PATHS.markets, { title: '' }],
      [DEV_PATHS.markets, { title: 't', outcomes: [{ label: 'only one' }] }],
      [DEV_PATHS.markets, { title: 't', nodes: [{ type: 'planet', ref: 'mars' }] }],
      [DEV_PATHS.markets, { title: 't', closesAt: 'tomorrow' }],
      [DEV_PATHS.markets, { title: 't', prices: [1, 2, 3] }],
      [DEV_PATHS.positions, { wallet: 'alice', marketId: m.id, side: 0, size: '1' }],
      [DEV_PATHS.positions, { wallet: w, marketId: '0x12', side: 0, size: '1' }],
      [DEV_PATHS.positions, { wallet: w, marketId: m.id, side: 2, size: '1' }],
      [DEV_PATHS.positions, { wallet: w, marketId: m.id, side: -1, size: '1' }],
      [DEV_PATHS.positions, { wallet: w, marketId: m.id, side: 0, size: '-5' }],
      [DEV_PATHS.positions, { wallet: w, marketId: m.id, side: 0, size: 1.5 }],
      [DEV_PATHS.prices, { marketId: m.id, side: 0, priceBps: 10_001 }],
      [DEV_PATHS.prices, { marketId: m.id, side: 0 }],
      [DEV_PATHS.resolve, { marketId: m.id, outcome: 2 }],
      [DEV_PATHS.resolve, { marketId: m.id, outcome: 'maybe' }],
    ]
    for (const [path, body] of bad) {
      const r = await call(dev, 'POST', path, { body })
      expectError(r, 400, 'validation-failed')
    }
    assert.equal(await dev.chain.positionOf([w], m.id), null)
    assert.equal(await dev.chain.priceOf(m.id, 0), 3000)
    assert.equal((await dev.chain.markets([m.id])).get(m.id)!.result, null)
  })

  it('an unknown market is 404 market-not-found', async () => {
    const id = newMarketId()
    const w = newWallet().address
    expectError(await call(dev, 'POST', DEV_PATHS.positions, { body: { wallet: w, marketId: id, side: 0, size: '1' } }), 404, 'market-not-found')
    expectError(await call(dev, 'POST', DEV_PATHS.prices, { body: { marketId: id, side: 0, priceBps: 1 } }), 404, 'market-not-found')
    expectError(await call(dev, 'POST', DEV_PATHS.trades, { body: { wallet: w, marketId: id, side: 0, size: '1' } }), 404, 'market-not-found')
    expectError(await call(dev, 'POST', DEV_PATHS.resolve, { body: { marketId: id, outcome: 0 } }), 404, 'market-not-found')
  })
})
