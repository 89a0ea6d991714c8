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

  it('§2.12 "A rank is never shown without its population": the rank and the record read as separate phrases, "#1 of 3 · 1 right · 0 wrong", on screen (spaces around the separator, never "3·1") and to a screen reader (never "of 31 right")', async () => {
    await makeVk()
    const el = await fixture<VkRecordChip>(html`<vk-record-chip .record=${rec({ rank: 1, population: 3, right: 1, wrong: 0 })}></vk-record-chip>`)
    const chip = el.shadowRoot!.querySelector<HTMLElement>('[part~="chip"]')!
    // As drawn: the rendered text (layout-aware), not the text nodes.
    expect(chip.innerText.replace(/\s+/g, ' ')).to.equal('#1 of 3 · 1 right · 0 wrong')
    const rank = chip.querySelector('.rank')!.getBoundingClientRect()
    const sep = document.createRange()
    const dot = [...chip.querySelectorAll('span')].flatMap((n) => [...n.childNodes]).find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() === '·')!
    sep.setStart(dot, dot.textContent!.indexOf('·'))
    sep.setEnd(dot, dot.textContent!.indexOf('·') + 1)
    expect(sep.getBoundingClientRect().left - rank.right, 'a space before the separator').to.be.greaterThan(2)
    // As announced: the text a screen reader gets (aria-hidden parts left out, nothing added between nodes).
    const spoken = (n: Node): string =>
      n instanceof Element && n.getAttribute('aria-hidden') === 'true' ? '' : n.nodeType === Node.TEXT_NODE ? n.textContent! : [...n.childNodes].map(spoken).join('')
    expect(spoken(chip).replace(/\s+/g, ' ').trim()).to.equal('#1 of 3 · 1 right · 0 wrong')
  })

  it('issue 6 rule 7 "every visible string can be replaced": the chip\'s separator and its loading mark come from the room slice', async () => {
    await makeVk()
    const el = await fixture<VkRecordChip>(html`<vk-record-chip .strings=${{ recordSeparator: '|' }} .record=${rec({ rank: 1, population: 3, right: 1, wrong: 0 })}></vk-record-chip>`)
    expect(deepText(el).replace(/\s+/g, ' ').trim()).to.equal('#1 of 3 | 1 right · 0 wrong')
    // Loading: the mark drawn is the slice's (and hidden from screen readers, who hear `loading`).
    const { market, right } = await settledNode()
    const vk = await makeVk()
    const release = vk.faults.hold((url) => url.pathname.includes('/records'))
    const busy = await fixture<VkRecordChip>(html`<vk-record-chip .strings=${{ loadingMark: '⋯', loading: 'Chargement' }} wallet=${right} market-id=${market.id}></vk-record-chip>`)
    await until(() => busy.shadowRoot!.querySelector('[aria-busy="true"]'), 'loading chip')
    const chip = busy.shadowRoot!.querySelector('[aria-busy="true"]')!
    expect(chip.querySelector('[aria-hidden="true"]')!.textContent).to.equal('⋯')
    expect(chip.querySelector('.vk-visually-hidden')!.textContent).to.equal('Chargement')
    release()
    await until(() => deepText(busy).includes('right'), 'the record, once the read is let through')
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

  it('§2.12 "nodeFacetOf(market): The node to read a record at: the market\'s node, never the venue\'s": with a venue key, a venue id and a session on the venue, records are read at the market\'s node', async () => {
    const s = await service()
    const v = await s.venue()
    const brand = `brand:${v.venueId}`
    const vk = await makeVk({ config: { apiKey: v.key, venueId: v.venueId } })
    await vk.signIn({ ...s.wallet(), venueId: v.venueId })
    expect([vk.client.config.apiKey, vk.client.config.venueId]).to.deep.equal([v.key, v.venueId])
    // The market also sits on the venue's own node (brand:<venueId>, where its self room is); its node is the category.
    const node = freshRef('rcv')
    const market = await s.addMarket({ nodes: [{ type: 'brand', ref: v.venueId }, { type: 'category', ref: node }], prices: [4000, 6000] })
    expect(market.facet).to.deep.equal({ type: 'category', ref: node })
    const caller = await s.signedIn()
    await s.setPosition(caller.w.wallet, market.id, 0, '1000')
    await caller.createPost('event', market.id, 'yes')
    await s.resolve(market.id, 0)
    const facets = () => vk.faults.requests.filter((r) => r.url.pathname === '/v1/records').map((r) => r.url.searchParams.get('facet'))
    const el = await fixture<VkRecordChip>(html`<vk-record-chip wallet=${caller.w.wallet} market-id=${market.id}></vk-record-chip>`)
    await until(() => facets().length, 'the records read')
    expect(facets()).to.deep.equal([`category:${node}`])
    await until(() => deepText(el).includes('of'), 'the chip drawn')
    expect(deepText(el)).to.equal('#1 of 1 · 1 right · 0 wrong')
    // A market with no node of its own (only the venue's): never read at the venue's node; its facet is null (overall).
    const bare = await s.addMarket({ nodes: [{ type: 'brand', ref: v.venueId }], facet: null })
    expect(bare.facet).to.equal(null)
    const el2 = await fixture<VkRecordChip>(html`<vk-record-chip wallet=${caller.w.wallet} market-id=${bare.id}></vk-record-chip>`)
    await until(() => facets().length === 2, 'the second records read')
    expect(facets()).to.not.include(brand)
    expect(facets()).to.deep.equal([`category:${node}`, null])
    await until(() => /#\d+ of \d+/.test(deepText(el2)), 'the second chip drawn')
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
