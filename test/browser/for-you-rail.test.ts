/** `<vk-for-you-rail>` against the running reference service (§2.3, issue 6 rule 5). */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/for-you-rail/for-you-rail.ts'
import type { VkForYouRail } from '../../src/elements/for-you-rail/for-you-rail.element.ts'
import { deep, deepText, disposeVk, makeVk, nodeFeed, service, until } from './elements-env.ts'

const hint = (el: Element) => deep(el, '[part~="hint"]')
/** The rail has read its markets (not loading, no error): what it shows now is its answer, not a placeholder. */
const settled = (el: Element) => deep(el, '[part~="rail"]')?.getAttribute('aria-busy') === 'false' && !!(deep(el, '[part~="list"]') || deep(el, '[part~="empty"]'))

describe('<vk-for-you-rail>', () => {
  afterEach(() => disposeVk())

  it('§2.3 "personalized … When false, the UI shows one hint line offering the personal version": signed out (not personalized) the hint shows; once the rail is read personalized (signed in) there is no hint', async () => {
    const vk = await makeVk()
    const f = await nodeFeed()
    const el = await fixture<VkForYouRail>(html`<vk-for-you-rail subject-type="category" subject-ref=${f.ref}></vk-for-you-rail>`)
    await until(() => settled(el), 'the rail read signed out')
    expect(!!hint(el), 'one hint line signed out').to.equal(true)
    expect(deepText(hint(el)!)).to.equal('Sign in for markets picked for you. Sign in')
    // Signed in: the rail is read again, now personalized.
    const before = vk.faults.requests.length
    await vk.signIn((await service()).wallet())
    const reread = () => vk.faults.requests.slice(before).some((r) => r.url.pathname === '/v1/social/for-you')
    await until(() => reread() && settled(el), 'the rail read again for the signed-in reader')
    await new Promise((r) => setTimeout(r, 150))
    expect(settled(el), 'still the signed-in answer').to.equal(true)
    expect(!!hint(el), 'no hint on a personalized rail').to.equal(false)
    expect(deepText(el)).to.not.include('picked for you')
    await expect(el).to.be.accessible()
  })
})
