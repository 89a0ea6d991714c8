/** `<vk-market-comments>` against the running reference service (issue 6 rule 1, spec §4.4 rule 1, §2.7). */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/market-comments/market-comments.ts'
import type { VkMarketComments } from '../../src/elements/market-comments/market-comments.element.ts'
import { FIRST_PASS_ROWS } from '../../src/elements/comments/comments.element.ts'
import type { Post } from '../../src/contract/types.ts'
import { button, deep, deepAll, deepText, disposeVk, expectKeyboardReachable, expectParts, isPath, makeVk, service, until } from './elements-env.ts'

async function marketWithPosts(n: number, o: { replyTo?: number } = {}) {
  const s = await service()
  const market = await s.addMarket()
  const posts: Post[] = []
  for (let i = 0; i < n; i++) {
    const c = await s.signedIn()
    posts.push(await c.createPost('event', market.id, `post ${i + 1}`))
  }
  let reply: Post | null = null
  if (o.replyTo != null) {
    const c = await s.signedIn()
    reply = await c.createPost('event', market.id, 'a reply', posts[o.replyTo].id)
  }
  return { s, market, posts, reply }
}

const mount = (marketId: string, attrs: { limit?: number; readOnly?: boolean; focus?: string; series?: boolean } = {}) =>
  fixture<VkMarketComments>(html`<vk-market-comments
    market-id=${marketId}
    .limit=${attrs.limit}
    ?read-only=${!!attrs.readOnly}
    focus-post-id=${attrs.focus ?? ''}
    ?include-series=${!!attrs.series}
  ></vk-market-comments>`)

/** Types into the composer and presses its submit button; returns the field. */
function send(el: Element, text: string) {
  const area = deep<HTMLTextAreaElement>(el, '[part~="composer"] textarea')!
  area.value = text
  area.dispatchEvent(new Event('input'))
  ;(deep(el, '[part~="composer"] [part~="submit"]') as HTMLButtonElement).click()
  return area
}
const rowIds = (el: Element) => deepAll(el, '[part~="row"]').map((r) => r.id)
const loaded = (el: Element) => until(() => deep(el, '[part~="list"]') || deep(el, '[part~="empty"]'), 'thread loaded')

describe('<vk-market-comments>', () => {
  afterEach(() => disposeVk())

  it('§4.4 rule 1 "one market\'s thread, newest first, one level of replies"', async () => {
    await makeVk()
    const { market, posts, reply } = await marketWithPosts(3, { replyTo: 0 })
    const el = await mount(market.id)
    await loaded(el)
    expect(rowIds(el)).to.deep.equal(posts.map((p) => `vk-post-${p.id}`).reverse())
    const first = el.shadowRoot!.getElementById(`vk-post-${posts[0].id}`)!
    const replyRow = first.querySelector(`[part~="replies"] #vk-post-${reply!.id}`)
    expect(replyRow, 'reply folded under its parent').to.not.equal(null)
    // One level: a reply offers no Reply of its own.
    const replyCard = replyRow!.querySelector('vk-take-card')!
    expect(deep(replyCard, '[part~="reply"]')).to.equal(null)
    expect(deep(first.querySelector('vk-take-card')!, '[part~="reply"]')).to.not.equal(null)
  })

  it('§4.4 rule 1 "composer": a signed-in reader posts and the post shows at the top at once', async () => {
    const vk = await makeVk()
    const { market, posts } = await marketWithPosts(1)
    await vk.signIn((await service()).wallet())
    const el = await mount(market.id)
    await loaded(el)
    const area = send(el, 'my own comment')
    await until(() => rowIds(el).length === 2, 'own post shown')
    expect(deepText(deep(el, '[part~="row"]')!)).to.include('my own comment')
    expect(rowIds(el)[1]).to.equal(`vk-post-${posts[0].id}`)
    expect(area.value).to.equal('')
  })

  it('the composer sends nothing for a body of only invisible characters (spaces, zero-width joiners, a byte-order mark): focus returns to the field', async () => {
    const vk = await makeVk()
    const { s, market } = await marketWithPosts(1)
    await vk.signIn(s.wallet())
    const el = await mount(market.id)
    await loaded(el)
    const area = send(el, ' \u200b\u200d\ufeff ')
    await new Promise((r) => setTimeout(r, 300))
    expect(rowIds(el).length).to.equal(1)
    expect((await s.client().posts('event', market.id)).posts.length, 'nothing reached the service').to.equal(1)
    expect(el.shadowRoot!.activeElement === area, 'focus returns to the field').to.equal(true)
    expect(area.value).to.equal(' \u200b\u200d\ufeff ')
  })

  it('§4.4 rule 1 "load-more": pages follow in order', async () => {
    await makeVk()
    const { market, posts } = await marketWithPosts(3)
    const el = await mount(market.id, { limit: 2 })
    await loaded(el)
    expect(rowIds(el)).to.have.length(2)
    ;(deep(el, '[part~="more"]') as HTMLButtonElement).click()
    await until(() => rowIds(el).length === 3, 'second page')
    expect(rowIds(el)).to.deep.equal(posts.map((p) => `vk-post-${p.id}`).reverse())
    expect(deep(el, '[part~="more"]')).to.equal(null)
  })

  it('§4.4 rule 1 "Prop readOnly removes the write path; hiding the composer with styling is wrong"', async () => {
    const vk = await makeVk()
    const { market } = await marketWithPosts(2)
    await vk.signIn((await service()).wallet())
    const el = await mount(market.id, { readOnly: true })
    await loaded(el)
    expect(deep(el, 'form')).to.equal(null)
    expect(deep(el, 'textarea')).to.equal(null)
    for (const p of ['composer', 'agree', 'reply', 'edit', 'delete', 'report']) expect(deep(el, `button[part~="${p}"], form[part~="${p}"]`), p).to.equal(null)
    // Not read-only: the composer is there.
    el.readOnly = false
    await el.updateComplete
    expect(deep(el, 'form[part~="composer"]')).to.not.equal(null)
  })

  it('§4.4 rule 1 "Prop focusPostId scrolls to and highlights row vk-post-<id>" (following pages to find it)', async () => {
    await makeVk()
    const { market, posts } = await marketWithPosts(5)
    const target = posts[0]
    const root = await fixture(html`<div>
      <div style="height: 1500px"></div>
      <vk-market-comments market-id=${market.id} .limit=${2} focus-post-id=${target.id}></vk-market-comments>
      <div style="height: 1500px"></div>
    </div>`)
    const el = root.querySelector('vk-market-comments')!
    await until(() => el.shadowRoot!.getElementById(`vk-post-${target.id}`), 'focused row on a later page')
    const row = el.shadowRoot!.getElementById(`vk-post-${target.id}`)!
    await until(() => {
      const r = row.getBoundingClientRect()
      return r.top >= 0 && r.bottom <= window.innerHeight
    }, 'row scrolled into view')
    expect(row.querySelector('vk-take-card')!.hasAttribute('highlight')).to.equal(true)
    expect(deepAll(el, 'vk-take-card[highlight]')).to.have.length(1)
    expect(el.shadowRoot!.activeElement).to.equal(row)
  })

  it('§4.4 rule 1 "Prop onRequireSignIn": a signed-out reader who tries to write fires vk-require-sign-in', async () => {
    const vk = await makeVk()
    const { market } = await marketWithPosts(1)
    const el = await mount(market.id)
    await loaded(el)
    const asked: string[] = []
    el.addEventListener('vk-require-sign-in', (e) => asked.push(e.detail.action))
    const area = deep<HTMLTextAreaElement>(el, 'textarea')!
    area.value = 'let me in'
    area.dispatchEvent(new Event('input'))
    ;(deep(el, '[part~="submit"]') as HTMLButtonElement).click()
    await until(() => asked.length, 'event')
    ;(deep(el, '[part~="reply"]') as HTMLButtonElement).click()
    ;(deep(el, '[part~="agree"]') as HTMLButtonElement).click()
    expect(asked).to.deep.equal(['post', 'reply', 'agree'])
    expect(area.value, 'the text is kept').to.equal('let me in')
    expect(vk.faults.requests.some((r) => r.method === 'POST')).to.equal(false)
  })

  it('issue 6 rule 1 "Live updates through the stream show \'N new\' without a jump in scroll position"', async () => {
    await makeVk()
    const { s, market, posts } = await marketWithPosts(4)
    const root = await fixture(html`<div>
      <div style="height: 400px"></div>
      <vk-market-comments market-id=${market.id}></vk-market-comments>
      <div style="height: 3000px"></div>
    </div>`)
    const el = root.querySelector('vk-market-comments')!
    await loaded(el)
    const row = el.shadowRoot!.getElementById(`vk-post-${posts[1].id}`)!
    window.scrollTo(0, window.scrollY + row.getBoundingClientRect().top - 20)
    await new Promise((r) => requestAnimationFrame(r))
    const y = window.scrollY
    const top = row.getBoundingClientRect().top
    const other = await s.signedIn()
    // Let the thread's stream subscription settle (it is made when the thread mounts).
    await new Promise((r) => setTimeout(r, 300))
    const fresh = await other.createPost('event', market.id, 'arrived live')
    await until(() => deepText(deep(el, '[part~="new-bar"]')!).includes('1 new post'), '"1 new post" bar', 10_000)
    await new Promise((r) => requestAnimationFrame(r))
    expect(window.scrollY, 'scroll position').to.equal(y)
    expect(row.getBoundingClientRect().top, 'row position').to.be.closeTo(top, 0.5)
    expect(rowIds(el)).not.to.include(`vk-post-${fresh.id}`)
    button(el, 'Show')!.click()
    await until(() => rowIds(el)[0] === `vk-post-${fresh.id}`, 'merged at the top')
    expect(deepText(deep(el, '[part~="new-bar"]')!)).to.equal('')
    window.scrollTo(0, 0)
  })

  it('the "N new" bar sticks below a venue\'s sticky header set as --vk-sticky-top (default 0), where it can be seen and pressed, and is announced (aria-live)', async () => {
    await makeVk()
    const { s, market, posts } = await marketWithPosts(6)
    const root = await fixture(html`<div>
      <header style="position: sticky; top: 0; z-index: 5; height: 60px; background: rgb(200, 0, 0)">Venue header</header>
      <vk-market-comments market-id=${market.id}></vk-market-comments>
      <div style="height: 3000px"></div>
    </div>`)
    const header = root.querySelector('header')!
    const el = root.querySelector('vk-market-comments')!
    await loaded(el)
    const bar = deep(el, '[part~="new-bar"]')!
    // Default: no offset beyond its own small gap (the token defaults to 0).
    expect(getComputedStyle(bar).top).to.equal('8px')
    expect(bar.getAttribute('aria-live'), 'the bar is a polite live region').to.equal('polite')
    // The venue says how tall its sticky header is.
    el.style.setProperty('--vk-sticky-top', '60px')
    expect(getComputedStyle(bar).top).to.equal('68px')
    const row = el.shadowRoot!.getElementById(`vk-post-${posts[2].id}`)!
    window.scrollTo(0, window.scrollY + row.getBoundingClientRect().top - 100)
    await new Promise((r) => requestAnimationFrame(r))
    expect(el.getBoundingClientRect().top, 'the thread scrolled under the header').to.be.below(0)
    await new Promise((r) => setTimeout(r, 300))
    await (await s.signedIn()).createPost('event', market.id, 'arrived live')
    await until(() => deepText(bar).includes('1 new post'), '"1 new post" bar', 10_000)
    await new Promise((r) => requestAnimationFrame(r))
    const show = bar.querySelector('button')!
    const box = show.getBoundingClientRect()
    expect(box.top, 'below the header').to.be.at.least(header.getBoundingClientRect().bottom)
    // What a pointer at the bar's centre hits is the thread (the bar), not the venue's header.
    expect(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)).to.equal(el)
    expect(el.shadowRoot!.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)).to.equal(show)
    // The live region holds the whole sentence, so it is read out when the bar appears.
    expect(bar.getAttribute('aria-atomic')).to.equal('true')
    expect(deepText(bar)).to.equal('1 new post · Show')
    window.scrollTo(0, 0)
  })

  it('§2.7 "includeSeries merges it in, and those rows must be labelled because their stances concern a different round"', async () => {
    await makeVk()
    const s = await service()
    const series = `weekly-${Date.now().toString(36)}`
    const round1 = await s.addMarket({ series, title: 'Round 1' })
    const round2 = await s.addMarket({ series, title: 'Round 2' })
    const c = await s.signedIn()
    const old = await c.createPost('event', round1.id, 'said in round 1')
    const now = await c.createPost('event', round2.id, 'said in round 2')
    const el = await mount(round2.id, { series: true })
    await until(() => rowIds(el).length === 2, 'series rows merged')
    const oldRow = el.shadowRoot!.getElementById(`vk-post-${old.id}`)!
    const nowRow = el.shadowRoot!.getElementById(`vk-post-${now.id}`)!
    expect(deepText(deep(oldRow, '[part~="series-label"]')!)).to.equal('From another round')
    expect(deep(nowRow, '[part~="series-label"]')).to.equal(null)
    const plain = await mount(round2.id)
    await until(() => rowIds(plain).length === 1, 'own round only')
  })

  it('issue 6 rule 1 "edit and delete for the viewer\'s own post" (the signed-in wallet when viewer is unset)', async () => {
    const vk = await makeVk()
    const s = await service()
    const market = await s.addMarket()
    const me = await s.signedIn()
    const mine = await me.createPost('event', market.id, 'mine')
    const theirs = await (await s.signedIn()).createPost('event', market.id, 'theirs')
    await vk.signIn(me.w)
    const el = await mount(market.id)
    await until(() => rowIds(el).length === 2, 'loaded')
    const mineRow = el.shadowRoot!.getElementById(`vk-post-${mine.id}`)!
    const theirRow = el.shadowRoot!.getElementById(`vk-post-${theirs.id}`)!
    expect(deep(mineRow, '[part~="edit"]')).to.not.equal(null)
    expect(deep(theirRow, '[part~="edit"]')).to.equal(null)
    expect(deep(theirRow, '[part~="report"]')).to.not.equal(null)
  })

  it('issue 6 rule 9 "loading skeletons, an empty state, and an error state with retry" — each accessible', async () => {
    const vk = await makeVk()
    const { market } = await marketWithPosts(2)
    // Loading: the thread read is held.
    const release = vk.faults.hold(isPath('/v1/social/posts'))
    const el = await mount(market.id)
    await until(() => deep(el, '[part~="loading"]'), 'skeleton')
    expect(deep(el, '[part~="loading"]')!.getAttribute('aria-busy')).to.equal('true')
    expect(deep(el, '[part~="loading"]')!.getAttribute('role')).to.equal('status')
    await expect(el).to.be.accessible()
    release()
    await loaded(el)
    await expect(el).to.be.accessible()

    // Empty.
    const s = await service()
    const emptyMarket = await s.addMarket()
    const empty = await mount(emptyMarket.id)
    await until(() => deep(empty, '[part~="empty"]'), 'empty state')
    expect(deepText(deep(empty, '[part~="empty"]')!)).to.equal('No posts yet. Be the first to say why.')
    await expect(empty).to.be.accessible()

    // Error, then Retry.
    const failing = await s.addMarket()
    const stop = vk.faults.fail(isPath('/v1/social/posts'))
    const broken = await mount(failing.id)
    await until(() => deep(broken, '[part~="error"]'), 'error state')
    expect(deep(broken, '[part~="error"]')!.getAttribute('role')).to.equal('alert')
    await expect(broken).to.be.accessible()
    stop()
    ;(deep(broken, '[part~="retry"]') as HTMLButtonElement).click()
    await until(() => deep(broken, '[part~="empty"]'), 'retried')
  })

  it('issue 6 rule 9 "every control is reachable and usable by keyboard, and focus stays visible"', async () => {
    const vk = await makeVk()
    const { market } = await marketWithPosts(2, { replyTo: 1 })
    await vk.signIn((await service()).wallet())
    const el = await mount(market.id, { limit: 2 })
    await until(() => deep(el, '[part~="report"]'), 'loaded with controls')
    await expectKeyboardReachable(el)
  })

  it('issue 6 rule 8 "parts on the main regions of every element"', async () => {
    const vk = await makeVk()
    const { market } = await marketWithPosts(2, { replyTo: 1 })
    await vk.signIn((await service()).wallet())
    const el = await mount(market.id, { limit: 1 })
    await until(() => deep(el, '[part~="more"]'), 'loaded')
    expectParts(el, ['thread', 'composer', 'input', 'submit', 'new-bar', 'list', 'row', 'replies', 'reply-row', 'more'])
  })

  it('issue 9 "first render": a fresh thread renders its first rows in one pass and the rest in the task after that frame is painted', async () => {
    const vk = await makeVk()
    const n = FIRST_PASS_ROWS + 3
    const { market, posts } = await marketWithPosts(n)
    const el = await mount(market.id, { limit: n - 1 })
    // What the list held when it first appeared (a mutation observer runs before any later task or frame).
    const first = new Promise<{ rows: number; more: boolean; busy: string | null }>((resolve) => {
      const mo = new MutationObserver(() => {
        const list = el.shadowRoot!.querySelector('[part~="list"]')
        if (!list) return
        mo.disconnect()
        resolve({ rows: rowIds(el).length, more: !!deep(el, '[part~="more"]'), busy: deep(el, '[part~="thread"]')!.getAttribute('aria-busy') })
      })
      mo.observe(el.shadowRoot!, { childList: true, subtree: true })
    })
    expect(await first).to.deep.equal({ rows: FIRST_PASS_ROWS, more: false, busy: 'true' })
    // updateComplete waits for the rest: the whole first page, in order, then Load more.
    await el.updateComplete
    expect(rowIds(el)).to.deep.equal(posts.slice(1).map((p) => `vk-post-${p.id}`).reverse())
    expect(deep(el, '[part~="more"]')).to.not.equal(null)
    expect(deep(el, '[part~="thread"]')!.getAttribute('aria-busy')).to.equal('false')
    expect(vk.faults.requests.filter((r) => r.url.pathname === '/v1/social/posts')).to.have.length(1)
  })

  it('§4.4 rule 1 "Prop focusPostId scrolls to and highlights row vk-post-<id>": a row eight pages down is found (each page read counts once toward the search\'s limit of ten)', async () => {
    await makeVk()
    const { market, posts } = await marketWithPosts(9)
    const target = posts[0]
    const el = await fixture<VkMarketComments>(html`<vk-market-comments market-id=${market.id} .limit=${1} focus-post-id=${target.id}></vk-market-comments>`)
    await until(() => el.shadowRoot!.getElementById(`vk-post-${target.id}`), 'the focused row, on the ninth page', 15000)
    expect(el.shadowRoot!.activeElement).to.equal(el.shadowRoot!.getElementById(`vk-post-${target.id}`))
  })

  it('issue 9 "first render": focus-post-id on a row after the first pass is found on the first page (no page is loaded for it)', async () => {
    const vk = await makeVk()
    const n = FIRST_PASS_ROWS + 3
    const { market, posts } = await marketWithPosts(n)
    // The oldest post of the first page: the last row, outside the first pass; a second page exists.
    const target = posts[1]
    const el = await fixture<VkMarketComments>(html`<vk-market-comments market-id=${market.id} .limit=${n - 1} focus-post-id=${target.id}></vk-market-comments>`)
    await until(() => el.shadowRoot!.activeElement?.id === `vk-post-${target.id}`, 'focused row')
    await el.updateComplete
    expect(vk.faults.requests.filter((r) => r.url.pathname === '/v1/social/posts' && r.url.searchParams.has('cursor'))).to.have.length(0)
  })
})
