/** `<vk-follow-button>` against the running reference service (issue 7 rule 7, spec §2.12 useFollow). */
import { expect, fixture, html, oneEvent } from '@open-wc/testing'
import '../../src/elements/follow-button/follow-button.ts'
import type { VkFollowButton } from '../../src/elements/follow-button/follow-button.element.ts'
import { freshRef } from '../sdk/harness.ts'
import { sendKeys } from '@web/test-runner-commands'
import { deep, deepActive, disposeVk, isPath, makeVk, service, until } from './elements-env.ts'

const btn = (el: Element) => deep<HTMLButtonElement>(el, 'button[part="button"]')!
const pressed = (el: Element) => btn(el)?.getAttribute('aria-pressed')
const follows = (reqs: { method: string; url: URL }[]) => reqs.filter((r) => r.url.pathname.startsWith('/v1/social/follows/') && r.method !== 'GET')

async function button(ref: string) {
  return fixture<VkFollowButton>(html`<vk-follow-button subject-type="category" subject-ref=${ref}></vk-follow-button>`)
}

/** The page's context, and a fresh wallet that already follows a fresh category (through its own client, `probe`). */
async function alreadyFollowing() {
  const vk = await makeVk()
  const s = await service()
  const w = s.wallet()
  const ref = freshRef('follow')
  const probe = await s.signedIn({}, w)
  await probe.follow('category', ref)
  return { vk, w, ref, probe }
}

describe('<vk-follow-button>', () => {
  afterEach(() => disposeVk())

  it('issue 7 rule 7 "survives login and logout without ever unfollowing on its own (refreshKey)"', async () => {
    const vk = await makeVk()
    const s = await service()
    const w = s.wallet()
    const ref = freshRef('follow')
    await vk.signIn(w)
    const el = await button(ref)
    await until(() => pressed(el) === 'false', 'not following yet')
    btn(el).click()
    await until(() => pressed(el) === 'true', 'following after the click')
    const probe = await s.signedIn({}, w)
    expect((await probe.followState('category', ref)).following).to.equal(true)

    const writesBefore = follows(vk.faults.requests).length
    await vk.signOut()
    await until(() => !btn(el).hasAttribute('aria-pressed') && btn(el).textContent!.includes('Follow'), 'signed-out look')
    await vk.signIn(w)
    await until(() => pressed(el) === 'true', 'following again after the new login')
    await vk.signOut()
    await vk.signIn(w)
    await until(() => pressed(el) === 'true', 'following after a second round')
    // Nothing was written by the logins and logouts: the follow stands on the service.
    expect(follows(vk.faults.requests).length).to.equal(writesBefore)
    expect((await probe.followState('category', ref)).following).to.equal(true)
  })

  it('a failed read of the follow state says so with a Retry (never a silent, dead Follow); Retry reads it again', async () => {
    const { vk, w, ref } = await alreadyFollowing()
    const stop = vk.faults.fail(isPath(`/v1/social/follows/category/${ref}`, 'GET'))
    await vk.signIn(w)
    const el = await button(ref)
    await until(() => deep(el, '[part="retry"]'), 'the read failure and its Retry')
    expect(deep(el, '[part="error"]')!.textContent).to.include("Couldn't check whether you follow this.")
    expect(btn(el).getAttribute('aria-disabled')).to.equal('true')
    await expect(el).to.be.accessible()
    stop()
    deep<HTMLButtonElement>(el, '[part="retry"]')!.click()
    await until(() => pressed(el) === 'true' && !deep(el, '[part="error"]'), 'following, read on Retry')
  })

  it('issue 7 rule 7 "without ever unfollowing on its own": a click while the new session\'s state is being read does nothing', async () => {
    const { vk, w, ref, probe } = await alreadyFollowing()
    const el = await button(ref)
    await until(() => btn(el)?.textContent!.includes('Follow'), 'signed-out button')
    // The next state read is held: the button must not act on the latched value.
    const release = vk.faults.hold(isPath(`/v1/social/follows/category/${ref}`, 'GET'))
    await vk.signIn(w)
    await until(() => btn(el).getAttribute('aria-disabled') === 'true' && btn(el).getAttribute('aria-busy') === 'true', 'busy while the state is read')
    btn(el).click()
    btn(el).dispatchEvent(new MouseEvent('click', { bubbles: true, composed: true }))
    await new Promise((r) => setTimeout(r, 100))
    expect(follows(vk.faults.requests)).to.deep.equal([])
    release()
    await until(() => pressed(el) === 'true', 'following once read')
    expect((await probe.followState('category', ref)).following).to.equal(true)
  })

  it('issue 7 rule 7: pressing Following unfollows, and the service agrees', async () => {
    const { vk, w, ref, probe } = await alreadyFollowing()
    await vk.signIn(w)
    const el = await button(ref)
    await until(() => pressed(el) === 'true', 'following')
    expect(btn(el).textContent).to.include('Following')
    const changed = oneEvent(el, 'vk-follow-change')
    btn(el).click()
    expect((await changed).detail).to.deep.equal({ subjectType: 'category', subjectRef: ref, following: false })
    await until(() => pressed(el) === 'false', 'not following')
    expect((await probe.followState('category', ref)).following).to.equal(false)
  })

  it('keyboard: Follow keeps focus while it is written (aria-disabled, never disabled), so Space right after toggles it back', async () => {
    const vk = await makeVk()
    const s = await service()
    const w = s.wallet()
    const ref = freshRef('follow')
    const probe = await s.signedIn({}, w)
    await vk.signIn(w)
    const el = await button(ref)
    await until(() => pressed(el) === 'false', 'not following')
    btn(el).focus()
    const release = vk.faults.hold(isPath(`/v1/social/follows/category/${ref}`, 'PUT'))
    await sendKeys({ press: 'Enter' })
    await until(() => btn(el).getAttribute('aria-busy') === 'true', 'busy while the follow is written')
    expect(btn(el).getAttribute('aria-disabled')).to.equal('true')
    expect(deepActive(), 'focus stays on the busy button, not the page body').to.equal(btn(el))
    // Pressed again while busy: nothing is written twice.
    await sendKeys({ press: 'Space' })
    release()
    await until(() => pressed(el) === 'true' && btn(el).getAttribute('aria-busy') === 'false', 'following')
    expect(follows(vk.faults.requests).map((r) => r.method)).to.deep.equal(['PUT'])
    expect(deepActive(), 'focus after the follow').to.equal(btn(el))
    expect((await probe.followState('category', ref)).following).to.equal(true)
    await sendKeys({ press: 'Space' })
    await until(() => pressed(el) === 'false', 'unfollowed by Space')
    expect(deepActive()).to.equal(btn(el))
    expect((await probe.followState('category', ref)).following).to.equal(false)
    expect(follows(vk.faults.requests).map((r) => r.method)).to.deep.equal(['PUT', 'DELETE'])
  })

  it('issue 7 rule 7: signed out, a click asks the page to sign in (vk-sign-in) and writes nothing', async () => {
    const vk = await makeVk()
    const el = await button(freshRef('follow'))
    await until(() => btn(el), 'button')
    const asked = oneEvent(el, 'vk-sign-in')
    btn(el).click()
    await asked
    expect(follows(vk.faults.requests)).to.deep.equal([])
  })

  it('issue 7 "accessible in its loaded, empty, error states": following, not following, and a failed write', async () => {
    const vk = await makeVk()
    const s = await service()
    await vk.signIn(s.wallet())
    const el = await button(freshRef('follow'))
    await until(() => pressed(el) === 'false', 'loaded (not following)')
    await expect(el).to.be.accessible()
    const off = vk.faults.fail(isPath('/v1/social/follows/', 'PUT'))
    btn(el).click()
    await until(() => deep(el, '[part="error"]'), 'error line')
    expect(pressed(el)).to.equal('false')
    await expect(el).to.be.accessible()
    off()
    btn(el).click()
    await until(() => pressed(el) === 'true', 'loaded (following)')
    await expect(el).to.be.accessible()
  })

  it('a failed follow\'s line belongs to its reader and its subject: it goes when another reader signs in, when the button is pointed at another subject, and an answer for a previous subject shows nothing', async () => {
    const vk = await makeVk()
    const s = await service()
    await vk.signIn(s.wallet())
    const el = await button(freshRef('follow'))
    await until(() => pressed(el) === 'false', 'loaded')
    const off = vk.faults.fail(isPath('/v1/social/follows/', 'PUT'))
    btn(el).click()
    await until(() => deep(el, '[part="error"]'), 'error line')
    // Another subject: the line goes.
    el.subjectRef = freshRef('follow')
    await until(() => pressed(el) === 'false' && !deep(el, '[part="error"]'), 'the new subject, without the old failure')
    btn(el).click()
    await until(() => deep(el, '[part="error"]'), 'error line again')
    // Another reader: the line goes.
    await vk.signIn(s.wallet())
    await until(() => pressed(el) === 'false' && !deep(el, '[part="error"]'), "the new reader's state, without the old reader's failure")
    // A failure that lands after the subject changed is not shown for the new subject.
    off()
    const release = vk.faults.hold(isPath('/v1/social/follows/', 'PUT'), 500)
    btn(el).click()
    await el.updateComplete
    el.subjectRef = freshRef('follow')
    await until(() => pressed(el) === 'false', 'the next subject loaded')
    release()
    await new Promise((r) => setTimeout(r, 150))
    expect(!!deep(el, '[part="error"]')).to.equal(false)
  })

  it('§9.3 without a client provider it renders nothing', async () => {
    disposeVk()
    const el = await button(freshRef('follow'))
    expect(!!el.shadowRoot!.querySelector('button')).to.equal(false)
  })
})
