/** `<vk-comments>`: the thinner thread (issue 6 rule 2, spec §4.4 rule 2). */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/comments/comments.ts'
import type { VkComments } from '../../src/elements/comments/comments.element.ts'
import { freshRef } from '../sdk/harness.ts'
import { deep, deepAll, deepText, disposeVk, expectKeyboardReachable, expectParts, isPath, makeVk, service, until } from './elements-env.ts'

const mount = (type: string, ref: string, viewer?: string) =>
  fixture<VkComments>(html`<vk-comments subject-type=${type} subject-ref=${ref} .viewer=${viewer}></vk-comments>`)
const rows = (el: Element) => deepAll(el, '[part~="row"]')
const row = (el: Element, id: string) => el.shadowRoot!.getElementById(`vk-post-${id}`)!

describe('<vk-comments>', () => {
  afterEach(() => disposeVk())

  it('§4.4 rule 2 "The thinner <Comments> draws edit/delete controls only when viewer (the signed-in wallet) is passed"', async () => {
    const vk = await makeVk()
    const s = await service()
    const ref = freshRef('topic')
    const me = await s.signedIn()
    const mine = await me.createPost('topic', ref, 'mine')
    const theirs = await (await s.signedIn()).createPost('topic', ref, 'theirs')
    await vk.signIn(me.w)

    const without = await mount('topic', ref)
    await until(() => rows(without).length === 2, 'thread loaded')
    expect(deep(without, '[part~="edit"]'), 'no viewer: no Edit even on the signed-in author\'s post').to.equal(null)
    expect(deep(without, '[part~="delete"]')).to.equal(null)

    const withViewer = await mount('topic', ref, me.w.address)
    await until(() => rows(withViewer).length === 2, 'thread loaded')
    expect(deep(row(withViewer, mine.id), '[part~="edit"]')).to.not.equal(null)
    expect(deep(row(withViewer, mine.id), '[part~="delete"]')).to.not.equal(null)
    expect(deep(row(withViewer, theirs.id), '[part~="edit"]')).to.equal(null)
    expect(deep(row(withViewer, theirs.id), '[part~="delete"]')).to.equal(null)
  })

  it('issue 6 rule 2 "the thinner thread": any subject, newest first, with a composer that writes to it', async () => {
    const vk = await makeVk()
    const s = await service()
    const ref = freshRef('cat')
    const a = await (await s.signedIn()).createPost('category', ref, 'older')
    const b = await (await s.signedIn()).createPost('category', ref, 'newer')
    await vk.signIn(s.wallet())
    const el = await mount('category', ref)
    await until(() => rows(el).length === 2, 'loaded')
    expect(rows(el).map((r) => r.id)).to.deep.equal([`vk-post-${b.id}`, `vk-post-${a.id}`])
    const area = deep<HTMLTextAreaElement>(el, 'textarea')!
    area.value = 'newest'
    area.dispatchEvent(new Event('input'))
    ;(deep(el, '[part~="submit"]') as HTMLButtonElement).click()
    await until(() => rows(el).length === 3, 'posted')
    expect(deepText(rows(el)[0])).to.include('newest')
    const page = await vk.client.posts('category', ref)
    expect(page.posts[0].body).to.equal('newest')
  })

  it('§4.4 rule 1 "onRequireSignIn" (thin thread too): writing signed out asks the page to sign in', async () => {
    const vk = await makeVk()
    const ref = freshRef('topic')
    const el = await mount('topic', ref)
    await until(() => deep(el, '[part~="empty"]'), 'empty')
    const asked = new Promise<string>((ok) => el.addEventListener('vk-require-sign-in', (e) => ok(e.detail.action), { once: true }))
    const area = deep<HTMLTextAreaElement>(el, 'textarea')!
    area.value = 'hello'
    area.dispatchEvent(new Event('input'))
    ;(deep(el, '[part~="submit"]') as HTMLButtonElement).click()
    expect(await asked).to.equal('post')
    expect(deepText(deep(el, '[part~="hint"]')!)).to.equal('Sign in to join the discussion')
    expect(vk.faults.requests.filter((r) => r.method === 'POST')).to.have.length(0)
  })

  it('issue 6 rule 9 "loading skeletons, an empty state, and an error state with retry" — each accessible', async () => {
    const vk = await makeVk()
    const s = await service()
    const ref = freshRef('topic')
    await (await s.signedIn()).createPost('topic', ref, 'one')
    const release = vk.faults.hold(isPath('/v1/social/posts'))
    const el = await mount('topic', ref)
    await until(() => deep(el, '[part~="loading"]'), 'skeleton')
    await expect(el).to.be.accessible()
    release()
    await until(() => rows(el).length === 1, 'loaded')
    await expect(el).to.be.accessible()

    const empty = await mount('topic', freshRef('topic'))
    await until(() => deep(empty, '[part~="empty"]'), 'empty')
    await expect(empty).to.be.accessible()

    const stop = vk.faults.fail(isPath('/v1/social/posts'))
    const ref2 = freshRef('topic')
    const broken = await mount('topic', ref2)
    await until(() => deep(broken, '[part~="error"]'), 'error')
    expect(deepText(deep(broken, '[part~="error"]')!)).to.include("Couldn't load the discussion.")
    await expect(broken).to.be.accessible()
    stop()
    ;(deep(broken, '[part~="retry"]') as HTMLButtonElement).click()
    await until(() => deep(broken, '[part~="empty"]'), 'retry reads again')
  })

  it('issue 6 rule 9 "every control is reachable and usable by keyboard, and focus stays visible"', async () => {
    const vk = await makeVk()
    const s = await service()
    const ref = freshRef('topic')
    const me = await s.signedIn()
    await me.createPost('topic', ref, 'mine')
    await vk.signIn(me.w)
    const el = await mount('topic', ref, me.w.wallet)
    await until(() => deep(el, '[part~="edit"]'), 'loaded')
    await expectKeyboardReachable(el)
  })

  it('issue 6 rule 8 "parts on the main regions of every element"', async () => {
    await makeVk()
    const el = await mount('topic', freshRef('topic'))
    await until(() => deep(el, '[part~="empty"]'), 'empty')
    expectParts(el, ['thread', 'composer', 'input', 'submit', 'hint', 'new-bar', 'empty'])
  })
})
