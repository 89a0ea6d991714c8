/** `<vk-author-takes>` (the profile screen) against the running reference service (issue 7 rule 4, §2.4, §2.5, §3.2, §4.5.6). */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/author-takes/author-takes.ts'
import type { VkAuthorTakes } from '../../src/elements/author-takes/author-takes.element.ts'
import type { Post } from '../../src/contract/types.ts'
import { deep, deepAll, deepText, disposeVk, isPath, makeVk, service, until } from './elements-env.ts'
import { armXssTrap, expectInert, XSS_PAYLOADS } from './xss-corpus.ts'

const profile = (wallet: string) => fixture<VkAuthorTakes>(html`<vk-author-takes wallet=${wallet}></vk-author-takes>`)
const selectedTab = (el: Element) => deep(el, '[role="tab"][aria-selected="true"]')?.id ?? null
const rowIds = (el: Element) => deepAll(el, '[part="row"]').map((r) => r.id.replace('vk-post-', ''))
const row = (el: Element, id: string) => deep(el, `#vk-post-${id}`)!
const receiptOf = (el: Element, id: string) => {
  const r = row(el, id)
  const chip = deep(r, '[part="receipt"]') ?? deep(r, '[part="receipt-open"]')
  return chip ? deepText(chip) : null
}

/** A fresh author; `take(side, market overrides, outcome?)` writes a take on a new market and settles it. */
async function author() {
  const s = await service()
  const a = await s.signedIn()
  return {
    s,
    a,
    async take(side: number, market: Record<string, unknown> = {}, outcome?: number | 'void', body = 'because') {
      const m = await s.addMarket({ prices: [4000, 6000], ...market })
      await s.setPosition(a.w.wallet, m.id, side, '1000')
      const p = await a.createPost('event', m.id, body)
      if (outcome !== undefined) await s.resolve(m.id, outcome)
      return p
    },
  }
}

describe('<vk-author-takes>', () => {
  afterEach(() => disposeVk())

  it('issue 7 rule 4 "It opens on Takes only when that tab has posts" (§4.5.6)', async () => {
    await makeVk()
    const { take, a } = await author()
    const p = await take(0)
    const el = await profile(a.w.wallet)
    await until(() => selectedTab(el), 'a tab chosen')
    expect(selectedTab(el)).to.equal('tab-takes')
    await until(() => rowIds(el).includes(p.id), 'the take')
  })

  it('issue 7 rule 4 "otherwise on Discussion (§4.5.6)": a person with comments only', async () => {
    await makeVk()
    const { s, a } = await author()
    const m = await s.addMarket()
    const c = await a.createPost('event', m.id, 'just a comment')
    const el = await profile(a.w.wallet)
    await until(() => selectedTab(el), 'a tab chosen')
    expect(selectedTab(el)).to.equal('tab-discussion')
    await until(() => rowIds(el).includes(c.id), 'the comment')
    // The reader can still open Takes: it is empty, not missing.
    deep<HTMLButtonElement>(el, '#tab-takes')!.click()
    await until(() => deep(el, '[part="empty"]'), 'empty takes')
    expect(deepText(deep(el, '[part="empty"]')!)).to.equal('No takes yet.')
  })

  it('issue 7 rule 4 "Each take shows its receipt": right with odds beaten, wrong, void, open', async () => {
    await makeVk()
    const { take, a } = await author()
    const right = await take(0, {}, 0)
    const wrong = await take(1, {}, 0)
    const voided = await take(0, {}, 'void')
    const open = await take(1)
    const el = await profile(a.w.wallet)
    await until(() => rowIds(el).length === 4 && [right, wrong, voided, open].every((p) => receiptOf(el, p.id)), 'four receipts')
    expect(receiptOf(el, right.id)).to.equal('Right · beat 60% odds')
    expect(receiptOf(el, wrong.id)).to.equal('Wrong')
    expect(receiptOf(el, voided.id)).to.equal('Void')
    expect(receiptOf(el, open.id)).to.equal('Open')
  })

  it('issue 7 rule 4 "A CLOB take is never shown as a confident \'still open\'" (§3.2)', async () => {
    await makeVk()
    const { take, a } = await author()
    const before = await take(0, { clob: true })
    const past = await take(0, { clob: true, closesAt: new Date(Date.now() - 3_600_000).toISOString() })
    const plain = await take(0)
    const el = await profile(a.w.wallet)
    await until(() => rowIds(el).length === 3 && receiptOf(el, plain.id) && receiptOf(el, past.id), 'rows')
    expect(receiptOf(el, plain.id)).to.equal('Open')
    expect(receiptOf(el, past.id)).to.equal('Awaiting settlement')
    expect(receiptOf(el, before.id)).to.equal(null)
    expect(deepText(row(el, before.id))).to.not.include('Open')
  })

  it('§3.2 "A CLOB market has no results yet, so a CLOB take stays open even after its market resolves; it must not be shown as a confident \'still open\'": the profile row of a resolved CLOB take reads no Right, Wrong or Open', async () => {
    await makeVk()
    const { take, a } = await author()
    const past = new Date(Date.now() - 3_600_000).toISOString()
    // Each resolved: the side held won, the side held lost, and one resolved before its close.
    const won = await take(0, { clob: true, closesAt: past }, 0)
    const lost = await take(1, { clob: true, closesAt: past }, 0)
    const early = await take(0, { clob: true }, 0)
    // Control: the same resolution on an order-book market does reach the profile.
    const plain = await take(0, {}, 0)
    const el = await profile(a.w.wallet)
    await until(() => rowIds(el).length === 4 && [won, lost, plain].every((p) => receiptOf(el, p.id)), 'rows with their receipts')
    expect(receiptOf(el, plain.id)).to.equal('Right · beat 60% odds')
    expect(receiptOf(el, won.id)).to.equal('Awaiting settlement')
    expect(receiptOf(el, lost.id)).to.equal('Awaiting settlement')
    expect(receiptOf(el, early.id)).to.equal(null)
    for (const p of [won, lost, early]) {
      expect(deepAll(row(el, p.id), '[part="receipt-open"]').length, p.id).to.equal(0)
      expect(deepText(row(el, p.id)), p.id).to.not.match(/\b(Right|Wrong|Open|Void)\b/)
    }
  })

  it('issue 7 rule 4 "takes can be sorted by odds beaten on the client"; §2.5 "oddsBeatenBps … null when that price is unknown": a right take without a price sorts after the priced right ones, before the rest', async () => {
    const vk = await makeVk()
    const { take, a } = await author()
    const low = await take(0, { prices: [7000, 3000] }, 0) // beat 30%
    const wrong = await take(1, {}, 0)
    const high = await take(0, { prices: [2000, 8000] }, 0) // beat 80%
    const open = await take(0)
    const unpriced = await take(0, { prices: [] }, 0) // right, at a price nobody knew
    expect(unpriced.stance?.priceBps).to.equal(null)
    const el = await profile(a.w.wallet)
    await until(() => rowIds(el).length === 5, 'takes')
    expect(rowIds(el)).to.deep.equal([unpriced.id, open.id, high.id, wrong.id, low.id])
    const reads = vk.faults.requests.filter((r) => r.url.pathname.includes('/v1/social/profile/')).length
    const sort = deep<HTMLButtonElement>(el, '[part="sort"]')!
    expect(sort.getAttribute('aria-pressed')).to.equal('false')
    sort.click()
    await until(() => rowIds(el)[0] === high.id, 'sorted')
    expect(rowIds(el)).to.deep.equal([high.id, low.id, unpriced.id, open.id, wrong.id])
    expect(sort.getAttribute('aria-pressed')).to.equal('true')
    // On the client: no read was made to sort.
    expect(vk.faults.requests.filter((r) => r.url.pathname.includes('/v1/social/profile/')).length).to.equal(reads)
    sort.click()
    await until(() => rowIds(el)[0] === unpriced.id, 'newest first again')
  })

  it('issue 7 "The same XSS corpus renders inert" in the profile\'s takes', async () => {
    const trap = armXssTrap()
    await makeVk()
    const { take, a } = await author()
    const posts: Post[] = []
    for (const b of XSS_PAYLOADS.slice(0, 12)) posts.push(await take(0, {}, undefined, b))
    const el = await profile(a.w.wallet)
    await until(() => rowIds(el).length === 12, 'rows')
    const text = deepText(el)
    for (const b of XSS_PAYLOADS.slice(0, 12)) expect(text, b).to.include(b.replace(/\s+/g, ' ').trim())
    await expectInert(el)
    await new Promise((r) => setTimeout(r, 200))
    expect(trap(), 'a payload ran').to.equal(undefined)
  })

  it('issue 7 rule 4 load-more (§2.4): a failed later page keeps the rows, shows an error line with Retry, and Retry loads it — Takes and Discussion', async () => {
    const vk = await makeVk()
    const { take, a } = await author()
    // 21 posts: two pages on Takes, and on Discussion (which holds every post).
    for (let i = 0; i < 21; i++) await take(0, {}, undefined, `take ${i}`)
    const el = await profile(a.w.wallet)
    await until(() => rowIds(el).length === 20, 'the first page of takes')
    const later = (takes: boolean) => (url: URL) => url.pathname.includes('/v1/social/profile/') && url.searchParams.has('cursor') && url.searchParams.get('takes') === String(takes)
    for (const takes of [true, false]) {
      if (!takes) {
        deep<HTMLButtonElement>(el, '#tab-discussion')!.click()
        await until(() => selectedTab(el) === 'tab-discussion' && rowIds(el).length === 20, 'the first page of the discussion')
      }
      const release = vk.faults.hold(later(takes), 500)
      deep<HTMLButtonElement>(el, '[part="load-more"]')!.click()
      // Load more follows the later page's progress, not the first read's.
      await until(() => deep<HTMLButtonElement>(el, '[part="load-more"]')?.getAttribute('aria-disabled') === 'true', 'loading more')
      expect(deepText(deep(el, '[part="load-more"]')!)).to.equal('Loading more…')
      release()
      await until(() => deep(el, '[part="error"]'), 'the error line')
      expect(deepText(deep(el, '[part="error"]')!)).to.include("Couldn't load the discussion.")
      expect(rowIds(el).length).to.equal(20)
      await expect(el).to.be.accessible()
      deep<HTMLButtonElement>(el, '[part="retry"]')!.click()
      await until(() => rowIds(el).length === 21, 'the later page, retried')
      expect(!!deep(el, '[part="error"]')).to.equal(false)
      expect(!!deep(el, '[part="load-more"]')).to.equal(false)
    }
  })

  it('issue 7 "accessible in its loaded, empty, error states"', async () => {
    const vk = await makeVk()
    const { take, a, s } = await author()
    await take(0, {}, 0)
    const loaded = await profile(a.w.wallet)
    await until(() => rowIds(loaded).length === 1 && receiptOf(loaded, rowIds(loaded)[0]), 'loaded')
    await expect(loaded).to.be.accessible()
    const empty = await profile(s.wallet().wallet)
    await until(() => deep(empty, '[part="empty"]'), 'empty')
    expect(selectedTab(empty)).to.equal('tab-discussion')
    await expect(empty).to.be.accessible()
    vk.faults.fail(isPath('/v1/social/profile/'))
    const failed = await profile(s.wallet().wallet)
    await until(() => deep(failed, '[part="error"]'), 'error')
    await expect(failed).to.be.accessible()
  })
})
