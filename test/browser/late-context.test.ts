/** Elements connected before the page configures venuekit pick the context up when it registers. */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/market-comments/market-comments.ts'
import { deep, disposeVk, makeVk, service, until } from './elements-env.ts'

describe('late context', () => {
  afterEach(() => disposeVk())

  it('an element on the page before createVenuekit() renders the thread once the context registers (script tag configure())', async () => {
    disposeVk()
    const h = await service()
    const m = await h.addMarket()
    const el = await fixture(html`<vk-market-comments market-id=${m.id}></vk-market-comments>`)
    await new Promise((r) => setTimeout(r, 100))
    expect(!!deep(el, '[part~="composer"]')).to.equal(false)
    await makeVk()
    await until(() => deep(el, '[part~="empty"]'), 'the (empty) thread after the context registered')
    expect(!!deep(el, '[part~="composer"]')).to.equal(true)
  })
})
