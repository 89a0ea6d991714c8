/** Markets as the chain source serves them: batch and single reads. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { addMarket, call, expectError, newMarketId, startTestService, type TestService } from '../helpers/service.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

describe('markets', () => {
  it('GET /v1/markets?ids= answers { markets } keyed by lowercased id; unknown ids are absent; ids are deduplicated', async () => {
    const a = await addMarket(svc, { title: 'A?', series: 'a-series' })
    const b = await addMarket(svc, { title: 'B?' })
    const unknown = newMarketId()
    const upper = '0x' + a.id.slice(2).toUpperCase()
    const r = await call(svc, 'GET', `/v1/markets?ids=${upper},${b.id},${unknown},${a.id}`)
    assert.equal(r.status, 200)
    assert.deepEqual(Object.keys(r.body.markets).sort(), [a.id, b.id].sort())
    assert.equal(r.body.markets[a.id].title, 'A?')
    assert.equal(r.body.markets[a.id].series, 'a-series')
    assert.deepEqual(r.body.markets[b.id], b)
  })

  it('GET /v1/markets/:id answers the market (any casing), or 404 market-not-found', async () => {
    const m = await addMarket(svc, { outcomes: [{ label: '> 100k', displayLabel: 'Above' }, { label: '<= 100k', displayLabel: 'Below' }] })
    const r = await call(svc, 'GET', `/v1/markets/0x${m.id.slice(2).toUpperCase()}`)
    assert.equal(r.status, 200)
    assert.deepEqual(r.body, m)
    assert.equal(r.body.outcomes[0].displayLabel, 'Above')
    expectError(await call(svc, 'GET', `/v1/markets/${newMarketId()}`), 404, 'market-not-found', 'no market with this id')
  })

  it('§3.2 "A CLOB market has no results yet": a resolved CLOB market reads result null; a resolved one reads its result', async () => {
    const clob = await addMarket(svc, { clob: true })
    const plain = await addMarket(svc)
    await svc.chain.resolve(clob.id, 0)
    await svc.chain.resolve(plain.id, 'void')
    const r = await call(svc, 'GET', `/v1/markets?ids=${clob.id},${plain.id}`)
    assert.equal(r.body.markets[clob.id].result, null)
    assert.equal(r.body.markets[clob.id].clob, true)
    assert.deepEqual(r.body.markets[plain.id].result, { void: true })
  })

  it('at most 100 ids per markets read: more is 400 too-many-ids', async () => {
    const ids = Array.from({ length: 101 }, () => newMarketId())
    expectError(await call(svc, 'GET', `/v1/markets?ids=${ids.join(',')}`), 400, 'too-many-ids', "'ids' names more than 100 market ids; split the request")
    assert.equal((await call(svc, 'GET', `/v1/markets?ids=${ids.slice(1).join(',')}`)).status, 200)
  })

  it('named sub-resources are not read as market ids: /v1/markets/counts reaches the counts read', async () => {
    const r = await call(svc, 'GET', '/v1/markets/counts?by=category')
    assert.equal(r.status, 200)
    assert.equal(r.body.by, 'category')
  })

  it('bad input: missing or malformed ids and unknown params are 400 with a code and a sentence', async () => {
    expectError(await call(svc, 'GET', '/v1/markets'), 400, 'validation-failed', "'ids' is required: a comma-separated list of market ids")
    expectError(await call(svc, 'GET', '/v1/markets?ids=0xnothex'), 400, 'validation-failed', "'ids' entry '0xnothex' is not a market id (0x and 64 hex characters)")
    expectError(await call(svc, 'GET', `/v1/markets?ids=${newMarketId()}&limit=5`), 400, 'unsupported-param', /'limit'/)
    expectError(await call(svc, 'GET', '/v1/markets/0x1234'), 400, 'validation-failed', "'id' must be a market id (0x and 64 hex characters)")
    expectError(await call(svc, 'GET', `/v1/markets/${newMarketId()}?fields=title`), 400, 'unsupported-param')
    expectError(await call(svc, 'GET', '/v1/markets/not-a-market'), 404, 'not-found')
  })
})
