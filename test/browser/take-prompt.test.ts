/**
 * `<vk-take-prompt>` inside `<vk-platform-provider>` against the running reference service: every transition
 * of the §3.4 state machine, a reload before answering, the one-tap skip (§1.10) and the server-proven take.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing'
import { executeServerCommand, sendKeys } from '@web/test-runner-commands'
import '../../src/elements/platform-provider/platform-provider.ts'
import '../../src/elements/take-prompt/take-prompt.ts'
import '../../src/elements/strings-provider/strings-provider.ts'
import '../../src/elements/locales/es.ts'
import { failuresEs } from '../../src/elements/shared/strings/failures.es.ts'
import type { VkTakePrompt } from '../../src/elements/take-prompt/take-prompt.element.ts'
import type { Market } from '../../src/contract/types.ts'
import { deep, deepActive, deepText, disposeVk, isPath, makeVk, service, until } from './elements-env.ts'
import { armXssTrap, expectInert, XSS_PAYLOADS, XSS_SHORT } from './xss-corpus.ts'
import type { TestWallet } from '../sdk/harness.ts'

type Vk = Awaited<ReturnType<typeof makeVk>>

const clearPromptMemory = () => Object.keys(localStorage).filter((k) => k.startsWith('vk:take-prompt')).forEach((k) => localStorage.removeItem(k))

/** The page: a platform provider holding the context, and the prompt inside it. */
async function page(vk: Vk, outcomeLabel?: string, marketId?: string) {
  const box = await fixture(
    html`<vk-platform-provider .venuekit=${vk}><vk-take-prompt outcome-label=${outcomeLabel ?? ''} market-id=${marketId ?? ''}></vk-take-prompt></vk-platform-provider>`,
  )
  return box.querySelector('vk-take-prompt') as VkTakePrompt
}
const isOpen = (el: Element) => !!deep(el, '[part="prompt"]')
const title = (el: Element) => deepText(deep(el, '[part="title"]')!)
const marketLine = (el: Element) => deepText(deep(el, '[part="market"]')!)
const status = (el: Element) => deepText(deep(el, '[part="status"]')!)

/** A signed-in buyer holding side `side` of a fresh market. */
async function buyer(vk: Vk, o: { side?: number; market?: Record<string, unknown>; wallet?: TestWallet } = {}) {
  const s = await service()
  const w = o.wallet ?? s.wallet()
  if (!vk.$session.get()) await vk.signIn(w)
  const market: Market = await s.addMarket({ prices: [4000, 6000], ...o.market })
  await s.setPosition(w.wallet, market.id, o.side ?? 0, '2500')
  return { s, w, market }
}

describe('<vk-take-prompt> (§3.4)', () => {
  beforeEach(clearPromptMemory)
  afterEach(() => {
    disposeVk()
    clearPromptMemory()
  })

  it('§3.4 "closed → settled buy from the checkout drawer, no answer yet for this wallet, market and side → open"', async () => {
    const vk = await makeVk()
    const { w, market } = await buyer(vk)
    const el = await page(vk)
    expect(isOpen(el)).to.equal(false)
    // Closed, nothing shows: only the empty live line that announces it when a buy opens it.
    expect(deepText(el)).to.equal('')
    expect([...el.shadowRoot!.children].map((c) => c.getAttribute('part'))).to.deep.equal(['status'])
    await expect(el.parentElement!).to.be.accessible()
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el) && title(el) === 'Why Yes?', 'open, with the side from the market')
    await expect(el).to.be.accessible()
  })

  it('§3.4 "closed → silent one-tap send → closed (never opens)"', async () => {
    const vk = await makeVk()
    const { w, market } = await buyer(vk)
    const el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0, silent: true })
    await new Promise((r) => setTimeout(r, 150))
    expect(isOpen(el)).to.equal(false)
  })

  it('§3.4 "open → Skip → answered; remembered across reloads" and §1.10 "a skip is always one tap"', async () => {
    let vk = await makeVk()
    const { w, market } = await buyer(vk)
    let el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el), 'open')
    const answered = oneEvent(el, 'vk-take-prompt-answered')
    deep<HTMLButtonElement>(el, '[part="skip"]')!.click()
    expect((await answered).detail).to.deep.equal({ marketId: market.id.toLowerCase(), side: 0, answer: 'skipped' })
    await until(() => !isOpen(el), 'closed after one tap')
    // Reload: a new page context over the same storage; the same buy does not ask again.
    vk = await makeVk()
    await vk.signIn(w)
    el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await new Promise((r) => setTimeout(r, 150))
    expect(isOpen(el)).to.equal(false)
  })

  it('§3.4 "open → a posted take → answered": posting the reason creates a take whose stance the server proves', async () => {
    const vk = await makeVk()
    const { s, w, market } = await buyer(vk, { side: 1 })
    const el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 1 })
    await until(() => isOpen(el) && title(el) === 'Why No?', 'open on No')
    const field = deep<HTMLTextAreaElement>(el, 'textarea')!
    field.value = 'the forecast is dry'
    const created = oneEvent(el, 'vk-post-created')
    const answered = oneEvent(el, 'vk-take-prompt-answered')
    deep<HTMLButtonElement>(el, '[part="post"]')!.click()
    const post = (await created).detail.post
    expect((await answered).detail.answer).to.equal('posted')
    await until(() => !isOpen(el), 'closed')
    expect(post.stance).to.deep.equal({ side: 1, size: '2500', priceBps: 6000 })
    const thread = await s.client().posts('event', market.id)
    expect(thread.posts.map((p) => [p.body, p.stance?.side])).to.deep.equal([['the forecast is dry', 1]])
    // Remembered: the same buy again does not ask.
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 1 })
    await new Promise((r) => setTimeout(r, 100))
    expect(isOpen(el)).to.equal(false)
  })

  it('keyboard: Post keeps focus while the take is sent (aria-disabled and busy, never disabled; the field read-only), and a second press sends nothing', async () => {
    const vk = await makeVk()
    const { w, market } = await buyer(vk, { side: 0 })
    const el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el), 'open')
    const field = deep<HTMLTextAreaElement>(el, 'textarea')!
    field.value = 'sent by keyboard'
    const post = deep<HTMLButtonElement>(el, '[part="post"]')!
    const release = vk.faults.hold(isPath('/v1/social/posts', 'POST'))
    post.focus()
    await sendKeys({ press: 'Enter' })
    await until(() => post.getAttribute('aria-busy') === 'true', 'posting')
    expect(post.getAttribute('aria-disabled')).to.equal('true')
    expect(post.disabled).to.equal(false)
    expect(field.readOnly && !field.disabled).to.equal(true)
    expect(deepActive()).to.equal(post)
    await sendKeys({ press: 'Enter' })
    release()
    await until(() => !isOpen(el), 'posted and answered')
    expect(vk.faults.requests.filter((r) => r.method === 'POST' && r.url.pathname === '/v1/social/posts')).to.have.length(1)
  })

  it('§1.4 the stance is the account\'s largest position: a buyer of No who holds more Yes is told, before posting, that the take will show Yes (in the field\'s description, replaceable, in the locale)', async () => {
    const vk = await makeVk()
    const { s, w, market } = await buyer(vk, { side: 0 })
    await s.setPosition(w.wallet, market.id, 1, '100')
    const box = await fixture(html`<vk-strings-provider locale="es"><vk-platform-provider .venuekit=${vk}><vk-take-prompt></vk-take-prompt></vk-platform-provider></vk-strings-provider>`)
    const es = box.querySelector('vk-take-prompt') as VkTakePrompt
    const el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 1 })
    const notice = () => deep(el, '[part="other-side"]')
    await until(() => isOpen(el) && title(el) === 'Why No?' && !!notice(), 'open on No, with the notice')
    expect(deepText(notice()!)).to.equal('Your larger position here is Yes, so this take will show Yes.')
    expect(deep(el, 'textarea')!.getAttribute('aria-describedby')!.split(' ').includes(notice()!.id)).to.equal(true)
    await until(() => !!deep(es, '[part="other-side"]'), 'Spanish notice')
    expect(deepText(deep(es, '[part="other-side"]')!)).to.equal('Tu posición mayor aquí es Yes, así que esta opinión mostrará Yes.')
    el.strings = { promptOtherSide: 'Heads up: posts as {side}.' }
    await until(() => deepText(notice()!) === 'Heads up: posts as Yes.', 'replaced string')
    await expect(el).to.be.accessible()
    // The post is what it said: a Yes take.
    deep<HTMLTextAreaElement>(el, 'textarea')!.value = 'a hedge'
    const created = oneEvent(el, 'vk-post-created')
    deep<HTMLButtonElement>(el, '[part="post"]')!.click()
    expect((await created).detail.post.stance.side).to.equal(0)
  })

  it('§1.4 a buyer whose largest position is the side bought sees no such notice', async () => {
    const vk = await makeVk()
    const { w, market } = await buyer(vk, { side: 1 })
    const el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 1 })
    await until(() => isOpen(el) && title(el) === 'Why No?', 'open on No')
    await new Promise((r) => setTimeout(r, 300))
    expect(!!deep(el, '[part="other-side"]')).to.equal(false)
    expect(deep(el, 'textarea')!.getAttribute('aria-describedby')).to.equal('hint')
  })

  it('§3.4 "open → reload without answer → asks again"', async () => {
    let vk = await makeVk()
    const { w, market } = await buyer(vk)
    let el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el), 'open')
    vk = await makeVk()
    await vk.signIn(w)
    el = await page(vk)
    await until(() => isOpen(el) && title(el) === 'Why Yes?', 'open again after the reload, nothing bought since')
  })

  it('§3.4 "answered → buy of the other side, or of another market → open"', async () => {
    const vk = await makeVk()
    const { s, w, market } = await buyer(vk)
    const el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el), 'open')
    deep<HTMLButtonElement>(el, '[part="skip"]')!.click()
    await until(() => !isOpen(el), 'answered')
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 1 })
    await until(() => isOpen(el) && title(el) === 'Why No?', 'open for the other side')
    deep<HTMLButtonElement>(el, '[part="skip"]')!.click()
    await until(() => !isOpen(el), 'answered again')
    const other = await s.addMarket({ outcomes: [{ label: 'Up' }, { label: 'Down', displayLabel: 'Below' }] })
    vk.buySettled({ wallet: w.wallet, marketId: other.id, side: 1 })
    await until(() => isOpen(el) && title(el) === 'Why Below?', 'open for another market (displayLabel over label)')
  })

  it('issue 7 rule 2: `outcome-label` names the side as the venue shows it (on the prompt of its `market-id`)', async () => {
    const vk = await makeVk()
    const { w, market } = await buyer(vk)
    const el = await page(vk, 'Rain', market.id)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el), 'open')
    expect(title(el)).to.equal('Why Rain?')
  })

  it('§3.4 the prompt asks about the "wallet, market and side" bought: a venue `outcome-label` that is another side\'s label or displayLabel on that market (set for one side, then the other bought) gives way to the bought side\'s; the same label on its own side is used', async () => {
    const vk = await makeVk()
    const { s, w } = await buyer(vk)
    const m = await s.addMarket({ outcomes: [{ label: 'Yes', displayLabel: 'Above' }, { label: 'No', displayLabel: 'Below' }] })
    const el = await page(vk, 'Above', m.id)
    vk.buySettled({ wallet: w.wallet, marketId: m.id, side: 1 })
    await until(() => isOpen(el) && title(el) === 'Why Below?', 'the side bought, not the venue label of the other side')
    el.outcomeLabel = 'Yes'
    await el.updateComplete
    expect(title(el)).to.equal('Why Below?', "another side's label too")
    deep<HTMLButtonElement>(el, '[part="skip"]')!.click()
    await until(() => !isOpen(el), 'answered')
    vk.buySettled({ wallet: w.wallet, marketId: m.id, side: 0 })
    await until(() => isOpen(el), 'open for the other side')
    expect(title(el)).to.equal('Why Yes?', "the venue's label on its own side (its label, where the market shows Above)")
  })

  it('issue 7 rule 2: a failed post keeps the prompt open with the reason, and Skip still answers in one tap', async () => {
    const vk = await makeVk()
    const { w, market } = await buyer(vk)
    const el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el), 'open')
    await expect(el).to.be.accessible()
    vk.faults.fail(isPath('/v1/social/posts', 'POST'))
    deep<HTMLTextAreaElement>(el, 'textarea')!.value = 'will it post?'
    deep<HTMLButtonElement>(el, '[part="post"]')!.click()
    await until(() => deep(el, '[part="error"]'), 'failure shown')
    expect(deepText(deep(el, '[part="error"]')!)).to.include("Couldn't post your take.")
    expect(isOpen(el)).to.equal(true)
    expect(deep<HTMLTextAreaElement>(el, 'textarea')!.value).to.equal('will it post?')
    await expect(el).to.be.accessible()
    deep<HTMLButtonElement>(el, '[part="skip"]')!.click()
    await until(() => !isOpen(el), 'skipped')
  })

  it('§1.10 "Skipping the reason must always be possible": with the market unreadable (its labels and title unknown), the prompt still opens and Skip answers it in one tap, remembered', async () => {
    const vk = await makeVk()
    const { w, market } = await buyer(vk)
    vk.faults.failNetwork(isPath('/v1/markets'))
    const el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el), 'open without the market')
    await new Promise((r) => setTimeout(r, 200))
    expect(vk.takePrompt().get().outcomeLabel).to.equal(null)
    const answered = oneEvent(el, 'vk-take-prompt-answered')
    deep<HTMLButtonElement>(el, '[part="skip"]')!.click()
    expect((await answered).detail).to.deep.equal({ marketId: market.id.toLowerCase(), side: 0, answer: 'skipped' })
    await until(() => !isOpen(el), 'closed after one tap')
    expect(vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })).to.equal(false)
  })

  it('§3.4 "open → … answered by Skip or a posted take": while the take is on its way, Skip and Escape do nothing (aria-disabled), so the prompt is answered once, by the take', async () => {
    const vk = await makeVk()
    const { w, market } = await buyer(vk)
    const el = await page(vk)
    const answers: string[] = []
    el.addEventListener('vk-take-prompt-answered', (e) => answers.push(e.detail.answer))
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el), 'open')
    const release = vk.faults.hold(isPath('/v1/social/posts', 'POST'))
    deep<HTMLTextAreaElement>(el, 'textarea')!.value = 'because of the data'
    deep<HTMLButtonElement>(el, '[part="post"]')!.click()
    await el.updateComplete
    const skip = deep<HTMLButtonElement>(el, '[part="skip"]')!
    const disabledWhilePosting = skip.getAttribute('aria-disabled')
    skip.click()
    deep(el, 'textarea')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }))
    await el.updateComplete
    const openWhilePosting = isOpen(el)
    release()
    expect(disabledWhilePosting).to.equal('true')
    expect(openWhilePosting).to.equal(true)
    await until(() => !isOpen(el), 'answered by the take')
    expect(answers).to.deep.equal(['posted'])
  })

  it('issue 7 "every visible string is replaceable": a network failure reads in the provider\'s locale (Spanish), never the SDK\'s English; the error is in vk-error', async () => {
    const vk = await makeVk()
    const { w, market } = await buyer(vk)
    const box = await fixture(html`<vk-platform-provider .venuekit=${vk}><vk-strings-provider locale="es"><vk-take-prompt></vk-take-prompt></vk-strings-provider></vk-platform-provider>`)
    const el = box.querySelector('vk-take-prompt') as VkTakePrompt
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el), 'open')
    vk.faults.failNetwork(isPath('/v1/social/posts', 'POST'))
    const failed = oneEvent(el, 'vk-error')
    deep<HTMLTextAreaElement>(el, 'textarea')!.value = '¿se publicará?'
    deep<HTMLButtonElement>(el, '[part="post"]')!.click()
    const error = (await failed).detail.error as { code: string; message: string }
    expect(error.code).to.equal('network')
    expect(error.message).to.include('Failed to fetch')
    await until(() => deep(el, '[part="error"]'), 'failure shown')
    expect(deepText(deep(el, '[part="error"]')!)).to.equal(failuresEs.failNetwork)
    expect(deepText(el)).to.not.include('Failed to fetch').and.not.include('could not be reached')
    expect(isOpen(el)).to.equal(true)
    await expect(el).to.be.accessible()
  })

  it('issue 7 "The same XSS corpus renders inert": outcome labels and reasons are text', async () => {
    const trap = armXssTrap()
    const vk = await makeVk()
    const { s, w, market } = await buyer(vk, { market: { outcomes: [{ label: XSS_SHORT.label }, { label: XSS_SHORT.label2 }] } })
    const el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el) && title(el).includes(XSS_SHORT.label), 'label as text')
    await expectInert(el)
    deep<HTMLTextAreaElement>(el, 'textarea')!.value = XSS_PAYLOADS[0]
    deep<HTMLButtonElement>(el, '[part="post"]')!.click()
    await until(() => !isOpen(el), 'posted')
    expect((await s.client().posts('event', market.id)).posts[0].body).to.equal(XSS_PAYLOADS[0])
    await new Promise((r) => setTimeout(r, 200))
    expect(trap(), 'a payload ran').to.equal(undefined)
  })

  it('§3.4 "asks once per wallet, market and side": the prompt belongs to the wallet that bought: sign-out and another wallet hide it without answering it (that wallet cannot post to it), and the buyer signing back in is asked again', async () => {
    const vk = await makeVk()
    const { s, w, market } = await buyer(vk)
    const el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el) && title(el) === 'Why Yes?', 'open for the buyer')
    const stale = vk.takePrompt().get()
    await vk.signOut()
    await until(() => !isOpen(el), 'hidden once signed out')
    // Another wallet, holding the other side of the same market: not its question.
    const other = s.wallet()
    await s.setPosition(other.wallet, market.id, 1, '1200')
    await vk.signIn(other)
    await new Promise((r) => setTimeout(r, 150))
    expect(isOpen(el), 'hidden for another wallet').to.equal(false)
    expect(deep(el, 'textarea')).to.equal(null)
    // Even a value read while the buyer was signed in answers nothing now.
    stale.skip()
    const refused = await stale.post('a No take answering a Yes question').catch((e) => e)
    expect(refused.code).to.equal('no-prompt')
    expect((await s.client().posts('event', market.id)).posts).to.deep.equal([])
    // The buyer comes back: still unanswered, so asked again.
    await vk.signOut()
    await vk.signIn(w)
    await until(() => isOpen(el) && title(el) === 'Why Yes?', 'open again for the buyer')
    deep<HTMLTextAreaElement>(el, 'textarea')!.value = 'my own reason'
    const created = oneEvent(el, 'vk-post-created')
    deep<HTMLButtonElement>(el, '[part="post"]')!.click()
    const post = (await created).detail.post
    expect([post.author.toLowerCase(), post.stance?.side]).to.deep.equal([w.wallet.toLowerCase(), 0])
    await until(() => !isOpen(el), 'answered by the buyer')
  })

  it('§3.4 the prompt names the market it asks about wherever it shows, and its side is that market\'s displayLabel ?? label (never the page\'s); with `market-id` only that market\'s prompt shows', async () => {
    const vk = await makeVk()
    const { s, w, market: btc } = await buyer(vk, { market: { title: 'Will Bitcoin trade above $150,000 by Friday?' } })
    const eth = await s.addMarket({ title: 'ETH above 4k on Friday?', outcomes: [{ label: 'Yes', displayLabel: 'Above' }, { label: 'No', displayLabel: 'Below' }] })
    const box = await fixture(html`<vk-platform-provider .venuekit=${vk}>
      <vk-take-prompt id="any"></vk-take-prompt>
      <vk-take-prompt id="eth" market-id=${eth.id} outcome-label="Above"></vk-take-prompt>
      <vk-take-prompt id="btc" market-id=${btc.id}></vk-take-prompt>
      <vk-take-prompt id="bad" market-id="not-a-market"></vk-take-prompt>
    </vk-platform-provider>`)
    const [any, onEth, onBtc, onBad] = ['any', 'eth', 'btc', 'bad'].map((id) => box.querySelector(`#${id}`) as VkTakePrompt)
    vk.buySettled({ wallet: w.wallet, marketId: btc.id, side: 0 })
    await until(() => isOpen(any) && deep(any, '[part="market"]') && isOpen(onBtc), 'open, with its market')
    expect(title(any)).to.equal('Why Yes?')
    expect(marketLine(any)).to.equal('About: Will Bitcoin trade above $150,000 by Friday?')
    // The region's name carries the market too.
    const region = deep(any, '[part="prompt"]')!
    expect(region.getAttribute('aria-labelledby')).to.equal('title market')
    // The ETH page's prompt does not ask about Bitcoin (the question stays pending for its own market).
    expect(isOpen(onEth)).to.equal(false)
    // A malformed market-id shows no prompt (and the page goes on).
    expect(isOpen(onBad)).to.equal(false)
    expect(marketLine(onBtc)).to.equal('About: Will Bitcoin trade above $150,000 by Friday?')
    await expect(any).to.be.accessible()
    deep<HTMLButtonElement>(any, '[part="skip"]')!.click()
    await until(() => !isOpen(any) && !isOpen(onBtc), 'answered everywhere')
    // A buy on ETH: Below (its displayLabel), on the unscoped prompt and on the ETH page's too, whose venue label
    // ("Above") names the other side: the question names the side bought.
    vk.buySettled({ wallet: w.wallet, marketId: eth.id, side: 1 })
    await until(() => isOpen(any) && title(any) === 'Why Below?' && deep(any, '[part="market"]'), 'open on ETH with its label')
    expect(marketLine(any)).to.equal('About: ETH above 4k on Friday?')
    expect(deepText(any)).to.not.include('Bitcoin')
    await until(() => isOpen(onEth), 'the ETH page asks too')
    expect(title(onEth)).to.equal('Why Below?')
    expect(isOpen(onBtc)).to.equal(false)
    // A static outcome-label without market-id never relabels another market's side.
    const unscoped = await page(vk, 'Yes')
    await until(() => isOpen(unscoped) && deep(unscoped, '[part="market"]'), 'open')
    expect(title(unscoped)).to.equal('Why Below?')
  })

  it('§3.4 and §1.10: a prompt opened by a buy is announced in a polite status line without taking focus; Escape is Skip (answered, remembered) and focus goes back where it came from', async () => {
    // Focus events reach only the page in front (web-test-runner.config.mjs).
    await executeServerCommand('vk-focus-page')
    let vk = await makeVk()
    const { w, market } = await buyer(vk, { market: { title: 'Rain in Lisbon on Friday?' } })
    const el = await page(vk)
    const outside = document.createElement('button')
    outside.textContent = 'Buy Yes'
    el.parentElement!.before(outside)
    outside.focus()
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el) && status(el) !== '', 'announced')
    expect(status(el)).to.equal('Take prompt: Why Yes? About: Rain in Lisbon on Friday? — add a reason, or skip.')
    expect(deep(el, '[part="status"]')!.getAttribute('role')).to.equal('status')
    expect(deepActive(), 'focus is not taken').to.equal(outside)
    // A reload without an answer asks again in place, without announcing it as new.
    vk = await makeVk()
    await vk.signIn(w)
    const again = await page(vk)
    await until(() => isOpen(again) && deep(again, '[part="market"]'), 'asked again')
    await new Promise((r) => setTimeout(r, 100))
    expect(status(again)).to.equal('')
    // Escape from the reason field skips, even with text typed.
    outside.focus()
    deep<HTMLTextAreaElement>(again, 'textarea')!.focus()
    await sendKeys({ type: 'half a thought' })
    const answered = oneEvent(again, 'vk-take-prompt-answered')
    await sendKeys({ press: 'Escape' })
    expect((await answered).detail).to.deep.equal({ marketId: market.id.toLowerCase(), side: 0, answer: 'skipped' })
    await until(() => !isOpen(again), 'closed by Escape')
    await until(() => deepActive() === outside, 'focus back on the control it came from')
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await new Promise((r) => setTimeout(r, 150))
    expect(isOpen(again), 'remembered as answered').to.equal(false)
    outside.remove()
  })

  it('issue 7 rule 2 "a failed post keeps the prompt open … and says why": the failure line is an alert (role="alert"), so it is announced when it appears', async () => {
    const vk = await makeVk()
    const { w, market } = await buyer(vk)
    const el = await page(vk)
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => isOpen(el), 'open')
    expect(!!deep(el, '[role="alert"]'), 'no alert before a failure').to.equal(false)
    vk.faults.fail(isPath('/v1/social/posts', 'POST'))
    deep<HTMLTextAreaElement>(el, 'textarea')!.value = 'will it post?'
    deep<HTMLButtonElement>(el, '[part="post"]')!.click()
    await until(() => deep(el, '[part="error"]'), 'failure shown')
    const line = deep(el, '[part="error"]')!
    expect(line.getAttribute('role')).to.equal('alert')
    expect(deepText(line)).to.equal("Couldn't post your take.")
    await expect(el).to.be.accessible()
  })
})
