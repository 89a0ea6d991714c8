/** `<vk-platform-provider>` against the running reference service (issue 7 rule 2, §4.5.5, §9.2). */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/platform-provider/platform-provider.ts'
import '../../src/elements/follow-button/follow-button.ts'
import '../../src/elements/take-card/take-card.ts'
import type { VkPlatformProvider } from '../../src/elements/platform-provider/platform-provider.element.ts'
import { getVenuekit, type CheckoutAdapter } from '../../src/stores/index.ts'
import { freshRef } from '../sdk/harness.ts'
import { deep, disposeVk, fixtureEnv, makeVk, service, until } from './elements-env.ts'

describe('<vk-platform-provider>', () => {
  afterEach(() => {
    disposeVk()
    getVenuekit()?.dispose()
  })

  it('issue 7 rule 2 "holds the client, the session and the checkout adapter for everything inside it"', async () => {
    const vk = await makeVk()
    const s = await service()
    const market = await s.addMarket()
    const author = await s.signedIn()
    await s.setPosition(author.w.wallet, market.id, 1, '500')
    const post = await author.createPost('event', market.id, 'tail me')
    const opened: unknown[] = []
    const adapter: CheckoutAdapter = { openCheckout: (o) => void opened.push(o) }
    const box = await fixture<VkPlatformProvider>(html`<vk-platform-provider .venuekit=${vk} .checkout=${adapter}><vk-take-card .post=${post}></vk-take-card></vk-platform-provider>`)
    expect(box.value).to.equal(vk)
    expect(vk.$checkout.get()).to.equal(adapter)
    const card = box.querySelector('vk-take-card')!
    await until(() => deep(card, '[part="tail"]'), 'Tail through the provider\'s adapter')
    deep<HTMLButtonElement>(card, '[part="tail"]')!.click()
    await until(() => opened.length === 1, 'checkout opened')
    expect(opened[0]).to.deep.equal({ marketId: market.id.toLowerCase(), side: 1, source: 'tail' })
  })

  it('issue 7 rule 2 / §4.5.5 "one session-auth object": a provider on a page that has one uses it, never a second', async () => {
    const vk = await makeVk()
    const env = await fixtureEnv()
    const box = await fixture<VkPlatformProvider>(html`<vk-platform-provider base-url=${env.url}><vk-follow-button subject-type="category" subject-ref=${freshRef('pp')}></vk-follow-button></vk-platform-provider>`)
    expect(box.value).to.equal(vk)
    expect(getVenuekit()).to.equal(vk)
    await vk.signIn((await service()).wallet())
    const btn = () => deep<HTMLButtonElement>(box.querySelector('vk-follow-button')!, 'button')
    await until(() => btn()?.getAttribute('aria-pressed') === 'false', 'the child reads with the shared session')
  })

  it('issue 7 rule 2: without a page context it creates one from base-url / api-key / venue-id, and disposes of it when removed', async () => {
    disposeVk()
    const env = await fixtureEnv()
    const s = await service()
    const { venueId, key } = await s.venue()
    const box = await fixture<VkPlatformProvider>(html`<vk-platform-provider base-url=${env.url} api-key=${key} venue-id=${venueId}></vk-platform-provider>`)
    const vk = box.value!
    expect(vk).to.not.equal(null)
    expect(getVenuekit()).to.equal(vk)
    expect(vk.client.config.baseUrl).to.equal(env.url)
    expect(vk.client.config.apiKey).to.equal(key)
    expect(vk.client.config.venueId).to.equal(venueId)
    // A move in the page keeps the session; leaving the page disposes of the context it created.
    const other = document.createElement('div')
    document.body.append(other)
    other.append(box)
    await Promise.resolve()
    await Promise.resolve()
    expect(getVenuekit()).to.equal(vk)
    box.remove()
    await until(() => getVenuekit() === null, 'disposed')
    other.remove()
  })

  it('§9.5 "naming network as mainnet or testnet derives the API address, gateway address, chain, and contract addresses together": a provider with only `network` creates its context on that network (chain 50312 / 5031); an explicit base-url overrides only the address', async () => {
    disposeVk()
    const { NETWORKS } = await import('../../src/contract/networks.ts')
    const box = await fixture<VkPlatformProvider>(html`<vk-platform-provider network="testnet"></vk-platform-provider>`)
    const c = box.value!.client.config
    expect([c.network, c.chainId, c.baseUrl, c.gatewayUrl, c.contracts]).to.deep.equal(['testnet', 50312, NETWORKS.testnet.baseUrl, NETWORKS.testnet.gatewayUrl, NETWORKS.testnet.contracts])
    box.remove()
    await until(() => getVenuekit() === null, 'disposed')
    const env = await fixtureEnv()
    const local = await fixture<VkPlatformProvider>(html`<vk-platform-provider network="mainnet" base-url=${env.url}></vk-platform-provider>`)
    const l = local.value!.client.config
    expect([l.network, l.chainId, l.baseUrl, l.contracts]).to.deep.equal(['mainnet', 5031, env.url, NETWORKS.mainnet.contracts])
  })

  it('issue 7 rule 2 "The platform provider takes an onSignOut handler. When it is set, every logout also ends the wallet session (§9.2)"', async () => {
    const vk = await makeVk()
    const s = await service()
    const ended: string[] = []
    const box = await fixture<VkPlatformProvider>(html`<vk-platform-provider .venuekit=${vk} .onSignOut=${() => void ended.push('wallet ended')}></vk-platform-provider>`)
    expect(box.value).to.equal(vk)
    const w = s.wallet()
    // 1. The page context's sign-out.
    await vk.signIn(w)
    await vk.signOut()
    await until(() => ended.length === 1, 'ended after vk.signOut()')
    // 2. The SDK client's own sign-out.
    await vk.signIn(w)
    await vk.client.auth.signOut()
    await until(() => ended.length === 2, 'ended after client.auth.signOut()')
    // 3. The session dropped by the app.
    await vk.signIn(w)
    vk.client.setSession(null)
    await until(() => ended.length === 3, 'ended after setSession(null)')
    // A login is not a logout; a session replaced by another is not one either.
    await vk.signIn(w)
    await vk.signIn(s.wallet())
    await new Promise((r) => setTimeout(r, 50))
    expect(ended.length).to.equal(3)
  })

  it('issue 7 rule 2: without onSignOut a logout ends only the venuekit session', async () => {
    const vk = await makeVk()
    const errors: unknown[] = []
    const box = await fixture<VkPlatformProvider>(html`<vk-platform-provider .venuekit=${vk} @vk-error=${(e: Event) => errors.push(e)}></vk-platform-provider>`)
    expect(box.value).to.equal(vk)
    await vk.signIn((await service()).wallet())
    await vk.signOut()
    await new Promise((r) => setTimeout(r, 50))
    expect(vk.$session.get()).to.equal(null)
    expect(errors).to.deep.equal([])
  })

  it('issue 7 rule 2: an onSignOut that throws is reported as vk-error, and the logout still happens', async () => {
    const vk = await makeVk()
    const box = await fixture<VkPlatformProvider>(html`<vk-platform-provider .venuekit=${vk} .onSignOut=${() => Promise.reject(new Error('wallet busy'))}></vk-platform-provider>`)
    await vk.signIn((await service()).wallet())
    const failed = new Promise<CustomEvent>((r) => box.addEventListener('vk-error', (e) => r(e as CustomEvent), { once: true }))
    await vk.signOut()
    expect(((await failed).detail.error as Error).message).to.equal('wallet busy')
    expect(vk.$session.get()).to.equal(null)
  })
})
