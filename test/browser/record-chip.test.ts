/** `<vk-record-chip>` against the running reference service (issue 7 rule 5, spec §2.12 RecordChip, nodeFacetOf). */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/record-chip/record-chip.ts'
import type { VkRecordChip } from '../../src/elements/record-chip/record-chip.element.ts'
import type { SettledRecord } from '../../src/contract/types.ts'
import { freshRef } from '../sdk/harness.ts'
import { deepText, disposeVk, isPath, makeVk, service, until } from './elements-env.ts'

const rec = (o: Partial<SettledRecord>): SettledRecord => ({ facet: null, right: 0, wrong: 0, void: 0, oddsBeatenBps: 0, rank: null, population: 0, ...o })

/** A market on a fresh category node, a right take (side 0) and a wrong take (side 1), resolved to side 0. */
async function settledNode() {
  const s = await service()
  const node = freshRef('rc')
  const market = await s.addMarket({ nodes: [{ type: 'category', ref: node }], prices: [4000, 6000] })
  const right = await s.signedIn()
  const wrong = await s.signedIn()
  await s.setPosition(right.w.wallet, market.id, 0, '1000')
  await s.setPosition(wrong.w.wallet, market.id, 1, '1000')
  await right.createPost('event', market.id, 'yes')
  await wrong.createPost('event', market.id, 'no')
  await s.resolve(market.id, 0)
  return { s, node, market, right: right.w.wallet, wrong: wrong.w.wallet, nobody: s.wallet().wallet }
}

describe('<vk-record-chip>', () => {
  afterEach(() => disposeVk())

  it('§9.3 "useRecords and <MarketVerdict> … read the client from the client provider and render nothing without one": <vk-record-chip> without a client renders nothing and reads nothing', async () => {
    disposeVk()
    const seen = performance.getEntriesByType('resource').length
    const el = await fixture<VkRecordChip>(html`<vk-record-chip wallet=${`0x${'ab'.repeat(20)}`} market-id=${`0x${'cd'.repeat(32)}`}></vk-record-chip>`)
    await new Promise((r) => setTimeout(r, 100))
    expect(el.shadowRoot!.children.length).to.equal(0)
    expect(deepText(el)).to.equal('')
    const reads = performance.getEntriesByType('resource').slice(seen).filter((e) => /\/v1\/(records|markets)/.test(e.name))
    expect(reads.map((e) => e.name)).to.deep.equal([])
  })

  it('issue 7 rule 5 "<vk-record-chip> never shows a rank without its population"', async () => {
    await makeVk()
    const el = await fixture<VkRecordChip>(html`<vk-record-chip .record=${rec({ rank: 3, population: 40, right: 5, wrong: 2 })}></vk-record-chip>`)
    expect(deepText(el)).to.equal('#3 of 40 · 5 right · 2 wrong')
    // A rank that arrives without a population is not shown as a bare rank.
    el.record = { ...rec({ rank: 3, right: 1 }), population: undefined as unknown as number }
    await el.updateComplete
    expect(deepText(el)).to.not.match(/#3/)
    expect(deepText(el)).to.include('Unranked')
  })

  it('issue 7 rule 5 "shows unranked as a state, not as last place"', async () => {
    await makeVk()
    const el = await fixture<VkRecordChip>(html`<vk-record-chip .record=${rec({ rank: null, population: 12 })}></vk-record-chip>`)
    expect(deepText(el)).to.equal('Unranked')
    expect(deepText(el)).to.not.include('12')
  })

  it('issue 7 rule 5 "Records are read in batches at the market\'s node (nodeFacetOf)": three chips, one read at category:<node>', async () => {
    const vk = await makeVk()
    const { node, market, right, wrong, nobody } = await settledNode()
    const box = await fixture(html`<div>
      <vk-record-chip wallet=${right} market-id=${market.id}></vk-record-chip>
      <vk-record-chip wallet=${wrong} market-id=${market.id}></vk-record-chip>
      <vk-record-chip wallet=${nobody} market-id=${market.id}></vk-record-chip>
    </div>`)
    const [a, b, c] = [...box.querySelectorAll('vk-record-chip')]
    await until(() => deepText(c).includes('Unranked') && deepText(a).includes('of') && deepText(b).includes('of'), 'three chips drawn')
    expect(deepText(a)).to.equal('#1 of 2 · 1 right · 0 wrong')
    expect(deepText(b)).to.equal('#2 of 2 · 0 right · 1 wrong')
    expect(deepText(c)).to.equal('Unranked')
    const reads = vk.faults.requests.filter((r) => r.url.pathname === '/v1/records')
    expect(reads.length).to.equal(1)
    expect(reads[0].url.searchParams.get('facet')).to.equal(`category:${node}`)
    expect(reads[0].url.searchParams.get('wallets')!.split(',').sort()).to.deep.equal([right, wrong, nobody].sort())
  })

  it('issue 7 rule 5: a `facet` attribute reads at that node; `global` reads the overall record', async () => {
    const vk = await makeVk()
    const { node, right } = await settledNode()
    const at = await fixture<VkRecordChip>(html`<vk-record-chip wallet=${right} facet=${`category:${node}`}></vk-record-chip>`)
    await until(() => deepText(at).includes('of 2'), 'node record')
    const all = await fixture<VkRecordChip>(html`<vk-record-chip wallet=${right} facet="global"></vk-record-chip>`)
    await until(() => /#\d+ of \d+/.test(deepText(all)), 'global record')
    const facets = vk.faults.requests.filter((r) => r.url.pathname === '/v1/records').map((r) => r.url.searchParams.get('facet'))
    expect(facets).to.deep.equal([`category:${node}`, null])
  })

  it('issue 7 "accessible in its loaded, empty, error states"', async () => {
    const vk = await makeVk()
    const { market, right, nobody } = await settledNode()
    const loaded = await fixture<VkRecordChip>(html`<vk-record-chip wallet=${right} market-id=${market.id}></vk-record-chip>`)
    await until(() => deepText(loaded).includes('of 2'), 'loaded')
    await expect(loaded).to.be.accessible()
    const empty = await fixture<VkRecordChip>(html`<vk-record-chip wallet=${nobody} market-id=${market.id}></vk-record-chip>`)
    await until(() => deepText(empty) === 'Unranked', 'unranked')
    await expect(empty).to.be.accessible()
    vk.faults.fail(isPath('/v1/records'))
    const failed = await fixture<VkRecordChip>(html`<vk-record-chip wallet=${(await service()).wallet().wallet} facet="global"></vk-record-chip>`)
    await until(() => deepText(failed).includes('Record unavailable'), 'error')
    await expect(failed).to.be.accessible()
  })
})
