/** `<vk-moderation-queue>` against the running reference service (issue 7 rule 3, spec §2.10, §3.1, §4.4 rule 6, §7). */
import { expect, fixture, html, oneEvent } from '@open-wc/testing'
import { executeServerCommand, sendKeys } from '@web/test-runner-commands'
import '../../src/elements/moderation-queue/moderation-queue.ts'
import '../../src/elements/strings-provider/strings-provider.ts'
import '../../src/elements/locales/es.ts'
import type { VkModerationQueue } from '../../src/elements/moderation-queue/moderation-queue.element.ts'
import type { Post } from '../../src/contract/types.ts'
import { deep, deepActive, deepAll, deepText, disposeVk, plain, expectKeyboardReachable, isPath, makeVk, service, setProfile, until } from './elements-env.ts'
import { armXssTrap, expectInert, XSS_PAYLOADS } from './xss-corpus.ts'

/** A claimed venue, an author signed in on it, `n` posts by the author, each reported from the venue. */
async function reportedVenue(n = 1, o: { reporters?: number; bodies?: string[]; reason?: string } = {}) {
  const s = await service()
  const owner = s.wallet()
  const v = await s.venue({ owner })
  const author = await s.signedIn({ venueId: v.venueId })
  const market = await s.addMarket()
  const reporters = []
  for (let i = 0; i < (o.reporters ?? 1); i++) reporters.push(await s.signedIn({ venueId: v.venueId }))
  const posts: Post[] = []
  for (let i = 0; i < n; i++) {
    const p = await author.createPost('event', market.id, o.bodies?.[i] ?? `post ${i}`)
    for (const r of reporters) await r.reportPost(p.id, o.reason ?? 'spam')
    posts.push(p)
  }
  return { s, owner, venueId: v.venueId, author, market, posts }
}

const queue = (venueId?: string) =>
  venueId
    ? fixture<VkModerationQueue>(html`<vk-moderation-queue venue-id=${venueId}></vk-moderation-queue>`)
    : fixture<VkModerationQueue>(html`<vk-moderation-queue></vk-moderation-queue>`)
const rows = (el: Element) => deepAll(el, '[part="row"]')
const row = (el: Element, postId: string) => deep(el, `#vk-post-${postId}`)
const action = (r: Element, a: string) => deep<HTMLButtonElement>(r, `button[data-action="${a}"]`)!
const tab = (el: Element, key: string) => deep<HTMLButtonElement>(el, `#tab-${key}`)!
/** Ban asks first: presses Ban, then the confirmation's Ban. */
async function ban(r: Element) {
  action(r, 'ban').click()
  await until(() => deep(r, '[part="confirm"] [data-confirm="ban"]'), 'the Ban confirmation')
  deep<HTMLButtonElement>(r, '[part="confirm"] [data-confirm="ban"]')!.click()
}

describe('<vk-moderation-queue>', () => {
  afterEach(() => disposeVk())

  it('issue 7 rule 3 "A reader who cannot moderate sees "you can\'t moderate this venue", never an empty queue"', async () => {
    const vk = await makeVk()
    const { s, venueId } = await reportedVenue(1)
    await vk.signIn(s.wallet())
    const el = await queue(venueId)
    await until(() => deep(el, '[part="forbidden"]'), 'forbidden state')
    expect(deepText(deep(el, '[part="forbidden"]')!)).to.equal("you can't moderate this venue")
    expect(!!deep(el, '[part="empty"]')).to.equal(false)
    expect(!!deep(el, '[part="list"]')).to.equal(false)
    expect(deep(el, '[role="tablist"]'), 'no tabs over a queue the reader cannot see').to.equal(null)
    await expect(el).to.be.accessible()
  })

  it('§4.4 rule 6 "forbidden is its own state, not an empty queue" (for a signed-in reader who cannot moderate): signed out, the venue queue and the platform queue ask to sign in ("Sign in to moderate." and one Sign in button sending vk-sign-in), never "you can\'t moderate this venue", and show no tabs', async () => {
    await makeVk()
    for (const el of [await queue('some-venue'), await queue()]) {
      await until(() => deep(el, '[part="sign-in"]'), 'the sign-in state')
      expect(deepText(deep(el, '[part="sign-in"] p')!)).to.equal('Sign in to moderate.')
      expect(deepText(el)).to.not.include("can't moderate")
      expect(deep(el, '[part="forbidden"]')).to.equal(null)
      expect(deep(el, '[role="alert"]'), 'not an error').to.equal(null)
      expect(deep(el, '[role="tablist"]'), 'no tabs').to.equal(null)
      expect(deep(el, '[part="empty"]')).to.equal(null)
      expect(deepAll(el, 'button').map((b) => deepText(b))).to.deep.equal(['Sign in'])
      const asked = oneEvent(el, 'vk-sign-in')
      deep<HTMLButtonElement>(el, '[part="sign-in"] button')!.click()
      await asked
      await expect(el).to.be.accessible()
    }
    // Spanish, from the strings provider.
    const box = await fixture(html`<vk-strings-provider locale="es"><vk-moderation-queue venue-id="some-venue"></vk-moderation-queue></vk-strings-provider>`)
    const es = box.querySelector('vk-moderation-queue')!
    await until(() => deep(es, '[part="sign-in"]'), 'the sign-in state (es)')
    expect(deepText(deep(es, '[part="sign-in"]')!)).to.equal('Inicia sesión para moderar. Iniciar sesión')
  })

  it('issue 7 rule 3 "Without venue-id, it is the operator\'s platform-wide queue"', async () => {
    const vk = await makeVk()
    const { s, posts } = await reportedVenue(1)
    await vk.signIn(s.operator())
    const el = await queue()
    await until(() => row(el, posts[0].id), 'the reported post in the platform queue')
    expect(deepText(deep(el, 'h2')!)).to.equal('Platform queue')
    expect(vk.faults.requests.filter((r) => r.url.pathname === '/v1/mod/queue').every((r) => !r.url.searchParams.has('venueId'))).to.equal(true)
    // A venue owner is not an operator: the platform queue is forbidden to them.
    await vk.signOut()
    await vk.signIn(s.wallet())
    await until(() => deep(el, '[part="forbidden"]'), 'forbidden for a non-operator')
  })

  it('issue 7 rule 3 "Open and Actioned tabs" with arrow keys (roving tabindex)', async () => {
    const vk = await makeVk()
    const { owner, venueId, posts } = await reportedVenue(1)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => row(el, posts[0].id), 'open item')
    expect(tab(el, 'open').getAttribute('aria-selected')).to.equal('true')
    expect([tab(el, 'open').tabIndex, tab(el, 'actioned').tabIndex]).to.deep.equal([0, -1])
    tab(el, 'open').focus()
    await sendKeys({ press: 'ArrowRight' })
    await until(() => tab(el, 'actioned').getAttribute('aria-selected') === 'true', 'Actioned selected')
    expect(deepActive()).to.equal(tab(el, 'actioned'))
    expect([tab(el, 'open').tabIndex, tab(el, 'actioned').tabIndex]).to.deep.equal([-1, 0])
    await until(() => deep(el, '[part="empty"]'), 'nothing actioned yet')
    expect(deepText(deep(el, '[part="empty"]')!)).to.equal('Nothing actioned yet.')
    await sendKeys({ press: 'ArrowRight' })
    await until(() => tab(el, 'open').getAttribute('aria-selected') === 'true', 'wraps to Open')
    await until(() => row(el, posts[0].id), 'open item again')
  })

  it('issue 7 rule 3: every control is reachable by Tab with a visible focus (the tab list is one stop)', async () => {
    const vk = await makeVk()
    const { owner, venueId, posts } = await reportedVenue(1)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => row(el, posts[0].id), 'item')
    // The unselected tab is reached with the arrow keys, not Tab (roving tabindex).
    tab(el, 'actioned').disabled = true
    await expectKeyboardReachable(el)
    tab(el, 'actioned').disabled = false
  })

  it('issue 7 rule 3 "None of them is optimistic; each shows pending, then the result": keep', async () => {
    const vk = await makeVk()
    const { owner, venueId, posts } = await reportedVenue(1)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => row(el, posts[0].id), 'open item')
    const release = vk.faults.hold(isPath('/v1/mod/keep', 'POST'))
    action(row(el, posts[0].id)!, 'keep').click()
    await until(() => deepText(row(el, posts[0].id)!).includes('Working…'), 'pending')
    // Not optimistic: while the service has not answered, the item is still in Open and its actions wait.
    expect(row(el, posts[0].id)!.getAttribute('aria-busy')).to.equal('true')
    expect(action(row(el, posts[0].id)!, 'hide').getAttribute('aria-disabled'), 'busy, still focusable').to.equal('true')
    await new Promise((r) => setTimeout(r, 150))
    expect(row(el, posts[0].id)).to.not.equal(null)
    release()
    await until(() => deepText(deep(el, '[part="status"]')!) === 'Keep: done', 'the result announced')
    await until(() => !row(el, posts[0].id), 'the item left Open after the queue was read again')
    tab(el, 'actioned').click()
    await until(() => row(el, posts[0].id), 'the item in Actioned')
    expect(deepText(deep(row(el, posts[0].id)!, '[part="outcome"]')!)).to.equal('Reviewed: kept')
  })

  it('issue 7 rule 3 "None of them is optimistic; each shows pending, then the result": keep, hide, ban and unban', async () => {
    const vk = await makeVk()
    const { owner, venueId, posts } = await reportedVenue(4)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => rows(el).length === 4, 'four items')
    // Every action decides its item (it leaves Open), so each step acts on its own post.
    const steps: [string, Post, string][] = [
      ['ban', posts[2], 'Ban'],
      ['unban', posts[3], 'Unban'],
      ['keep', posts[0], 'Keep'],
      ['hide', posts[1], 'Hide'],
    ]
    for (const [a, post, label] of steps) {
      // Unban is offered once the queue, read again after the ban, says the author is banned.
      await until(() => deep(row(el, post.id)!, `button[data-action="${a}"]`), `${a} offered`)
      const release = vk.faults.hold(isPath(`/v1/mod/${a}`, 'POST'))
      if (a === 'ban') await ban(row(el, post.id)!)
      else action(row(el, post.id)!, a).click()
      await until(() => deep(row(el, post.id)!, '[part="row-status"].pending'), `${a} pending`)
      expect(deepText(deep(row(el, post.id)!, '[part="row-status"]')!)).to.equal('Working…')
      await new Promise((r) => setTimeout(r, 50))
      expect(row(el, post.id), `${a}: still listed while pending`).to.not.equal(null)
      release()
      await until(() => deepText(deep(el, '[part="status"]')!) === `${label}: done`, `${a} result`)
    }
  })

  it('issue 7 rule 3 "None of them is optimistic": a refused action shows its failure and the item stays', async () => {
    const vk = await makeVk()
    const { owner, venueId, posts } = await reportedVenue(1)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => row(el, posts[0].id), 'open item')
    vk.faults.fail(isPath('/v1/mod/hide', 'POST'))
    action(row(el, posts[0].id)!, 'hide').click()
    await until(() => deep(row(el, posts[0].id)!, '[part="row-status"].failed'), 'failure')
    // The moderation slice's sentence (the service's own message stays in vk-error).
    expect(deepText(deep(row(el, posts[0].id)!, '[part="row-status"]')!)).to.equal('Hide failed. Something went wrong. Try again.')
    expect(deepText(deep(el, '[part="status"]')!)).to.equal('Hide failed. Something went wrong. Try again.')
    expect(rows(el).length).to.equal(1)
    await expect(el).to.be.accessible()
  })

  it('issue 7 "every visible string is replaceable": a failed action over the network reads as the provider\'s string, never the SDK\'s English; the error is in vk-error', async () => {
    const vk = await makeVk()
    const { owner, venueId, posts } = await reportedVenue(1)
    await vk.signIn(owner)
    const box = await fixture(html`<vk-strings-provider .strings=${{ moderation: { hide: 'Ocultar', failed: '{action}: falló. {message}', failNetwork: 'Sin conexión.' } }}>
      <vk-moderation-queue venue-id=${venueId}></vk-moderation-queue>
    </vk-strings-provider>`)
    const el = box.querySelector('vk-moderation-queue')!
    await until(() => row(el, posts[0].id), 'open item')
    vk.faults.failNetwork(isPath('/v1/mod/hide', 'POST'))
    const failed = oneEvent(el, 'vk-error')
    action(row(el, posts[0].id)!, 'hide').click()
    expect(((await failed).detail.error as { code: string }).code).to.equal('network')
    await until(() => deep(row(el, posts[0].id)!, '[part="row-status"].failed'), 'failure')
    expect(deepText(deep(row(el, posts[0].id)!, '[part="row-status"]')!)).to.equal('Ocultar: falló. Sin conexión.')
    expect(deepText(deep(el, '[part="status"]')!)).to.equal('Ocultar: falló. Sin conexión.')
    expect(deepText(el)).to.not.include('Failed to fetch').and.not.include('could not be reached')
  })

  it('issue 7 rule 3 "load-more" (§2.10 loadingMore): a failed later page keeps the rows, shows an error line with Retry, and Retry loads it', async () => {
    const vk = await makeVk()
    const { owner, venueId } = await reportedVenue(21)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => rows(el).length === 20, 'first page')
    const release = vk.faults.hold((url) => url.pathname === '/v1/mod/queue' && url.searchParams.has('cursor'), 500)
    deep<HTMLButtonElement>(el, '[part="load-more"]')!.click()
    await until(() => deep<HTMLButtonElement>(el, '[part="load-more"]')?.getAttribute('aria-disabled') === 'true', 'loading more')
    expect(deepText(deep(el, '[part="load-more"]')!)).to.equal('Loading more…')
    expect(deep(el, '[part="load-more"]')!.getAttribute('aria-busy')).to.equal('true')
    release()
    await until(() => deep(el, '[part="error"]'), 'the error line')
    expect(deepText(deep(el, '[part="error"]')!)).to.include("Couldn't load the queue.")
    expect(rows(el).length).to.equal(20)
    await expect(el).to.be.accessible()
    deep<HTMLButtonElement>(el, '[part="retry"]')!.click()
    await until(() => rows(el).length === 21, 'the second page, retried')
    expect(!!deep(el, '[part="error"]')).to.equal(false)
    expect(!!deep(el, '[part="load-more"]')).to.equal(false)
  })

  it('issue 7 rule 3 "the actions keep, hide, ban and unban": hide hides on this venue; ban and unban act on the author, and a row offers Unban instead of Ban while its author is banned here', async () => {
    const vk = await makeVk()
    const { s, owner, venueId, posts, author, market } = await reportedVenue(2)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => rows(el).length === 2, 'two items')
    action(row(el, posts[0].id)!, 'hide').click()
    await until(() => deepText(deep(el, '[part="status"]')!) === 'Hide: done', 'hidden')
    // The venue's overlay drops the post; it stays live elsewhere (§3.1).
    const reader = s.client()
    expect((await reader.posts('event', market.id, { venue: venueId })).posts.map((p) => p.id)).to.not.include(posts[0].id)
    expect((await reader.posts('event', market.id)).posts.map((p) => p.id)).to.include(posts[0].id)

    await until(() => row(el, posts[1].id) && !row(el, posts[0].id), 'second item left')
    expect(!!deep(row(el, posts[1].id)!, 'button[data-action="unban"]'), 'no Unban for an author who is not banned').to.equal(false)
    expect(!!deep(row(el, posts[1].id)!, '[part="author-banned"]')).to.equal(false)
    await ban(row(el, posts[1].id)!)
    await until(() => deepText(deep(el, '[part="status"]')!) === 'Ban: done', 'banned')
    const e = await author.createPost('event', market.id, 'after the ban').catch((x) => x)
    expect(e.code).to.equal('banned')
    // Banning from the queue decides the reported post's item too: it leaves Open for Actioned.
    await until(() => !row(el, posts[1].id), 'the banned author\'s item left Open')
    tab(el, 'actioned').click()
    await until(() => row(el, posts[0].id) && row(el, posts[1].id), 'both items in Actioned')
    expect(deepText(row(el, posts[0].id)!)).to.include('Hidden on this venue')
    // A banned author's rows (both are theirs) offer Unban, not Ban, and say the author is banned here.
    for (const p of posts) {
      expect(!!deep(row(el, p.id)!, 'button[data-action="ban"]'), 'no second Ban for a banned author').to.equal(false)
      expect(deepText(deep(row(el, p.id)!, '[part="author-banned"]')!)).to.equal('Author banned from posting on this venue')
    }
    action(row(el, posts[1].id)!, 'unban').click()
    await until(() => deepText(deep(el, '[part="status"]')!) === 'Unban: done', 'unbanned')
    expect((await author.createPost('event', market.id, 'after the unban')).body).to.equal('after the unban')
    await until(() => posts.every((p) => deep(row(el, p.id)!, 'button[data-action="ban"]') && !deep(row(el, p.id)!, 'button[data-action="unban"]')), 'Ban offered again')
    expect(!!deep(row(el, posts[1].id)!, '[part="author-banned"]')).to.equal(false)
    await expect(el).to.be.accessible()
  })

  it('issue 7 rule 3 "Threshold-hidden posts are marked as such"', async () => {
    const vk = await makeVk()
    const { owner, venueId, posts } = await reportedVenue(1, { reporters: 3 })
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => row(el, posts[0].id), 'item')
    expect(deepText(deep(row(el, posts[0].id)!, '[part="threshold-hidden"]')!)).to.equal('Hidden by reports, pending review')
    expect(deepText(row(el, posts[0].id)!)).to.include('3 reports')
  })

  it('§2.10 "Tabs/state filter: Open and Actioned": an Actioned row says what was decided (kept, hidden, …), never "pending review"', async () => {
    const vk = await makeVk()
    const { owner, venueId, posts } = await reportedVenue(2, { reporters: 3 })
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => rows(el).length === 2, 'two threshold-hidden items')
    expect(deepText(deep(row(el, posts[0].id)!, '[part="threshold-hidden"]')!)).to.equal('Hidden by reports, pending review')
    action(row(el, posts[0].id)!, 'keep').click()
    await until(() => deepText(deep(el, '[part="status"]')!) === 'Keep: done', 'kept')
    await until(() => !row(el, posts[0].id), 'kept item left Open')
    action(row(el, posts[1].id)!, 'hide').click()
    await until(() => deepText(deep(el, '[part="status"]')!) === 'Hide: done', 'hidden')
    tab(el, 'actioned').click()
    await until(() => row(el, posts[0].id) && row(el, posts[1].id), 'both in Actioned')
    expect(deepText(deep(row(el, posts[0].id)!, '[part="outcome"]')!)).to.equal('Reviewed: kept')
    expect(deepText(deep(row(el, posts[1].id)!, '[part="outcome"]')!)).to.equal('Reviewed: hidden')
    for (const p of posts) expect(deepText(row(el, p.id)!)).to.not.include('pending review')
    // The Open tab's result lines ('Hide: done') are not carried over.
    expect(deep(el, '[part="row-status"]')).to.equal(null)
    await expect(el).to.be.accessible()
  })

  it('§4.4 rule 6 actions "ban": Ban asks first, naming the author and the scope (this venue, or every venue in the platform queue); Escape or Cancel sends nothing and returns focus to Ban; the confirmation works from the keyboard', async () => {
    await executeServerCommand('vk-focus-page')
    const vk = await makeVk()
    const { s, owner, venueId, posts, author } = await reportedVenue(1)
    await setProfile(author.session!.token, { name: 'Riley Quinn' })
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => row(el, posts[0].id) && deepText(row(el, posts[0].id)!).includes('Riley Quinn'), 'item with its author')
    const r = () => row(el, posts[0].id)!
    const banCalls = () => vk.faults.requests.filter((q) => q.method === 'POST' && q.url.pathname === '/v1/mod/ban').length
    // Keyboard: focus Ban, Enter opens the confirmation with focus on Cancel.
    action(r(), 'ban').focus()
    await sendKeys({ press: 'Enter' })
    await until(() => deep(r(), '[part="confirm"]'), 'confirmation')
    expect(action(r(), 'ban').getAttribute('aria-expanded')).to.equal('true')
    expect(deepText(deep(r(), '[part="confirm"] p')!)).to.equal('Ban Riley Quinn from posting on this venue? They can still read and trade.')
    expect(deepText(deep(r(), '[data-confirm="ban"]')!)).to.equal('Ban Riley Quinn')
    await until(() => deepActive() === deep(r(), '[data-confirm="cancel"]'), 'focus on Cancel')
    await expect(el).to.be.accessible()
    // Escape steps back: nothing sent, focus back on Ban.
    await sendKeys({ press: 'Escape' })
    await until(() => !deep(r(), '[part="confirm"]'), 'closed by Escape')
    await until(() => deepActive() === action(r(), 'ban'), 'focus back on Ban')
    // Cancel too.
    await sendKeys({ press: 'Enter' })
    await until(() => deep(r(), '[part="confirm"]'), 'confirmation again')
    await sendKeys({ press: 'Enter' })
    await until(() => !deep(r(), '[part="confirm"]') && deepActive() === action(r(), 'ban'), 'Cancel, focus back on Ban')
    await new Promise((x) => setTimeout(x, 100))
    expect(banCalls(), 'nothing sent').to.equal(0)
    // Confirmed by keyboard: Ban, Tab to the confirmation's Ban, Enter.
    await sendKeys({ press: 'Enter' })
    await until(() => deepActive() === deep(r(), '[data-confirm="cancel"]'), 'focus on Cancel')
    await sendKeys({ press: 'Tab' })
    expect(deepActive()).to.equal(deep(r(), '[data-confirm="ban"]'))
    await sendKeys({ press: 'Enter' })
    await until(() => deepText(deep(el, '[part="status"]')!) === 'Ban: done', 'banned')
    expect(banCalls()).to.equal(1)
    // The decided item left Open, the last one: focus is on the tab, not lost to the page.
    await until(() => deepActive() === tab(el, 'open'), 'focus on the Open tab')
    expect((await author.createPost('event', posts[0].subjectRef, 'after').catch((x) => x)).code).to.equal('banned')
    // The platform queue: the scope is every venue.
    await vk.signOut()
    await vk.signIn(s.operator())
    const platform = await queue()
    await until(() => row(platform, posts[0].id) && deepText(row(platform, posts[0].id)!).includes('Riley Quinn'), 'the item in the platform queue')
    action(row(platform, posts[0].id)!, 'ban').click()
    await until(() => deep(row(platform, posts[0].id)!, '[part="confirm"]'), 'confirmation')
    expect(deepText(deep(row(platform, posts[0].id)!, '[part="confirm"] p')!)).to.equal('Ban Riley Quinn from posting everywhere, on every venue? They can still read and trade.')
    expect(deep(platform, '[role="tablist"]')!.getAttribute('aria-label')).to.equal('Platform queue')
  })

  it('issue 6 rule 9 "keyboard access": focus stays in the queue through an action: on its button while pending (aria-disabled, busy); on the row now in its place when the decided row leaves the tab; on Unban when Ban turns into it (and back); on the tab when no row is left', async () => {
    // Focus events reach only the page in front (web-test-runner.config.mjs).
    await executeServerCommand('vk-focus-page')
    const vk = await makeVk()
    const { owner, venueId, posts } = await reportedVenue(2)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => rows(el).length === 2, 'two items')
    const firstId = rows(el)[0].dataset.postId!
    const release = vk.faults.hold(isPath('/v1/mod/keep', 'POST'))
    action(row(el, firstId)!, 'keep').focus()
    await sendKeys({ press: 'Enter' })
    await until(() => action(row(el, firstId)!, 'keep').getAttribute('aria-disabled') === 'true', 'keep pending')
    expect(deepActive() === action(row(el, firstId)!, 'keep'), 'focus stays on the busy button').to.equal(true)
    release()
    await until(() => rows(el).length === 1, 'the kept item left Open')
    const other = rows(el)[0]
    await until(() => other.contains(deepActive()), 'focus on the row now in its place')
    // Actioned: the kept row, its author not banned. Ban (confirmed from the keyboard) turns into Unban there.
    tab(el, 'actioned').click()
    await until(() => row(el, firstId), 'the kept item in Actioned')
    action(row(el, firstId)!, 'ban').focus()
    await sendKeys({ press: 'Enter' })
    await until(() => deepActive() === deep(row(el, firstId)!, '[data-confirm="cancel"]'), 'focus on Cancel')
    await sendKeys({ press: 'Tab' })
    await sendKeys({ press: 'Enter' })
    await until(() => deepActive() === action(row(el, firstId)!, 'unban'), 'focus on Unban, in Ban\'s place')
    await sendKeys({ press: 'Enter' })
    await until(() => deepActive() === action(row(el, firstId)!, 'ban'), 'focus on Ban again after Unban')
    // Open: the last item decided, no row left: focus goes to the tab.
    tab(el, 'open').click()
    await until(() => rows(el).length === 1, 'the last open item')
    action(rows(el)[0], 'hide').focus()
    await sendKeys({ press: 'Enter' })
    await until(() => deep(el, '[part="empty"]'), 'nothing left in Open')
    await until(() => deepActive() === tab(el, 'open'), 'focus on the Open tab')
    expect(posts.length).to.equal(2)
  })

  it('what one moderator did is never shown to the next: a result that comes back after a sign-out and another sign-in is not shown on the row nor announced', async () => {
    const vk = await makeVk()
    const { s, owner, venueId, posts } = await reportedVenue(1)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => row(el, posts[0].id), 'open item')
    const release = vk.faults.hold(isPath('/v1/mod/hide', 'POST'))
    action(row(el, posts[0].id)!, 'hide').click()
    await until(() => deep(row(el, posts[0].id)!, '[part="row-status"].pending'), 'hide pending')
    await vk.signOut()
    await vk.signIn(s.operator())
    await until(() => row(el, posts[0].id), 'the operator reads the same queue')
    release()
    await new Promise((r) => setTimeout(r, 400))
    // (A boolean: chai describing a DOM node in a failure message can take minutes.)
    expect(!!deep(row(el, posts[0].id) ?? el, '[part="row-status"]'), 'no result line for the next reader').to.equal(false)
    expect(deepText(deep(el, '[part="status"]')!)).to.equal('')
  })

  it('focus is never moved for the previous moderator: an action answered, then another moderator signs in before the queue is read again: focus is left where it is', async () => {
    await executeServerCommand('vk-focus-page')
    const vk = await makeVk()
    const { s, owner, venueId } = await reportedVenue(2)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => rows(el).length === 2, 'two items')
    const reread = vk.faults.hold((url, init) => url.pathname === '/v1/mod/queue' && (init?.method ?? 'GET') === 'GET')
    action(rows(el)[0], 'hide').focus()
    await sendKeys({ press: 'Enter' })
    await until(() => deepText(deep(el, '[part="status"]')!) === 'Hide: done', 'hidden')
    await vk.signIn(s.operator())
    reread()
    await until(() => rows(el).length > 0, 'the queue read for the operator')
    await new Promise((r) => setTimeout(r, 300))
    expect(!!el.shadowRoot!.activeElement, 'focus was not moved into the next moderator\'s queue').to.equal(false)
  })

  it('issue 7 rule 3 "load-more"', async () => {
    const vk = await makeVk()
    const { owner, venueId } = await reportedVenue(21)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => rows(el).length === 20, 'first page')
    deep<HTMLButtonElement>(el, '[part="load-more"]')!.click()
    await until(() => rows(el).length === 21, 'second page')
    expect(!!deep(el, '[part="load-more"]')).to.equal(false)
  })

  it('issue 7 rule 3 "A vk-open-post event"', async () => {
    const vk = await makeVk()
    const { owner, venueId, posts, market } = await reportedVenue(1)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => row(el, posts[0].id), 'item')
    const opened = oneEvent(el, 'vk-open-post')
    deep<HTMLButtonElement>(row(el, posts[0].id)!, 'button:not([data-action])')!.click()
    expect((await opened).detail).to.deep.equal({ postId: posts[0].id, subjectType: 'event', subjectRef: market.id.toLowerCase() })
  })

  it('issue 7 "The same XSS corpus renders inert … including moderation rows"', async () => {
    const trap = armXssTrap()
    const vk = await makeVk()
    const { owner, venueId } = await reportedVenue(XSS_PAYLOADS.length, { bodies: XSS_PAYLOADS, reason: XSS_PAYLOADS[1] })
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => rows(el).length === 20, 'rows')
    deep<HTMLButtonElement>(el, '[part="load-more"]')!.click()
    await until(() => rows(el).length === XSS_PAYLOADS.length, 'every row')
    const text = deepText(el)
    for (const b of XSS_PAYLOADS) expect(text, b).to.include(b.replace(/\s+/g, ' ').trim())
    await expectInert(el)
    await new Promise((r) => setTimeout(r, 200))
    expect(trap(), 'a payload ran').to.equal(undefined)
  })

  it('issue 7 "accessible in its loaded, empty, error … states"', async () => {
    const vk = await makeVk()
    const { owner, venueId, posts } = await reportedVenue(1, { reporters: 3 })
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => row(el, posts[0].id), 'loaded')
    await expect(el).to.be.accessible()
    tab(el, 'actioned').click()
    await until(() => deep(el, '[part="empty"]'), 'empty')
    await expect(el).to.be.accessible()
    vk.faults.fail(isPath('/v1/mod/queue'))
    const failed = await queue(`${venueId}`.replace(/.$/, 'x'))
    await until(() => deep(failed, '[part="error"]'), 'error')
    expect(deepText(failed)).to.include("Couldn't load the queue.")
    await expect(failed).to.be.accessible()
  })

  it('issue 7 rule 3 "each shows pending, then the result": the result is announced in a status line (role="status")', async () => {
    const vk = await makeVk()
    const { owner, venueId, posts } = await reportedVenue(1)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => row(el, posts[0].id), 'open item')
    const line = () => deep(el, '[part="status"]')!
    expect(line().getAttribute('role')).to.equal('status')
    expect(deepText(line())).to.equal('')
    action(row(el, posts[0].id)!, 'keep').click()
    await until(() => deepText(line()) === 'Keep: done', 'the result announced')
    expect(line().getAttribute('role')).to.equal('status')
    await expect(el).to.be.accessible()
  })

  it('issue 7 rule 3 "the actions keep, hide, ban and unban": each row\'s actions are a group named for the post\'s author (\'Actions on the post by …\')', async () => {
    const vk = await makeVk()
    const { owner, venueId, posts, author } = await reportedVenue(1)
    await setProfile(author.session!.token, { name: 'Grace Hopper' })
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => row(el, posts[0].id) && deepText(row(el, posts[0].id)!).includes('Grace Hopper'), 'the item, with its author\'s name')
    const group = deep(row(el, posts[0].id)!, '[part="actions"]')!
    expect(group.getAttribute('role')).to.equal('group')
    expect(plain(group.getAttribute('aria-label'))).to.equal('Actions on the post by Grace Hopper')
    expect(!!group.querySelector('button[data-action="keep"]'), 'the actions are in it').to.equal(true)
    await expect(el).to.be.accessible()
  })

  it('right to left: a reported post\'s body takes its own direction (dir="auto"): an English body on an operator page in Arabic reads left to right', async () => {
    document.documentElement.dir = 'rtl'
    try {
      const vk = await makeVk()
      const { owner, venueId, posts } = await reportedVenue(1)
      await vk.signIn(owner)
      const el = await queue(venueId)
      await until(() => row(el, posts[0].id) && deep(row(el, posts[0].id)!, '[part="body"]'), 'the item')
      const body = deep(row(el, posts[0].id)!, '[part="body"]')!
      expect(getComputedStyle(row(el, posts[0].id)!).direction, 'the page is right to left').to.equal('rtl')
      expect(getComputedStyle(body).direction, 'the English body reads left to right').to.equal('ltr')
      await expect(el).to.be.accessible()
    } finally {
      document.documentElement.removeAttribute('dir')
    }
  })

  it('§2.10 "the queue item: … report reasons … the post\'s state": a row lists its reports\' reasons (a list named \'Report reasons\') and says when an operator removed the post everywhere (\'Removed everywhere\')', async () => {
    const vk = await makeVk()
    const { s, owner, venueId, posts } = await reportedVenue(2, { reason: 'spam' })
    await (await s.signedIn({ venueId })).reportPost(posts[0].id, 'off-topic insults')
    // An operator removes the second post everywhere.
    await (await s.signedIn({}, s.operator())).mod.remove(posts[1].id)
    await vk.signIn(owner)
    const el = await queue(venueId)
    await until(() => row(el, posts[0].id) && row(el, posts[1].id), 'both items')
    const reasons = (id: string) => deep(row(el, id)!, '[part="reasons"]')
    expect(!!reasons(posts[0].id) && !!reasons(posts[1].id), 'each row lists its reasons').to.equal(true)
    expect(reasons(posts[0].id)!.getAttribute('aria-label')).to.equal('Report reasons')
    const quoted = (id: string) => [...reasons(id)!.querySelectorAll('li')].map((li) => deepText(li)).sort()
    expect(quoted(posts[0].id)).to.deep.equal(['“off-topic insults”', '“spam”'])
    expect(quoted(posts[1].id)).to.deep.equal(['“spam”'])
    // The quotation marks are the locale's, in the strings (reasonQuote), not in the style sheet.
    el.strings = { reasonQuote: '«{reason}»' }
    await el.updateComplete
    expect(quoted(posts[1].id)).to.deep.equal(['«spam»'])
    el.strings = null
    const flags = (id: string) => [...deep(row(el, id)!, '[part="flags"]')!.querySelectorAll('li')].map((li) => deepText(li))
    expect(flags(posts[1].id)).to.include('Removed everywhere')
    expect(flags(posts[0].id)).to.not.include('Removed everywhere')
    await expect(el).to.be.accessible()
  })
})
