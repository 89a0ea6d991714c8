/**
 * `<vk-room-feed>` against the running reference service (issue 7 rule 1; spec §2.8, §3.3, §4.4 rule 5 and 8,
 * §4.5.3, §7): what a room shows, its attributes and events, and every membership path through the real service.
 */
import { expect, fixture, html, oneEvent } from '@open-wc/testing'
import '../../src/elements/room-feed/room-feed.ts'
import '../../src/elements/platform-provider/platform-provider.ts'
import '../../src/elements/strings-provider/strings-provider.ts'
import type { VkRoomFeed } from '../../src/elements/room-feed/room-feed.element.ts'
import type { Post } from '../../src/contract/types.ts'
import { MSG } from '../../src/contract/errors.ts'
import { freshRef, type TestWallet } from '../sdk/harness.ts'
import { deep, deepAll, deepText, disposeVk, expectKeyboardReachable, expectParts, expectSignalRows, isPath, makeVk, service, until, withSignals } from './elements-env.ts'
import { armXssTrap, expectInert, XSS_PAYLOADS, XSS_SHORT } from './xss-corpus.ts'

type Vk = Awaited<ReturnType<typeof makeVk>>

/** A claimed venue and a room of it on a fresh category node. */
async function venueRoom(visibility: 'public' | 'private' = 'public', title?: string) {
  const s = await service()
  const v = await s.venue()
  const node = freshRef('room')
  const roomId = title
    ? (
        await (
          await fetch(`${s.env.url}/v1/rooms`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${v.owner.session!.token}` },
            body: JSON.stringify({ venueId: v.venueId, subjectType: 'category', subjectRef: node, visibility, title }),
          })
        ).json()
      ).room.id
    : await s.room(v, { type: 'category', ref: node }, visibility)
  return { s, v, node, roomId: roomId as string }
}

/** Signs the page in on the venue (its session names the venue: joins are for the session's own venue). */
async function signInOn(vk: Vk, venueId: string, w?: TestWallet) {
  const s = await service()
  const wallet = w ?? s.wallet()
  await vk.signIn({ ...wallet, venueId })
  return wallet
}

const room = (roomId: string, extra: { membership?: string; takePrompt?: string; sort?: string; onTail?: (p: Post) => void } = {}) =>
  fixture<VkRoomFeed>(html`<vk-room-feed
    room-id=${roomId}
    membership=${extra.membership ?? 'true'}
    take-prompt=${extra.takePrompt ?? 'true'}
    sort=${extra.sort ?? ''}
    .onTail=${extra.onTail}
  ></vk-room-feed>`)

const part = (el: Element, name: string) => deep(el, `[part~="${name}"]`)
const rows = (el: Element) => deepAll(el, '[part="row"]').map((r) => r.id.replace('vk-post-', ''))
const joinCard = (el: Element) => part(el, 'join-card')
const composer = (el: Element) => deep<HTMLFormElement>(el, 'form[part="composer"]')
const refusal = (el: Element) => (part(el, 'refusal') ? deepText(part(el, 'refusal')!) : null)
const loaded = (el: Element) => !!deep(el, '[part="discussion"]') && !part(el, 'loading')

async function write(el: Element, body: string) {
  const area = deep<HTMLTextAreaElement>(composer(el)!, 'textarea')!
  area.value = body
  area.dispatchEvent(new Event('input'))
  deep<HTMLButtonElement>(composer(el)!, '[part="submit"]')!.click()
}

/** Replies to row `postId` through its card's Reply form; resolves with the card. */
async function replyOnRow(el: Element, postId: string, body: string) {
  await until(() => deep(el, `#vk-post-${postId} vk-take-card`), 'the row')
  const card = deep(el, `#vk-post-${postId} vk-take-card`)!
  await until(() => deep(card, '[part="reply"]'), 'Reply on the row')
  deep<HTMLButtonElement>(card, '[part="reply"]')!.click()
  await until(() => deep(card, 'form[part="composer"] textarea'), 'the reply form')
  const area = deep<HTMLTextAreaElement>(card, 'form[part="composer"] textarea')!
  area.value = body
  area.dispatchEvent(new Event('input'))
  deep<HTMLButtonElement>(card, 'form[part="composer"] [part="submit"]')!.click()
  return card
}
const cardFailure = (card: Element) => (deep(card, '[part="failure"]') ? deepText(deep(card, '[part="failure"]')!) : null)

/** The next `vk-error` from `el`, as its error's code. */
const nextErrorCode = (el: HTMLElement) => new Promise<string>((ok) => el.addEventListener('vk-error', (e) => ok((e.detail.error as { code: string }).code), { once: true }))

describe('<vk-room-feed>', () => {
  afterEach(() => disposeVk())

  it('issue 7 rule 1 "the discussion, ranked by record by default and labelled \'ranked by record\'" (§4.4 rule 8)', async () => {
    const vk = await makeVk()
    const { s, roomId, v } = await venueRoom()
    const market = await s.addMarket()
    await v.owner.createPost('event', market.id, 'first in the room', null, { room: roomId })
    await v.owner.createPost('event', market.id, 'second in the room', null, { room: roomId })
    const el = await room(roomId)
    await until(() => rows(el).length === 2, 'two rows')
    expect(deepText(part(el, 'sort-label')!)).to.equal('ranked by record')
    const reads = vk.faults.requests.filter((r) => r.url.pathname === '/v1/social/posts/feed')
    expect(reads.map((r) => [r.url.searchParams.get('room'), r.url.searchParams.get('sort')])).to.deep.equal([[roomId, 'record']])
    // The server's order, never re-sorted.
    const page = await s.client().postFeed({ room: roomId, sort: 'record' })
    expect(rows(el)).to.deep.equal(page.posts.map((p) => p.id))
    // Asked for live, it is not labelled.
    const live = await room(roomId, { sort: 'live' })
    await until(() => rows(live).length === 2, 'live rows')
    expect(!!part(live, 'sort-label')).to.equal(false)
  })

  it('issue 7 rule 1 "a closing-soon rail of the room\'s markets" and "vk-open-market stands for onOpenMarket"', async () => {
    await makeVk()
    const { s, roomId, node } = await venueRoom()
    const inRoom = await s.addMarket({ title: 'Closes tomorrow here', nodes: [{ type: 'category', ref: node }], closesAt: new Date(Date.now() + 86_400_000).toISOString() })
    await s.addMarket({ title: 'Elsewhere', nodes: [{ type: 'category', ref: freshRef('other') }] })
    const el = await room(roomId)
    await until(() => deep(el, '[part="market"]'), 'closing-soon market')
    const rail = part(el, 'closing-soon')!
    expect(deepText(rail)).to.include('Closing soon').and.include('Closes tomorrow here').and.not.include('Elsewhere')
    const opened = oneEvent(el, 'vk-open-market')
    deep<HTMLButtonElement>(rail, '[part="market"]')!.click()
    expect((await opened).detail).to.deep.equal({ marketId: inRoom.id.toLowerCase() })
  })

  it('issue 7 rule 1: a room with no market closing soon says so in the kit\'s empty state (part="empty"); a row\'s replies are a list named Replies', async () => {
    await makeVk()
    const { v, roomId } = await venueRoom()
    const s = await service()
    const far = await s.addMarket({ closesAt: new Date(Date.now() + 60 * 86_400_000).toISOString() })
    const top = await v.owner.createPost('event', far.id, 'a top post', null, { room: roomId })
    await v.owner.createPost('event', far.id, 'a reply', top.id)
    const el = await room(roomId)
    await until(() => part(part(el, 'closing-soon')!, 'empty') && part(el, 'replies'), 'the empty rail and the replies')
    expect(deepText(part(part(el, 'closing-soon')!, 'empty')!)).to.equal('No markets closing soon.')
    expect(part(el, 'replies')!.getAttribute('aria-label')).to.equal('Replies')
    await expect(el).to.be.accessible()
  })

  it('issue 7 rule 1 "the for-you rail"', async () => {
    const vk = await makeVk()
    const { roomId } = await venueRoom()
    const el = await room(roomId)
    await until(() => deep(el, 'vk-for-you-rail'), 'rail')
    expect(deep(el, 'vk-for-you-rail')!.getAttribute('room')).to.equal(roomId)
    await until(() => vk.faults.requests.some((r) => r.url.pathname === '/v1/social/for-you' && r.url.searchParams.get('room') === roomId), 'the rail read for the room')
  })

  it('issue 7 rule 1 "the take prompt after a buy, only when a platform provider is above it"; take-prompt="false" turns it off', async () => {
    const vk = await makeVk()
    const { s, roomId } = await venueRoom()
    const w = await signInOn(vk, (await s.venue()).venueId)
    const market = await s.addMarket()
    await s.setPosition(w.wallet, market.id, 0, '100')
    Object.keys(localStorage).filter((k) => k.startsWith('vk:take-prompt')).forEach((k) => localStorage.removeItem(k))
    const bare = await room(roomId)
    const inside = (await fixture(html`<vk-platform-provider .venuekit=${vk}><vk-room-feed room-id=${roomId}></vk-room-feed></vk-platform-provider>`)).querySelector('vk-room-feed')!
    const off = (await fixture(html`<vk-platform-provider .venuekit=${vk}><vk-room-feed room-id=${roomId} take-prompt="false"></vk-room-feed></vk-platform-provider>`)).querySelector('vk-room-feed')!
    await until(() => loaded(bare) && loaded(inside) && loaded(off), 'rooms')
    vk.buySettled({ wallet: w.wallet, marketId: market.id, side: 0 })
    await until(() => deep(inside, '[part="prompt"]') && deepText(deep(inside, '[part="title"]')!) === 'Why Yes?', 'the prompt inside the provider')
    expect(!!deep(bare, 'vk-take-prompt')).to.equal(false)
    expect(!!deep(off, 'vk-take-prompt')).to.equal(false)
    deep<HTMLButtonElement>(inside, '[part="skip"]')!.click()
    await until(() => !deep(inside, '[part="prompt"]'), 'skipped')
  })

  it('issue 7 rule 1 "a Join card for a signed-in non-member"; none signed out, none for a member; membership="false" turns it off', async () => {
    const vk = await makeVk()
    const { roomId, v } = await venueRoom()
    const el = await room(roomId)
    const off = await room(roomId, { membership: 'false' })
    await until(() => loaded(el), 'room')
    await new Promise((r) => setTimeout(r, 100))
    expect(!!joinCard(el), 'signed out').to.equal(false)
    await signInOn(vk, v.venueId)
    await until(() => joinCard(el), 'join card for a signed-in non-member')
    expect(deepText(joinCard(el)!)).to.include(`Join ${deepText(deep(el, 'h2')!)}`)
    expect(!!joinCard(off)).to.equal(false)
    expect(!!part(off, 'leave')).to.equal(false)
    await expect(el).to.be.accessible()
    await vk.signOut()
    await vk.signIn({ ...(v.owner as unknown as { w: TestWallet }).w, venueId: v.venueId })
    await until(() => part(el, 'leave') && !joinCard(el), 'a member (the owner) gets Leave, not Join')
  })

  it('issue 7 rule 1 trap (§4.5.3) "No Join is drawn when member === null": while unknown and after a failed read', async () => {
    const vk = await makeVk()
    const { roomId, v } = await venueRoom()
    await signInOn(vk, v.venueId)
    // While the membership is being read: unknown, no Join.
    const release = vk.faults.hold(isPath(`/v1/rooms/${roomId}/membership`))
    const waiting = await room(roomId)
    await until(() => loaded(waiting), 'room while the membership read is held')
    await new Promise((r) => setTimeout(r, 150))
    expect(!!joinCard(waiting)).to.equal(false)
    expect(!!composer(waiting)).to.equal(true)
    release()
    await until(() => joinCard(waiting), 'Join once the read says non-member')
    // After a failed read: still unknown, no Join.
    const failedRoom = await venueRoom()
    const stop = vk.faults.fail(isPath(`/v1/rooms/${failedRoom.roomId}/membership`))
    const el = await room(failedRoom.roomId)
    await until(() => loaded(el) && vk.faults.requests.some((r) => r.url.pathname === `/v1/rooms/${failedRoom.roomId}/membership`), 'room with a failed membership read')
    await new Promise((r) => setTimeout(r, 150))
    expect(!!joinCard(el)).to.equal(false)
    // Not hidden either: the composer stays.
    expect(composer(el)).to.not.equal(null)
    stop()
  })

  it('§2.8 "members: Headcount; null (never 0) for a private room seen by an outsider": no headcount is drawn, never "0 members"', async () => {
    const vk = await makeVk()
    const { s, roomId, v } = await venueRoom('private')
    await signInOn(vk, v.venueId)
    // The room's discussion is held, so the header is drawn with the membership answer alone
    // (answered, the outsider gets the not-found state, which has no header at all).
    const release = vk.faults.hold(isPath('/v1/social/posts/feed'))
    try {
      const el = await room(roomId)
      await until(() => joinCard(el), 'the membership answered: an outsider (member false)')
      const m = vk.roomMembership(roomId).get()
      expect([m.member, m.members]).to.deep.equal([false, null])
      await new Promise((r) => setTimeout(r, 100))
      expect(!!part(el, 'header'), 'the header').to.equal(true)
      expect(!!part(el, 'members'), 'a headcount part').to.equal(false)
      expect(deepText(el)).to.not.match(/\b0 members?\b/)
      // Control: an insider (the operator) is told the headcount (the owner).
      await vk.signOut()
      await vk.signIn({ ...s.operator(), venueId: v.venueId })
      await until(() => part(el, 'members'), 'the headcount for an insider')
      expect(deepText(part(el, 'members')!)).to.equal('1 member')
    } finally {
      release()
    }
  })

  it('§2.8 "members … null (never 0)" and "member … Null means unknown and also means the read failed": after a failed membership read no headcount is drawn, never "0 members"', async () => {
    const vk = await makeVk()
    const { roomId, v } = await venueRoom()
    await signInOn(vk, v.venueId)
    const stop = vk.faults.fail(isPath(`/v1/rooms/${roomId}/membership`))
    const el = await room(roomId)
    await until(() => loaded(el) && vk.roomMembership(roomId).get().readError, 'the room, with a failed membership read')
    expect(vk.roomMembership(roomId).get().members).to.equal(null)
    await new Promise((r) => setTimeout(r, 100))
    expect(!!part(el, 'header'), 'the header').to.equal(true)
    expect(!!part(el, 'members'), 'a headcount part').to.equal(false)
    expect(deepText(el)).to.not.match(/\b0 members?\b/)
    // Control: read again once it works, the room's headcount is drawn (the owner).
    stop()
    vk.roomMembership(roomId).get().refresh()
    await until(() => part(el, 'members'), 'the headcount once read')
    expect(deepText(part(el, 'members')!)).to.equal('1 member')
  })

  it('issue 7 rule 1 trap (§4.5.3) "The composer is never hidden when member === false … other readers get the server\'s message"', async () => {
    const vk = await makeVk()
    const { roomId, v } = await venueRoom()
    await signInOn(vk, v.venueId)
    const el = await room(roomId)
    await until(() => joinCard(el), 'non-member')
    expect(composer(el)).to.not.equal(null)
    await write(el, 'let me in')
    await until(() => refusal(el), 'refusal')
    expect(refusal(el)).to.equal(MSG.JOIN_TO_POST)
    expect(refusal(el)).to.equal('join this room to post in it')
    // The text is kept for after joining.
    expect(deep<HTMLTextAreaElement>(el, 'textarea')!.value).to.equal('let me in')
  })

  it('issue 7 rule 1 membership path "join a public room"', async () => {
    const vk = await makeVk()
    const { s, roomId, v } = await venueRoom()
    const w = await signInOn(vk, v.venueId)
    const el = await room(roomId)
    await until(() => joinCard(el) && part(el, 'members'), 'join card')
    expect(deepText(part(el, 'members')!)).to.equal('1 member')
    const changed = oneEvent(el, 'vk-membership-change')
    deep<HTMLButtonElement>(joinCard(el)!, '[part="join"]')!.click()
    expect((await changed).detail).to.deep.equal({ roomId, member: true })
    await until(() => !joinCard(el) && part(el, 'leave'), 'member')
    await until(() => deepText(part(el, 'members')!) === '2 members', 'headcount')
    const probe = await s.signedIn({ venueId: v.venueId }, w)
    expect((await probe.rooms.membership(roomId)).member).to.equal(true)
    await write(el, 'hello room')
    await until(() => deepText(el).includes('hello room'), 'the post in the room')
    expect(refusal(el)).to.equal(null)
  })

  it('issue 7 rule 1: a join or a post answers for the room it was made in: when the element is pointed at another room meanwhile, its refusal or failure is not shown there', async () => {
    const vk = await makeVk()
    const { s, roomId, v } = await venueRoom('private')
    const other = await s.room(v, { type: 'category', ref: freshRef('room') }, 'public')
    await vk.signIn({ ...s.operator(), venueId: v.venueId })
    const el = await room(roomId)
    await until(() => joinCard(el), 'join card')
    // The private room refuses the join; the answer lands after the element moved to the other room.
    const releaseJoin = vk.faults.hold(isPath('/join', 'POST'))
    deep<HTMLButtonElement>(joinCard(el)!, '[part="join"]')!.click()
    await el.updateComplete
    el.roomId = other
    await until(() => loaded(el) && joinCard(el), "the other room's join card")
    releaseJoin()
    await until(() => !vk.faults.requests.every((r) => !r.url.pathname.endsWith('/join')), 'join sent')
    await new Promise((r) => setTimeout(r, 200))
    expect(refusal(el), "the private room's refusal").to.equal(null)
    // A post that fails after the element moved back: no failure line under the room now shown.
    el.roomId = roomId
    await until(() => loaded(el) && composer(el), 'the private room again')
    const releasePost = vk.faults.hold(isPath('/v1/social/posts', 'POST'), 500)
    await write(el, 'into the first room')
    await el.updateComplete
    el.roomId = other
    await until(() => loaded(el) && composer(el), 'the other room again')
    releasePost()
    await new Promise((r) => setTimeout(r, 200))
    expect(refusal(el), "the first room's failure").to.equal(null)
  })

  it('issue 7 rule 1 membership path "a private room, refused": \'this room is not open to join\'', async () => {
    const vk = await makeVk()
    const { s, roomId, v } = await venueRoom('private')
    // The operator sees a private room without being a member; joining it is refused like anyone's.
    await vk.signIn({ ...s.operator(), venueId: v.venueId })
    const el = await room(roomId)
    await until(() => joinCard(el), 'join card')
    deep<HTMLButtonElement>(joinCard(el)!, '[part="join"]')!.click()
    await until(() => refusal(el), 'refused')
    expect(refusal(el)).to.equal(MSG.ROOM_NOT_OPEN)
    expect(refusal(el)).to.equal('this room is not open to join')
    expect(joinCard(el)).to.not.equal(null)
    await expect(el).to.be.accessible()
  })

  it('issue 7 rule 1 membership path "another venue\'s room, an error" (not reported as invite-only)', async () => {
    const vk = await makeVk()
    const { roomId } = await venueRoom()
    const mine = await (await service()).venue()
    await signInOn(vk, mine.venueId)
    const el = await room(roomId)
    await until(() => joinCard(el), 'join card')
    deep<HTMLButtonElement>(joinCard(el)!, '[part="join"]')!.click()
    await until(() => refusal(el), 'error')
    // A string of the room slice (by the code `room-other-venue`), not the service's English.
    expect(refusal(el)).to.equal('This room belongs to another venue.')
    expect(refusal(el)).to.not.equal(MSG.ROOM_NOT_OPEN)
    expect(joinCard(el)).to.not.equal(null)
  })

  it('issue 7 rule 1 membership paths "follow and post, which makes a member; leave, then post, refused; rejoin"', async () => {
    const vk = await makeVk()
    const { s, roomId, v } = await venueRoom()
    const w = await signInOn(vk, v.venueId)
    const el = await room(roomId)
    const follow = () => deep<HTMLButtonElement>(deep(el, 'vk-follow-button')!, 'button')
    await until(() => joinCard(el) && follow()?.getAttribute('aria-pressed') === 'false', 'non-member, not following')
    // Follow the room's subject with the room's own Follow button, then post: the post makes a member (§3.3).
    follow()!.click()
    await until(() => follow()?.getAttribute('aria-pressed') === 'true', 'following')
    await write(el, 'follower speaks')
    await until(() => deepText(el).includes('follower speaks'), 'posted')
    await until(() => !joinCard(el) && part(el, 'leave'), 'a member now')
    const probe = await s.signedIn({ venueId: v.venueId }, w)
    expect((await probe.rooms.membership(roomId)).member).to.equal(true)

    // Leave, then post (still following): refused with the left-room message.
    const left = oneEvent(el, 'vk-membership-change')
    deep<HTMLButtonElement>(el, '[part="leave"]')!.click()
    expect((await left).detail).to.deep.equal({ roomId, member: false })
    await until(() => joinCard(el), 'join card after leaving')
    expect(deepText(deep(joinCard(el)!, '[part="join"]')!)).to.equal('Rejoin')
    // §2.8 "members: Headcount": the member who left is not counted (the venue's owner stays).
    await until(() => deepText(part(el, 'members')!) === '1 member', 'headcount after leaving')
    expect(composer(el), 'composer not hidden after leaving').to.not.equal(null)
    await write(el, 'back again?')
    await until(() => refusal(el), 'refused')
    expect(refusal(el)).to.equal(MSG.LEFT_ROOM)
    expect(refusal(el)).to.equal('you left this room — rejoin to post')

    // Rejoin, then the same text posts.
    deep<HTMLButtonElement>(joinCard(el)!, '[part="join"]')!.click()
    await until(() => !joinCard(el) && part(el, 'leave'), 'member again')
    expect(refusal(el)).to.equal(null)
    deep<HTMLButtonElement>(composer(el)!, '[part="submit"]')!.click()
    await until(() => deepText(el).includes('back again?'), 'posted after rejoining')
    expect((await probe.rooms.membership(roomId)).member).to.equal(true)
  })

  it('§7 "Post into a room by someone who left it → refused \'you left this room — rejoin to post\'": a reply from a room row says so, a strings-provider string, with vk-error', async () => {
    const vk = await makeVk()
    const { s, roomId, v } = await venueRoom()
    const top = await v.owner.createPost('event', (await s.addMarket()).id, 'reply to me', null, { room: roomId })
    const w = s.wallet()
    const reader = await s.signedIn({ venueId: v.venueId }, w)
    await reader.rooms.join(roomId)
    await reader.rooms.leave(roomId)
    await signInOn(vk, v.venueId, w)
    const box = await fixture(html`<div>
      <vk-room-feed room-id=${roomId}></vk-room-feed>
      <vk-strings-provider .strings=${{ comments: { leftRoom: 'saliste de esta sala — vuelve a unirte' } }}><vk-room-feed room-id=${roomId}></vk-room-feed></vk-strings-provider>
    </div>`)
    const [plain, provided] = [...box.querySelectorAll('vk-room-feed')]
    const code = nextErrorCode(plain)
    const card = await replyOnRow(plain, top.id, 'still here?')
    expect(await code).to.equal('room-left')
    await until(() => cardFailure(card), 'the refusal under the reply form')
    expect(cardFailure(card)).to.equal(MSG.LEFT_ROOM)
    expect(cardFailure(card)).to.equal('you left this room — rejoin to post')
    // The text is kept for after rejoining.
    expect(deep<HTMLTextAreaElement>(card, 'form[part="composer"] textarea')!.value).to.equal('still here?')
    await expect(plain).to.be.accessible()
    const other = await replyOnRow(provided, top.id, 'still here?')
    await until(() => cardFailure(other), 'the refusal, from the provider')
    expect(cardFailure(other)).to.equal('saliste de esta sala — vuelve a unirte')
  })

  it('§7 "Post into a room by a non-member who does not follow the room\'s subject → 403 \'join this room to post in it\'": a reply from a room row too', async () => {
    const vk = await makeVk()
    const { s, roomId, v } = await venueRoom()
    const top = await v.owner.createPost('event', (await s.addMarket()).id, 'reply to me', null, { room: roomId })
    await signInOn(vk, v.venueId)
    const el = await room(roomId)
    await until(() => joinCard(el), 'a non-member')
    const code = nextErrorCode(el)
    const card = await replyOnRow(el, top.id, 'let me reply')
    expect(await code).to.equal('room-join-required')
    await until(() => cardFailure(card), 'the refusal under the reply form')
    expect(cardFailure(card)).to.equal(MSG.JOIN_TO_POST)
    expect(cardFailure(card)).to.equal('join this room to post in it')
    await expect(el).to.be.accessible()
    // Its cure, beside it: 'Join and post' joins the post's room and sends the kept reply.
    const cure = deep<HTMLButtonElement>(card, 'form[part="composer"] [part="recover"]')!
    expect(cure.textContent!.trim()).to.equal('Join and post')
    cure.click()
    await until(() => !deep(card, 'form[part="composer"]'), 'the reply sent: its form closes')
    const thread = await vk.client.posts('event', top.subjectRef, { room: roomId })
    expect(thread.posts.find((p) => p.id === top.id)!.replies).to.equal(1)
    expect(vk.roomMembership(roomId).get().member).to.equal(true)
  })

  it('issue 7 "every visible string is replaceable": a network failure reads as the provider\'s string, never the SDK\'s English; the error is in vk-error', async () => {
    const vk = await makeVk()
    const { roomId, v } = await venueRoom()
    await signInOn(vk, v.venueId)
    const box = await fixture(html`<vk-strings-provider .strings=${{ room: { failNetwork: 'Sin conexión con el servicio.' } }}><vk-room-feed room-id=${roomId}></vk-room-feed></vk-strings-provider>`)
    const el = box.querySelector('vk-room-feed')!
    await until(() => joinCard(el) && composer(el), 'the room')
    vk.faults.failNetwork(isPath('/v1/social/posts', 'POST'))
    const failed = new Promise<unknown>((ok) => el.addEventListener('vk-error', (e) => ok(e.detail.error), { once: true }))
    await write(el, 'anyone there?')
    const error = (await failed) as { code: string; message: string }
    expect(error.code).to.equal('network')
    expect(error.message).to.include('Failed to fetch')
    await until(() => refusal(el), 'the failure line')
    expect(refusal(el)).to.equal('Sin conexión con el servicio.')
    expect(deepText(el)).to.not.include('Failed to fetch').and.not.include('could not be reached')
    await expect(el).to.be.accessible()
  })

  it('issue 7 rule 1: every control of a room is a real button or field, reachable by Tab with a visible focus', async () => {
    const vk = await makeVk()
    const { s, roomId, v, node } = await venueRoom()
    await s.addMarket({ nodes: [{ type: 'category', ref: node }] })
    await v.owner.createPost('event', (await s.addMarket()).id, 'a post to act on', null, { room: roomId })
    await signInOn(vk, v.venueId)
    const el = await room(roomId)
    await until(() => joinCard(el) && rows(el).length === 1 && deep(el, '[part="market"]'), 'a full room')
    await expectKeyboardReachable(el)
  })

  it('issue 7 rule 1 trap "An outsider of a private room sees a not-found state"', async () => {
    const vk = await makeVk()
    const { roomId, v } = await venueRoom('private')
    const el = await room(roomId)
    await until(() => part(el, 'not-found'), 'not found signed out')
    expect(deepText(part(el, 'not-found')!)).to.equal("This room doesn't exist or isn't open to you.")
    expect(!!composer(el)).to.equal(false)
    expect(!!joinCard(el)).to.equal(false)
    await expect(el).to.be.accessible()
    await signInOn(vk, v.venueId)
    await new Promise((r) => setTimeout(r, 100))
    await until(() => part(el, 'not-found'), 'not found for a signed-in outsider')
    expect(deepText(el)).to.not.include('private')
  })

  it('issue 7 rule 1 "Rows get Tail only when an onTail handler is set"', async () => {
    const vk = await makeVk({ checkout: { openCheckout: () => {} } })
    const { s, roomId, v } = await venueRoom()
    const market = await s.addMarket()
    await s.setPosition(v.owner.w.wallet, market.id, 0, '100')
    const take = await v.owner.createPost('event', market.id, 'a take in the room', null, { room: roomId })
    const without = await room(roomId)
    const tailed: Post[] = []
    const withTail = await room(roomId, { onTail: (p) => void tailed.push(p) })
    await until(() => rows(without).length === 1 && rows(withTail).length === 1, 'rows')
    await until(() => deep(withTail, '[part="tail"]'), 'Tail with onTail')
    // The adapter could tail this take (an open market, known on the page): still no Tail without onTail.
    await until(() => vk.tail().get().canTail(take), 'the page could tail the take')
    await new Promise((r) => setTimeout(r, 100))
    expect(!!deep(without, '[part="tail"]'), 'no Tail without onTail, even with a checkout adapter').to.equal(false)
    deep<HTMLButtonElement>(withTail, '[part="tail"]')!.click()
    await until(() => tailed.length === 1, 'onTail called')
    expect(tailed[0].id).to.equal(take.id)
    expect(vk.$session.get()).to.equal(null)
  })

  it('issue 7 rule 1 "vk-sign-in … stands for the spec\'s onSignIn": signed out, the composer is a Sign in button', async () => {
    await makeVk()
    const { roomId } = await venueRoom()
    const el = await room(roomId)
    await until(() => part(el, 'sign-in'), 'sign-in button')
    expect(!!composer(el)).to.equal(false)
    const asked = oneEvent(el, 'vk-sign-in')
    deep<HTMLButtonElement>(el, '[part="sign-in"]')!.click()
    await asked
  })

  it('issue 7 rule 1: a room chosen by subject-type and subject-ref reads that node\'s discussion, ranked by record', async () => {
    const vk = await makeVk()
    const s = await service()
    const node = freshRef('section')
    const writer = await s.signedIn()
    const p = await writer.createPost('category', node, 'about the node')
    const el = await fixture<VkRoomFeed>(html`<vk-room-feed subject-type="category" subject-ref=${node}></vk-room-feed>`)
    await until(() => rows(el).includes(p.id), 'the node discussion')
    expect(deepText(part(el, 'sort-label')!)).to.equal('ranked by record')
    const read = vk.faults.requests.find((r) => r.url.pathname === '/v1/social/posts/feed')!
    expect([read.url.searchParams.get('scope'), read.url.searchParams.get('subjectType'), read.url.searchParams.get('subjectRef'), read.url.searchParams.get('sort')]).to.deep.equal([
      'subject',
      'category',
      node,
      'record',
    ])
    await vk.signIn(s.wallet())
    await until(() => composer(el), 'composer')
    await write(el, 'me too')
    await until(() => deepText(el).includes('me too'), 'posted on the node')
    expect((await s.client().posts('category', node)).posts.map((x) => x.body)).to.include('me too')
  })

  it('§2.2 signals "are present for a taxonomy node" and §4.4 gives the taxonomy-node section to <RoomFeed subject>: its signal lines, quiet signal rows and settlement lines are drawn (only <Feed> ignores them, rule 4)', async () => {
    const vk = await makeVk()
    const f = await withSignals()
    const el = await fixture<VkRoomFeed>(html`<vk-room-feed subject-type="category" subject-ref=${f.ref} sort="live"></vk-room-feed>`)
    // A line under the take, a quiet row for the market no post names (before the post `before` names, or
    // last), and a settlement line under the settled market's take.
    const { quietRow, page } = await expectSignalRows(el, f, vk)
    expect(rows(el), 'the rows are still the posts, in the page order').to.deep.equal(page.posts.map((p) => p.id))
    // The quiet row's market opens like every market of the room (spec onOpenMarket).
    const opened = oneEvent(el, 'vk-open-market')
    quietRow.querySelector<HTMLButtonElement>('[part~="market"]')!.click()
    expect((await opened).detail.marketId.toLowerCase()).to.equal(f.c.id.toLowerCase())
    expectParts(el, ['signal', 'signal-row', 'settlement'])
    await expect(el).to.be.accessible()
  })

  it('§2.2 signals on the section take the cards\' strings (`card-strings`, the provider\'s comments slice) like the cards', async () => {
    await makeVk()
    const f = await withSignals()
    const el = await fixture<VkRoomFeed>(html`<vk-room-feed
      subject-type="category"
      subject-ref=${f.ref}
      sort="live"
      .cardStrings=${{ signalCallersMoved: '{count} moved: {side}', settlementTally: '{right}/{wrong}' }}
    ></vk-room-feed>`)
    await until(() => part(el, 'signal') && part(el, 'settlement'), 'drawn')
    const takeRow = el.shadowRoot!.getElementById(`vk-post-${f.take.id}`)!
    expect(deepText(takeRow.querySelector('[part~="signal"]')!)).to.equal('1 moved: Yes')
    expect(deepText(part(el, 'signal-row')!)).to.include('1 moved: No')
    expect(deepText(el.shadowRoot!.getElementById(`vk-post-${f.settledTake.id}`)!.querySelector('[part~="settlement"]')!)).to.equal('Settled: Yes · 1/0')
  })

  it('issue 7 "an error state with Retry": after a failed re-read of the first page (posts shown, more to load), Retry reads the first page again', async () => {
    const vk = await makeVk()
    const s = await service()
    const node = freshRef('retry')
    const writer = await s.signedIn()
    for (let i = 0; i < 21; i++) await writer.createPost('category', node, `post ${i}`)
    await vk.signIn(s.wallet())
    const el = await fixture<VkRoomFeed>(html`<vk-room-feed subject-type="category" subject-ref=${node} sort="live"></vk-room-feed>`)
    await until(() => rows(el).length === 20 && part(el, 'more'), 'page 1, more to come')
    // A write re-reads the mounted feeds; that re-read fails.
    const stop = vk.faults.fail(isPath('/v1/social/posts/feed', 'GET'))
    await vk.postActions().get().create('category', node, 'written meanwhile')
    await until(() => part(el, 'error'), 'the failed re-read')
    expect(rows(el), 'the page read before stays').to.have.length(20)
    await expect(el).to.be.accessible()
    stop()
    const before = vk.faults.requests.length
    deep<HTMLButtonElement>(el, '[part~="error"] [part~="retry"]')!.click()
    await until(() => !part(el, 'error') && rows(el).length === 20 && deepText(el).includes('written meanwhile'), 'page 1 read again')
    const reads = vk.faults.requests.slice(before).filter((r) => r.url.pathname === '/v1/social/posts/feed')
    expect(reads.length).to.be.greaterThan(0)
    expect(reads.map((r) => r.url.searchParams.get('cursor')), 'the first page, no cursor').to.deep.equal(reads.map(() => null))
  })

  it('issue 7 "The same XSS corpus renders inert": post bodies and the room title', async () => {
    const trap = armXssTrap()
    await makeVk()
    const { s, roomId, v } = await venueRoom('public', XSS_SHORT.title.slice(0, 80))
    const market = await s.addMarket({ title: XSS_SHORT.title, outcomes: [{ label: XSS_SHORT.label }, { label: XSS_SHORT.label2 }] })
    await s.setPosition(v.owner.w.wallet, market.id, 0, '100')
    for (const b of XSS_PAYLOADS.slice(0, 15)) await v.owner.createPost('event', market.id, b, null, { room: roomId })
    const el = await room(roomId)
    await until(() => rows(el).length === 15, 'rows')
    await until(() => deepText(el).includes(XSS_SHORT.label), 'labels')
    const text = deepText(el)
    for (const b of [...XSS_PAYLOADS.slice(0, 15), XSS_SHORT.title.slice(0, 80)]) expect(text, b).to.include(b.replace(/\s+/g, ' ').trim())
    await expectInert(el)
    await new Promise((r) => setTimeout(r, 200))
    expect(trap(), 'a payload ran').to.equal(undefined)
  })

  it('issue 7 "accessible in its loaded, empty, error and forbidden/not-found states"', async () => {
    const vk = await makeVk()
    const { s, roomId, v } = await venueRoom()
    const empty = await room(roomId)
    await until(() => part(empty, 'empty'), 'empty')
    expect(deepText(part(empty, 'empty')!)).to.equal('No discussion here yet.')
    await expect(empty).to.be.accessible()
    await v.owner.createPost('event', (await s.addMarket()).id, 'something to read', null, { room: roomId })
    const full = await room(roomId, { sort: 'live' })
    await until(() => rows(full).length === 1, 'loaded')
    await expect(full).to.be.accessible()
    vk.faults.fail(isPath('/v1/social/posts/feed'))
    const failed = await room((await venueRoom()).roomId)
    await until(() => part(failed, 'error'), 'error')
    expect(deepText(part(failed, 'error')!)).to.include("Couldn't load this room.")
    await expect(failed).to.be.accessible()
    vk.faults.clear()
    deep<HTMLButtonElement>(failed, '[part="retry"]')!.click()
    await until(() => part(failed, 'empty'), 'retried')
  })

  it('issue 7 rule 1 "the spec\'s refusal" (§7): a refused post\'s line is an alert (role="alert"), so it is announced when it appears', async () => {
    const vk = await makeVk()
    const { roomId, v } = await venueRoom()
    await signInOn(vk, v.venueId)
    const el = await room(roomId)
    await until(() => joinCard(el), 'non-member')
    expect(!!part(el, 'refusal'), 'no refusal before a post').to.equal(false)
    await write(el, 'let me in')
    await until(() => refusal(el), 'refusal')
    expect(refusal(el)).to.equal('join this room to post in it')
    expect(part(el, 'refusal')!.getAttribute('role')).to.equal('alert')
    await expect(el).to.be.accessible()
  })

  it('§4.4 rule 5 and rule 4 "edit/delete only when viewer is passed and the post is the viewer\'s own": a room passes `viewer` to its rows: Edit and Delete on the viewer\'s own post only, none without `viewer`', async () => {
    const vk = await makeVk()
    const { s, roomId, v } = await venueRoom()
    const market = await s.addMarket()
    const mine = await v.owner.createPost('event', market.id, 'the owner speaks', null, { room: roomId })
    const other = await s.signedIn({ venueId: v.venueId })
    await other.rooms.join(roomId)
    const theirs = await other.createPost('event', market.id, 'a member speaks', null, { room: roomId })
    await signInOn(vk, v.venueId, v.owner.w)
    const withViewer = await fixture<VkRoomFeed>(html`<vk-room-feed room-id=${roomId} .viewer=${v.owner.w.wallet}></vk-room-feed>`)
    const without = await room(roomId)
    await until(() => rows(withViewer).length === 2 && rows(without).length === 2, 'both rooms\' rows')
    const cardOf = (el: Element, id: string) => deep(el, `#vk-post-${id} vk-take-card`)!
    const has = (el: Element, id: string, p: string) => !!deep(cardOf(el, id), `[part~="${p}"]`)
    await until(() => has(withViewer, mine.id, 'edit'), 'Edit on the viewer\'s own post')
    expect(has(withViewer, mine.id, 'delete'), 'Delete on the viewer\'s own post').to.equal(true)
    expect(has(withViewer, theirs.id, 'edit') || has(withViewer, theirs.id, 'delete'), 'nothing on another\'s post').to.equal(false)
    expect([mine.id, theirs.id].some((id) => has(without, id, 'edit') || has(without, id, 'delete')), 'nothing without viewer').to.equal(false)
  })

  it('§3.3 "Org and brand nodes have no follow path (members join explicitly)": an org room and a venue\'s own (brand) room show no Follow button; a category room does', async () => {
    const s = await service()
    const v = await s.venue()
    await makeVk({ config: { apiKey: v.key, venueId: v.venueId } })
    const orgRef = freshRef('org')
    const orgRoom = await s.room(v, { type: 'org', ref: orgRef })
    const catRoom = await s.room(v, { type: 'category', ref: freshRef('cat') })
    const org = await room(orgRoom)
    const brand = await room('self')
    const cat = await room(catRoom)
    await until(() => !!deep(cat, 'vk-follow-button') && !!deep(deep(cat, 'vk-follow-button')!, 'button'), 'Follow on the category room')
    await until(() => loaded(org) && deepText(deep(org, 'h2')!) === `${orgRef} room`, 'the org room\'s header')
    await until(() => loaded(brand) && !!part(brand, 'header') && deepText(deep(brand, 'h2')!) !== 'Room', 'the venue\'s own room\'s header')
    await new Promise((r) => setTimeout(r, 150))
    expect(!!deep(org, 'vk-follow-button'), 'no Follow on an org room').to.equal(false)
    expect(!!deep(brand, 'vk-follow-button'), 'no Follow on a brand room').to.equal(false)
    expect(deepAll(org, 'button').some((b) => deepText(b) === 'Follow')).to.equal(false)
  })

  it('issue 7 rule 1 membership path "leave, then … rejoin": a signed-in reader who left the room reads, on its Join card, that they left it (\'You left this room. Rejoin to post here again.\'); one who never joined reads the join text', async () => {
    const vk = await makeVk()
    const { s, roomId, v } = await venueRoom()
    const w = s.wallet()
    const reader = await s.signedIn({ venueId: v.venueId }, w)
    await reader.rooms.join(roomId)
    await reader.rooms.leave(roomId)
    await signInOn(vk, v.venueId, w)
    const el = await room(roomId)
    await until(() => joinCard(el), 'the Join card')
    const card = deepText(joinCard(el)!)
    expect(card).to.include('You left this room. Rejoin to post here again.')
    expect(card).to.not.include('Members post in this room')
    expect(deepText(deep(joinCard(el)!, '[part="join"]')!)).to.equal('Rejoin')
    await expect(el).to.be.accessible()
    // Control: a reader who never joined.
    await vk.signOut()
    await signInOn(vk, v.venueId)
    await until(() => joinCard(el) && deepText(joinCard(el)!).includes('Members post in this room and appear on its board.'), 'the join text for a reader who never joined')
    expect(deepText(joinCard(el)!)).to.not.include('You left this room')
    expect(deepText(deep(joinCard(el)!, '[part="join"]')!)).to.equal('Join')
  })

  it('§4.4 rule 7 "a per-component strings prop (prop wins)": a room\'s `strings` (the room slice: its own text, its Follow button, its rows\' record chips as their `roomStrings`) and its `cardStrings` (the comments slice: its rows\' cards, their replies list, the For-you rail) win over the strings provider\'s', async () => {
    await makeVk()
    const { s, roomId, v, node } = await venueRoom()
    const market = await s.addMarket({ nodes: [{ type: 'category', ref: node }] })
    await s.setPosition(v.owner.w.wallet, market.id, 0, '1000')
    const top = await v.owner.createPost('event', market.id, 'a take in the room', null, { room: roomId })
    await v.owner.createPost('event', market.id, 'a reply', top.id)
    await s.resolve(market.id, 0)
    const provided = {
      comments: { reply: 'P-reply', repliesLabel: 'P-replies', forYou: 'P-foryou' },
      room: { discussion: 'P-disc', follow: 'P-follow', rank: 'P {rank}/{population}' },
    }
    const box = await fixture(html`<vk-strings-provider .strings=${provided}>
      <vk-room-feed room-id=${roomId}></vk-room-feed>
      <vk-room-feed
        room-id=${roomId}
        .strings=${{ discussion: 'R-disc', follow: 'R-follow', rank: 'R {rank}/{population}' }}
        .cardStrings=${{ reply: 'C-reply', repliesLabel: 'C-replies', forYou: 'C-foryou' }}
      ></vk-room-feed>
    </vk-strings-provider>`)
    const [plain, own] = [...box.querySelectorAll('vk-room-feed')]
    const seen = (el: Element) => {
      const card = deep(el, `#vk-post-${top.id} vk-take-card`)
      const chip = card && deep(card, 'vk-record-chip')
      const follow = deep(el, 'vk-follow-button')
      const rail = deep(el, 'vk-for-you-rail')
      const got = {
        discussion: part(el, 'discussion')?.querySelector('h3')?.textContent?.trim(),
        follow: follow && deep(follow, 'button') ? deepText(deep(follow, 'button')!) : undefined,
        reply: card && deep(card, '[part~="reply"]') ? deepText(deep(card, '[part~="reply"]')!).split(' ')[0] : undefined,
        replies: part(el, 'replies')?.getAttribute('aria-label'),
        forYou: rail && deep(rail, '[part~="title"]') ? deepText(deep(rail, '[part~="title"]')!) : undefined,
        rank: chip && deep(chip, '.rank') ? deepText(deep(chip, '.rank')!) : undefined,
      }
      return Object.values(got).every((x) => x != null) ? got : null
    }
    await until(() => seen(plain) && seen(own), 'both rooms drawn')
    expect(seen(plain)).to.deep.equal({ discussion: 'P-disc', follow: 'P-follow', reply: 'P-reply', replies: 'P-replies', forYou: 'P-foryou', rank: 'P 1/1' })
    expect(seen(own)).to.deep.equal({ discussion: 'R-disc', follow: 'R-follow', reply: 'C-reply', replies: 'C-replies', forYou: 'C-foryou', rank: 'R 1/1' })
  })
})
