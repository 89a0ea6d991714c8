/**
 * Right-to-left pages and other locales in real Chromium: the elements under `dir="rtl"` (on `<html>`, or on an
 * ancestor), user text of the other direction (an English take on an Arabic page, an Arabic name on an English
 * board), long German labels at 320 CSS px, and Japanese plurals. Positions are measured on the glyphs drawn.
 */
import { expect, fixture, html } from '@open-wc/testing'
import { sendKeys } from '@web/test-runner-commands'
import '../../src/elements/take-card/take-card.ts'
import '../../src/elements/comments/comments.ts'
import '../../src/elements/platform-provider/platform-provider.ts'
import '../../src/elements/take-prompt/take-prompt.ts'
import '../../src/elements/room-feed/room-feed.ts'
import '../../src/elements/leaderboard/leaderboard.ts'
import '../../src/elements/author-takes/author-takes.ts'
import '../../src/elements/take-count/take-count.ts'
import '../../src/elements/strings-provider/strings-provider.ts'
import type { VkTakeCard } from '../../src/elements/take-card/take-card.element.ts'
import { formatMessage } from '../../src/elements/shared/format.ts'
import { deep, deepAll, deepText, disposeVk, makeVk, nonMemberRoomFeed, service, setProfile, until } from './elements-env.ts'

/** Where the `at`th character of `el`'s text (its first non-empty text node, `at` < 0 from the end) is drawn. */
function glyph(el: Element, at: number | string): DOMRect {
  const node = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim()) as Text
  const text = node.textContent!
  const i = typeof at === 'string' ? text.indexOf(at) : at < 0 ? text.length + at : at
  if (i < 0 || i >= text.length) throw new Error(`no ${at} in "${text}"`)
  const r = document.createRange()
  r.setStart(node, i)
  r.setEnd(node, i + 1)
  return r.getBoundingClientRect()
}

/** A take on a fresh market (the market's title `title`) with `body`, by an author named `name` when given. */
async function take(body: string, o: { title?: string; name?: string } = {}) {
  const s = await service()
  const market = await s.addMarket({ prices: [4000, 6000], ...(o.title ? { title: o.title } : {}) })
  const author = await s.signedIn()
  if (o.name) await setProfile(author.session!.token, { name: o.name })
  await s.setPosition(author.w.wallet, market.id, 0, '2500')
  return { s, market, author, post: await author.createPost('event', market.id, body) }
}

const AR_BODY = 'أعتقد أن سعر Bitcoin سيصل إلى 100000 دولار قبل الجمعة.'

describe('RTL and locales', () => {
  afterEach(() => {
    disposeVk()
    document.documentElement.removeAttribute('dir')
    document.documentElement.removeAttribute('lang')
  })

  it('<html dir="rtl">: the card mirrors (avatar right of the name) and an English post body keeps its own direction: it starts at the left and its "!" stays at its end', async () => {
    document.documentElement.dir = 'rtl'
    document.documentElement.lang = 'ar'
    await makeVk()
    const { post } = await take('BTC > 100k by Friday!')
    const el = await fixture<VkTakeCard>(html`<vk-take-card .post=${post} style="width:600px"></vk-take-card>`)
    await until(() => deep(el, '[part="body"]'), 'the card')
    const [avatar, author, body] = ['avatar', 'author', 'body'].map((p) => deep(el, `[part="${p}"]`)!)
    expect(avatar.getBoundingClientRect().left, 'the avatar is right of the name').to.be.greaterThan(author.getBoundingClientRect().right)
    expect(getComputedStyle(body).direction, 'the body takes the direction of its text').to.equal('ltr')
    expect(getComputedStyle(body).unicodeBidi).to.equal('isolate')
    expect(glyph(body, '!').left, '"!" is drawn after "y"').to.be.greaterThan(glyph(body, 'y').right - 1)
    expect(Math.abs(glyph(body, 0).left - body.getBoundingClientRect().left), '"B" starts the line at the left').to.be.lessThan(2)
    await expect(el).to.be.accessible()
  })

  it('an Arabic post body (an English market name and a number inside) on an English page reads right to left: its first word is at the right edge', async () => {
    await makeVk()
    const { post } = await take(AR_BODY)
    const el = await fixture<VkTakeCard>(html`<vk-take-card .post=${post} style="width:600px"></vk-take-card>`)
    await until(() => deep(el, '[part="body"]'), 'the card')
    const body = deep(el, '[part="body"]')!
    expect(getComputedStyle(body).direction).to.equal('rtl')
    expect(Math.abs(glyph(body, 0).right - body.getBoundingClientRect().right), 'the first letter is at the right edge').to.be.lessThan(2)
    expect(glyph(body, 'B').left, '"Bitcoin" is left of the first word').to.be.lessThan(glyph(body, 0).left)
    await expect(el).to.be.accessible()
  })

  it('dir="rtl" on an ancestor: an English market title on the card keeps its "?" at its end', async () => {
    await makeVk()
    const { post } = await take('نعم', { title: 'Will BTC hit 100k?' })
    const box = await fixture(html`<div dir="rtl"><vk-take-card .post=${post} show-market market-title="Will BTC hit 100k?"></vk-take-card></div>`)
    const el = box.querySelector('vk-take-card')!
    await until(() => deep(el, '[part="market"]'), 'the market line')
    const market = deep(el, '[part="market"]')!
    expect(glyph(market, '?').left, '"?" is drawn after "k"').to.be.greaterThan(glyph(market, 'k').right - 1)
    expect(market.getAttribute('dir')).to.equal('auto')
    await expect(el).to.be.accessible()
  })

  it('the take prompt in Arabic: the English market title inside "حول: {market}" is isolated, so its "?" stays at its end; the reason typed in English reads left to right', async () => {
    const vk = await makeVk()
    const s = await service()
    const w = s.wallet()
    await vk.signIn(w)
    const market = await s.addMarket({ prices: [4000, 6000], title: 'Will BTC hit 100k?' })
    await s.setPosition(w.wallet, market.id, 0, '2500')
    const box = await fixture(
      html`<div dir="rtl"><vk-strings-provider locale="ar" .strings=${{ room: { promptMarket: 'حول: {market}' } }}
        ><vk-platform-provider .venuekit=${vk}><vk-take-prompt></vk-take-prompt></vk-platform-provider
      ></vk-strings-provider></div>`,
    )
    const el = box.querySelector('vk-take-prompt')!
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => deep(el, '[part="market"]'), 'the prompt')
    const line = deep(el, '[part="market"]')!
    expect(deepText(line)).to.equal('حول: Will BTC hit 100k?')
    expect(glyph(line, '?').left, '"?" is drawn after "k"').to.be.greaterThan(glyph(line, 'k').right - 1)
    expect(glyph(line, 'W').left, 'the title is left of "حول"').to.be.lessThan(glyph(line, 0).left)
    const reason = deep<HTMLTextAreaElement>(el, 'textarea')!
    reason.focus()
    await sendKeys({ type: 'ETF inflows!' })
    expect(getComputedStyle(reason).direction, 'the reason takes the direction of what is typed').to.equal('ltr')
    await expect(el).to.be.accessible()
  })

  it('every text placed in a translated sentence is isolated (FSI … PDI, as Fluent does): a name, a title or an outcome label of the other direction cannot reorder the sentence; numbers are formatted, not isolated', () => {
    expect(formatMessage('Actions on the post by {name}', { name: 'نور' })).to.equal('Actions on the post by \u2068نور\u2069')
    expect(formatMessage('Settled: {outcome}', { outcome: 'Yes' }, 'ar')).to.equal('Settled: \u2068Yes\u2069')
    expect(formatMessage('{n, plural, one {# take on {m}} other {# takes on {m}}}', { n: 2, m: 'BTC?' }, 'en')).to.equal('2 takes on \u2068BTC?\u2069')
    expect(formatMessage('{n} holders', { n: 1200 }, 'en')).to.equal('1,200 holders')
    // Drawn: an English label inside an Arabic sentence keeps its "?" at its own end.
    const p = document.createElement('p')
    p.dir = 'rtl'
    p.style.cssText = 'font: 16px sans-serif; width: max-content'
    p.textContent = formatMessage('حول: {market}', { market: 'Will BTC hit 100k?' })
    document.body.append(p)
    try {
      expect(glyph(p, '?').left, 'the "?" is drawn right of the "k" before it').to.be.greaterThan(glyph(p, 'k?').left)
    } finally {
      p.remove()
    }
  })

  it("a room's join card: the room's title inside 'Join {room}' is isolated (FSI … PDI) from the sentence around it", async () => {
    document.documentElement.dir = 'rtl'
    const vk = await makeVk()
    const { el } = await nonMemberRoomFeed(vk)
    await until(() => deep(el, '#join-title'), 'the join card')
    expect(deep(el, '#join-title')!.textContent).to.match(/^Join \u2068[^\u2068\u2069]+ room\u2069$/)
    await expect(el).to.be.accessible()
  })

  it('a comment typed in English on an Arabic page reads left to right in the composer (dir="auto")', async () => {
    document.documentElement.dir = 'rtl'
    await makeVk()
    const s = await service()
    const m = await s.addMarket()
    const el = await fixture(html`<vk-comments subject-type="event" subject-ref=${m.id}></vk-comments>`)
    await until(() => deep(el, 'textarea'), 'the composer')
    const area = deep<HTMLTextAreaElement>(el, 'textarea')!
    area.focus()
    await sendKeys({ type: 'BTC > 100k!' })
    expect(getComputedStyle(area).direction).to.equal('ltr')
    await expect(el).to.be.accessible()
  })

  it('an Arabic name too long for its leaderboard row, on an English page, is cut at its end: its first letter is drawn; a short one lines up with the other names', async () => {
    await makeVk()
    const s = await service()
    const ref = `rtl-${Math.random().toString(36).slice(2, 10)}`
    const m = await s.addMarket({ nodes: [{ type: 'category', ref }], prices: [4000, 6000] })
    for (const n of ['عبد الرحمن بن محمد الهاشمي القرشي', 'علي']) {
      const a = await s.signedIn()
      await setProfile(a.session!.token, { name: n })
      await s.setPosition(a.w.wallet, m.id, 0, '1000')
      await a.createPost('event', m.id, 'x')
    }
    await s.resolve(m.id, 0)
    const el = await fixture(html`<vk-leaderboard scope=${`category:${ref}`} style="width:320px"></vk-leaderboard>`)
    await until(() => deepText(el).includes('عبد') && deepText(el).includes('علي'), 'the rows')
    const short = deepAll(el, '.name').find((n) => deepText(n) === 'علي')!
    expect(Math.abs(glyph(short, -1).left - short.getBoundingClientRect().left), 'a short name starts at the left of its cell').to.be.lessThan(1)
    const name = deepAll(el, '.name').find((n) => deepText(n).startsWith('عبد'))!
    expect(name.scrollWidth, 'the name is cut').to.be.greaterThan(name.clientWidth)
    const box = name.getBoundingClientRect()
    const first = glyph(name, 0)
    expect(first.right, 'the first letter is inside the cell').to.be.at.most(box.right + 1)
    expect(first.left).to.be.at.least(box.left - 1)
    await expect(el).to.be.accessible()
  })

  it('German at 320 CSS px: long tab labels ("Diskussionsbeiträge") wrap inside the profile instead of running out of it', async () => {
    await makeVk()
    const s = await service()
    const a = await s.signedIn()
    await a.createPost('event', (await s.addMarket()).id, 'ein Kommentar')
    const de = { comments: { takesTab: 'Einschätzungen', discussionTab: 'Diskussionsbeiträge' } }
    const box = await fixture(html`<div style="width:320px"><vk-strings-provider locale="de" .strings=${de}><vk-author-takes wallet=${a.w.wallet}></vk-author-takes></vk-strings-provider></div>`)
    const el = box.querySelector('vk-author-takes')!
    await until(() => deepAll(el, '[role="tab"]').length === 2, 'the tabs')
    const edge = el.getBoundingClientRect()
    for (const tab of deepAll(el, '[role="tab"]')) {
      const r = tab.getBoundingClientRect()
      expect(r.right, `"${deepText(tab)}" ends inside the profile`).to.be.at.most(edge.right + 0.5)
      expect(r.left).to.be.at.least(edge.left - 0.5)
    }
    await expect(el).to.be.accessible()
  })

  it('Japanese page, English fallback strings: "1 take", not "1 takes" (the English string takes English plural forms; a venue\'s Japanese string its own)', async () => {
    await makeVk()
    const s = await service()
    const m = await s.addMarket({ prices: [4000, 6000] })
    const c = await s.signedIn()
    await s.setPosition(c.w.wallet, m.id, 0, '1000')
    await c.createPost('event', m.id, 'take')
    const ja = { comments: { takesCount: '{count, plural, other {テイク#件}}' } }
    const box = await fixture(html`<div>
      <vk-strings-provider locale="ja"><vk-take-count market-id=${m.id}></vk-take-count></vk-strings-provider>
      <vk-strings-provider locale="ja" .strings=${ja}><vk-take-count market-id=${m.id}></vk-take-count></vk-strings-provider>
    </div>`)
    const [fallback, own] = [...box.querySelectorAll('vk-take-count')]
    await until(() => deepText(fallback) && deepText(own), 'the counts')
    expect(deepText(fallback)).to.equal('1 take')
    expect(deepText(own)).to.equal('テイク1件')
    await expect(fallback).to.be.accessible()
  })
})
