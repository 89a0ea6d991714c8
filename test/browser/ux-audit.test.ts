/**
 * The UX audit in real Chromium (the demo driven by keyboard, at 320 CSS px, in forced colours): each test is a
 * defect a venue's user met, reproduced against the running reference service, with real key presses.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing'
import { emulateMedia, executeServerCommand, sendKeys } from '@web/test-runner-commands'
import '../../src/elements/platform-provider/platform-provider.ts'
import '../../src/elements/take-prompt/take-prompt.ts'
import '../../src/elements/take-card/take-card.ts'
import '../../src/elements/author-takes/author-takes.ts'
import '../../src/elements/moderation-queue/moderation-queue.ts'
import '../../src/elements/comments/comments.ts'
import type { VkTakePrompt } from '../../src/elements/take-prompt/take-prompt.element.ts'
import type { VkTakeCard } from '../../src/elements/take-card/take-card.element.ts'
import type { VkAuthorTakes } from '../../src/elements/author-takes/author-takes.element.ts'
import type { VkModerationQueue } from '../../src/elements/moderation-queue/moderation-queue.element.ts'
import type { VkComments } from '../../src/elements/comments/comments.element.ts'
import type { Post } from '../../src/contract/types.ts'
import { deep, deepActive, deepAll, deepText, disposeVk, plain, isPath, makeVk, service, setProfile, until } from './elements-env.ts'

const clearPromptMemory = () => Object.keys(localStorage).filter((k) => k.startsWith('vk:take-prompt')).forEach((k) => localStorage.removeItem(k))

/** A button inside another element's open shadow root (the market page's `<vk-follow-button>` before the prompt). */
function shadowButton(text: string) {
  const host = document.createElement('div')
  const b = document.createElement('button')
  b.textContent = text
  host.attachShadow({ mode: 'open' }).append(b)
  return { host, button: b }
}

/** Whether `el` draws a bottom border a reader can see (forced colours paint every border in a system colour). */
const bottomBorder = (el: Element) => {
  const s = getComputedStyle(el)
  return s.borderBottomStyle !== 'none' && parseFloat(s.borderBottomWidth) > 0
}

describe('UX audit (keyboard, reflow, forced colours)', () => {
  afterEach(async () => {
    disposeVk()
    clearPromptMemory()
    await executeServerCommand('vk-forced-colors', { active: false })
    await emulateMedia({ reducedMotion: 'no-preference' })
  })

  it('§3.4 and §1.10 "focus goes back where it came from": Tab from a control inside another element (Follow) into the take prompt, post or Skip, and focus is back on that control, not lost to the page\'s body', async () => {
    await executeServerCommand('vk-focus-page')
    clearPromptMemory()
    const vk = await makeVk()
    const s = await service()
    const w = s.wallet()
    await vk.signIn(w)
    const market = await s.addMarket({ prices: [4000, 6000], title: 'Rain in Lisbon on Friday?' })
    await s.setPosition(w.wallet, market.id, 0, '2500')
    await s.setPosition(w.wallet, market.id, 1, '100')
    const follow = shadowButton('Follow')
    const box = await fixture(html`<div>${follow.host}<vk-platform-provider .venuekit=${vk}><vk-take-prompt></vk-take-prompt></vk-platform-provider></div>`)
    const el = box.querySelector('vk-take-prompt') as VkTakePrompt
    const isOpen = () => !!deep(el, '[part="prompt"]')

    // Posted: Tab from Follow into the reason, Tab to Post take, Enter.
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(isOpen, 'the prompt after the buy')
    follow.button.focus()
    await sendKeys({ press: 'Tab' })
    expect(deepActive(), 'Tab from Follow reaches the reason').to.equal(deep(el, 'textarea'))
    await sendKeys({ type: 'ETF inflows' })
    await sendKeys({ press: 'Tab' })
    const posted = oneEvent(el, 'vk-take-prompt-answered')
    await sendKeys({ press: 'Enter' })
    expect((await posted).detail.answer).to.equal('posted')
    await until(() => !isOpen(), 'closed by the take')
    await until(() => deepActive() !== deep(el, '[part="post"]'), 'the prompt gone')
    expect(deepActive(), 'after posting, focus is not lost to the body').to.not.equal(document.body)
    expect(deepActive(), 'after posting, focus is back on Follow').to.equal(follow.button)

    // Skipped with Escape: the same.
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 1 })
    await until(isOpen, 'the prompt after the other side bought')
    follow.button.focus()
    await sendKeys({ press: 'Tab' })
    expect(deepActive()).to.equal(deep(el, 'textarea'))
    await sendKeys({ press: 'Escape' })
    await until(() => !isOpen(), 'closed by Escape')
    expect(deepActive(), 'after Escape, focus is back on Follow').to.equal(follow.button)
  })

  it('WCAG 1.4.11 / forced colours: the selected tab of a profile stays marked in forced-colors mode (only it is underlined), and each post action button (Agree, Reply) keeps a visible edge', async () => {
    await makeVk()
    const s = await service()
    const a = await s.signedIn()
    const m = await s.addMarket({ prices: [4000, 6000] })
    await s.setPosition(a.w.wallet, m.id, 0, '1000')
    await a.createPost('event', m.id, 'because')
    const el = await fixture<VkAuthorTakes>(html`<vk-author-takes wallet=${a.w.wallet}></vk-author-takes>`)
    await until(() => deep(el, '[role="tab"][aria-selected="true"]') && deep(el, 'vk-take-card'), 'the profile with its take')
    const card = deep<VkTakeCard>(el, 'vk-take-card')!
    await until(() => deep(card, '[part~="agree"]'), 'the card\'s actions')
    await executeServerCommand('vk-forced-colors', { active: true })
    expect(matchMedia('(forced-colors: active)').matches, 'forced colours emulated').to.equal(true)
    const selected = deep(el, '[role="tab"][aria-selected="true"]')!
    const others = deepAll(el, '[role="tab"][aria-selected="false"]')
    expect(others.length).to.be.greaterThan(0)
    expect(bottomBorder(selected), 'the selected tab is underlined').to.equal(true)
    for (const t of others) expect(bottomBorder(t), `the unselected tab ${t.id} is not underlined like the selected one`).to.equal(false)
    for (const b of deepAll(card, 'button.action')) {
      const st = getComputedStyle(b)
      expect(st.borderTopStyle !== 'none' && parseFloat(st.borderTopWidth) > 0, `${b.getAttribute('part')} has an edge in forced colours`).to.equal(true)
    }
  })

  it('WCAG 2.3.3 / prefers-reduced-motion: with reduced motion nothing in a take card moves (its highlight\'s background transition is instant, like the skeleton\'s pulse)', async () => {
    await makeVk()
    const s = await service()
    const a = await s.signedIn()
    const m = await s.addMarket()
    const post = await a.createPost('event', m.id, 'because')
    await emulateMedia({ reducedMotion: 'reduce' })
    expect(matchMedia('(prefers-reduced-motion: reduce)').matches, 'reduced motion emulated').to.equal(true)
    const card = await fixture<VkTakeCard>(html`<vk-take-card .post=${post} highlight></vk-take-card>`)
    await until(() => deep(card, '[part~="card"]'), 'the card')
    for (const x of deepAll(card, '*')) {
      const st = getComputedStyle(x)
      const moves = st.transitionDuration.split(',').some((d) => parseFloat(d) > 0) || st.animationName !== 'none'
      expect(moves, `${x.outerHTML.slice(0, 60)} does not move (transition ${st.transitionDuration}, animation ${st.animationName})`).to.equal(false)
    }
  })

  it('WCAG 1.4.11 / forced colours: the loading skeleton\'s bars stay visible in forced-colors mode (each keeps an edge once forced colours remove its background)', async () => {
    const vk = await makeVk()
    const s = await service()
    const m = await s.addMarket()
    const release = vk.faults.hold(isPath('/v1/social/posts'))
    try {
      const el = await fixture<VkComments>(html`<vk-comments subject-type="event" subject-ref=${m.id}></vk-comments>`)
      await until(() => deep(el, '[part~="loading"]'), 'the skeleton')
      await executeServerCommand('vk-forced-colors', { active: true })
      expect(matchMedia('(forced-colors: active)').matches, 'forced colours emulated').to.equal(true)
      const bars = deepAll(el, '.vk-skeleton span')
      expect(bars.length).to.be.greaterThan(0)
      for (const b of bars) {
        const st = getComputedStyle(b)
        expect(st.borderTopStyle !== 'none' && parseFloat(st.borderTopWidth) > 0, 'a skeleton bar has an edge in forced colours').to.equal(true)
        expect(st.borderTopColor, 'its edge is painted (not transparent)').to.not.equal('rgba(0, 0, 0, 0)')
        expect(st.borderTopColor, 'its edge differs from its background').to.not.equal(st.backgroundColor)
      }
    } finally {
      release()
    }
  })

  it('WCAG 2.4.11 focus not obscured: Shift+Tab up a thread scrolled under its sticky "N new" bar never leaves the focused control under the bar', async () => {
    await makeVk()
    const s = await service()
    const m = await s.addMarket()
    const author = await s.signedIn()
    for (let i = 0; i < 6; i++) await author.createPost('event', m.id, `take ${i}`)
    const box = await fixture(html`<div style="height: 300px; overflow: auto"><vk-comments subject-type="event" subject-ref=${m.id}></vk-comments></div>`)
    const el = box.querySelector('vk-comments') as VkComments
    await until(() => deepAll(el, '[part~="row"]').length === 6 && deep(el, '[part~="agree"]'), 'the thread')
    // Let the thread's stream subscription settle (it is made when the thread mounts).
    await new Promise((r) => setTimeout(r, 300))
    await author.createPost('event', m.id, 'arrived live')
    const bar = deep(el, '[part~="new-bar"]')!
    await until(() => deepText(bar).includes('1 new post'), 'the "1 new post" bar', 10_000)
    const barButton = bar.querySelector('button')!
    await el.updateComplete
    box.scrollTop = box.scrollHeight
    const controls = deepAll(el, '[part~="list"] vk-take-card').flatMap((c) => deepAll(c, 'button'))
    controls.at(-1)!.focus()
    let seen = 0
    for (let i = 0; i < 40; i++) {
      await sendKeys({ down: 'Shift' })
      await sendKeys({ press: 'Tab' })
      await sendKeys({ up: 'Shift' })
      const f = deepActive()
      if (!f || !controls.includes(f as HTMLButtonElement)) break
      seen++
      const fr = f.getBoundingClientRect()
      const br = barButton.getBoundingClientRect()
      expect(fr.top >= br.bottom || fr.bottom <= br.top, `${f.getAttribute('part')} (${Math.round(fr.top)}–${Math.round(fr.bottom)}) is not under the bar (${Math.round(br.top)}–${Math.round(br.bottom)})`).to.equal(true)
    }
    expect(seen, 'Shift+Tab went up through the cards').to.be.greaterThan(6)
  })

  it('WCAG 1.4.10 reflow: at 320 CSS px the moderation queue wraps an author\'s longest name (40 characters, no spaces) instead of scrolling sideways', async () => {
    const vk = await makeVk()
    const s = await service()
    const owner = s.wallet()
    const v = await s.venue({ owner })
    const author = await s.signedIn({ venueId: v.venueId })
    await setProfile(author.session!.token, { name: 'Maximiliana'.repeat(4).slice(0, 40) })
    const reporter = await s.signedIn({ venueId: v.venueId })
    const market = await s.addMarket()
    const p = await author.createPost('event', market.id, 'post')
    await reporter.reportPost(p.id, 'spam')
    await vk.signIn(owner)
    const box = await fixture(html`<div style="width: 288px"><vk-moderation-queue venue-id=${v.venueId}></vk-moderation-queue></div>`)
    const el = box.querySelector('vk-moderation-queue') as VkModerationQueue
    await until(() => deep(el, '.author')?.textContent?.startsWith('Maximiliana'), 'the row with the author\'s name')
    const ban = deep<HTMLButtonElement>(el, 'button[data-action="ban"]')!
    ban.click()
    await until(() => deep(el, '[part="confirm"]'), 'the Ban confirmation naming the author')
    const right = box.getBoundingClientRect().right
    for (const part of deepAll(el, '[part="row"] *')) {
      expect(Math.round(part.getBoundingClientRect().right), `${part.outerHTML.slice(0, 60)} stays inside the 288 px column`).to.be.at.most(Math.round(right))
    }
  })
})

describe('UX audit: keyboard in the take prompt', () => {
  afterEach(() => {
    disposeVk()
    clearPromptMemory()
  })

  it('§3.4 "posting the reason writes a take" with the keyboard like every composer: Ctrl+Enter in the reason posts it', async () => {
    clearPromptMemory()
    const vk = await makeVk()
    const s = await service()
    const w = s.wallet()
    await vk.signIn(w)
    const market = await s.addMarket({ prices: [4000, 6000] })
    await s.setPosition(w.wallet, market.id, 0, '2500')
    const el = await fixture<VkTakePrompt>(html`<vk-platform-provider .venuekit=${vk}><vk-take-prompt></vk-take-prompt></vk-platform-provider>`).then((p) => p.querySelector('vk-take-prompt') as VkTakePrompt)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => deep(el, 'textarea'), 'the prompt after the buy')
    deep<HTMLTextAreaElement>(el, 'textarea')!.focus()
    await sendKeys({ type: 'ETF inflows' })
    const answers: string[] = []
    el.addEventListener('vk-take-prompt-answered', (e) => answers.push((e as CustomEvent<{ answer: string }>).detail.answer))
    await sendKeys({ down: 'Control' })
    await sendKeys({ press: 'Enter' })
    await sendKeys({ up: 'Control' })
    await until(() => answers.length, 'answered by Ctrl+Enter')
    expect(answers).to.deep.equal(['posted'])
    await until(() => !deep(el, '[part="prompt"]'), 'closed by the take')
  })
})

describe('UX audit: live regions', () => {
  afterEach(() => disposeVk())

  it('issue 7 rule 3 "each shows pending, then the result" (announced in the status line): a second Keep in a row is announced again, though its sentence is the same as the first\'s', async () => {
    const vk = await makeVk()
    const s = await service()
    const owner = s.wallet()
    const v = await s.venue({ owner })
    const author = await s.signedIn({ venueId: v.venueId })
    const reporter = await s.signedIn({ venueId: v.venueId })
    const market = await s.addMarket()
    const posts: Post[] = []
    for (const body of ['first', 'second']) {
      const p = await author.createPost('event', market.id, body)
      await reporter.reportPost(p.id, 'spam')
      posts.push(p)
    }
    await vk.signIn(owner)
    const el = await fixture<VkModerationQueue>(html`<vk-moderation-queue venue-id=${v.venueId}></vk-moderation-queue>`)
    const rowOf = (id: string) => deep(el, `#vk-post-${id}`)
    await until(() => rowOf(posts[0].id) && rowOf(posts[1].id), 'both reported posts')
    const line = deep(el, '[part="status"]')!
    // What a screen reader is told: each time the polite line's text is set (a change of its content).
    const said: string[] = []
    new MutationObserver(() => said.push(plain(line.textContent).trim())).observe(line, { childList: true, subtree: true, characterData: true })
    for (const p of posts) {
      deep<HTMLButtonElement>(rowOf(p.id)!, 'button[data-action="keep"]')!.click()
      await until(() => !rowOf(p.id), `${p.body} kept, and gone from Open`)
    }
    await until(() => said.filter((t) => t === 'Keep: done').length >= 2, `"Keep: done" said twice (said: ${JSON.stringify(said)})`)
  })
})
