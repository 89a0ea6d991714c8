/** `<vk-take-card>` against the running reference service (issue 6 rule 3, spec §4.4 rule 4, §4.5 rule 2). */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/take-card/take-card.ts'
import '../../src/elements/market-comments/market-comments.ts'
import '../../src/elements/strings-provider/strings-provider.ts'
import type { VkTakeCard } from '../../src/elements/take-card/take-card.element.ts'
import type { Post } from '../../src/contract/types.ts'
import { emulateMedia, sendKeys } from '@web/test-runner-commands'
import { deep, deepAll, deepText, disposeVk, plain, expectKeyboardReachable, expectParts, isPath, makeVk, service, setPrice, setProfile, until } from './elements-env.ts'

/** A market and a take on side `side` written by a fresh wallet holding it. */
async function take(o: { side?: number; market?: Record<string, unknown>; body?: string; size?: string } = {}) {
  const s = await service()
  const market = await s.addMarket({ prices: [4000, 6000], ...o.market })
  const author = await s.signedIn()
  await s.setPosition(author.w.wallet, market.id, o.side ?? 0, o.size ?? '2500000')
  const post = await author.createPost('event', market.id, o.body ?? 'the data says so')
  return { s, market, author, post }
}

const card = (post: Post | null, extra: Partial<VkTakeCard> = {}) =>
  fixture<VkTakeCard>(html`<vk-take-card .post=${post} .viewer=${extra.viewer} .onTail=${extra.onTail} ?read-only=${!!extra.readOnly}></vk-take-card>`)

const text = (el: Element) => deepText(el)
/** The text drawn on screen (without the visually hidden label), for elements with no shadow root inside. */
const shown = (el: Element) => {
  const c = el.cloneNode(true) as Element
  c.querySelectorAll('.vk-visually-hidden').forEach((n) => n.remove())
  return plain(c.textContent).replace(/\s+/g, ' ').trim()
}
const part = (el: Element, name: string) => deep(el, `[part~="${name}"]`)

describe('<vk-take-card>', () => {
  afterEach(() => disposeVk())

  it('§4.5 rule 2 "do not render a stance computed locally; use post.stance": the chip comes from post.stance', async () => {
    await makeVk()
    const { post } = await take({ side: 0, market: { decimals: 6 } })
    expect(post.stance?.side).to.equal(0)
    const el = await card(post)
    await until(() => part(el, 'stance') && text(part(el, 'stance')!).includes('2.50'), 'stance chip with size')
    expect(text(part(el, 'stance')!)).to.include('Yes').and.include('40%').and.include('2.50')
  })

  it('§4.4 rule 4 "TakeCard draws the stance chip": the chip is coloured by its side (the first outcome\'s colour, the other sides\' colour)', async () => {
    await makeVk()
    const yes = await card((await take({ side: 0 })).post)
    const no = await card((await take({ side: 1 })).post)
    await until(() => part(yes, 'stance') && part(no, 'stance'), 'both chips')
    const colour = (el: Element) => getComputedStyle(part(el, 'stance')!).color
    expect(part(yes, 'stance')!.classList.contains('side-first')).to.equal(true)
    expect(part(no, 'stance')!.classList.contains('side-other')).to.equal(true)
    expect(colour(yes)).to.not.equal(colour(no))
  })

  it('§4.5 rule 2 "never computed locally": a comment by a wallet that holds a position now has no stance chip', async () => {
    await makeVk()
    const s = await service()
    const market = await s.addMarket({ prices: [4000, 6000] })
    const author = await s.signedIn()
    const post = await author.createPost('event', market.id, 'no position when writing')
    await s.setPosition(author.w.wallet, market.id, 1, '1000')
    const el = await card(post)
    await until(() => text(el).includes('no position when writing'), 'card drawn')
    expect(part(el, 'stance')).to.equal(null)
    // Even a stance-less post object given a made-up position elsewhere draws no chip: only post.stance counts.
    expect(post.stance).to.equal(undefined)
  })

  it('issue 6 rule 3 "the receipt once settled (right with odds beaten)"', async () => {
    await makeVk()
    const { s, market, post } = await take({ side: 0 })
    await s.resolve(market.id, 0)
    const el = await card(post)
    await until(() => part(el, 'receipt'), 'receipt')
    expect(text(part(el, 'receipt')!)).to.equal('Right · beat 60% odds')
  })

  it('issue 6 rule 3 "the receipt once settled (… wrong …)"', async () => {
    await makeVk()
    const { s, market, post } = await take({ side: 0 })
    await s.resolve(market.id, 1)
    const el = await card(post)
    await until(() => part(el, 'receipt'), 'receipt')
    expect(text(part(el, 'receipt')!)).to.equal('Wrong')
  })

  it('issue 6 rule 3 "the receipt once settled (… void …)"', async () => {
    await makeVk()
    const { s, market, post } = await take({ side: 1 })
    await s.resolve(market.id, 'void')
    const el = await card(post)
    await until(() => part(el, 'receipt'), 'receipt')
    expect(text(part(el, 'receipt')!)).to.equal('Void')
  })

  it('issue 6 rule 3 "the receipt once settled (… CLOB pending)": §3.2 a CLOB take is never a confident "still open"', async () => {
    await makeVk()
    const { post } = await take({ side: 0, market: { clob: true, closesAt: new Date(Date.now() - 3_600_000).toISOString() } })
    const el = await card(post)
    await until(() => part(el, 'receipt'), 'receipt')
    expect(text(part(el, 'receipt')!)).to.equal('Awaiting settlement')
  })

  it('§3.2 "A CLOB market has no results yet, so a CLOB take stays open even after its market resolves; it must not be shown as a confident \'still open\'": resolved, it reads Awaiting settlement, never Right, Wrong or Open', async () => {
    await makeVk()
    const past = new Date(Date.now() - 3_600_000).toISOString()
    // Resolved after its close: the side held won (a non-CLOB take here would read 'Right · beat 60% odds').
    const won = await take({ side: 0, market: { clob: true, closesAt: past } })
    await won.s.resolve(won.market.id, 0)
    // Resolved after its close: the side held lost.
    const lost = await take({ side: 1, market: { clob: true, closesAt: past } })
    await lost.s.resolve(lost.market.id, 0)
    for (const { post } of [won, lost]) {
      const el = await card(post)
      await until(() => part(el, 'receipt'), 'receipt')
      expect(deepAll(el, '[part~="receipt"]').map(text)).to.deep.equal(['Awaiting settlement'])
      expect(text(el)).to.not.match(/\b(Right|Wrong|Open|Void)\b/)
      expect(text(el)).to.not.include('odds')
    }
    // Resolved before its close (the client has no sign of the resolution): still no confident state.
    const early = await take({ side: 0, market: { clob: true } })
    await early.s.resolve(early.market.id, 0)
    const el = await card(early.post)
    await until(() => part(el, 'stance') && text(part(el, 'stance')!).includes('Yes'), 'the market read')
    expect(text(el)).to.not.match(/\b(Right|Wrong|Open|Void)\b/)
  })

  it('§2.5 "oddsBeatenBps is … 10000 minus the side\'s price when the take was written; null when that price is unknown": a right take written at an unknown price reads "Right", never "beat N% odds"', async () => {
    const vk = await makeVk()
    // No price row for either side when the take is written.
    const { s, market, post } = await take({ side: 0, market: { prices: [] } })
    expect(post.stance).to.deep.include({ side: 0, priceBps: null })
    // A price known only later does not count: the take was written while it was unknown.
    await setPrice(market.id, 0, 4000)
    await s.resolve(market.id, 0)
    // The post as the service serves it now, not the object the write returned.
    const served = (await vk.client.posts('event', market.id)).posts.find((p) => p.id === post.id)!
    expect(served.stance?.priceBps).to.equal(null)
    const el = await card(served)
    await until(() => part(el, 'receipt'), 'receipt')
    expect(text(part(el, 'receipt')!)).to.equal('Right')
    expect(text(el)).to.not.include('beat').and.not.include('odds')
    // The stance chip has no price either (never a made-up 0%).
    expect(text(part(el, 'stance')!)).to.include('Yes').and.not.include('%')
  })

  it('§2.12 "moneyLabel returns null when decimals are unknown (never assume 18)": on a market with unknown decimals the stance chip shows side and price, no amount', async () => {
    await makeVk()
    // 2.5 × 10^18 base units: 2.50 if 18 decimals were assumed.
    const size = '2500000000000000000'
    const { market, post } = await take({ side: 0, size, market: { decimals: null } })
    expect(market.decimals).to.equal(null)
    const el = await card(post)
    await until(() => part(el, 'stance') && text(part(el, 'stance')!).includes('Yes'), 'the market read (labels and decimals)')
    expect(shown(part(el, 'stance')!)).to.equal('Yes at 40%')
    expect(text(part(el, 'stance')!)).to.not.match(/\d[.,]\d/)
    // Control: the same position on a market whose decimals are known (18) does show its amount.
    const known = await take({ side: 0, size, market: { decimals: 18 } })
    const el2 = await card(known.post)
    await until(() => part(el2, 'stance') && text(part(el2, 'stance')!).includes('Yes'), 'the market read')
    expect(shown(part(el2, 'stance')!)).to.equal('Yes · 2.50 at 40%')
  })

  it('§2.12 "Binary price-threshold markets carry displayLabel (Above / Below); label is unchanged. Tap targets render displayLabel ?? label": the Tail button and the stance chip say Below, not No', async () => {
    const calls: { marketId: string; side: number }[] = []
    await makeVk({ checkout: { openCheckout: (o) => void calls.push(o) } })
    const outcomes = [
      { label: 'Yes', displayLabel: 'Above' },
      { label: 'No', displayLabel: 'Below' },
    ]
    const { market, post } = await take({ side: 1, market: { title: 'BTC above 100k at close?', outcomes } })
    expect(market.outcomes[1]).to.deep.equal({ label: 'No', displayLabel: 'Below' })
    const check = async (el: Element) => {
      await until(() => part(el, 'tail') && part(el, 'stance') && text(part(el, 'stance')!).includes('Below'), 'labels from the market')
      expect(shown(part(el, 'stance')!)).to.equal('Below · 2.50 at 60%')
      expect(plain(part(el, 'stance')!.getAttribute('title'))).to.equal('Held Below when writing')
      expect(text(part(el, 'stance')!)).to.not.match(/\bNo\b/)
      expect(text(part(el, 'tail')!)).to.include('Take the same side: Below').and.not.match(/\bNo\b/)
      expect(text(el)).to.not.match(/\bNo\b/)
    }
    // Standalone: labels read from the market.
    const el = await card(post)
    await check(el)
    ;(part(el, 'tail') as HTMLButtonElement).click()
    await until(() => calls.length, 'openCheckout called')
    expect(calls[0].side).to.equal(1)
    // Inside a thread: labels from the page's `labels`.
    const thread = await fixture(html`<vk-market-comments market-id=${market.id}></vk-market-comments>`)
    await until(() => deep(thread, `#vk-post-${post.id} vk-take-card`), 'the card in the thread')
    await check(deep(thread, `#vk-post-${post.id} vk-take-card`)!)
  })

  it('issue 6 rule 3 "the receipt once settled": an open take on an unsettled market shows no receipt', async () => {
    await makeVk()
    const { post } = await take({ side: 0 })
    const el = await card(post)
    await until(() => part(el, 'stance') && text(part(el, 'stance')!).includes('Yes'), 'labels from the market read')
    expect(part(el, 'receipt')).to.equal(null)
  })

  it('§4.4 rule 4 "Agree (optimistic, rolls back)": the count moves at once and rolls back when the write fails', async () => {
    const vk = await makeVk()
    const { post } = await take()
    await vk.signIn((await service()).wallet())
    const el = await card(post)
    const agree = () => part(el, 'agree') as HTMLButtonElement
    expect(agree().getAttribute('aria-pressed')).to.equal('false')
    const release = vk.faults.hold(isPath('/reactions', 'POST'), 500)
    agree().click()
    await el.updateComplete
    expect(agree().getAttribute('aria-pressed')).to.equal('true')
    expect(text(agree())).to.equal('Agree · 1')
    release()
    await until(() => deep(el, '[role="alert"]'), 'failure line')
    expect(agree().getAttribute('aria-pressed')).to.equal('false')
    expect(text(agree())).to.equal('Agree')
    expect(text(deep(el, '[role="alert"]')!)).to.equal("Couldn't save your agree.")
  })

  it('§4.4 rule 4 "Agree (optimistic …)": a successful agree stays and is on the service', async () => {
    const vk = await makeVk()
    const { post } = await take()
    await vk.signIn((await service()).wallet())
    const el = await card(post)
    ;(part(el, 'agree') as HTMLButtonElement).click()
    await until(() => vk.faults.requests.some((r) => r.method === 'POST' && r.url.pathname.endsWith('/reactions')), 'react sent')
    await until(() => !vk.postActions().get().pending, 'react done')
    expect(text(part(el, 'agree')!)).to.equal('Agree · 1')
    const page = await vk.client.posts('event', post.subjectRef)
    expect(page.posts.find((p) => p.id === post.id)?.agrees).to.equal(1)
  })

  it('§4.4 rule 4 "Agree" and the service\'s rule "you can\'t agree with your own post": on the reader\'s own post (any wallet of the account, with or without `viewer`) Agree is not offered, only its count; on another\'s post it is', async () => {
    const vk = await makeVk()
    const s = await service()
    const { post, author } = await take()
    const reader = await s.signedIn()
    await reader.reactPost(post.id, true)
    const agreed = { ...post, agrees: 1 }
    // The author's account, signed in here with another wallet of it: posts belong to the account (§2.1).
    const second = s.wallet()
    await author.auth.linkWallet(second)
    await vk.signIn(second)
    expect(vk.$session.get()!.wallets.map((w) => w.toLowerCase())).to.include(author.w.wallet.toLowerCase())
    for (const el of [await card(agreed), await card(agreed, { viewer: second.wallet })]) {
      await el.updateComplete
      expect(deep(el, 'button[part~="agree"]'), 'no Agree button on one\'s own post').to.equal(null)
      expect(text(part(el, 'agree')!)).to.equal('Agree · 1')
      expect(part(el, 'report')).to.equal(null)
    }
    // No agrees yet: nothing to count, and still no button.
    const none = await card(post)
    expect(part(none, 'agree')).to.equal(null)
    expect(vk.faults.requests.some((r) => r.url.pathname.endsWith('/reactions'))).to.equal(false)
    // Another's post: Agree is offered and the service takes it.
    const other = await take()
    const el = await card(other.post)
    ;(part(el, 'agree') as HTMLButtonElement).click()
    await until(() => !vk.postActions().get().pending && vk.faults.requests.some((r) => r.url.pathname.endsWith('/reactions')), 'react done')
    expect(text(part(el, 'agree')!)).to.equal('Agree · 1')
    expect(deep(el, '[role="alert"]')).to.equal(null)
  })

  it('§4.4 rule 1 "onRequireSignIn": a signed-out Agree asks the page to sign in and writes nothing', async () => {
    const vk = await makeVk()
    const { post } = await take()
    const el = await card(post)
    let asked: string | null = null
    el.addEventListener('vk-require-sign-in', (e) => (asked = e.detail.action))
    ;(part(el, 'agree') as HTMLButtonElement).click()
    expect(asked).to.equal('agree')
    expect(vk.faults.requests.some((r) => r.url.pathname.endsWith('/reactions'))).to.equal(false)
  })

  it('§4.4 rule 4 "TakeCard draws … Reply": a reply goes into the post\'s thread', async () => {
    const vk = await makeVk()
    const { post } = await take()
    await vk.signIn((await service()).wallet())
    const el = await card(post)
    ;(part(el, 'reply') as HTMLButtonElement).click()
    await el.updateComplete
    const area = deep<HTMLTextAreaElement>(el, 'textarea')!
    expect(area).to.not.equal(null)
    area.value = 'a reply from the card'
    area.dispatchEvent(new Event('input'))
    const created = new Promise<Post>((ok) => el.addEventListener('vk-post-created', (e) => ok(e.detail.post), { once: true }))
    ;(deep(el, 'button[type="submit"]') as HTMLButtonElement).click()
    const reply = await created
    expect(reply.parentId).to.equal(post.id)
    const page = await vk.client.posts('event', post.subjectRef)
    expect(page.threads[post.id].map((p) => p.body)).to.include('a reply from the card')
  })

  it('§4.4 rule 4 "edit/delete only when viewer is passed and the post is the viewer\'s own"', async () => {
    const vk = await makeVk()
    const { post, author } = await take()
    await vk.signIn(author.w)
    // Signed in as the author, but no viewer passed: no Edit, no Delete.
    let el = await card(post)
    expect(part(el, 'edit')).to.equal(null)
    expect(part(el, 'delete')).to.equal(null)
    // Another wallet as viewer: none.
    el = await card(post, { viewer: (await service()).wallet().wallet })
    expect(part(el, 'edit')).to.equal(null)
    // The author as viewer: both.
    el = await card(post, { viewer: author.w.address })
    expect(part(el, 'edit')).to.not.equal(null)
    expect(part(el, 'delete')).to.not.equal(null)
  })

  it('§4.4 rule 4 "edit/delete … the viewer\'s own": Edit saves a new body, Delete removes the post', async () => {
    const vk = await makeVk()
    const { post, author } = await take()
    await vk.signIn(author.w)
    const el = await card(post, { viewer: author.w.wallet })
    ;(part(el, 'edit') as HTMLButtonElement).click()
    await el.updateComplete
    const area = deep<HTMLTextAreaElement>(el, 'textarea')!
    expect(area.value).to.equal(post.body)
    area.value = 'edited body'
    area.dispatchEvent(new Event('input'))
    ;(deep(el, 'button[type="submit"]') as HTMLButtonElement).click()
    await until(() => text(part(el, 'body') ?? el).includes('edited body'), 'edited body shown')
    const edited = (await vk.client.posts('event', post.subjectRef)).posts.find((p) => p.id === post.id)!
    expect(edited.body).to.equal('edited body')
    expect(edited.stance).to.deep.equal(post.stance)

    ;(part(el, 'delete') as HTMLButtonElement).click()
    await el.updateComplete
    const confirm = deepAll<HTMLButtonElement>(el, '.confirm button').find((b) => text(b) === 'Delete')!
    // The confirmation's buttons carry the forms' parts, so a page styles them as it styles the others.
    expect(confirm.getAttribute('part')).to.equal('submit')
    expect(deepAll(el, '.confirm button').map((b) => b.getAttribute('part'))).to.deep.equal(['cancel', 'submit'])
    confirm.click()
    await until(() => !part(el, 'card'), 'card gone')
    expect((await vk.client.posts('event', post.subjectRef)).posts.some((p) => p.id === post.id)).to.equal(false)
  })

  it('§4.4 rule 4 Delete: a second press of the confirmation while the delete is on its way is ignored (aria-disabled, one request, no false failure)', async () => {
    const vk = await makeVk()
    const { post, author } = await take()
    await vk.signIn(author.w)
    const el = await card(post, { viewer: author.w.wallet })
    const errors: unknown[] = []
    el.addEventListener('vk-error', (e) => errors.push(e.detail.error))
    ;(part(el, 'delete') as HTMLButtonElement).click()
    await el.updateComplete
    const confirm = deepAll<HTMLButtonElement>(el, '.confirm button').find((b) => text(b) === 'Delete')!
    const release = vk.faults.hold(isPath(`/posts/${post.id}`, 'DELETE'))
    confirm.click()
    await el.updateComplete
    const busyWhileSent = confirm.getAttribute('aria-disabled')
    confirm.click()
    // Let the held request go before any check, so a failing check leaves nothing hanging.
    release()
    expect(busyWhileSent).to.equal('true')
    await until(() => !part(el, 'card'), 'card gone')
    expect(vk.faults.requests.filter((r) => r.method === 'DELETE')).to.have.length(1)
    expect(errors).to.deep.equal([])
  })

  it('§4.4 rule 4 "Agree (optimistic …)": a second press while the first is on its way waits for it: one request, and the card ends as the service has it', async () => {
    const vk = await makeVk()
    const { post } = await take()
    await vk.signIn((await service()).wallet())
    const el = await card(post)
    const agree = () => part(el, 'agree') as HTMLButtonElement
    const release = vk.faults.hold(isPath('/reactions', 'POST'))
    agree().click()
    await el.updateComplete
    agree().click()
    await el.updateComplete
    const pressedWhileSent = agree().getAttribute('aria-pressed')
    release()
    expect(pressedWhileSent).to.equal('true')
    await until(() => !vk.postActions().get().pending, 'react done')
    expect(vk.faults.requests.filter((r) => r.method === 'POST' && r.url.pathname.endsWith('/reactions'))).to.have.length(1)
    expect(agree().getAttribute('aria-pressed')).to.equal('true')
    const page = await vk.client.posts('event', post.subjectRef)
    expect(page.posts.find((p) => p.id === post.id)?.agrees).to.equal(1)
  })

  it('§4.4 rule 4 Agree and Delete answer for their own post: a card handed another post while they are on their way shows nothing of them', async () => {
    const vk = await makeVk()
    const { post, author } = await take()
    const other = (await take({ body: 'another take' })).post
    await vk.signIn(author.w)
    // Agree on someone else's post (the author of `other` is not this reader), then the card is handed `post`.
    const el = await card(other)
    const holdReact = vk.faults.hold(isPath('/reactions', 'POST'), 500)
    ;(part(el, 'agree') as HTMLButtonElement).click()
    await el.updateComplete
    el.post = post
    await el.updateComplete
    holdReact()
    await until(() => !vk.postActions().get().pending, 'react done')
    await el.updateComplete
    expect(!!deep(el, '[role="alert"]'), "no failure line for the other post's agree").to.equal(false)
    expect(text(part(el, 'body')!)).to.equal('the data says so')
    // Delete `post` (the reader's own), then the card is handed `other` before the answer: `other` stays shown.
    el.viewer = author.w.wallet
    await el.updateComplete
    ;(part(el, 'delete') as HTMLButtonElement).click()
    await el.updateComplete
    const holdDelete = vk.faults.hold(isPath(`/posts/${post.id}`, 'DELETE'))
    deepAll<HTMLButtonElement>(el, '.confirm button').find((b) => text(b) === 'Delete')!.click()
    await el.updateComplete
    el.post = other
    await el.updateComplete
    holdDelete()
    await until(() => !vk.postActions().get().pending, 'delete done')
    await el.updateComplete
    expect(!!part(el, 'card'), 'the card still shows the post it was handed').to.equal(true)
    expect(text(part(el, 'body')!)).to.equal('another take')
  })

  it('§4.4 rule 4 "Report only on another\'s post, signed in, with moderation on"', async () => {
    const s = await service()
    const { post, author } = await take()
    // Signed out: none.
    let vk = await makeVk()
    let el = await card(post)
    expect(part(el, 'report')).to.equal(null)
    // Signed in, another's post, moderation on (the default): Report.
    await vk.signIn(s.wallet())
    el = await card(post)
    await until(() => part(el, 'report'), 'report button')
    // Own post: none, viewer passed or not.
    vk = await makeVk()
    await vk.signIn(author.w)
    el = await card(post)
    expect(part(el, 'report')).to.equal(null)
    el = await card(post, { viewer: author.w.wallet })
    expect(part(el, 'report')).to.equal(null)
    // Moderation off: none.
    vk = await makeVk({ moderation: false })
    await vk.signIn(s.wallet())
    el = await card(post)
    expect(part(el, 'report')).to.equal(null)
  })

  it('§4.4 rule 4 "Report only on another\'s post …": a report is sent and acknowledged', async () => {
    const vk = await makeVk()
    const { post } = await take()
    await vk.signIn((await service()).wallet())
    const el = await card(post)
    await until(() => part(el, 'report'), 'report button')
    ;(part(el, 'report') as HTMLButtonElement).click()
    await el.updateComplete
    const area = deep<HTMLTextAreaElement>(el, 'textarea')!
    area.value = 'spam'
    area.dispatchEvent(new Event('input'))
    ;(deep(el, 'button[type="submit"]') as HTMLButtonElement).click()
    await until(() => deep(el, '[role="status"]'), 'acknowledged')
    expect(text(deep(el, '[role="status"]')!)).to.equal('Reported. Thanks.')
    expect(vk.faults.requests.some((r) => r.method === 'POST' && r.url.pathname.endsWith('/reports'))).to.equal(true)
    expect(!!part(el, 'report'), 'a post once reported is not offered for report again').to.equal(false)
  })

  it('§4.4 rule 4 "Tail only when a checkout provider is above it or onTail is given": none without either', async () => {
    await makeVk()
    const { post } = await take()
    const el = await card(post)
    await el.updateComplete
    expect(part(el, 'tail')).to.equal(null)
  })

  it('§4.4 rule 4 "Tail only when a checkout provider is above it …": with a checkout adapter it opens checkout on the take\'s side', async () => {
    const calls: { marketId: string; side: number }[] = []
    await makeVk({ checkout: { openCheckout: (o) => void calls.push(o) } })
    const { post, market } = await take({ side: 1 })
    const el = await card(post)
    await until(() => part(el, 'tail'), 'tail button')
    expect(text(part(el, 'tail')!)).to.include('Tail').and.include('Take the same side: No')
    ;(part(el, 'tail') as HTMLButtonElement).click()
    await until(() => calls.length, 'openCheckout called')
    expect(calls[0].marketId.toLowerCase()).to.equal(market.id.toLowerCase())
    expect(calls[0].side).to.equal(1)
  })

  it('§4.4 rule 4 "… or onTail is given": onTail is called with the post; a comment has no Tail', async () => {
    await makeVk()
    const { post } = await take()
    const tailed: Post[] = []
    const el = await card(post, { onTail: (p: Post) => void tailed.push(p) })
    ;(part(el, 'tail') as HTMLButtonElement).click()
    expect(tailed.map((p) => p.id)).to.deep.equal([post.id])
    const s = await service()
    const commenter = await s.signedIn()
    const comment = await commenter.createPost('event', post.subjectRef, 'just a comment')
    const el2 = await card(comment, { onTail: () => {} })
    expect(part(el2, 'tail')).to.equal(null)
  })

  it('§1.7 "names and avatars are hydrated separately in one batched read per page": profiles store', async () => {
    const vk = await makeVk()
    const a = await take({ body: 'first' })
    const b = await take({ body: 'second' })
    await setProfile(a.author.session!.token, { name: 'Ada', avatarUrl: 'https://example.com/ada.png' })
    await setProfile(b.author.session!.token, { name: 'Grace', avatarUrl: 'http://example.com/grace.png' })
    const root = await fixture(html`<div>
      <vk-take-card .post=${a.post}></vk-take-card>
      <vk-take-card .post=${b.post}></vk-take-card>
    </div>`)
    await until(() => text(root).includes('Ada') && text(root).includes('Grace'), 'names')
    const profileReads = vk.faults.requests.filter((r) => r.url.pathname === '/v1/social/profiles')
    expect(profileReads.length).to.equal(1)
    expect(profileReads[0].url.searchParams.get('wallets')!.split(',').sort()).to.deep.equal([a.author.w.wallet, b.author.w.wallet].sort())
    // Only https: avatars become images; the http one is dropped for the initial.
    const imgs = deepAll<HTMLImageElement>(root, 'img')
    expect(imgs.map((i) => i.getAttribute('src'))).to.deep.equal(['https://example.com/ada.png'])
  })

  it('§2.12 "a rank is never shown without its population; unranked is a state, not last place"', async () => {
    await makeVk()
    const { post } = await take()
    const ranked = { facet: null, right: 3, wrong: 1, void: 0, oddsBeatenBps: 9000, rank: 2, population: 7 }
    const el = await card({ ...post, record: ranked })
    await until(() => text(el).includes('#2 of 7'), 'rank of population')
    const el2 = await card({ ...post, record: { ...ranked, rank: null } })
    await until(() => text(el2).includes('Unranked'), 'unranked')
    expect(text(el2)).not.to.include('#2 of')
  })

  it('§4.4 rule 1 "readOnly removes the write path": a read-only card has no write control in the DOM', async () => {
    const vk = await makeVk()
    const { post, author } = await take()
    await vk.signIn(author.w)
    const el = await card(post, { readOnly: true, viewer: author.w.wallet })
    for (const p of ['agree', 'reply', 'edit', 'delete', 'report', 'composer']) expect(deep(el, `button[part~="${p}"], form[part~="${p}"]`), p).to.equal(null)
    expect(deepAll(el, 'textarea').length).to.equal(0)
  })

  it('issue 6 rule 9 "every element passes accessible() in its loaded, empty and error states"', async () => {
    const vk = await makeVk({ checkout: { openCheckout: () => {} } })
    const { post, author } = await take()
    await vk.signIn(author.w)
    const loaded = await card(post, { viewer: author.w.wallet })
    await until(() => part(loaded, 'stance'), 'loaded')
    await expect(loaded).to.be.accessible()
    ;(part(loaded, 'reply') as HTMLButtonElement).click()
    await loaded.updateComplete
    await expect(loaded).to.be.accessible()
    const empty = await card(null)
    await expect(empty).to.be.accessible()
    // Error: the market and profile reads fail; the card still shows the post.
    const vk2 = await makeVk()
    vk2.faults.fail(isPath('/v1/markets'))
    vk2.faults.fail(isPath('/v1/social/profiles'))
    const { post: other } = await take()
    const failed = await card(other)
    await until(() => vk2.faults.requests.some((r) => r.url.pathname === '/v1/markets'), 'market read tried')
    await expect(failed).to.be.accessible()
  })

  it('issue 6 rule 9 "every control is reachable and usable by keyboard, and focus stays visible"', async () => {
    const vk = await makeVk({ checkout: { openCheckout: () => {} } })
    const { post } = await take()
    await vk.signIn((await service()).wallet())
    const el = await card(post)
    await until(() => part(el, 'report') && part(el, 'tail'), 'controls')
    await expectKeyboardReachable(el)
    // Usable: Enter on the focused Agree button agrees.
    ;(part(el, 'agree') as HTMLButtonElement).focus()
    await sendKeys({ press: 'Enter' })
    await until(() => part(el, 'agree')!.getAttribute('aria-pressed') === 'true', 'agreed by keyboard')
  })

  it('issue 6 rule 7 "every visible string can be replaced": the stance chip\'s spoken prefix and Tail\'s spoken hint, punctuation included, come from the comments slice', async () => {
    await makeVk({ checkout: { openCheckout: () => {} } })
    const { post } = await take({ side: 0 })
    const el = await fixture<VkTakeCard>(
      html`<vk-take-card .post=${post} .strings=${{ stanceLabel: 'Tenait {side}', stanceSpoken: '{label} :', tailLabel: '« même côté : {side} »' }}></vk-take-card>`,
    )
    await until(() => part(el, 'tail') && part(el, 'stance') && text(part(el, 'stance')!).includes('Yes'), 'labels from the market')
    const hidden = (name: string) => plain(part(el, name)!.querySelector('.vk-visually-hidden')!.textContent).trim()
    expect(hidden('stance')).to.equal('Tenait Yes :')
    expect(hidden('tail')).to.equal('« même côté : Yes »')
    expect(text(part(el, 'tail')!)).to.not.include('(')
    // Control: the built-in English keeps its own brackets and colon.
    const en = await card(post)
    await until(() => part(en, 'tail') && part(en, 'stance') && text(part(en, 'stance')!).includes('Yes'), 'labels from the market')
    expect(plain(part(en, 'stance')!.querySelector('.vk-visually-hidden')!.textContent).trim()).to.equal('Held Yes when writing:')
    expect(plain(part(en, 'tail')!.querySelector('.vk-visually-hidden')!.textContent).trim()).to.equal('(Take the same side: Yes)')
  })

  it('issue 6 rule 8 "parts on the main regions of every element"', async () => {
    const vk = await makeVk({ checkout: { openCheckout: () => {} } })
    const { s, market, post, author } = await take()
    await s.resolve(market.id, 0)
    await vk.signIn(author.w)
    // The reader's own post: Agree shows as its count (agreeing with one's own post is refused), so it has one.
    const el = await card({ ...post, agrees: 2, record: { facet: null, right: 1, wrong: 0, void: 0, oddsBeatenBps: 6000, rank: 1, population: 3 } }, { viewer: author.w.wallet })
    el.showMarket = true
    await until(() => part(el, 'receipt') && part(el, 'market'), 'drawn')
    expectParts(el, ['card', 'header', 'avatar', 'author', 'time', 'market', 'stance', 'receipt', 'body', 'actions', 'agree', 'reply', 'edit', 'delete'])
  })

  it('issue 6 rule 8 "documented --vk-* tokens (colour, type, spacing, radius) with light and dark defaults"', async () => {
    await makeVk()
    const { post } = await take()
    await emulateMedia({ colorScheme: 'light' })
    const el = await card(post)
    const cs = () => getComputedStyle(el)
    expect(cs().color).to.equal('rgb(21, 23, 26)')
    await emulateMedia({ colorScheme: 'dark' })
    expect(cs().color).to.equal('rgb(236, 238, 241)')
    el.setAttribute('theme', 'light')
    expect(cs().color).to.equal('rgb(21, 23, 26)')
    await emulateMedia({ colorScheme: 'light' })
    el.setAttribute('theme', 'dark')
    expect(cs().color).to.equal('rgb(236, 238, 241)')
    // The page sets tokens; the card follows.
    el.removeAttribute('theme')
    el.style.setProperty('--vk-color-accent', 'rgb(1, 2, 3)')
    el.style.setProperty('--vk-font-size', '21px')
    el.style.setProperty('--vk-space-3', '17px')
    el.style.setProperty('--vk-radius', '3px')
    const c = part(el, 'card')!
    expect(getComputedStyle(c).paddingTop).to.equal('17px')
    expect(getComputedStyle(c).borderTopLeftRadius).to.equal('3px')
    expect(getComputedStyle(part(el, 'body')!).fontSize).to.equal('21px')
    const agree = part(el, 'agree')!
    agree.setAttribute('aria-pressed', 'true')
    expect(getComputedStyle(agree).color).to.equal('rgb(1, 2, 3)')
  })

  it('issue 6 rule 8 tokens set on any ancestor reach elements nested inside other elements\' shadow roots; an explicit theme carries inward', async () => {
    await makeVk()
    const { post } = await take()
    await emulateMedia({ colorScheme: 'light' })
    const wrap = await fixture(html`<div style="--vk-color-accent: rgb(4, 5, 6); --vk-space-3: 19px">
      <vk-market-comments market-id=${post.subjectRef}></vk-market-comments>
    </div>`)
    const feed = wrap.querySelector('vk-market-comments')!
    await until(() => deep(feed, 'vk-take-card'), 'a card inside the thread')
    const inner = deep(feed, 'vk-take-card') as VkTakeCard
    await until(() => part(inner, 'agree'), 'card drawn')
    expect(getComputedStyle(part(inner, 'card')!).paddingTop).to.equal('19px')
    const agree = part(inner, 'agree')!
    agree.setAttribute('aria-pressed', 'true')
    expect(getComputedStyle(agree).color).to.equal('rgb(4, 5, 6)')
    // theme="dark" on the outer element reaches the nested card even while the system is light.
    ;(wrap as HTMLElement).style.removeProperty('--vk-color-accent')
    feed.setAttribute('theme', 'dark')
    expect(getComputedStyle(inner).color).to.equal('rgb(236, 238, 241)')
  })

  it('§4.4 rule 4 "TakeCard draws … Reply": the Reply button says whether its composer is open (aria-expanded "false", "true" once opened, "false" again after Cancel)', async () => {
    const vk = await makeVk()
    const { post } = await take()
    await vk.signIn((await service()).wallet())
    const el = await card(post)
    await until(() => part(el, 'reply'), 'Reply')
    expect(part(el, 'reply')!.getAttribute('aria-expanded')).to.equal('false')
    ;(part(el, 'reply') as HTMLButtonElement).click()
    await until(() => deep(el, 'form[part~="composer"] textarea'), 'the reply composer')
    expect(part(el, 'reply')!.getAttribute('aria-expanded')).to.equal('true')
    await expect(el).to.be.accessible()
    deep<HTMLButtonElement>(el, 'form[part~="composer"] [part~="cancel"]')!.click()
    await until(() => !deep(el, 'form[part~="composer"]'), 'the composer closed')
    expect(part(el, 'reply')!.getAttribute('aria-expanded')).to.equal('false')
  })

  it('issue 6 rule 9 "accessible": the card (an article) is named by its author: aria-labelledby points at an element of the card that holds the author\'s name', async () => {
    await makeVk()
    const { post, author } = await take()
    await setProfile(author.session!.token, { name: 'Ada Lovelace' })
    const el = await card(post)
    await until(() => text(part(el, 'author') ?? el).includes('Ada Lovelace'), 'the author\'s name')
    const article = part(el, 'card')!
    expect(article.localName).to.equal('article')
    const ids = (article.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)
    expect(ids.length, 'aria-labelledby names an element').to.be.greaterThan(0)
    const named = ids.map((id) => el.shadowRoot!.getElementById(id))
    expect(named.every((n) => !!n && article.contains(n)), 'every id is an element inside the card').to.equal(true)
    expect(named.map((n) => text(n!)).join(' ')).to.equal('Ada Lovelace')
    await expect(el).to.be.accessible()
  })

  it('§3.1 "Rules while hidden: the post remains visible to its author": its author\'s card says it is hidden from others, which is true of each way a post is hidden (reports reaching the threshold, pending review; an operator\'s removal, everywhere), so it names no one of them; a visible post has no such notice', async () => {
    const vk = await makeVk()
    const s = await service()
    const { post, author, market } = await take()
    for (let i = 0; i < 3; i++) await (await s.signedIn()).reportPost(post.id, 'spam')
    const removed = await author.createPost('event', market.id, 'removed everywhere')
    await (await s.signedIn({}, s.operator())).mod.remove(removed.id)
    const own = (await author.posts('event', market.id)).posts
    const mine = own.find((p) => p.id === post.id)
    expect(mine?.hidden, 'the author reads the reported post as hidden').to.equal(true)
    expect(own.find((p) => p.id === removed.id)?.hidden, 'and the removed one').to.equal(true)
    await vk.signIn(author.w)
    for (const p of [mine!, own.find((p) => p.id === removed.id)!]) {
      const el = await card(p, { viewer: author.w.wallet })
      await until(() => part(el, 'body'), 'card drawn')
      const notices = deepAll(el, '[part~="notice"]').map(text)
      expect(notices).to.deep.equal(['Hidden from others'])
      await expect(el).to.be.accessible()
    }
    // Control: the same post, not hidden.
    const visible = await card({ ...mine!, hidden: undefined }, { viewer: author.w.wallet })
    await until(() => part(visible, 'body'), 'card drawn')
    expect(!!part(visible, 'notice')).to.equal(false)
    expect(text(visible)).to.not.include('Hidden from others')
  })

  it('issue 6 rule 3 "edit": an edited post is marked "· edited" after its time; a post never edited is not', async () => {
    await makeVk()
    const { post, author, market } = await take()
    const plain = await card(post)
    await until(() => part(plain, 'time'), 'card drawn')
    expect(text(part(plain, 'header')!)).to.not.include('edited')
    await author.editPost(post.id, 'changed my mind about the wording')
    const edited = (await author.posts('event', market.id)).posts.find((p) => p.id === post.id)!
    expect(!!edited.editedAt).to.equal(true)
    const el = await card(edited)
    await until(() => part(el, 'time'), 'card drawn')
    const header = text(part(el, 'header')!)
    expect(header.endsWith('· edited'), header).to.equal(true)
    // In the locale's strings too ('edited' and its mark are replaceable).
    const box = await fixture(html`<vk-strings-provider .strings=${{ comments: { edited: 'modifié', editedMark: '({edited})' } }}><vk-take-card .post=${edited}></vk-take-card></vk-strings-provider>`)
    const fr = box.querySelector('vk-take-card')!
    await until(() => part(fr, 'time'), 'card drawn')
    expect(text(part(fr, 'header')!).endsWith('(modifié)')).to.equal(true)
  })

  it('issue 6 rule 7 "every visible string can be replaced": while the market\'s outcome labels are unknown the stance chip names the side by number, through the strings provider\'s `sideNumber`', async () => {
    const vk = await makeVk()
    vk.faults.fail(isPath('/v1/markets'))
    const { post } = await take({ side: 1 })
    const box = await fixture(html`<div>
      <vk-take-card .post=${post}></vk-take-card>
      <vk-strings-provider .strings=${{ comments: { sideNumber: 'Lado {n}' } }}><vk-take-card .post=${post}></vk-take-card></vk-strings-provider>
    </div>`)
    const [en, provided] = [...box.querySelectorAll('vk-take-card')]
    await until(() => vk.faults.requests.some((r) => r.url.pathname.startsWith('/v1/markets')), 'the market read tried')
    await until(() => part(en, 'stance') && part(provided, 'stance'), 'stance chips')
    await new Promise((r) => setTimeout(r, 100))
    expect(shown(part(en, 'stance')!).startsWith('#2')).to.equal(true)
    const chip = shown(part(provided, 'stance')!)
    expect(chip.startsWith('Lado 2'), chip).to.equal(true)
    expect(chip).to.not.include('#2').and.not.include('No')
  })

  it('§4.4 rule 7 "a per-component strings prop (prop wins)" over the strings provider: the card\'s own `strings` win over the provider\'s comments slice, and its `roomStrings` over the provider\'s room slice (its record chip)', async () => {
    await makeVk()
    const { post } = await take()
    const ranked = { ...post, record: { facet: null, right: 3, wrong: 1, void: 0, oddsBeatenBps: 9000, rank: 2, population: 7 } }
    const box = await fixture(html`<vk-strings-provider .strings=${{ comments: { reply: 'P-reply' }, room: { rank: 'P {rank}/{population}' } }}>
      <vk-take-card .post=${ranked}></vk-take-card>
      <vk-take-card .post=${ranked} .strings=${{ reply: 'Own-reply' }} .roomStrings=${{ rank: 'R {rank}/{population}' }}></vk-take-card>
    </vk-strings-provider>`)
    const [providerOnly, own] = [...box.querySelectorAll('vk-take-card')]
    await until(() => part(providerOnly, 'reply') && part(own, 'reply') && deep(own, 'vk-record-chip') && deep(deep(own, 'vk-record-chip')!, '[part~="chip"]'), 'cards drawn')
    expect(text(part(providerOnly, 'reply')!)).to.equal('P-reply')
    expect(text(deep(providerOnly, 'vk-record-chip')!)).to.include('P 2/7')
    expect(text(part(own, 'reply')!)).to.equal('Own-reply')
    expect(text(deep(own, 'vk-record-chip')!)).to.include('R 2/7').and.not.include('P 2/7')
  })
})
