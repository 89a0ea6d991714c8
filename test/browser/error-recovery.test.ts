/**
 * Error states and their recovery, against the running reference service (UI audit, "Error, empty and
 * loading states" 12 and 13): a Retry (or any later successful read) re-reads the names and records that
 * failed with the list; the For-you rail says its own failure; the room's closing-soon rail shows its
 * failure with Retry, never a false "No markets closing soon.".
 */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/author-takes/author-takes.ts'
import '../../src/elements/comments/comments.ts'
import '../../src/elements/for-you-rail/for-you-rail.ts'
import '../../src/elements/room-feed/room-feed.ts'
import '../../src/elements/locales/es.ts'
import type { VkRoomFeed } from '../../src/elements/room-feed/room-feed.element.ts'
import { freshRef } from '../sdk/harness.ts'
import { deep, deepAll, deepText, disposeVk, isPath, makeVk, service, setProfile, until } from './elements-env.ts'

const part = (el: Element, name: string) => deep<HTMLElement>(el, `[part~="${name}"]`)
const text = (el: Element | null) => (el ? deepText(el) : null)

/** An author with a name and one settled, right take (so they have a record). */
async function namedAuthor(name: string) {
  const s = await service()
  const a = await s.signedIn()
  await setProfile(a.session!.token, { name })
  const m = await s.addMarket({ prices: [4000, 6000] })
  await s.setPosition(a.w.wallet, m.id, 0, '1000')
  const post = await a.createPost('event', m.id, 'called it')
  await s.resolve(m.id, 0)
  return { s, a, post }
}

describe('Retry recovers names and records', () => {
  afterEach(() => disposeVk())

  it('after an outage, Retry on a profile re-reads the failed name and record too, not only the posts', async () => {
    const vk = await makeVk()
    const { a, post } = await namedAuthor('Rita Recovers')
    const record = (await vk.client.records([a.w.wallet], null)).records[a.w.wallet.toLowerCase()]
    expect(record?.right, 'the service has her record').to.equal(1)
    vk.faults.requests.splice(0)
    const offs = [isPath('/v1/social/profile/'), isPath('/v1/social/profiles'), isPath('/v1/records')].map((m) => vk.faults.failNetwork(m))
    const el = await fixture(html`<vk-author-takes wallet=${a.w.wallet}></vk-author-takes>`)
    await until(() => part(el, 'retry') && text(part(el, 'error')), 'the error state')
    // The header's chip (looked up each time: the header is drawn again once the profile has a tab).
    const chip = () => deep(el, 'vk-record-chip')!
    await until(() => text(part(chip(), 'error')) === 'Record unavailable', 'the record failed too')
    expect(text(deep(el, 'h2'))).to.not.equal('Rita Recovers')
    offs.forEach((off) => off())
    part(el, 'retry')!.click()
    await until(() => deep(el, `#vk-post-${post.id}`), 'the takes, read again')
    await until(() => text(deep(el, 'h2')) === 'Rita Recovers', 'the profile name, read again')
    const card = deep(el, `#vk-post-${post.id} vk-take-card`)!
    await until(() => text(part(card, 'author')) === 'Rita Recovers', 'the card names its author')
    await until(() => text(part(chip(), 'chip'))?.includes('1 right'), 'the record, read again')
    expect(part(chip(), 'error')).to.equal(null)
  })

  it('names that failed while the list loaded are read again after the next successful page read (Load more)', async () => {
    const vk = await makeVk()
    const s = await service()
    const ref = freshRef('topic')
    const first = await s.signedIn()
    await setProfile(first.session!.token, { name: 'Older Olu' })
    await first.createPost('topic', ref, 'older')
    const second = await s.signedIn()
    await setProfile(second.session!.token, { name: 'Newer Nia' })
    const newest = await second.createPost('topic', ref, 'newer')
    const off = vk.faults.fail(isPath('/v1/social/profiles'))
    const el = await fixture(html`<vk-comments subject-type="topic" subject-ref=${ref} .limit=${1}></vk-comments>`)
    await until(() => deep(el, `#vk-post-${newest.id}`) && part(el, 'more'), 'the first page')
    const card = deep(el, `#vk-post-${newest.id} vk-take-card`)!
    await until(() => vk.faults.requests.some((r) => r.url.pathname === '/v1/social/profiles'), 'the names read (and failed)')
    await new Promise((r) => setTimeout(r, 100))
    expect(text(part(card, 'author'))).to.not.equal('Newer Nia')
    off()
    part(el, 'more')!.click()
    await until(() => deepAll(el, '[part~="row"]').length === 2, 'the next page')
    await until(() => text(part(card, 'author')) === 'Newer Nia', 'the first page\'s name, read again')
  })
})

describe('rail error states', () => {
  afterEach(() => disposeVk())

  it('the For-you rail\'s failure is its own sentence ("Couldn\'t load picks for you."), in English and Spanish, with Retry', async () => {
    const vk = await makeVk()
    const off = vk.faults.fail(isPath('/v1/social/for-you'))
    const root = await fixture(html`<div>
      <vk-for-you-rail subject-type="category" subject-ref=${freshRef('fy')}></vk-for-you-rail>
      <vk-for-you-rail subject-type="category" subject-ref=${freshRef('fy')} locale="es"></vk-for-you-rail>
    </div>`)
    const [en, es] = [...root.querySelectorAll('vk-for-you-rail')]
    await until(() => part(en, 'error') && part(es, 'error'), 'both rails failed')
    expect(text(part(en, 'error'))).to.include("Couldn't load picks for you.").and.not.include('discussion')
    expect(text(part(es, 'error'))).to.include('No se pudieron cargar las sugerencias para ti.')
    off()
    part(en, 'retry')!.click()
    await until(() => part(en, 'empty'), 'retried')
  })

  it('the room\'s closing-soon rail shows a skeleton while read, and its failure with Retry, never "No markets closing soon." for markets it could not read', async () => {
    const vk = await makeVk()
    const s = await service()
    const v = await s.venue()
    const node = freshRef('room')
    const roomId = await s.room(v, { type: 'category', ref: node })
    await s.addMarket({ title: 'Closes tomorrow in the room', nodes: [{ type: 'category', ref: node }], closesAt: new Date(Date.now() + 86_400_000).toISOString() })
    const release = vk.faults.hold(isPath('/v1/social/for-you'), 500)
    const el = await fixture<VkRoomFeed>(html`<vk-room-feed room-id=${roomId}></vk-room-feed>`)
    await until(() => part(el, 'closing-soon'), 'the rail')
    const rail = part(el, 'closing-soon')!
    await until(() => part(rail, 'loading'), 'a skeleton while the markets are read')
    expect(text(rail)).to.not.include('No markets closing soon.')
    release()
    await until(() => part(rail, 'error'), 'the failure')
    expect(text(part(rail, 'error'))).to.include("Couldn't load the markets closing soon.")
    expect(text(rail)).to.not.include('No markets closing soon.')
    expect(text(part(deep(el, 'vk-for-you-rail')!, 'error'))).to.include("Couldn't load picks for you.")
    await expect(el).to.be.accessible()
    part(rail, 'retry')!.click()
    await until(() => part(rail, 'market'), 'the markets, read again')
    expect(text(rail)).to.include('Closes tomorrow in the room')
    expect(part(rail, 'error')).to.equal(null)
  })
})
