/**
 * What one reader did is theirs (review L8), and a write's failure reads as its code's sentence (review L10):
 * `<vk-room-feed>`'s refusal line, `<vk-take-card>`'s failure line and open forms, and `<vk-moderation-queue>`'s
 * row outcomes are gone after a sign-out or another sign-in; the card's Agree and Delete failures are looked up
 * by code like every other write's (never only "Couldn't save your agree." for a post that is gone).
 */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/room-feed/room-feed.ts'
import '../../src/elements/take-card/take-card.ts'
import '../../src/elements/market-comments/market-comments.ts'
import '../../src/elements/moderation-queue/moderation-queue.ts'
import type { VkTakeCard } from '../../src/elements/take-card/take-card.element.ts'
import type { Post } from '../../src/contract/types.ts'
import { MSG } from '../../src/contract/errors.ts'
import { deep, deepText, disposeVk, isPath, makeVk, nonMemberRoomFeed, service, until } from './elements-env.ts'

const part = (el: Element, name: string) => deep(el, `[part~="${name}"]`)
const textOf = (el: Element, name: string) => (part(el, name) ? deepText(part(el, name)!) : null)

/** A market and a take on it by a fresh wallet holding side 0 (its signed-in harness client is `author`). */
async function take() {
  const s = await service()
  const market = await s.addMarket({ prices: [4000, 6000] })
  const author = await s.signedIn()
  await s.setPosition(author.w.wallet, market.id, 0, '2500000')
  const post = await author.createPost('event', market.id, 'the data says so')
  return { s, market, author, post }
}

const card = (post: Post, viewer?: string) => fixture<VkTakeCard>(html`<vk-take-card .post=${post} .viewer=${viewer}></vk-take-card>`)

describe('a reader\'s failures are theirs: a sign-out or another sign-in clears them', () => {
  afterEach(() => disposeVk())

  it('§7 "join this room to post in it" is said to the reader who posted: after a sign-out and another sign-in the room feed shows no refusal line', async () => {
    const vk = await makeVk()
    const { s, v, el } = await nonMemberRoomFeed(vk)
    await until(() => deep(el, 'form[part="composer"] textarea') && part(el, 'join-card'), 'the composer and the join card')
    type(el, 'not a member, not following')
    submit(el)
    await until(() => textOf(el, 'refusal'), 'the refusal')
    expect(textOf(el, 'refusal')).to.equal(MSG.JOIN_TO_POST)

    await vk.signOut()
    await until(() => part(el, 'sign-in'), 'signed out')
    expect(textOf(el, 'refusal'), 'signed out: not the previous reader\'s refusal').to.equal(null)
    await vk.signIn({ ...s.wallet(), venueId: v.venueId })
    await until(() => deep(el, 'form[part="composer"]') && part(el, 'join-card'), 'another reader')
    expect(textOf(el, 'refusal'), 'another reader: not the previous reader\'s refusal').to.equal(null)
    expect(!!deep(el, 'form[part="composer"] [part="failure"]')).to.equal(false)
  })

  it('§4.4 rule 4 "Agree (optimistic, rolls back)": the failure line is the reader\'s; after a sign-out it is gone, and another reader finds no report form the previous one left open', async () => {
    const vk = await makeVk({ moderation: true })
    const s = await service()
    const { post } = await take()
    await vk.signIn(s.wallet())
    const el = await card(post)
    await until(() => part(el, 'agree') && part(el, 'report'), 'Agree and Report')
    // The reader opens the report form, then presses Agree, which fails; then signs out.
    ;(part(el, 'report') as HTMLButtonElement).click()
    await until(() => deep(el, 'form[part="composer"]'), 'the report form')
    const stop = vk.faults.fail(isPath('/reactions', 'POST'))
    ;(part(el, 'agree') as HTMLButtonElement).click()
    await until(() => deep(el, '.failure[role="alert"]'), 'the failure line')
    stop()
    expect(deepText(deep(el, '.failure[role="alert"]')!)).to.equal("Couldn't save your agree.")
    expect(!!deep(el, 'form[part="composer"]'), 'the report form is still open').to.equal(true)
    await vk.signOut()
    await el.updateComplete
    expect(!!deep(el, '.failure[role="alert"]'), 'signed out: no failure line').to.equal(false)
    expect(!!deep(el, 'form[part="composer"]'), 'signed out: the report form is closed').to.equal(false)
    await vk.signIn(s.wallet())
    await until(() => part(el, 'report'), 'another reader')
    expect(!!deep(el, '.failure[role="alert"]')).to.equal(false)
    expect(!!deep(el, 'form[part="composer"]'), "another reader: not the previous reader's report form").to.equal(false)
  })

  it('§2.10 a moderation action\'s outcome is the moderator\'s: after a sign-out and another moderator\'s sign-in, the queue shows no "Hide failed." row line of the previous one', async () => {
    const vk = await makeVk()
    const s = await service()
    const owner = s.wallet()
    const v = await s.venue({ owner })
    const author = await s.signedIn({ venueId: v.venueId })
    const market = await s.addMarket()
    const post = await author.createPost('event', market.id, 'report me')
    await (await s.signedIn({ venueId: v.venueId })).reportPost(post.id, 'spam')
    await vk.signIn(owner)
    const el = await fixture(html`<vk-moderation-queue venue-id=${v.venueId}></vk-moderation-queue>`)
    const row = () => deep(el, `#vk-post-${post.id}`)
    await until(() => row(), 'the reported post in the queue')
    const stop = vk.faults.fail(isPath('/v1/mod/hide', 'POST'))
    deep<HTMLButtonElement>(row()!, 'button[data-action="hide"]')!.click()
    await until(() => deep(row()!, '[part="row-status"].failed'), 'the failed action')
    stop()
    expect(deepText(deep(el, '[part="status"]')!)).to.equal('Hide failed. Something went wrong. Try again.')
    await vk.signOut()
    // An operator (who may moderate every venue) signs in on the same page.
    await vk.signIn(s.operator())
    await until(() => row(), 'the queue read for the operator')
    expect(!!deep(row()!, '[part="row-status"]'), "not the previous moderator's outcome").to.equal(false)
    expect(deepText(deep(el, '[part="status"]')!)).to.equal('')
  })
})

/** A take card for a reader signed in on a fresh page context, with its Agree drawn. */
async function signedInCard() {
  const vk = await makeVk()
  const s = await service()
  const { post } = await take()
  await vk.signIn(s.wallet())
  const el = await card(post)
  await until(() => part(el, 'agree'), 'Agree')
  return { vk, s, el }
}

/** A fresh market's thread for a reader signed in on a fresh page context, with its composer drawn. */
async function signedInThread() {
  const vk = await makeVk()
  const s = await service()
  const market = await s.addMarket()
  await vk.signIn(s.wallet())
  const el = await fixture(html`<vk-market-comments market-id=${market.id}></vk-market-comments>`)
  await until(() => deep(el, 'form[part~="composer"] textarea'), 'the composer')
  return { vk, s, market, el }
}

/** Types into an element's composer. */
function type(el: Element, text: string) {
  const area = deep<HTMLTextAreaElement>(el, 'form[part~="composer"] textarea')!
  area.value = text
  area.dispatchEvent(new Event('input'))
}

/** Presses the composer's submit button. */
const submit = (el: Element) => deep<HTMLButtonElement>(el, 'form[part~="composer"] [part~="submit"]')!.click()

describe('a result that comes back after the reader changed is the previous reader\'s: it is not shown', () => {
  afterEach(() => disposeVk())

  it('take card: an Agree that fails after a sign-out and another sign-in shows no failure line to the next reader', async () => {
    const { vk, s, el } = await signedInCard()
    const agree = vk.faults.hold(isPath('/reactions', 'POST'), 500)
    ;(part(el, 'agree') as HTMLButtonElement).click()
    await vk.signOut()
    await vk.signIn(s.wallet())
    await until(() => part(el, 'agree'), 'another reader')
    agree()
    await new Promise((r) => setTimeout(r, 400))
    await el.updateComplete
    expect(!!deep(el, '.failure[role="alert"]'), 'no Agree failure for the next reader').to.equal(false)
  })

  it('take card: another sign-in without a sign-out: the previous reader\'s pending Agree is not shown to the next reader, before or after the service answers', async () => {
    const { vk, s, el } = await signedInCard()
    const release = vk.faults.hold(isPath('/reactions', 'POST'))
    ;(part(el, 'agree') as HTMLButtonElement).click()
    await until(() => part(el, 'agree')!.getAttribute('aria-pressed') === 'true', 'agreed at once (optimistic)')
    await vk.signIn(s.wallet())
    await el.updateComplete
    expect(part(el, 'agree')!.getAttribute('aria-pressed'), 'the next reader has not agreed').to.equal('false')
    release()
    await new Promise((r) => setTimeout(r, 400))
    await el.updateComplete
    expect(part(el, 'agree')!.getAttribute('aria-pressed'), 'nor after the previous reader\'s agree is answered').to.equal('false')
  })

  it('market thread: a post that succeeds after another reader signed in (no sign-out) leaves no text of the previous reader to post again', async () => {
    const { vk, s, market, el } = await signedInThread()
    type(el, 'posted by the first reader')
    const release = vk.faults.hold(isPath('/v1/social/posts', 'POST'))
    submit(el)
    await vk.signIn(s.wallet())
    release()
    for (let i = 0; i < 100 && !(await s.client().posts('event', market.id)).posts.length; i++) await new Promise((r) => setTimeout(r, 50))
    expect((await s.client().posts('event', market.id)).posts.length, 'the first reader\'s post landed').to.equal(1)
    await new Promise((r) => setTimeout(r, 200))
    expect(deep<HTMLTextAreaElement>(el, 'form[part~="composer"] textarea')!.value).to.equal('')
  })

  it('market thread: a post that fails after a sign-out and another sign-in shows no failure under the next reader\'s composer, and leaves their text alone', async () => {
    const { vk, s, el } = await signedInThread()
    type(el, 'this one will fail')
    const release = vk.faults.hold(isPath('/v1/social/posts', 'POST'), 500)
    submit(el)
    await vk.signOut()
    await vk.signIn(s.wallet())
    await until(() => deep(el, 'form[part~="composer"] textarea'), 'another reader\'s composer')
    type(el, 'the next reader\'s draft')
    release()
    await new Promise((r) => setTimeout(r, 400))
    await (el as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete
    expect(!!deep(el, 'form[part~="composer"] [part~="failure"]'), 'no failure for the next reader').to.equal(false)
    expect(deep<HTMLTextAreaElement>(el, 'form[part~="composer"] textarea')!.value).to.equal("the next reader's draft")
  })

  it('room feed: a post that fails after a sign-out and another sign-in (its session is gone: 401) shows no refusal or failure line to the next reader', async () => {
    const vk = await makeVk()
    const { s, v, el } = await nonMemberRoomFeed(vk)
    await until(() => deep(el, 'form[part="composer"] textarea') && part(el, 'join-card'), 'the composer and the join card')
    type(el, 'not a member, not following')
    const release = vk.faults.hold(isPath('/v1/social/posts', 'POST'))
    submit(el)
    await vk.signOut()
    await vk.signIn({ ...s.wallet(), venueId: v.venueId })
    await until(() => deep(el, 'form[part="composer"]') && part(el, 'join-card'), 'another reader')
    release()
    await new Promise((r) => setTimeout(r, 400))
    await el.updateComplete
    expect(textOf(el, 'refusal'), 'the refusal was the previous reader\'s').to.equal(null)
  })
})

describe('<vk-take-card> Agree and Delete failures are looked up by code, like every other write', () => {
  afterEach(() => disposeVk())

  it('issue 6 "every failure code" on Agree: agreeing with a post deleted meanwhile (404 post-not-found) says "It isn\'t there anymore.", offline says so too', async () => {
    const vk = await makeVk()
    const s = await service()
    const gone = await take()
    const other = await take()
    await vk.signIn(s.wallet())
    // Offline: the network sentence, not "Couldn't save your agree.".
    const el1 = await card(other.post)
    await until(() => part(el1, 'agree'), 'Agree')
    const stop = vk.faults.failNetwork(isPath('/reactions', 'POST'))
    ;(part(el1, 'agree') as HTMLButtonElement).click()
    await until(() => deep(el1, '.failure[role="alert"]'), 'the failure line')
    stop()
    expect(deepText(deep(el1, '.failure[role="alert"]')!)).to.equal("Couldn't reach the service. Check your connection and try again.")
    // Deleted by its author after the card was drawn: 404 post-not-found.
    const el2 = await card(gone.post)
    await until(() => part(el2, 'agree'), 'Agree')
    await gone.author.deletePost(gone.post.id)
    const failed = new Promise<CustomEvent>((ok) => el2.addEventListener('vk-error', (e) => ok(e as CustomEvent), { once: true }))
    ;(part(el2, 'agree') as HTMLButtonElement).click()
    const e = await failed
    expect((e.detail.error as { code: string }).code).to.equal('post-not-found')
    await until(() => deep(el2, '.failure[role="alert"]'), 'the failure line')
    expect(deepText(deep(el2, '.failure[role="alert"]')!)).to.equal("It isn't there anymore.")
    expect(deepText(el2)).to.not.include((e.detail.error as Error).message)
    // A failure with no sentence of its own keeps the agree sentence.
    const el3 = await card(other.post)
    await until(() => part(el3, 'agree'), 'Agree')
    const stop500 = vk.faults.fail(isPath('/reactions', 'POST'))
    ;(part(el3, 'agree') as HTMLButtonElement).click()
    await until(() => deep(el3, '.failure[role="alert"]'), 'the failure line')
    stop500()
    expect(deepText(deep(el3, '.failure[role="alert"]')!)).to.equal("Couldn't save your agree.")
  })

  it('issue 6 "every failure code" on Delete: deleting a post already deleted elsewhere says "It isn\'t there anymore.", a 500 keeps "Couldn\'t delete. Try again."', async () => {
    const vk = await makeVk()
    const { author, post } = await take()
    await vk.signIn(author.w)
    const del = async (el: VkTakeCard) => {
      await until(() => part(el, 'delete'), 'Delete')
      ;(part(el, 'delete') as HTMLButtonElement).click()
      await until(() => deep(el, '.confirm .danger'), 'the confirmation')
      deep<HTMLButtonElement>(el, '.confirm .danger')!.click()
      await until(() => deep(el, '.failure[role="alert"]'), 'the failure line')
      return deepText(deep(el, '.failure[role="alert"]')!)
    }
    const stop = vk.faults.fail(isPath('/v1/social/posts/', 'DELETE'))
    expect(await del(await card(post, author.w.wallet))).to.equal("Couldn't delete. Try again.")
    stop()
    await author.deletePost(post.id)
    expect(await del(await card(post, author.w.wallet))).to.equal("It isn't there anymore.")
  })
})
