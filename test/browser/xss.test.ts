/**
 * XSS (issue 6, done-when): posts whose bodies are common XSS payloads render as text in every element.
 * No script runs (the trap stays unset) and no element is injected (no script/img/svg/iframe/a… from
 * user text in any shadow root).
 */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/market-comments/market-comments.ts'
import '../../src/elements/comments/comments.ts'
import '../../src/elements/feed/feed.ts'
import '../../src/elements/community-takes/community-takes.ts'
import '../../src/elements/take-card/take-card.ts'
import '../../src/elements/for-you-rail/for-you-rail.ts'
import '../../src/elements/take-count/take-count.ts'
import type { Post } from '../../src/contract/types.ts'
import { armXssTrap, INJECTED, XSS_PAYLOADS, XSS_SHORT } from './xss-corpus.ts'
import { deepAll, deepText, disposeVk, makeVk, service, setProfile, until } from './elements-env.ts'

const norm = (s: string) => s.replace(/\s+/g, ' ').trim()

/** No element from user text anywhere below `root`; the only images are https avatars; no on* attributes. */
function expectNothingInjected(root: Element) {
  const injected = deepAll(root, INJECTED)
  expect(injected.map((e) => e.outerHTML.slice(0, 80)), 'injected elements').to.deep.equal([])
  for (const img of deepAll<HTMLImageElement>(root, 'img')) {
    expect(img.getAttribute('part'), 'only avatars are images').to.equal('avatar')
    expect(new URL(img.src).protocol).to.equal('https:')
  }
  const handlers = deepAll(root, '*').filter((e) => [...e.attributes].some((a) => a.name.startsWith('on')))
  expect(handlers.map((e) => e.outerHTML.slice(0, 80)), 'event-handler attributes').to.deep.equal([])
}

function expectShownAsText(root: Element, bodies: string[]) {
  const text = deepText(root)
  for (const b of bodies) expect(text, `shown as text: ${b}`).to.include(norm(b))
}

describe('XSS: user text renders as text in every element', () => {
  let posts: Post[] = []
  let marketId = ''
  let ref = ''
  let trap: () => number | undefined

  before(async () => {
    const s = await service()
    ref = `xss-${Date.now().toString(36)}`
    const market = await s.addMarket({
      nodes: [{ type: 'category', ref }],
      title: XSS_SHORT.title,
      outcomes: [{ label: XSS_SHORT.label }, { label: XSS_SHORT.label2 }],
    })
    marketId = market.id
    const author = await s.signedIn()
    await setProfile(author.session!.token, { name: XSS_SHORT.name, avatarUrl: XSS_SHORT.avatarUrl })
    await s.setPosition(author.w.wallet, market.id, 0, '1000')
    posts = []
    for (const body of XSS_PAYLOADS) posts.push(await author.createPost('event', market.id, body))
    await author.createPost('event', market.id, `reply ${XSS_PAYLOADS[1]}`, posts[0].id)
  })

  beforeEach(() => {
    trap = armXssTrap()
  })
  afterEach(async () => {
    await new Promise((r) => setTimeout(r, 300))
    expect(trap(), 'a payload ran').to.equal(undefined)
    disposeVk()
  })

  const bodies = () => [...XSS_PAYLOADS, `reply ${XSS_PAYLOADS[1]}`]

  it('<vk-market-comments>: payload bodies, names, titles and labels are text; nothing injected, nothing ran', async () => {
    await makeVk()
    const el = await fixture(html`<vk-market-comments market-id=${marketId} .limit=${100}></vk-market-comments>`)
    await until(() => deepAll(el, '[part~="row"]').length === XSS_PAYLOADS.length && deepText(el).includes(XSS_SHORT.name), 'thread with names')
    await until(() => deepText(el).includes(XSS_SHORT.label), 'labels')
    expectShownAsText(el, [...bodies(), XSS_SHORT.name, XSS_SHORT.label])
    expectNothingInjected(el)
  })

  it('<vk-comments>: payload bodies are text', async () => {
    await makeVk()
    const el = await fixture(html`<vk-comments subject-type="event" subject-ref=${marketId} .limit=${100}></vk-comments>`)
    await until(() => deepAll(el, '[part~="row"]').length === XSS_PAYLOADS.length && deepText(el).includes(XSS_SHORT.name), 'thread')
    expectShownAsText(el, bodies())
    expectNothingInjected(el)
  })

  it('<vk-feed>: payload bodies and the market title are text', async () => {
    await makeVk()
    const el = await fixture(html`<vk-feed scope="subject" subject-type="category" subject-ref=${ref} .limit=${100}></vk-feed>`)
    await until(() => deepAll(el, '[part~="row"]').length === XSS_PAYLOADS.length && deepText(el).includes(XSS_SHORT.name), 'feed')
    expectShownAsText(el, [...XSS_PAYLOADS, XSS_SHORT.title])
    expectNothingInjected(el)
  })

  it('<vk-community-takes>: payload bodies, replies and titles are text (rail included)', async () => {
    await makeVk()
    const el = await fixture(html`<vk-community-takes scope="subject" subject-type="category" subject-ref=${ref} .limit=${100}></vk-community-takes>`)
    await until(() => deepAll(el, '[part~="row"]').length === XSS_PAYLOADS.length && deepText(el).includes(XSS_SHORT.name), 'takes')
    expectShownAsText(el, [...bodies(), XSS_SHORT.title])
    expectNothingInjected(el)
  })

  it('<vk-take-card>: every payload post, with stance labels and name, is text', async () => {
    await makeVk()
    const el = await fixture(html`<div>${posts.map((p) => html`<vk-take-card .post=${p} show-market></vk-take-card>`)}</div>`)
    await until(() => deepText(el).includes(XSS_SHORT.name) && deepText(el).includes(XSS_SHORT.title), 'names and titles')
    expectShownAsText(el, [...XSS_PAYLOADS, XSS_SHORT.label])
    expectNothingInjected(el)
  })

  it('<vk-for-you-rail> and <vk-take-count>: market titles and counts are text', async () => {
    await makeVk()
    const el = await fixture(html`<div>
      <vk-for-you-rail subject-type="category" subject-ref=${ref}></vk-for-you-rail>
      <vk-take-count market-id=${marketId}></vk-take-count>
    </div>`)
    await until(() => deepText(el.children[1]) !== '' && deepAll(el, '[part~="item"]').length > 0, 'loaded')
    expectShownAsText(el, [XSS_SHORT.title])
    expectNothingInjected(el)
  })
})
