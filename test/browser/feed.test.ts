/** `<vk-feed>`: a ranked page of take cards (issue 6 rule 4, spec §4.4 rules 4 and 8, §4.5 rule 1). */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/feed/feed.ts'
import '../../src/elements/strings-provider/strings-provider.ts'
import type { VkFeed } from '../../src/elements/feed/feed.element.ts'
import { deep, deepAll, deepText, disposeVk, expectKeyboardReachable, expectParts, isPath, makeVk, nodeFeed, service, until } from './elements-env.ts'

const mount = (ref: string, o: { sort?: string; limit?: number } = {}) =>
  fixture<VkFeed>(html`<vk-feed scope="subject" subject-type="category" subject-ref=${ref} sort=${o.sort ?? 'live'} .limit=${o.limit}></vk-feed>`)
const rowIds = (el: Element) => deepAll(el, '[part~="row"]').map((r) => r.id.replace('vk-post-', ''))

describe('<vk-feed>', () => {
  afterEach(() => disposeVk())

  it('§4.5 rule 1 "Do not re-sort a ranked feed": cards come in the server\'s order', async () => {
    const vk = await makeVk()
    const f = await nodeFeed()
    const el = await mount(f.ref)
    await until(() => rowIds(el).length === 3, 'feed loaded')
    const server = await vk.client.postFeed({ scope: 'subject', subjectType: 'category', subjectRef: f.ref, sort: 'live' })
    expect(rowIds(el)).to.deep.equal(server.posts.map((p) => p.id))
    // The server's order is not time order here (takes rank above a newer comment): nothing re-sorted it.
    const byTime = [...server.posts].sort((x, y) => y.createdAt.localeCompare(x.createdAt)).map((p) => p.id)
    expect(rowIds(el)).not.to.deep.equal(byTime)
    expect(rowIds(el)[0]).to.equal(f.take.id)
  })

  it('§4.4 rule 4 "<Feed> renders a ranked page of <TakeCard>s (posts only; ignores signals and settlements)"', async () => {
    const vk = await makeVk()
    const f = await nodeFeed()
    const el = await mount(f.ref)
    await until(() => rowIds(el).length === 3, 'feed loaded')
    const page = await vk.client.postFeed({ scope: 'subject', subjectType: 'category', subjectRef: f.ref })
    expect(page.settlements.length, 'the page has a settlement').to.equal(1)
    expect(deepAll(el, '[part~="row"] > vk-take-card')).to.have.length(3)
    expect(deep(el, '[part~="settlement"], [part~="signal"], [part~="signal-row"]')).to.equal(null)
    expect(deepText(el)).not.to.include('Settled')
    // Cards name their market.
    expect(deepText(el.shadowRoot!.getElementById(`vk-post-${f.take.id}`)!)).to.include(`A ${f.ref}`)
  })

  it('§4.4 rule 4 "edit/delete only when viewer is passed and the post is the viewer\'s own; … Tail only when a checkout provider is above it or onTail is given": <vk-feed> passes viewer and onTail to its cards', async () => {
    await makeVk()
    const f = await nodeFeed()
    const tailed: string[] = []
    const el = await fixture<VkFeed>(
      html`<vk-feed scope="subject" subject-type="category" subject-ref=${f.ref} .viewer=${f.taker.w.wallet} .onTail=${(p: { id: string }) => tailed.push(p.id)}></vk-feed>`,
    )
    await until(() => rowIds(el).length === 3, 'feed loaded')
    const row = (id: string) => el.shadowRoot!.getElementById(`vk-post-${id}`)!
    await until(() => !!deep(row(f.take.id), '[part~="edit"]'), "Edit on the viewer's own take")
    expect(!!deep(row(f.take.id), '[part~="delete"]')).to.equal(true)
    expect(!!deep(row(f.comment.id), '[part~="edit"]'), "not on another's post").to.equal(false)
    const tail = deep<HTMLButtonElement>(row(f.take.id), '[part~="tail"]')
    expect(!!tail, 'Tail with onTail and no checkout provider').to.equal(true)
    tail!.click()
    expect(tailed).to.deep.equal([f.take.id])
  })

  it('§4.4 rule 8 "Label \'ranked by record\' whenever sort: record is used"', async () => {
    await makeVk()
    const f = await nodeFeed()
    const record = await mount(f.ref, { sort: 'record' })
    await until(() => rowIds(record).length === 3, 'loaded')
    expect(deepText(deep(record, '[part~="sort-label"]')!)).to.equal('ranked by record')
    // The caller's record at the node ranks their take first, with rank of population on the card.
    expect(rowIds(record)[0]).to.equal(f.settledTake.id)
    expect(deepText(record.shadowRoot!.getElementById(`vk-post-${f.settledTake.id}`)!)).to.match(/#1 of \d+/)
    const live = await mount(f.ref, { sort: 'live' })
    await until(() => rowIds(live).length === 3, 'loaded')
    expect(deep(live, '[part~="sort-label"]')).to.equal(null)
  })

  it('§4.4 rule 7: the label is the room slice\'s, as in <vk-community-takes> and <vk-room-feed> ("every visible string can be replaced")', async () => {
    await makeVk()
    const f = await nodeFeed()
    const el = await fixture<HTMLElement>(html`<vk-strings-provider .strings=${{ room: { rankedByRecord: 'from the provider' } }}>
      <vk-feed scope="subject" subject-type="category" subject-ref=${f.ref} sort="record"></vk-feed>
      <vk-feed scope="subject" subject-type="category" subject-ref=${f.ref} sort="record" .roomStrings=${{ rankedByRecord: 'by track record' }}></vk-feed>
    </vk-strings-provider>`)
    const [fromProvider, fromProp] = [...el.querySelectorAll('vk-feed')]
    await until(() => deep(fromProvider, '[part~="sort-label"]') && deep(fromProp, '[part~="sort-label"]'), 'labels')
    expect(deepText(deep(fromProvider, '[part~="sort-label"]')!)).to.equal('from the provider')
    expect(deepText(deep(fromProp, '[part~="sort-label"]')!)).to.equal('by track record')
  })

  it('issue 6 rule 4 "a ranked page": load more appends the next page in order', async () => {
    const vk = await makeVk()
    const f = await nodeFeed()
    const el = await mount(f.ref, { limit: 2 })
    await until(() => rowIds(el).length === 2, 'first page')
    ;(deep(el, '[part~="more"]') as HTMLButtonElement).click()
    await until(() => rowIds(el).length === 3, 'second page')
    const all = await vk.client.postFeed({ scope: 'subject', subjectType: 'category', subjectRef: f.ref, limit: 3 })
    expect(rowIds(el)).to.deep.equal(all.posts.map((p) => p.id))
  })

  it('issue 6 rule 9 "loading skeletons, an empty state, and an error state with retry" — each accessible', async () => {
    const vk = await makeVk()
    const f = await nodeFeed()
    const release = vk.faults.hold(isPath('/feed'))
    const el = await mount(f.ref)
    await until(() => deep(el, '[part~="loading"]'), 'skeleton')
    await expect(el).to.be.accessible()
    release()
    await until(() => rowIds(el).length === 3, 'loaded')
    await expect(el).to.be.accessible()

    const empty = await mount(`none-${Date.now().toString(36)}`)
    await until(() => deep(empty, '[part~="empty"]'), 'empty')
    expect(deepText(deep(empty, '[part~="empty"]')!)).to.equal('No takes yet.')
    await expect(empty).to.be.accessible()

    const stop = vk.faults.fail(isPath('/feed'))
    const broken = await mount(`err-${Date.now().toString(36)}`)
    await until(() => deep(broken, '[part~="error"]'), 'error')
    await expect(broken).to.be.accessible()
    stop()
    ;(deep(broken, '[part~="retry"]') as HTMLButtonElement).click()
    await until(() => deep(broken, '[part~="empty"]'), 'retried')
  })

  it('issue 6 rule 9 "an error state with retry": after a failed re-read of the first page (posts shown, more to load), Retry reads the first page again, not the next one', async () => {
    const vk = await makeVk()
    const f = await nodeFeed()
    await vk.signIn((await service()).wallet())
    const el = await mount(f.ref, { limit: 1 })
    await until(() => rowIds(el).length === 1 && deep(el, '[part~="more"]'), 'page 1, more to come')
    // A write re-reads the mounted feeds; that re-read fails.
    const stop = vk.faults.fail(isPath('/feed', 'GET'))
    await vk.postActions().get().create('event', f.b.id, 'written meanwhile')
    await until(() => deep(el, '[part~="error"]'), 'the failed re-read')
    expect(rowIds(el), 'the page read before stays').to.deep.equal([f.take.id])
    await expect(el).to.be.accessible()
    stop()
    const before = vk.faults.requests.length
    ;(deep(el, '[part~="retry"]') as HTMLButtonElement).click()
    await until(() => !deep(el, '[part~="error"]') && !deep(el, '[part~="loading"]') && rowIds(el).length === 1, 'page 1 read again')
    const reads = vk.faults.requests.slice(before).filter((r) => r.url.pathname === '/v1/social/posts/feed')
    expect(reads.length).to.be.greaterThan(0)
    expect(reads.map((r) => r.url.searchParams.get('cursor')), 'the first page, no cursor').to.deep.equal(reads.map(() => null))
    expect(rowIds(el)).to.deep.equal([f.take.id])
    expect(deep(el, '[part~="more"]')).to.not.equal(null)
  })

  it('§4.3 useFeed "warns when a subject is passed with global or following": <vk-feed subject-type subject-ref> without scope warns and reads global', async () => {
    const vk = await makeVk()
    const ref = `warn-${Date.now().toString(36)}`
    const warned: string[] = []
    const warn = console.warn
    console.warn = (...a: unknown[]) => void warned.push(a.join(' '))
    try {
      const el = await fixture<VkFeed>(html`<vk-feed subject-type="category" subject-ref=${ref}></vk-feed>`)
      await until(() => deep(el, '[part~="list"]') || deep(el, '[part~="empty"]'), 'loaded')
      expect(warned.filter((w) => w.includes(`category:${ref}`) && w.includes("scope 'global'")), 'warned once').to.have.length(1)
      const read = vk.faults.requests.find((r) => r.url.pathname === '/v1/social/posts/feed')!
      expect(read.url.searchParams.get('scope')).to.equal('global')
      expect(read.url.searchParams.get('subjectRef'), 'the subject is not sent').to.equal(null)
      await fixture<VkFeed>(html`<vk-feed scope="following" subject-type="topic" subject-ref=${ref}></vk-feed>`)
      expect(warned.filter((w) => w.includes(`topic:${ref}`) && w.includes("scope 'following'"))).to.have.length(1)
      // A subject scope with its subject: no warning.
      await fixture<VkFeed>(html`<vk-feed scope="subject" subject-type="category" subject-ref=${`${ref}-s`}></vk-feed>`)
      expect(warned.filter((w) => w.includes(`${ref}-s`))).to.have.length(0)
    } finally {
      console.warn = warn
    }
  })

  it('§4.1 rule 4 "Scope following needs a session": signed out, <vk-feed scope="following"> asks nothing and shows a sign-in hint, not "No takes yet."; signing in reads it', async () => {
    const vk = await makeVk()
    const s = await service()
    const f = await nodeFeed()
    const el = await fixture<VkFeed>(html`<vk-feed scope="following"></vk-feed>`)
    await until(() => deep(el, '[part~="sign-in-hint"]'), 'sign-in hint')
    expect(deepText(deep(el, '[part~="sign-in-hint"]')!)).to.include('Sign in to see takes on what you follow.')
    expect(deep(el, '[part~="empty"], [part~="error"]')).to.equal(null)
    await expect(el).to.be.accessible()
    const asked = new Promise((ok) => el.addEventListener('vk-sign-in', ok, { once: true }))
    ;(deep(el, '[part~="sign-in"]') as HTMLButtonElement).click()
    await asked
    expect(vk.faults.requests.filter((r) => r.url.pathname === '/v1/social/posts/feed' && r.url.searchParams.get('scope') === 'following')).to.have.length(0)
    const w = s.wallet()
    await (await s.signedIn({}, w)).follow('category', f.ref)
    await vk.signIn(w)
    await until(() => rowIds(el).length === 3, 'following feed after sign-in')
    expect(deep(el, '[part~="sign-in-hint"]')).to.equal(null)
  })

  it('issue 6 rule 9 "every control is reachable and usable by keyboard, and focus stays visible"', async () => {
    const vk = await makeVk()
    const f = await nodeFeed()
    await vk.signIn((await service()).wallet())
    const el = await mount(f.ref, { limit: 2 })
    await until(() => deep(el, '[part~="report"]') && deep(el, '[part~="more"]'), 'loaded')
    await expectKeyboardReachable(el)
  })

  it('issue 6 rule 8 "parts on the main regions of every element"', async () => {
    await makeVk()
    const f = await nodeFeed()
    const el = await mount(f.ref, { sort: 'record', limit: 2 })
    await until(() => deep(el, '[part~="more"]'), 'loaded')
    expectParts(el, ['feed', 'sort-label', 'list', 'row', 'more'])
  })
})
