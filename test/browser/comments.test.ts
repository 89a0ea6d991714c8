/** `<vk-comments>`: the thinner thread (issue 6 rule 2, spec §4.4 rule 2). */
import { expect, fixture, html } from '@open-wc/testing'
import '../../src/elements/comments/comments.ts'
import '../../src/elements/strings-provider/strings-provider.ts'
import { MSG } from '../../src/contract/errors.ts'
import type { VkComments } from '../../src/elements/comments/comments.element.ts'
import { freshRef } from '../sdk/harness.ts'
import { deep, deepAll, deepText, disposeVk, expectKeyboardReachable, expectParts, isPath, makeVk, service, until } from './elements-env.ts'

const mount = (type: string, ref: string, viewer?: string) =>
  fixture<VkComments>(html`<vk-comments subject-type=${type} subject-ref=${ref} .viewer=${viewer}></vk-comments>`)
const rows = (el: Element) => deepAll(el, '[part~="row"]')
const row = (el: Element, id: string) => el.shadowRoot!.getElementById(`vk-post-${id}`)!
/** The thread's own composer's failure line (not a card's). */
const failure = (el: Element) => el.shadowRoot!.querySelector('[part~="composer"] [part~="failure"]')?.textContent?.trim() ?? null

async function post(el: Element, body: string) {
  const area = el.shadowRoot!.querySelector<HTMLTextAreaElement>('[part~="composer"] textarea')!
  area.value = body
  area.dispatchEvent(new Event('input'))
  el.shadowRoot!.querySelector<HTMLButtonElement>('[part~="composer"] [part~="submit"]')!.click()
}

/** A venue's public room on a fresh category node, and a market to write about in it. */
async function venueRoom() {
  const s = await service()
  const v = await s.venue()
  const roomId = await s.room(v, { type: 'category', ref: freshRef('room') })
  return { s, v, roomId, market: await s.addMarket() }
}

/** A page signed in as a reader who joined the venue's public room and then left it. */
async function leftRoom() {
  const vk = await makeVk()
  const { s, v, roomId, market } = await venueRoom()
  const w = s.wallet()
  const reader = await s.signedIn({ venueId: v.venueId }, w)
  await reader.rooms.join(roomId)
  await reader.rooms.leave(roomId)
  await vk.signIn({ ...w, venueId: v.venueId })
  return { vk, roomId, market }
}


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

  it('§7 "Post into a room by someone who left it → refused \'you left this room — rejoin to post\'": <vk-comments room> says so, a strings-provider string, with vk-error', async () => {
    const { roomId, market } = await leftRoom()
    const root = await fixture(html`<div>
      <vk-comments subject-type="event" subject-ref=${market.id} room=${roomId}></vk-comments>
      <vk-strings-provider .strings=${{ comments: { leftRoom: 'saliste de esta sala — vuelve a unirte' } }}>
        <vk-comments subject-type="event" subject-ref=${market.id} room=${roomId}></vk-comments>
      </vk-strings-provider>
    </div>`)
    const [plain, provided] = [...root.querySelectorAll('vk-comments')]
    await until(() => deep(plain, '[part~="empty"]') && deep(provided, '[part~="empty"]'), 'empty room threads')
    const code = new Promise<string>((ok) => plain.addEventListener('vk-error', (e) => ok((e.detail.error as { code: string }).code), { once: true }))
    await post(plain, 'back again?')
    expect(await code).to.equal('room-left')
    await until(() => failure(plain), 'the refusal')
    expect(failure(plain)).to.equal(MSG.LEFT_ROOM)
    expect(failure(plain)).to.equal('you left this room — rejoin to post')
    expect(plain.shadowRoot!.querySelector<HTMLTextAreaElement>('textarea')!.value).to.equal('back again?')
    await expect(plain).to.be.accessible()
    await post(provided, 'back again?')
    await until(() => failure(provided), 'the refusal, from the provider')
    expect(failure(provided)).to.equal('saliste de esta sala — vuelve a unirte')
  })

  it('§7 "Post into a room by a non-member who does not follow the room\'s subject → 403 \'join this room to post in it\'": <vk-comments room> says so', async () => {
    const vk = await makeVk()
    const { s, v, roomId, market } = await venueRoom()
    await vk.signIn({ ...s.wallet(), venueId: v.venueId })
    const el = await fixture<VkComments>(html`<vk-comments subject-type="event" subject-ref=${market.id} room=${roomId}></vk-comments>`)
    await until(() => deep(el, '[part~="empty"]'), 'empty room thread')
    const code = new Promise<string>((ok) => el.addEventListener('vk-error', (e) => ok((e.detail.error as { code: string }).code), { once: true }))
    await post(el, 'let me in')
    expect(await code).to.equal('room-join-required')
    await until(() => failure(el), 'the refusal')
    expect(failure(el)).to.equal(MSG.JOIN_TO_POST)
    expect(failure(el)).to.equal('join this room to post in it')
    await expect(el).to.be.accessible()
  })

  it('§7 "join this room to post in it" comes with its cure: \'Join and post\' joins the room, then posts the kept text', async () => {
    const vk = await makeVk()
    const { s, v, roomId, market } = await venueRoom()
    await vk.signIn({ ...s.wallet(), venueId: v.venueId })
    const el = await fixture<VkComments>(html`<vk-comments subject-type="event" subject-ref=${market.id} room=${roomId}></vk-comments>`)
    await until(() => deep(el, '[part~="empty"]'), 'empty room thread')
    await post(el, 'let me in')
    await until(() => failure(el), 'the refusal')
    const cure = deep<HTMLButtonElement>(el, '[part~="composer"] [part~="recover"]')!
    expect(cure.textContent!.trim()).to.equal('Join and post')
    await expect(el).to.be.accessible()
    cure.click()
    await until(() => rows(el).length === 1, 'the post, in the room')
    expect(deepText(rows(el)[0])).to.include('let me in')
    expect(failure(el)).to.equal(null)
    expect(deep(el, '[part~="recover"]')).to.equal(null)
    expect(el.shadowRoot!.querySelector<HTMLTextAreaElement>('[part~="composer"] textarea')!.value).to.equal('')
    expect(vk.roomMembership(roomId).get().member, 'a member now').to.equal(true)
    expect(el.shadowRoot!.activeElement?.getAttribute('part'), 'focus went to the Post button, never to the page').to.equal('submit')
  })

  it("§7 'you left this room — rejoin to post' comes with 'Rejoin and post' (a replaceable string); a failed rejoin keeps the text and says why", async () => {
    const { vk, roomId, market } = await leftRoom()
    const box = await fixture(html`<vk-strings-provider .strings=${{ comments: { rejoinAndPost: 'Volver y publicar' } }}>
      <vk-comments subject-type="event" subject-ref=${market.id} room=${roomId}></vk-comments>
    </vk-strings-provider>`)
    const el = box.querySelector('vk-comments')!
    await until(() => deep(el, '[part~="empty"]'), 'empty room thread')
    await post(el, 'back again')
    await until(() => deep(el, '[part~="recover"]'), 'the cure')
    expect(failure(el)).to.equal(MSG.LEFT_ROOM)
    expect(deep(el, '[part~="recover"]')!.textContent!.trim()).to.equal('Volver y publicar')
    const stop = vk.faults.failNetwork(isPath(`/v1/rooms/${roomId}/join`, 'POST'))
    const cure = deep<HTMLButtonElement>(el, '[part~="recover"]')!
    cure.focus()
    cure.click()
    await until(() => failure(el) === "Couldn't reach the service. Check your connection and try again.", 'the failed rejoin')
    expect(el.shadowRoot!.querySelector<HTMLTextAreaElement>('[part~="composer"] textarea')!.value).to.equal('back again')
    expect(rows(el).length).to.equal(0)
    // Still offered, and still focused: the reader can simply try it again.
    expect(deep(el, '[part~="recover"]')).to.equal(cure)
    expect(el.shadowRoot!.activeElement).to.equal(cure)
    stop()
    cure.click()
    await until(() => rows(el).length === 1, 'posted after the rejoin')
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

  it('issue 6 rule 9 "accessible": one level of replies is a list named "Replies" (the comments slice\'s repliesLabel, replaceable)', async () => {
    await makeVk()
    const s = await service()
    const ref = freshRef('topic')
    const top = await (await s.signedIn()).createPost('topic', ref, 'a top post')
    const reply = await (await s.signedIn()).createPost('topic', ref, 'a reply', top.id)
    const el = await mount('topic', ref)
    await until(() => deep(el, '[part~="replies"]'), 'the replies')
    const replies = el.shadowRoot!.querySelector('[part~="replies"]')!
    expect(replies.localName).to.equal('ol')
    expect(replies.getAttribute('aria-label')).to.equal('Replies')
    expect(!!replies.querySelector(`#vk-post-${reply.id}`), 'the reply is in it').to.equal(true)
    await expect(el).to.be.accessible()
    const box = await fixture(html`<vk-strings-provider .strings=${{ comments: { repliesLabel: 'Respuestas' } }}><vk-comments subject-type="topic" subject-ref=${ref}></vk-comments></vk-strings-provider>`)
    const es = box.querySelector('vk-comments')!
    await until(() => deep(es, '[part~="replies"]'), 'the replies')
    expect(es.shadowRoot!.querySelector('[part~="replies"]')!.getAttribute('aria-label')).to.equal('Respuestas')
  })

  it('issue 6 rule 1 "Live updates … show \'N new\'": pressing "N new" merges them and puts focus on the newest row (not left on the page)', async () => {
    await makeVk()
    const s = await service()
    const market = await s.addMarket()
    const older = await (await s.signedIn()).createPost('event', market.id, 'already here')
    const el = await mount('event', market.id)
    await until(() => rows(el).length === 1, 'loaded')
    // Let the thread's stream subscription settle (it is made when the thread mounts).
    await new Promise((r) => setTimeout(r, 300))
    const fresh = await (await s.signedIn()).createPost('event', market.id, 'arrived live')
    const bar = el.shadowRoot!.querySelector('[part~="new-bar"]')!
    await until(() => deepText(bar).includes('1 new post'), '"1 new post" bar', 10_000)
    expect(rows(el).map((r) => r.id)).to.deep.equal([`vk-post-${older.id}`])
    bar.querySelector('button')!.click()
    await until(() => rows(el)[0]?.id === `vk-post-${fresh.id}`, 'merged at the top')
    await until(() => el.shadowRoot!.activeElement?.id === `vk-post-${fresh.id}`, 'focus on the newest row', 2000)
    expect(el.shadowRoot!.activeElement === row(el, fresh.id)).to.equal(true)
    await expect(el).to.be.accessible()
  })
})
