/** `<vk-take-count>` (issue 6 rule 6, spec §4.5 rule 4, §2.6). */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/take-count/take-count.ts'
import type { VkTakeCount } from '../../src/elements/take-count/take-count.element.ts'
import { deepText, disposeVk, expectParts, isPath, makeVk, service, until } from './elements-env.ts'

const mount = (id: string) => fixture<VkTakeCount>(html`<vk-take-count market-id=${id}></vk-take-count>`)
const shown = (el: Element) => deepText(el)

async function marketWithTakes(takes: number, comments = 0) {
  const s = await service()
  const m = await s.addMarket()
  for (let i = 0; i < takes; i++) {
    const c = await s.signedIn()
    await s.setPosition(c.w.wallet, m.id, i % 2, '1000')
    await c.createPost('event', m.id, `take ${i}`)
  }
  for (let i = 0; i < comments; i++) await (await s.signedIn()).createPost('event', m.id, `comment ${i}`)
  return m
}

describe('<vk-take-count>', () => {
  afterEach(() => disposeVk())

  it('§4.5 rule 4 "Print nothing, never \'0 takes\', when countOf is null" (while loading)', async () => {
    const vk = await makeVk()
    const m = await marketWithTakes(0)
    const release = vk.faults.hold(isPath('/take-counts'))
    const el = await mount(m.id)
    await until(() => vk.faults.requests.some((r) => r.url.pathname.endsWith('/take-counts')), 'count asked')
    expect(shown(el)).to.equal('')
    expect(el.shadowRoot!.querySelector('[part~="count"]')).to.equal(null)
    release()
    await until(() => shown(el) !== '', 'loaded')
    expect(shown(el)).to.equal('No takes')
  })

  it('§4.5 rule 4 "Print nothing, never \'0 takes\', when countOf is null" (after a failed read)', async () => {
    const vk = await makeVk()
    const m = await marketWithTakes(1)
    vk.faults.fail(isPath('/take-counts'))
    const el = await mount(m.id)
    await until(() => vk.faults.requests.some((r) => r.url.pathname.endsWith('/take-counts')), 'count asked')
    await new Promise((r) => setTimeout(r, 200))
    expect(shown(el)).to.equal('')
    await expect(el).to.be.accessible()
  })

  it('§2.6 "Once loaded, a market with no posts is all zeros": takes are counted, comments are not', async () => {
    await makeVk()
    const m = await marketWithTakes(2, 1)
    const el = await mount(m.id)
    await until(() => shown(el) !== '', 'loaded')
    expect(shown(el)).to.equal('2 takes')
    await expect(el).to.be.accessible()
  })

  it('§2.6 take counts: every count on the page goes out in one batched read', async () => {
    const vk = await makeVk()
    const [a, b, c] = [await marketWithTakes(1), await marketWithTakes(0), await marketWithTakes(3)]
    const root = await fixture(html`<div>
      <vk-take-count market-id=${a.id}></vk-take-count>
      <vk-take-count market-id=${b.id}></vk-take-count>
      <vk-take-count market-id=${c.id}></vk-take-count>
    </div>`)
    const els = [...root.querySelectorAll('vk-take-count')]
    await until(() => els.every((e) => shown(e) !== ''), 'all loaded')
    expect(els.map(shown)).to.deep.equal(['1 take', 'No takes', '3 takes'])
    const reads = vk.faults.requests.filter((r) => r.url.pathname.endsWith('/take-counts'))
    expect(reads).to.have.length(1)
  })

  it('issue 6 rule 8 "parts on the main regions of every element"', async () => {
    await makeVk()
    const m = await marketWithTakes(1)
    const el = await mount(m.id)
    await until(() => shown(el) !== '', 'loaded')
    expectParts(el, ['count'])
  })
})
