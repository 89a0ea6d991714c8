/** Strings (issue 6 rule 7, spec §4.4 rule 7): provider slices, per-element `strings`, `roomStrings`, locales, Intl. */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/strings-provider/strings-provider.ts'
import '../../src/elements/market-comments/market-comments.ts'
import '../../src/elements/comments/comments.ts'
import '../../src/elements/feed/feed.ts'
import '../../src/elements/community-takes/community-takes.ts'
import '../../src/elements/take-card/take-card.ts'
import '../../src/elements/take-count/take-count.ts'
import '../../src/elements/for-you-rail/for-you-rail.ts'
import '../../src/elements/moderation-queue/moderation-queue.ts'
import '../../src/elements/room-feed/room-feed.ts'
import { commentsEn } from '../../src/elements/shared/strings/comments.en.ts'
import { commentsEs } from '../../src/elements/shared/strings/comments.es.ts'
import '../../src/elements/locales/es.ts'
import { LOCALES } from '../../src/elements/shared/strings/index.ts'
import { formatMessage } from '../../src/elements/shared/format.ts'
import type { Post } from '../../src/contract/types.ts'
import { freshRef } from '../sdk/harness.ts'
import { deep, deepAll, deepText, disposeVk, makeVk, nodeFeed, service, until } from './elements-env.ts'

const submitText = (el: Element) => deepText(deep(el, '[part~="composer"] [part~="submit"]')!)

describe('strings', () => {
  afterEach(() => disposeVk())

  it('every locale names a card\'s Tail and a room\'s Follow with different words (two controls, two names)', () => {
    for (const [locale, slices] of Object.entries(LOCALES)) {
      if (!slices?.comments || !slices.room) continue
      expect(slices.comments.tail, locale).to.not.equal(slices.room.follow)
    }
    expect(commentsEs.tail).to.equal('Copiar')
  })

  it('§4.4 rule 7 "the kit accepts a strings provider with slices comments, room, moderation"', async () => {
    await makeVk()
    const m = await (await service()).addMarket()
    const root = await fixture(html`<vk-strings-provider .strings=${{ comments: { post: 'Send it', empty: 'Quiet here.' } }}>
      <vk-market-comments market-id=${m.id}></vk-market-comments>
    </vk-strings-provider>`)
    const el = root.querySelector('vk-market-comments')!
    await until(() => deep(el, '[part~="empty"]'), 'empty thread')
    expect(submitText(el)).to.equal('Send it')
    expect(deepText(deep(el, '[part~="empty"]')!)).to.equal('Quiet here.')
  })

  it('§4.4 rule 7 "or a per-component strings prop (prop wins)"', async () => {
    await makeVk()
    const m = await (await service()).addMarket()
    const root = await fixture(html`<vk-strings-provider .strings=${{ comments: { post: 'Send it' } }}>
      <vk-market-comments market-id=${m.id} .strings=${{ post: 'Publish' }}></vk-market-comments>
    </vk-strings-provider>`)
    const el = root.querySelector('vk-market-comments')!
    await until(() => deep(el, '[part~="empty"]'), 'loaded')
    expect(submitText(el)).to.equal('Publish')
  })

  it('§4.4 rule 7 "or a per-component strings prop (prop wins)": <vk-moderation-queue .strings> beats the provider\'s moderation slice', async () => {
    const vk = await makeVk()
    const s = await service()
    const owner = s.wallet()
    const { venueId } = await s.venue({ owner })
    const provided = { moderation: { signInToModerate: 'provider: sign in to moderate', signIn: 'provider: sign in', queueLabel: 'provider: queue', empty: 'provider: empty' } }
    const own = { signInToModerate: 'prop: sign in to moderate', queueLabel: 'prop: queue' }
    const root = await fixture(html`<vk-strings-provider .strings=${provided}>
      <vk-moderation-queue venue-id=${venueId} .strings=${own}></vk-moderation-queue>
      <vk-moderation-queue venue-id=${venueId}></vk-moderation-queue>
    </vk-strings-provider>`)
    const [withProp, without] = [...root.querySelectorAll('vk-moderation-queue')]
    // Signed out: the sign-in state.
    await until(() => deep(withProp, '[part="sign-in"]') && deep(without, '[part="sign-in"]'), 'sign-in states')
    expect(deepText(deep(withProp, '[part="sign-in"] p')!)).to.equal('prop: sign in to moderate')
    expect(deepText(deep(without, '[part="sign-in"] p')!)).to.equal('provider: sign in to moderate')
    // A key the prop does not set still comes from the provider.
    expect(deepText(deep(withProp, '[part="sign-in"] button')!)).to.equal('provider: sign in')
    // The venue's owner: the loaded (empty) queue.
    await vk.signIn(owner)
    await until(() => deep(withProp, '[part="empty"]') && deep(without, '[part="empty"]'), 'empty queues')
    expect(deepText(deep(withProp, 'h2')!)).to.equal('prop: queue')
    expect(deepText(deep(without, 'h2')!)).to.equal('provider: queue')
    expect(deepText(deep(withProp, '[part="empty"]')!)).to.equal('provider: empty')
  })

  it('§4.4 rule 7 "or a per-component strings prop (prop wins)": <vk-room-feed .strings> beats the provider\'s room slice', async () => {
    await makeVk()
    const s = await service()
    const v = await s.venue()
    const roomId = await s.room(v, { type: 'category', ref: freshRef('str') })
    const provided = { room: { rankedByRecord: 'provider: ranked', empty: 'provider: empty' } }
    const root = await fixture(html`<vk-strings-provider .strings=${provided}>
      <vk-room-feed room-id=${roomId} .strings=${{ rankedByRecord: 'prop: ranked' }}></vk-room-feed>
      <vk-room-feed room-id=${roomId}></vk-room-feed>
    </vk-strings-provider>`)
    const [withProp, without] = [...root.querySelectorAll('vk-room-feed')]
    await until(() => deep(withProp, '[part~="empty"]') && deep(without, '[part~="empty"]'), 'empty rooms')
    expect(deepText(deep(withProp, '[part~="sort-label"]')!)).to.equal('prop: ranked')
    expect(deepText(deep(without, '[part~="sort-label"]')!)).to.equal('provider: ranked')
    // A key the prop does not set still comes from the provider.
    expect(deepText(deep(withProp, '[part~="empty"]')!)).to.equal('provider: empty')
  })

  it('issue 6 rule 7 "a strings property on every element"', async () => {
    await makeVk()
    const f = await nodeFeed()
    const over = { emptyFeed: 'E!', empty: 'E!', post: 'P!', agreeCount: 'A!', takesCount: 'T!', forYou: 'F!', feedLabel: 'L!' }
    const root = await fixture(html`<div>
      <vk-market-comments market-id=${f.a.id} .strings=${over}></vk-market-comments>
      <vk-comments subject-type="topic" subject-ref=${`t-${Date.now().toString(36)}`} .strings=${over}></vk-comments>
      <vk-feed scope="subject" subject-type="category" subject-ref=${f.ref} .strings=${over}></vk-feed>
      <vk-community-takes scope="subject" subject-type="category" subject-ref=${f.ref} .strings=${over}></vk-community-takes>
      <vk-take-card .post=${f.take} .strings=${over}></vk-take-card>
      <vk-take-count market-id=${f.a.id} .strings=${over}></vk-take-count>
      <vk-for-you-rail .strings=${over}></vk-for-you-rail>
    </div>`)
    const [mc, c, feed, ct, card, count, rail] = [...root.children]
    await until(() => deepAll(mc, '[part~="agree"]').length && deep(c, '[part~="empty"]') && deepAll(feed, '[part~="agree"]').length, 'threads and feed')
    await until(() => deepText(count) !== '' && deep(rail, '[part~="title"]') && deepAll(ct, '[part~="agree"]').length, 'count, rail, takes')
    expect(submitText(mc)).to.equal('P!')
    expect(deepText(deep(c, '[part~="empty"]')!)).to.equal('E!')
    expect(deepText(deep(feed, '[part~="agree"]')!)).to.equal('A!')
    expect(deep(feed, '[part~="feed"]')!.getAttribute('aria-label')).to.equal('L!')
    expect(deepText(deep(ct, '[part~="agree"]')!)).to.equal('A!')
    expect(deepText(deep(ct, '[part~="title"]')!)).to.equal('F!')
    expect(deepText(deep(card, '[part~="agree"]')!)).to.equal('A!')
    expect(deepText(count)).to.equal('T!')
    expect(deepText(deep(rail, '[part~="title"]')!)).to.equal('F!')
  })

  it('§4.4 rule 7 "<CommunityTakes> takes the room slice as roomStrings"', async () => {
    await makeVk()
    const f = await nodeFeed()
    const root = await fixture(html`<vk-strings-provider .strings=${{ room: { rankedByRecord: 'from the provider' } }}>
      <vk-community-takes scope="subject" subject-type="category" subject-ref=${f.ref} sort="record"></vk-community-takes>
      <vk-community-takes
        scope="subject"
        subject-type="category"
        subject-ref=${f.ref}
        sort="record"
        .strings=${{ rankedByRecord: 'comments slice: not this one', post: 'x' }}
        .roomStrings=${{ rankedByRecord: 'by track record', rank: 'No. {rank} among {population}' }}
      ></vk-community-takes>
    </vk-strings-provider>`)
    const [fromProvider, fromProp] = [...root.querySelectorAll('vk-community-takes')]
    await until(() => deep(fromProvider, '[part~="sort-label"]') && deep(fromProp, '[part~="sort-label"]'), 'labels')
    expect(deepText(deep(fromProvider, '[part~="sort-label"]')!)).to.equal('from the provider')
    expect(deepText(deep(fromProp, '[part~="sort-label"]')!)).to.equal('by track record')
    // The room slice reaches the record chips of the cards.
    await until(() => deepText(fromProp).includes('No. 1 among'), 'record chip with roomStrings')
  })

  it('issue 6 rule 7 "Ship English and one more complete locale": Spanish has every key, each translated text non-empty', async () => {
    expect(Object.keys(commentsEs).sort()).to.deep.equal(Object.keys(commentsEn).sort())
    for (const [k, v] of Object.entries(commentsEs)) expect(v.trim(), k).to.not.equal('')
    const same = Object.keys(commentsEn).filter((k) => commentsEn[k as keyof typeof commentsEn] === commentsEs[k as keyof typeof commentsEs])
    // Only pure placeholders (with their punctuation) may read the same in both.
    for (const k of same) expect(commentsEn[k as keyof typeof commentsEn], k).to.match(/^[{}#a-zA-Z ·]*\{[a-z]+\}[}:]?$/)
  })

  it('issue 6 rule 7 "Use Intl for … numbers": Spanish counts of right and wrong calls agree in number (Intl.PluralRules), on a record and a settlement line', () => {
    for (const template of [LOCALES.es.room.record, LOCALES.es.comments.settlementTally]) {
      expect(formatMessage(template, { right: 1, wrong: 1 }, 'es')).to.equal('1 acierto · 1 fallo')
      expect(formatMessage(template, { right: 2, wrong: 0 }, 'es')).to.equal('2 aciertos · 0 fallos')
      expect(formatMessage(template, { right: 1200, wrong: 3 }, 'es')).to.equal(`${new Intl.NumberFormat('es').format(1200)} aciertos · 3 fallos`)
    }
  })

  it('a locale is registered by importing its module; English is built in', async () => {
    expect(Object.keys(LOCALES).sort()).to.deep.equal(['en', 'es'])
    expect(LOCALES.es.comments).to.equal(commentsEs)
  })

  it('issue 6 rule 7 "Use Intl for relative times and numbers": locale es from the provider', async () => {
    await makeVk()
    const s = await service()
    const m = await s.addMarket()
    const c = await s.signedIn()
    const post = await c.createPost('event', m.id, 'hola')
    const busy: Post = { ...post, agrees: 12345, createdAt: new Date(Date.now() - 3 * 3600_000).toISOString() }
    const root = await fixture(html`<div>
      <vk-strings-provider locale="es"><vk-take-card .post=${busy}></vk-take-card></vk-strings-provider>
      <vk-strings-provider locale="en"><vk-take-card .post=${busy}></vk-take-card></vk-strings-provider>
    </div>`)
    const [es, en] = [...root.querySelectorAll('vk-take-card')]
    await es.updateComplete
    expect(deepText(deep(es, '[part~="agree"]')!)).to.equal('De acuerdo · 12.345')
    expect(deepText(deep(en, '[part~="agree"]')!)).to.equal('Agree · 12,345')
    expect(deepText(deep(es, '[part~="time"]')!)).to.equal(new Intl.RelativeTimeFormat('es', { numeric: 'auto' }).format(-3, 'hour'))
    expect(deepText(deep(en, '[part~="time"]')!)).to.equal('3 hours ago')
    expect(deepText(deep(es, '[part~="reply"]')!)).to.equal('Responder')
    // The element's own locale wins too.
    const own = await fixture(html`<vk-take-card .post=${busy} locale="es"></vk-take-card>`)
    expect(deepText(deep(own, '[part~="agree"]')!)).to.equal('De acuerdo · 12.345')
  })
})
