/** `<vk-leaderboard>` and `<vk-mini-leaderboard>` against the running reference service (issue 7 rule 5, §2.12, §9.3). */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/leaderboard/leaderboard.ts'
import '../../src/elements/mini-leaderboard/mini-leaderboard.ts'
import type { VkLeaderboard } from '../../src/elements/leaderboard/leaderboard.element.ts'
import type { VkMiniLeaderboard } from '../../src/elements/mini-leaderboard/mini-leaderboard.element.ts'
import { freshRef, type TestWallet } from '../sdk/harness.ts'
import { deep, deepAll, deepText, disposeVk, plain, isPath, makeVk, service, setProfile, until } from './elements-env.ts'
import { armXssTrap, expectInert, XSS_SHORT } from './xss-corpus.ts'

/** `n` callers with a take on one market of a fresh category node: even callers right (side 0), odd callers wrong. */
async function rankedNode(n: number, o: { names?: (i: number) => string } = {}) {
  const s = await service()
  const node = freshRef('lb')
  const market = await s.addMarket({ nodes: [{ type: 'category', ref: node }], prices: [4000, 6000] })
  const callers: TestWallet[] = []
  for (let i = 0; i < n; i++) {
    const c = await s.signedIn()
    if (o.names) await setProfile(c.session!.token, { name: o.names(i) })
    await s.setPosition(c.w.wallet, market.id, i % 2, '1000')
    await c.createPost('event', market.id, `take ${i}`)
    callers.push(c.w)
  }
  await s.resolve(market.id, 0)
  return { node, callers }
}

const rows = (el: Element) => deepAll(el, '[part="row"]')
const population = (el: Element) => deepText(deep(el, '[part="population"]') ?? el)

describe('<vk-leaderboard> and <vk-mini-leaderboard>', () => {
  afterEach(() => disposeVk())

  it('issue 7 rule 5 "`scope` is required": without it neither board renders or reads anything', async () => {
    const vk = await makeVk()
    const warn = console.warn
    const warned: unknown[] = []
    console.warn = (...a: unknown[]) => void warned.push(a.join(' '))
    try {
      const a = await fixture<VkLeaderboard>(html`<vk-leaderboard></vk-leaderboard>`)
      const b = await fixture<VkMiniLeaderboard>(html`<vk-mini-leaderboard></vk-mini-leaderboard>`)
      await new Promise((r) => setTimeout(r, 100))
      expect(a.shadowRoot!.children.length).to.equal(0)
      expect(b.shadowRoot!.children.length).to.equal(0)
    } finally {
      console.warn = warn
    }
    expect(vk.faults.requests.filter((r) => r.url.pathname === '/v1/leaderboard')).to.deep.equal([])
    expect(String(warned[0])).to.include('scope')
  })

  it('issue 7 rule 5 "scope=null (or the attribute scope="global") gives the global board"', async () => {
    const vk = await makeVk()
    await rankedNode(2)
    const s = await service()
    const global = await s.client().leaderboard(null)
    const byAttr = await fixture<VkLeaderboard>(html`<vk-leaderboard scope="global"></vk-leaderboard>`)
    await until(() => rows(byAttr).length > 0, 'global rows')
    const byProp = await fixture<VkMiniLeaderboard>(html`<vk-mini-leaderboard .scope=${null}></vk-mini-leaderboard>`)
    await until(() => rows(byProp).length > 0, 'global rows (property null)')
    const reads = vk.faults.requests.filter((r) => r.url.pathname === '/v1/leaderboard')
    expect(reads.every((r) => r.url.searchParams.get('scope') === 'global')).to.equal(true)
    expect(deepText(deep(byAttr, 'h2')!)).to.equal('Leaderboard: Everyone')
    expect(population(byAttr)).to.match(/^\d+ ranked callers$/)
    expect(Number(population(byAttr).split(' ')[0])).to.be.at.least(global.population)
  })

  it('issue 7 rule 5 "Every board states its population": a node board, its ranks read "#n of population"', async () => {
    await makeVk()
    const { node, callers } = await rankedNode(3)
    const full = await fixture<VkLeaderboard>(html`<vk-leaderboard scope=${`category:${node}`}></vk-leaderboard>`)
    const mini = await fixture<VkMiniLeaderboard>(html`<vk-mini-leaderboard scope=${`category:${node}`} limit="1"></vk-mini-leaderboard>`)
    await until(() => rows(full).length === 3 && rows(mini).length === 1, 'rows')
    for (const el of [full, mini]) expect(population(el)).to.equal('3 ranked callers')
    const texts = rows(full).map(deepText)
    // Callers 0 and 2 were right (tied, rank 1), caller 1 was wrong (rank 3): each rank with its population.
    expect(texts.filter((t) => t.startsWith('#1 of 3')).length).to.equal(2)
    expect(texts.filter((t) => t.startsWith('#3 of 3')).length).to.equal(1)
    expect(texts.join('|')).to.include(`${callers[1].wallet.slice(0, 6)}…${callers[1].wallet.slice(-4)}`)
    expect(deepText(rows(mini)[0])).to.match(/^#1 of 3 /)
  })

  it('issue 7 rule 5 "Every board states its population": an empty node board says 0, never a bare list', async () => {
    await makeVk()
    const el = await fixture<VkLeaderboard>(html`<vk-leaderboard scope=${`topic:${freshRef('empty')}`}></vk-leaderboard>`)
    await until(() => deep(el, '[part="empty"]'), 'empty state')
    expect(population(el)).to.equal('0 ranked callers')
  })

  it('issue 7 rule 5: Load more appends the next page of the board', async () => {
    await makeVk()
    const { node } = await rankedNode(22)
    const el = await fixture<VkLeaderboard>(html`<vk-leaderboard scope=${`category:${node}`}></vk-leaderboard>`)
    await until(() => rows(el).length === 20, 'first page')
    expect(population(el)).to.equal('22 ranked callers')
    deep<HTMLButtonElement>(el, '[part="load-more"]')!.click()
    await until(() => rows(el).length === 22, 'second page')
    expect(!!deep(el, '[part="load-more"]')).to.equal(false)
  })

  it('issue 7 rule 5: Load more says it is loading and keeps focus; a later page that fails keeps the rows and offers Retry, which loads that page', async () => {
    const vk = await makeVk()
    const { node } = await rankedNode(22)
    const el = await fixture<VkLeaderboard>(html`<vk-leaderboard scope=${`category:${node}`}></vk-leaderboard>`)
    await until(() => rows(el).length === 20, 'first page')
    const more = deep<HTMLButtonElement>(el, '[part="load-more"]')!
    const later = (url: URL, init?: RequestInit) => isPath('/v1/leaderboard')(url, init) && url.searchParams.has('cursor')
    const release = vk.faults.hold(later)
    more.focus()
    more.click()
    await until(() => more.getAttribute('aria-busy') === 'true' && deepText(more) === 'Loading more…', 'loading more')
    expect(more.disabled).to.equal(false)
    expect(more.getAttribute('aria-disabled')).to.equal('true')
    release()
    await until(() => rows(el).length === 22, 'second page')
    // A later page that fails (a new page: a new context): the rows stay, the failure is said, and Retry loads that page.
    disposeVk()
    const vk2 = await makeVk()
    const again = await fixture<VkLeaderboard>(html`<vk-leaderboard scope=${`category:${node}`}></vk-leaderboard>`)
    await until(() => rows(again).length === 20, 'first page again')
    vk2.faults.fail(later)
    deep<HTMLButtonElement>(again, '[part="load-more"]')!.click()
    await until(() => deep(again, '[part="error"]'), 'the failure line')
    expect(rows(again).length).to.equal(20)
    expect(deepText(deep(again, '[part="error"]')!)).to.include("Couldn't load the leaderboard.")
    await expect(again).to.be.accessible()
    vk2.faults.clear()
    deep<HTMLButtonElement>(again, '[part="retry"]')!.click()
    await until(() => rows(again).length === 22 && !deep(again, '[part="error"]'), 'the page loaded on Retry')
  })

  it('issue 7 "The same XSS corpus … renders inert … leaderboard names"', async () => {
    const trap = armXssTrap()
    await makeVk()
    const names = [XSS_SHORT.name, XSS_SHORT.label2]
    const { node } = await rankedNode(2, { names: (i) => names[i] })
    const full = await fixture<VkLeaderboard>(html`<vk-leaderboard scope=${`category:${node}`}></vk-leaderboard>`)
    const mini = await fixture<VkMiniLeaderboard>(html`<vk-mini-leaderboard scope=${`category:${node}`}></vk-mini-leaderboard>`)
    for (const el of [full, mini]) {
      await until(() => names.every((n) => deepText(el).includes(n)), 'names shown as text')
      await expectInert(el)
    }
    await new Promise((r) => setTimeout(r, 200))
    expect(trap(), 'a payload ran').to.equal(undefined)
  })

  it('issue 7 "accessible in its loaded, empty, error states"', async () => {
    const vk = await makeVk()
    const { node } = await rankedNode(2)
    for (const tag of ['full', 'mini']) {
      const el =
        tag === 'full'
          ? await fixture(html`<vk-leaderboard scope=${`category:${node}`}></vk-leaderboard>`)
          : await fixture(html`<vk-mini-leaderboard scope=${`category:${node}`}></vk-mini-leaderboard>`)
      await until(() => rows(el).length === 2, 'loaded')
      await expect(el).to.be.accessible()
    }
    const empty = await fixture(html`<vk-leaderboard scope=${`topic:${freshRef('empty')}`}></vk-leaderboard>`)
    await until(() => deep(empty, '[part="empty"]'), 'empty')
    await expect(empty).to.be.accessible()
    vk.faults.fail(isPath('/v1/leaderboard'))
    for (const failed of [
      await fixture(html`<vk-mini-leaderboard scope=${`topic:${freshRef('err')}`}></vk-mini-leaderboard>`),
      await fixture(html`<vk-leaderboard scope=${`topic:${freshRef('err')}`}></vk-leaderboard>`),
    ]) {
      await until(() => deep(failed, '[part="error"]'), 'error')
      expect(deepText(failed)).to.include("Couldn't load the leaderboard.")
      await expect(failed).to.be.accessible()
    }
  })

  it('issue 7 rule 5 "Every board states its population" and issue 6 rule 9 "accessible": a board\'s list is named for its scope (\'Leaderboard: <node>\', \'Leaderboard: Everyone\')', async () => {
    await makeVk()
    const { node } = await rankedNode(2)
    const full = await fixture<VkLeaderboard>(html`<vk-leaderboard scope=${`category:${node}`}></vk-leaderboard>`)
    const mini = await fixture<VkMiniLeaderboard>(html`<vk-mini-leaderboard scope=${`category:${node}`} limit="1"></vk-mini-leaderboard>`)
    const global = await fixture<VkLeaderboard>(html`<vk-leaderboard scope="global"></vk-leaderboard>`)
    await until(() => rows(full).length === 2 && rows(mini).length === 1 && rows(global).length > 0, 'rows')
    const label = (el: Element) => plain(deep(el, '[part="list"]')!.getAttribute('aria-label'))
    expect(deep(full, '[part="list"]')!.localName).to.equal('ol')
    expect([label(full), label(mini), label(global)]).to.deep.equal([`Leaderboard: ${node}`, `Leaderboard: ${node}`, 'Leaderboard: Everyone'])
    await expect(full).to.be.accessible()
  })
})
