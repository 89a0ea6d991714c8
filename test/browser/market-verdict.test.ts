/** `<vk-market-verdict>` and `<vk-market-verdict-counts>` against the running reference service (issue 7 rule 6, §2.12, §9.3). */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/market-verdict/market-verdict.ts'
import '../../src/elements/market-verdict-counts/market-verdict-counts.ts'
import type { VkMarketVerdict } from '../../src/elements/market-verdict/market-verdict.element.ts'
import type { VkMarketVerdictCounts } from '../../src/elements/market-verdict-counts/market-verdict-counts.element.ts'
import { deep, deepText, disposeVk, isPath, makeVk, service, until } from './elements-env.ts'

/** A market held by three people: one on side 0, one on side 1, one tied across both (undecided). */
async function heldMarket(outcome?: number | 'void') {
  const s = await service()
  const m = await s.addMarket()
  const [a, b, c] = [s.wallet(), s.wallet(), s.wallet()]
  await s.setPosition(a.wallet, m.id, 0, '100')
  await s.setPosition(b.wallet, m.id, 1, '100')
  await s.setPosition(c.wallet, m.id, 0, '50')
  await s.setPosition(c.wallet, m.id, 1, '50')
  if (outcome !== undefined) await s.resolve(m.id, outcome)
  return m.id
}

const drawn = (el: Element) => !!el.shadowRoot?.querySelector('[part="counts"], [part="error"]')
const tags = ['vk-market-verdict', 'vk-market-verdict-counts'] as const

async function mount(tag: (typeof tags)[number], id: string) {
  return tag === 'vk-market-verdict'
    ? fixture<VkMarketVerdict>(html`<vk-market-verdict market-id=${id}></vk-market-verdict>`)
    : fixture<VkMarketVerdictCounts>(html`<vk-market-verdict-counts market-id=${id}></vk-market-verdict-counts>`)
}

describe('<vk-market-verdict> and <vk-market-verdict-counts>', () => {
  afterEach(() => disposeVk())

  for (const tag of tags) {
    it(`issue 7 rule 6 "right / wrong / undecided" (<${tag}>)`, async () => {
      await makeVk()
      const id = await heldMarket(0)
      const el = await mount(tag, id)
      await until(() => drawn(el), 'tally')
      const counts = deepText(deep(el, '[part="counts"]')!)
      expect(counts).to.equal('1 right 1 wrong 1 undecided')
      if (tag === 'vk-market-verdict') expect(deepText(deep(el, '[part="status"]')!)).to.equal('Settled · 3 holders')
    })

    it(`issue 7 rule 6 "a voided market counts nobody wrong"; §2.12 "A voided market has no winner" (<${tag}>)`, async () => {
      await makeVk()
      const id = await heldMarket('void')
      const el = await mount(tag, id)
      await until(() => drawn(el), 'tally')
      expect(deepText(el)).to.not.match(/\d+ wrong/)
      expect(!!deep(el, 'li.wrong')).to.equal(false)
      expect(deepText(deep(el, '[part="counts"]')!)).to.equal('0 right 3 undecided')
      expect(deepText(deep(el, '[part="void"]')!)).to.equal('Nobody was wrong')
      // §2.12 "A voided market has no winner": its status says so, never 'Settled' as if someone won.
      if (tag === 'vk-market-verdict') expect(deepText(deep(el, '[part="status"]')!)).to.equal('Voided: no winner')
    })

    it(`issue 7 rule 6 "a market nobody held renders nothing" (<${tag}>)`, async () => {
      const vk = await makeVk()
      const s = await service()
      const m = await s.addMarket()
      await s.resolve(m.id, 0)
      const el = await mount(tag, m.id)
      await until(() => vk.faults.requests.some((r) => r.url.pathname === '/v1/markets/verdicts'), 'the verdict read')
      await until(() => !el.shadowRoot!.querySelector('[part="loading"]'), 'loaded')
      expect(el.shadowRoot!.children.length).to.equal(0)
      expect(deepText(el)).to.equal('')
    })

    it(`issue 7 rule 6 "without a client provider, both render nothing" (<${tag}>)`, async () => {
      disposeVk()
      const el = await mount(tag, `0x${'ab'.repeat(32)}`)
      await new Promise((r) => setTimeout(r, 50))
      expect(el.shadowRoot!.children.length).to.equal(0)
    })
  }

  it('issue 7 rule 6: verdicts of several markets on one page are read in one batch', async () => {
    const vk = await makeVk()
    const [x, y] = [await heldMarket(0), await heldMarket(1)]
    const box = await fixture(html`<div><vk-market-verdict market-id=${x}></vk-market-verdict><vk-market-verdict-counts market-id=${y}></vk-market-verdict-counts></div>`)
    const [a, b] = [...box.children]
    await until(() => drawn(a) && drawn(b), 'both drawn')
    expect(vk.faults.requests.filter((r) => r.url.pathname === '/v1/markets/verdicts').length).to.equal(1)
  })

  it('issue 7 rule 6: before settlement every holder is undecided ("Not settled yet")', async () => {
    await makeVk()
    const id = await heldMarket()
    const el = await mount('vk-market-verdict', id)
    await until(() => drawn(el), 'tally')
    expect(deepText(deep(el, '[part="status"]')!)).to.equal('Not settled yet · 3 holders')
    expect(deepText(deep(el, '[part="counts"]')!)).to.equal('0 right 0 wrong 3 undecided')
  })

  it('issue 7 "accessible in its loaded, empty, error states"', async () => {
    const vk = await makeVk()
    for (const tag of tags) {
      const el = await mount(tag, await heldMarket(0))
      await until(() => drawn(el), 'loaded')
      await expect(el).to.be.accessible()
    }
    const s = await service()
    const empty = await mount('vk-market-verdict', (await s.addMarket()).id)
    await until(() => vk.faults.requests.filter((r) => r.url.pathname === '/v1/markets/verdicts').length >= 3, 'read')
    await expect(empty).to.be.accessible()
    vk.faults.fail(isPath('/v1/markets/verdicts'))
    for (const tag of tags) {
      const el = await mount(tag, (await s.addMarket()).id)
      await until(() => deep(el, '[part="error"]'), 'error')
      expect(deepText(el)).to.include("Couldn't load the verdict.")
      await expect(el).to.be.accessible()
    }
  })
})
