/**
 * Keyboard focus after actions and Escape, against the running reference service (UI audit, "Keyboard and
 * screen reader" 7 and 8): a control busy with a request stays focusable (aria-disabled, never `disabled`,
 * which drops focus to the page's body), and when an action removes the focused control focus moves on
 * purpose: back to the control that opened a form, to the next post after a delete, to the first new row
 * after Load more, to Leave after Join. Real key presses throughout.
 */
import { expect, fixture, html } from '@open-wc/testing'
import { sendKeys } from '@web/test-runner-commands'
import '../../src/elements/comments/comments.ts'
import '../../src/elements/take-card/take-card.ts'
import '../../src/elements/room-feed/room-feed.ts'
import '../../src/elements/feed/feed.ts'
import type { VkComments } from '../../src/elements/comments/comments.element.ts'
import type { VkTakeCard } from '../../src/elements/take-card/take-card.element.ts'
import type { Post } from '../../src/contract/types.ts'
import { freshRef } from '../sdk/harness.ts'
import { deep, deepActive, deepAll, deepText, disposeVk, isPath, makeVk, nodeFeed, nonMemberRoomFeed, service, until } from './elements-env.ts'

const thread = (ref: string, o: { viewer?: string; limit?: number } = {}) =>
  fixture<VkComments>(html`<vk-comments subject-type="topic" subject-ref=${ref} .viewer=${o.viewer} .limit=${o.limit}></vk-comments>`)
const rows = (el: Element) => deepAll(el, '[part~="row"]')
const row = (el: Element, id: string) => el.shadowRoot!.getElementById(`vk-post-${id}`)!
const cardOf = (el: Element, id: string) => row(el, id).querySelector<VkTakeCard>('vk-take-card')!
const part = (el: Element, name: string) => deep<HTMLElement>(el, `[part~="${name}"]`)

/** Focus is somewhere on purpose: an element, never the page's body (nor nothing). */
function expectFocusOn(target: Element | null, what: string) {
  const a = deepActive()
  expect(a, `${what}: focus is lost to the body`).to.not.equal(document.body)
  expect(a, what).to.not.equal(null)
  expect(a, what).to.equal(target)
}

/** Focuses `el` and presses `key` on it. */
async function press(el: HTMLElement, key = 'Enter') {
  el.focus()
  await sendKeys({ press: key })
}

/** Types `text` into a textarea through the keyboard. */
async function typeInto(area: HTMLTextAreaElement, text: string) {
  area.focus()
  await sendKeys({ type: text })
}

/** A topic thread with one post by `me` between two by others (newest first: theirs2, mine, theirs1). */
async function threadWithMine() {
  const vk = await makeVk()
  const s = await service()
  const ref = freshRef('topic')
  const me = await s.signedIn()
  const theirs1 = await (await s.signedIn()).createPost('topic', ref, 'their first')
  await new Promise((r) => setTimeout(r, 5))
  const mine = await me.createPost('topic', ref, 'mine')
  await new Promise((r) => setTimeout(r, 5))
  const theirs2 = await (await s.signedIn()).createPost('topic', ref, 'their second')
  await vk.signIn(me.w)
  const el = await thread(ref, { viewer: me.w.wallet })
  await until(() => rows(el).length === 3, 'thread loaded')
  return { vk, s, ref, me, mine, theirs1, theirs2, el }
}

describe('keyboard focus after actions', () => {
  afterEach(() => disposeVk())

  it('Post keeps focus in the composer while the post is sent and after it lands (aria-disabled while pending, never disabled)', async () => {
    const vk = await makeVk()
    const s = await service()
    const ref = freshRef('topic')
    await vk.signIn(s.wallet())
    const el = await thread(ref)
    await until(() => part(el, 'empty'), 'empty thread')
    await typeInto(deep<HTMLTextAreaElement>(el, '[part~="composer"] textarea')!, 'posted by keyboard')
    const submit = deep<HTMLButtonElement>(el, '[part~="composer"] [part~="submit"]')!
    const release = vk.faults.hold(isPath('/v1/social/posts', 'POST'))
    await press(submit)
    await until(() => submit.getAttribute('aria-busy') === 'true', 'sending')
    expect(submit.getAttribute('aria-disabled')).to.equal('true')
    expect(submit.disabled).to.equal(false)
    expectFocusOn(submit, 'while sending')
    // Pressed again while sending: nothing is sent twice.
    await sendKeys({ press: 'Enter' })
    release()
    await until(() => rows(el).length === 1, 'the post in the thread')
    await until(() => submit.getAttribute('aria-busy') === 'false', 'sent')
    expectFocusOn(submit, 'after posting')
    expect(vk.faults.requests.filter((r) => r.method === 'POST' && r.url.pathname === '/v1/social/posts')).to.have.length(1)
  })

  it('a reply sent from a card puts focus back on that card\'s Reply button', async () => {
    const { el, theirs2 } = await threadWithMine()
    const card = cardOf(el, theirs2.id)
    await press(part(card, 'reply')!)
    await until(() => deep(card, 'form[part~="composer"] textarea'), 'reply form')
    await typeInto(deep<HTMLTextAreaElement>(card, 'form[part~="composer"] textarea')!, 'a keyboard reply')
    await press(deep<HTMLButtonElement>(card, 'form[part~="composer"] [part~="submit"]')!)
    await until(() => !deep(card, 'form[part~="composer"]'), 'reply form closed after sending')
    expectFocusOn(part(card, 'reply'), 'after the reply')
  })

  it('Save on an edit puts focus back on Edit', async () => {
    const { el, mine } = await threadWithMine()
    const card = cardOf(el, mine.id)
    await press(part(card, 'edit')!)
    await until(() => deep(card, 'form[part~="composer"] textarea'), 'edit form')
    await typeInto(deep<HTMLTextAreaElement>(card, 'form[part~="composer"] textarea')!, ' (edited)')
    await press(deep<HTMLButtonElement>(card, 'form[part~="composer"] [part~="submit"]')!)
    await until(() => part(card, 'body') && deepText(part(card, 'body')!).includes('(edited)'), 'edited body shown')
    expectFocusOn(part(card, 'edit'), 'after saving')
  })

  it('a report sent puts focus on the "Reported. Thanks." line', async () => {
    const { el, theirs1 } = await threadWithMine()
    const card = cardOf(el, theirs1.id)
    await press(part(card, 'report')!)
    await until(() => deep(card, 'form[part~="composer"] textarea'), 'report form')
    await typeInto(deep<HTMLTextAreaElement>(card, 'form[part~="composer"] textarea')!, 'spam')
    await press(deep<HTMLButtonElement>(card, 'form[part~="composer"] [part~="submit"]')!)
    await until(() => deepAll(card, '[part~="notice"]').some((n) => deepText(n) === 'Reported. Thanks.'), 'reported')
    expectFocusOn(
      deepAll(card, '[part~="notice"]').find((n) => deepText(n) === 'Reported. Thanks.')!,
      'after reporting',
    )
  })

  it('Delete confirmed moves focus to the next post\'s row; for the last row, to the row before it', async () => {
    const { el, mine, theirs1 } = await threadWithMine()
    const card = cardOf(el, mine.id)
    await press(part(card, 'delete')!)
    await until(() => deep(card, '.confirm'), 'confirmation')
    await press(deepAll<HTMLButtonElement>(card, '.confirm button').find((b) => deepText(b) === 'Delete')!)
    await until(() => !part(card, 'card'), 'card gone')
    expectFocusOn(row(el, theirs1.id), 'after deleting: the next post')
    await until(() => rows(el).length === 2, 'the thread re-read')
    expectFocusOn(row(el, theirs1.id), 'the next post, once the deleted row left')

    // My post at the bottom of the list: focus goes to the row above it.
    const s = await service()
    const ref = freshRef('topic')
    const me = await s.signedIn()
    const oldest = await me.createPost('topic', ref, 'my oldest')
    await new Promise((r) => setTimeout(r, 5))
    const newer = await (await s.signedIn()).createPost('topic', ref, 'newer')
    const vk = await makeVk()
    await vk.signIn(me.w)
    const other = await thread(ref, { viewer: me.w.wallet })
    await until(() => rows(other).length === 2, 'loaded')
    const bottom = cardOf(other, oldest.id)
    await press(part(bottom, 'delete')!)
    await until(() => deep(bottom, '.confirm'), 'confirmation')
    await press(deepAll<HTMLButtonElement>(bottom, '.confirm button').find((b) => deepText(b) === 'Delete')!)
    await until(() => !part(bottom, 'card'), 'card gone')
    expectFocusOn(row(other, newer.id), 'after deleting the last row: the one above')
  })

  it('a standalone card deleted puts focus on the line saying it is deleted', async () => {
    const vk = await makeVk()
    const s = await service()
    const me = await s.signedIn()
    const post: Post = await me.createPost('topic', freshRef('topic'), 'alone')
    await vk.signIn(me.w)
    const card = await fixture<VkTakeCard>(html`<vk-take-card .post=${post} .viewer=${me.w.wallet}></vk-take-card>`)
    await press(part(card, 'delete')!)
    await until(() => deep(card, '.confirm'), 'confirmation')
    await press(deepAll<HTMLButtonElement>(card, '.confirm button').find((b) => deepText(b) === 'Delete')!)
    await until(() => !part(card, 'card'), 'card gone')
    const notice = part(card, 'notice')!
    expect(deepText(notice)).to.equal('Post deleted.')
    expect(notice.getAttribute('role')).to.equal('status')
    expectFocusOn(notice, 'after deleting a standalone card')
  })

  it('Load more keeps focus while the page loads, then moves it to the first newly loaded row', async () => {
    const vk = await makeVk()
    const s = await service()
    const ref = freshRef('topic')
    const posts: Post[] = []
    for (let i = 0; i < 3; i++) posts.push(await (await s.signedIn()).createPost('topic', ref, `post ${i}`))
    const el = await thread(ref, { limit: 2 })
    await until(() => rows(el).length === 2 && part(el, 'more'), 'first page and Load more')
    const more = part(el, 'more') as HTMLButtonElement
    const release = vk.faults.hold((url) => url.pathname === '/v1/social/posts' && url.searchParams.has('cursor'))
    await press(more)
    await until(() => more.getAttribute('aria-busy') === 'true', 'loading more')
    expect(more.getAttribute('aria-disabled')).to.equal('true')
    expect(more.disabled).to.equal(false)
    expectFocusOn(more, 'while the next page loads')
    release()
    await until(() => rows(el).length === 3, 'the next page')
    await until(() => deepActive() !== more, 'focus moved on')
    expectFocusOn(row(el, posts[0].id), 'after Load more: the first new row')
  })

  it('Retry keeps focus: a Retry that fails again puts focus on the new Retry; one that reads puts it on the skeleton while it reads, then on the first row', async () => {
    const vk = await makeVk()
    const s = await service()
    const ref = freshRef('topic')
    const post = await (await s.signedIn()).createPost('topic', ref, 'here all along')
    const read = (url: URL) => url.pathname === '/v1/social/posts' && url.searchParams.get('subjectRef') === ref
    const off = vk.faults.fail(read)
    const el = await thread(ref)
    await until(() => part(el, 'retry'), 'the error state')
    const first = part(el, 'retry')!
    await press(first)
    await until(() => part(el, 'retry') && part(el, 'retry') !== first, 'the read failed again: a new error state')
    await until(() => deepActive() !== document.body, 'focus placed')
    expectFocusOn(part(el, 'retry'), 'after a Retry that failed again')
    off()
    const release = vk.faults.hold(read)
    await press(part(el, 'retry')!)
    await until(() => part(el, 'loading'), 'reading again')
    await until(() => deepActive() !== document.body, 'focus placed')
    expectFocusOn(part(el, 'loading'), 'while it reads again')
    release()
    await until(() => rows(el).length === 1, 'the thread')
    await until(() => deepActive() !== part(el, 'loading'), 'focus moved on')
    expectFocusOn(row(el, post.id), 'after a Retry that read: the first row')
  })

  it('Retry of a later page that failed loads it again as Load more does: focus moves to its first row, not to the top of the list', async () => {
    const vk = await makeVk()
    const s = await service()
    const ref = freshRef('topic')
    const older = await (await s.signedIn()).createPost('topic', ref, 'older')
    await new Promise((r) => setTimeout(r, 5))
    await (await s.signedIn()).createPost('topic', ref, 'newer')
    const el = await thread(ref, { limit: 1 })
    await until(() => rows(el).length === 1 && part(el, 'more'), 'first page and Load more')
    const off = vk.faults.fail((url) => url.pathname === '/v1/social/posts' && url.searchParams.has('cursor'))
    await press(part(el, 'more')!)
    await until(() => part(el, 'retry'), 'the later page failed')
    off()
    await press(part(el, 'retry')!)
    await until(() => rows(el).length === 2, 'the later page, read again')
    await until(() => deepActive() !== document.body, 'focus placed')
    expectFocusOn(row(el, older.id), 'after Retry of a later page: its first row')
  })

  it('Load more in a ranked feed (rows with no tabindex of their own) moves focus to the first new row', async () => {
    const vk = await makeVk()
    const f = await nodeFeed()
    const el = await fixture(html`<vk-feed scope="subject" subject-type="category" subject-ref=${f.ref} sort="live" .limit=${2}></vk-feed>`)
    await until(() => rows(el).length === 2 && part(el, 'more'), 'first page and Load more')
    const server = await vk.client.postFeed({ scope: 'subject', subjectType: 'category', subjectRef: f.ref, sort: 'live' })
    await press(part(el, 'more')!)
    await until(() => rows(el).length === 3, 'the next page')
    await until(() => deepActive() !== part(el, 'more'), 'focus moved on')
    expectFocusOn(el.shadowRoot!.getElementById(`vk-post-${server.posts[2].id}`), 'after Load more: the first new row')
  })
})

describe('Escape closes what is open and returns focus to its opener', () => {
  afterEach(() => disposeVk())

  it('Escape cancels a reply, an edit and a report form, and the delete confirmation; focus goes back to Reply, Edit, Report, Delete', async () => {
    const { el, mine, theirs2 } = await threadWithMine()
    const theirs = cardOf(el, theirs2.id)
    const own = cardOf(el, mine.id)

    await press(part(theirs, 'reply')!)
    await until(() => deep(theirs, 'form[part~="composer"] textarea'), 'reply form')
    await typeInto(deep<HTMLTextAreaElement>(theirs, 'form[part~="composer"] textarea')!, 'never mind')
    await sendKeys({ press: 'Escape' })
    await until(() => !deep(theirs, 'form[part~="composer"]'), 'reply form closed')
    expectFocusOn(part(theirs, 'reply'), 'reply cancelled')
    expect(part(theirs, 'reply')!.getAttribute('aria-expanded')).to.equal('false')

    await press(part(own, 'edit')!)
    await until(() => deep(own, 'form[part~="composer"] textarea'), 'edit form')
    await typeInto(deep<HTMLTextAreaElement>(own, 'form[part~="composer"] textarea')!, ' not saved')
    await sendKeys({ press: 'Escape' })
    await until(() => !deep(own, 'form[part~="composer"]'), 'edit form closed')
    expect(deepText(part(own, 'body')!)).to.equal('mine')
    expectFocusOn(part(own, 'edit'), 'edit cancelled')

    await press(part(theirs, 'report')!)
    await until(() => deep(theirs, 'form[part~="composer"] textarea'), 'report form')
    await sendKeys({ press: 'Escape' })
    await until(() => !deep(theirs, 'form[part~="composer"]'), 'report form closed')
    expectFocusOn(part(theirs, 'report'), 'report cancelled')

    await press(part(own, 'delete')!)
    await until(() => deep(own, '.confirm'), 'confirmation')
    expect(deepActive()?.closest('.confirm'), 'focus in the confirmation').to.not.equal(null)
    await sendKeys({ press: 'Escape' })
    await until(() => !deep(own, '.confirm'), 'confirmation closed')
    expectFocusOn(part(own, 'delete'), 'delete cancelled')
    expect(part(own, 'card')).to.not.equal(null)

    // Cancel by button returns focus the same way.
    await press(part(own, 'delete')!)
    await until(() => deep(own, '.confirm'), 'confirmation again')
    await press(deepAll<HTMLButtonElement>(own, '.confirm button').find((b) => deepText(b) === 'Cancel')!)
    await until(() => !deep(own, '.confirm'), 'confirmation closed by Cancel')
    expectFocusOn(part(own, 'delete'), 'delete cancelled by its button')
  })
})

describe('room Join and Leave', () => {
  afterEach(() => disposeVk())

  it('Join keeps focus while it is sent, then focus moves to Leave; Leave moves it to Rejoin', async () => {
    const vk = await makeVk()
    const { el } = await nonMemberRoomFeed(vk)
    await until(() => part(el, 'join'), 'join card')
    const join = part(el, 'join') as HTMLButtonElement
    const release = vk.faults.hold(isPath('/join', 'POST'))
    await press(join)
    await until(() => join.getAttribute('aria-busy') === 'true', 'joining')
    expect(join.disabled).to.equal(false)
    expectFocusOn(join, 'while joining')
    release()
    await until(() => part(el, 'leave'), 'member: Leave')
    await until(() => deepActive() === part(el, 'leave'), 'focus on Leave')
    expectFocusOn(part(el, 'leave'), 'after joining')
    await sendKeys({ press: 'Enter' })
    await until(() => part(el, 'join'), 'left: Rejoin')
    await until(() => deepActive() === part(el, 'join'), 'focus on Rejoin')
    expect(deepText(part(el, 'join')!)).to.equal('Rejoin')
    expectFocusOn(part(el, 'join'), 'after leaving')
  })
})
