/**
 * `svc.chain`, the chain controller a venue's indexer (and the demo, and the tests) feeds the service through: "every
 * public function answers bad input with a clear error … and nothing is lost or half-written".
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ChainInputError, MARKET_LIMITS, MarketResolvedError } from '../../src/server/index.ts'
import { newMarketId, newWallet, startTestService, type TestService } from '../helpers/service.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

/** Awaits a ChainInputError of that kind naming that field. */
async function refused(p: Promise<unknown>, kind: ChainInputError['kind'], param: string, detail?: RegExp) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof ChainInputError, `a ChainInputError, got ${String(e)}`)
    assert.equal(e.kind, kind)
    assert.equal(e.param, param)
    assert.equal(e.message, `${param} ${e.detail}`)
    if (detail) assert.match(e.detail, detail)
    return true
  })
}
const count = async (table: 'markets' | 'market_nodes' | 'prices' | 'positions' | 'trades') =>
  Number((await svc.ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
const bad = (v: unknown) => v as never

describe('svc.chain: bad input gets a clear error and writes nothing', () => {
  it('addMarket refuses each bad field by name, and no market or node row is written', async () => {
    const before = [await count('markets'), await count('market_nodes')]
    const base = { id: newMarketId(), title: 'Will it rain?', nodes: [{ type: 'category' as const, ref: 'weather' }] }
    await refused(svc.chain.addMarket({ ...base, id: '0x12' }), 'invalid', 'id', /market id/)
    await refused(svc.chain.addMarket({ ...base, title: '   ' }), 'invalid', 'title', /non-empty/)
    await refused(svc.chain.addMarket({ ...base, title: 'x'.repeat(MARKET_LIMITS.title + 1) }), 'invalid', 'title', /at most 200/)
    await refused(svc.chain.addMarket({ ...base, outcomes: [{ label: 'Only' }] }), 'invalid', 'outcomes', /2 to 16/)
    await refused(svc.chain.addMarket({ ...base, outcomes: Array.from({ length: 17 }, (_, i) => ({ label: `o${i}` })) }), 'invalid', 'outcomes')
    await refused(svc.chain.addMarket({ ...base, outcomes: [{ label: 'Yes' }, { label: '' }] }), 'invalid', 'outcomes[1].label')
    await refused(svc.chain.addMarket({ ...base, outcomes: [{ label: 'Yes', displayLabel: 'y'.repeat(41) }, { label: 'No' }] }), 'invalid', 'outcomes[0].displayLabel')
    await refused(svc.chain.addMarket({ ...base, nodes: [bad({ type: 'planet', ref: 'mars' })] }), 'invalid', 'nodes[0]', /node/)
    await refused(svc.chain.addMarket({ ...base, nodes: [{ type: 'category', ref: 'Weather Now' }] }), 'invalid', 'nodes[0]')
    await refused(svc.chain.addMarket({ ...base, nodes: Array.from({ length: 21 }, (_, i) => ({ type: 'topic' as const, ref: `t${i}` })) }), 'invalid', 'nodes')
    await refused(svc.chain.addMarket({ ...base, series: 'Not A Key' }), 'invalid', 'series')
    await refused(svc.chain.addMarket({ ...base, facet: bad({ type: 'category' }) }), 'invalid', 'facet')
    await refused(svc.chain.addMarket({ ...base, closesAt: 'next tuesday' }), 'invalid', 'closesAt', /date/)
    for (const decimals of [-1, 1.5, 37]) await refused(svc.chain.addMarket({ ...base, decimals }), 'invalid', 'decimals')
    assert.deepEqual([await count('markets'), await count('market_nodes')], before, 'nothing written')
    assert.equal((await svc.chain.markets([base.id])).size, 0)
  })

  it('addMarket "a market is added once": the same id again is refused (exists) and the first market stays as it was', async () => {
    const id = newMarketId()
    const first = await svc.chain.addMarket({ id, title: '  Snow in Oslo?  ', nodes: [{ type: 'category', ref: 'weather' }], series: 'oslo-snow', decimals: null })
    assert.equal(first.title, 'Snow in Oslo?', 'the title is trimmed')
    assert.deepEqual(first.nodes, [{ type: 'category', ref: 'weather' }, { type: 'series', ref: 'oslo-snow' }])
    const nodesBefore = await count('market_nodes')
    await refused(svc.chain.addMarket({ id: id.toUpperCase().replace('0X', '0x'), title: 'Other', nodes: [{ type: 'topic', ref: 'other' }] }), 'exists', 'id', /already added/)
    assert.deepEqual((await svc.chain.markets([id])).get(id), first, 'unchanged')
    assert.equal(await count('market_nodes'), nodesBefore, 'no node row added')
  })

  it('setPrice, setPosition and trade name the bad field, answer an unknown market as not-found, and write nothing', async () => {
    const m = await svc.chain.addMarket({ id: newMarketId(), title: 'Binary' })
    const wallet = newWallet().address
    const before = [await count('prices'), await count('positions'), await count('trades')]
    const unknown = newMarketId()
    await refused(svc.chain.setPrice(unknown, 0, 5000), 'not-found', 'marketId')
    await refused(svc.chain.setPrice('nope', 0, 5000), 'invalid', 'marketId')
    await refused(svc.chain.setPrice(m.id, 2, 5000), 'invalid', 'side', /below 2/)
    for (const bps of [-1, 10_001, 12.5]) await refused(svc.chain.setPrice(m.id, 0, bps), 'invalid', 'priceBps')
    await refused(svc.chain.setPosition('0xnot-a-wallet', m.id, 0, 1), 'invalid', 'wallet')
    await refused(svc.chain.setPosition(wallet, unknown, 0, 1), 'not-found', 'marketId')
    await refused(svc.chain.setPosition(wallet, m.id, -1, 1), 'invalid', 'side')
    for (const size of [-1, 1.5, '1.5', 'ten', -5n]) await refused(svc.chain.setPosition(wallet, m.id, 0, size), 'invalid', 'size')
    await refused(svc.chain.trade({ wallet, marketId: m.id, side: 0, size: 0 }), 'invalid', 'size', /above 0/)
    await refused(svc.chain.trade({ wallet, marketId: m.id, side: 3, size: 10 }), 'invalid', 'side')
    await refused(svc.chain.trade({ wallet, marketId: m.id, side: 0, size: 10, priceBps: 20_000 }), 'invalid', 'priceBps')
    await refused(svc.chain.trade({ wallet, marketId: m.id, side: 0, size: 10, at: new Date('nope') }), 'invalid', 'at')
    await refused(svc.chain.trade({ wallet, marketId: unknown, side: 0, size: 10 }), 'not-found', 'marketId')
    assert.deepEqual([await count('prices'), await count('positions'), await count('trades')], before, 'nothing written')
    const { volume } = await svc.ctx.db.selectFrom('markets').select('volume').where('id', '=', m.id).executeTakeFirstOrThrow()
    assert.equal(Number(volume), 0, 'no volume')
    // The same calls with good input write.
    await svc.chain.setPrice(m.id, 1, 4000)
    await svc.chain.trade({ wallet, marketId: m.id, side: 1, size: '2500000' })
    const facts = await svc.ctx.chain.stanceOf([wallet], m.id)
    assert.deepEqual([facts.position, facts.priceBps], [{ side: 1, size: '2500000' }, 4000])
  })

  it('updateMarket changes a market\'s title, close time and outcome labels; what it may not change, an outcome count, a bad value or an unknown market is refused by name, and nothing is written', async () => {
    const m = await svc.chain.addMarket({ id: newMarketId(), title: 'ETH above $4,000?', nodes: [{ type: 'category', ref: 'crypto' }] })
    await refused(svc.chain.updateMarket(newMarketId(), { title: 'x' }), 'not-found', 'marketId')
    await refused(svc.chain.updateMarket(m.id, bad({ nodes: [{ type: 'category', ref: 'weather' }] })), 'invalid', 'nodes', /cannot change/)
    await refused(svc.chain.updateMarket(m.id, bad({ title: 'ok', decimals: 2 })), 'invalid', 'decimals', /cannot change/)
    await refused(svc.chain.updateMarket(m.id, { outcomes: [{ label: 'A' }, { label: 'B' }, { label: 'C' }] }), 'invalid', 'outcomes', /keep the market's 2 outcomes/)
    await refused(svc.chain.updateMarket(m.id, { title: '' }), 'invalid', 'title')
    await refused(svc.chain.updateMarket(m.id, { title: 'fine', closesAt: 'soon' }), 'invalid', 'closesAt')
    await refused(svc.chain.updateMarket(m.id, bad(null)), 'invalid', 'patch')
    assert.deepEqual((await svc.chain.markets([m.id])).get(m.id), m, 'unchanged')
    const closesAt = new Date(Date.now() + 7 * 86_400_000)
    const outcomes = [{ label: 'Yes', displayLabel: 'Above' }, { label: 'No', displayLabel: 'Below' }]
    const updated = await svc.chain.updateMarket(m.id, { title: ' ETH above $4,500? ', closesAt, outcomes })
    assert.deepEqual(updated, { ...m, title: 'ETH above $4,500?', closesAt: closesAt.toISOString(), outcomes })
    assert.deepEqual(await svc.chain.updateMarket(m.id, {}), updated, 'an empty patch changes nothing')
    assert.equal((await svc.chain.updateMarket(m.id, { closesAt: null })).closesAt, null, 'null: no close time')
  })

  it('resolve names an outcome the market does not have, answers an unknown market as not-found, and resolves once', async () => {
    const m = await svc.chain.addMarket({ id: newMarketId(), title: 'Binary' })
    await refused(svc.chain.resolve(newMarketId(), 0), 'not-found', 'marketId')
    await refused(svc.chain.resolve(m.id, 2), 'invalid', 'outcome', /below 2 or 'void'/)
    assert.equal((await svc.chain.markets([m.id])).get(m.id)!.result, null, 'not resolved')
    await svc.chain.resolve(m.id, 'void')
    await assert.rejects(svc.chain.resolve(m.id, 0), MarketResolvedError)
  })
})
