/** §4.2 `posts`, §2.7, §3.1: the thread read. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { addMarket, call, expectError, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'
import { expectDefaultAndMaxPage } from '../helpers/page-limits.ts'
import { addMember, ban, block, issueKey, makeRoom, makeVenue, newVenueId, setState, venueHide, writePost } from '../helpers/read-fixtures.ts'
import { encodeCursor } from '../../src/server/http/cursor.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

const thread = (ref: string, qs = '', u?: TestUser, key?: string) =>
  call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${ref}${qs}`, { token: u?.token, key })
const ids = (posts: { id: string }[]) => posts.map((p) => p.id)

describe('thread read', () => {
  it('§4.2 posts "One thread, newest first, cursor-paged": ordered by id desc, keyset cursor, hasMore and nextCursor', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const written: string[] = []
    for (let i = 0; i < 5; i++) written.push((await writePost(svc, u, 'event', m.id, `post ${i}`)).id)
    const newestFirst = [...written].reverse()
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const r = await thread(m.id, `&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      assert.equal(r.status, 200)
      seen.push(...ids(r.body.posts))
      pages++
      assert.equal(r.body.hasMore, r.body.nextCursor !== null)
      cursor = r.body.nextCursor
      assert.ok(pages <= 50, 'the cursor moves the page on (a cursor that does not would loop forever)')
    } while (cursor)
    assert.equal(pages, 3)
    assert.deepEqual(seen, newestFirst)
    const all = await thread(m.id)
    assert.deepEqual(ids(all.body.posts), newestFirst)
    assert.equal(all.body.hasMore, false)
    assert.equal(all.body.nextCursor, null)
  })

  it('§4.2 posts `limit`: defaults to the page default (20, as on the ranked feed and the profile) and takes up to 100 (LIMITS.pageMax)', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    for (let i = 0; i < 21; i++) await writePost(svc, u, 'event', m.id, `post ${i}`)
    await expectDefaultAndMaxPage(svc, `/v1/social/posts?subjectType=event&subjectRef=${m.id}`, 'posts', { withHasMore: true })
  })

  it('§4.2 posts: a post written after the first page was read does not shift the next page (keyset, not offset)', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const a = await writePost(svc, u, 'event', m.id, 'a')
    const b = await writePost(svc, u, 'event', m.id, 'b')
    const first = await thread(m.id, '&limit=1')
    assert.deepEqual(ids(first.body.posts), [b.id])
    await writePost(svc, u, 'event', m.id, 'c')
    const second = await thread(m.id, `&limit=1&cursor=${first.body.nextCursor}`)
    assert.deepEqual(ids(second.body.posts), [a.id])
  })

  it('§2.7 threads: replies are folded under their parent by id and are not top-level rows; includeReplies defaults to true', async () => {
    const m = await addMarket(svc)
    const a = await signIn(svc)
    const b = await signIn(svc)
    const top = await writePost(svc, a, 'event', m.id, 'top')
    const r1 = await writePost(svc, b, 'event', m.id, 'reply 1', { parentId: top.id })
    const r2 = await writePost(svc, a, 'event', m.id, 'reply 2', { parentId: top.id })
    const r = await thread(m.id)
    assert.deepEqual(ids(r.body.posts), [top.id])
    assert.deepEqual(ids(r.body.threads[top.id]), [r1.id, r2.id])
    assert.equal(r.body.posts[0].replies, 2)
    const off = await thread(m.id, '&includeReplies=false')
    assert.deepEqual(off.body.threads, {})
    assert.deepEqual(ids(off.body.posts), [top.id])
  })

  it('§4.4 "A reply written here is read on the market page": a post with more replies than a page folds in (50) shows the newest 50, oldest first, so the reply just written is there', async () => {
    const m = await addMarket(svc)
    const a = await signIn(svc)
    const b = await signIn(svc)
    const top = await writePost(svc, a, 'event', m.id, 'busy post')
    const replies: string[] = []
    for (let i = 0; i < 52; i++) replies.push((await writePost(svc, i % 2 ? a : b, 'event', m.id, `reply ${i}`, { parentId: top.id })).id)
    const r = await thread(m.id)
    assert.equal(r.body.posts[0].replies, 52)
    assert.deepEqual(ids(r.body.threads[top.id]), replies.slice(2), 'the newest 50 replies, oldest first')
    const feed = await call(svc, 'GET', `/v1/social/posts/feed?scope=subject&subjectType=event&subjectRef=${m.id}`)
    assert.deepEqual(ids(feed.body.threads[top.id]), replies.slice(2), 'the feed folds the same replies')
  })

  it('§2.2 labels and titles: for the markets on the page, keyed by lowercased market id', async () => {
    const m = await addMarket(svc, { title: 'Rain in Paris?', outcomes: [{ label: 'Yes' }, { label: 'No', displayLabel: 'Dry' }] })
    const u = await signIn(svc)
    await writePost(svc, u, 'event', m.id, 'x')
    const r = await thread(m.id.toUpperCase().replace('0X', '0x'))
    assert.equal(r.status, 200)
    assert.equal(r.body.posts.length, 1)
    assert.equal(r.body.titles[m.id], 'Rain in Paris?')
    assert.deepEqual(r.body.labels[m.id], [{ label: 'Yes' }, { label: 'No', displayLabel: 'Dry' }])
  })

  it('§2.7 "For a recurring market, series names the durable thread its rounds roll into"; a one-off market has series null', async () => {
    const recurring = await addMarket(svc, { series: 'btc-daily' })
    const oneOff = await addMarket(svc)
    assert.equal((await thread(recurring.id)).body.series, 'btc-daily')
    assert.equal((await thread(oneOff.id)).body.series, null)
    const node = await call(svc, 'GET', '/v1/social/posts?subjectType=category&subjectRef=weather')
    assert.equal(node.body.series, null)
  })

  it('§2.7 "includeSeries merges it in, and those rows must be labelled because their stances concern a different round": fromSeries rows, newest first, and the replies under them', async () => {
    const series = `eth-weekly-${Date.now()}`
    const round1 = await addMarket(svc, { series, title: 'Round 1' })
    const round2 = await addMarket(svc, { series, title: 'Round 2' })
    const other = await addMarket(svc)
    const u = await signIn(svc)
    await svc.chain.setPosition(u.wallet, round1.id, 0, 10n)
    const old = await writePost(svc, u, 'event', round1.id, 'last round I said yes')
    assert.equal(old.stance?.side, 0)
    const onSeries = await writePost(svc, u, 'series', series, 'about the whole series')
    const mine = await writePost(svc, u, 'event', round2.id, 'this round')
    await writePost(svc, u, 'event', other.id, 'unrelated')
    const reply = await writePost(svc, u, 'event', round1.id, 'a reply', { parentId: old.id })
    const seriesReply = await writePost(svc, u, 'series', series, 'a reply on the series', { parentId: onSeries.id })
    const ownReply = await writePost(svc, u, 'event', round2.id, 'a reply in this round', { parentId: mine.id })

    const plain = await thread(round2.id)
    assert.deepEqual(ids(plain.body.posts), [mine.id])
    assert.equal(plain.body.series, series)

    const merged = await thread(round2.id, '&includeSeries=true')
    assert.deepEqual(ids(merged.body.posts), [mine.id, onSeries.id, old.id])
    const byId = Object.fromEntries(merged.body.posts.map((p: any) => [p.id, p]))
    assert.equal(byId[mine.id].fromSeries, undefined)
    assert.equal(byId[onSeries.id].fromSeries, true)
    assert.equal(byId[old.id].fromSeries, true)
    assert.equal(byId[old.id].stance.side, 0)
    assert.equal(merged.body.titles[round1.id], 'Round 1')
    assert.deepEqual(ids(merged.body.threads[old.id]), [reply.id])
    // A reply's stance concerns its parent's round: replies under merged rows are labelled too, this round's are not.
    assert.equal(merged.body.threads[old.id][0].fromSeries, true)
    assert.deepEqual(ids(merged.body.threads[onSeries.id]), [seriesReply.id])
    assert.equal(merged.body.threads[onSeries.id][0].fromSeries, true)
    assert.deepEqual(ids(merged.body.threads[mine.id]), [ownReply.id])
    assert.equal(merged.body.threads[mine.id][0].fromSeries, undefined)
    assert.equal(plain.body.threads[mine.id][0].fromSeries, undefined)
    // Paging runs across the merged rows.
    const p1 = await thread(round2.id, '&includeSeries=true&limit=2')
    const p2 = await thread(round2.id, `&includeSeries=true&limit=2&cursor=${p1.body.nextCursor}`)
    assert.deepEqual([...ids(p1.body.posts), ...ids(p2.body.posts)], [mine.id, onSeries.id, old.id])
    assert.equal(p2.body.hasMore, false)
    // A one-off market: includeSeries changes nothing.
    assert.equal((await thread(other.id, '&includeSeries=true')).body.posts.length, 1)
  })

  it('§4.1 rule 5 "venue is a moderation overlay (that venue\'s hides and bans); it never filters to that venue\'s posts"', async () => {
    const m = await addMarket(svc)
    const v1 = await makeVenue(svc)
    const v2 = await makeVenue(svc)
    const a = await signIn(svc, undefined, v2)
    const banned = await signIn(svc)
    const hiddenHere = await writePost(svc, a, 'event', m.id, 'hidden on v1')
    const kept = await writePost(svc, a, 'event', m.id, 'written through v2')
    const byBanned = await writePost(svc, banned, 'event', m.id, 'banned on v1')
    await venueHide(svc, v1, hiddenHere.id)
    await ban(svc, v1, banned)
    assert.deepEqual(ids((await thread(m.id)).body.posts), [byBanned.id, kept.id, hiddenHere.id])
    assert.deepEqual(ids((await thread(m.id, `&venue=${v1}`)).body.posts), [kept.id])
    assert.deepEqual(ids((await thread(m.id, `&venue=${v2}`)).body.posts), [byBanned.id, kept.id, hiddenHere.id])
  })

  it('§1.3 "The same thread is seen in every venue": a post in venue B\'s public room is on the market thread read with venue=A, with A\'s key, with venue=B, or with none, and on the market\'s feed read with venue=A', async () => {
    const m = await addMarket(svc)
    const a = await makeVenue(svc)
    const b = await makeVenue(svc)
    const room = await makeRoom(svc, { venueId: b })
    const u = await signIn(svc)
    await addMember(svc, room, u)
    const free = await writePost(svc, u, 'event', m.id, 'no room')
    const inB = await writePost(svc, u, 'event', m.id, "in B's public room", { room })
    const want = [inB.id, free.id]
    assert.deepEqual(ids((await thread(m.id)).body.posts), want, 'no venue')
    assert.deepEqual(ids((await thread(m.id, `&venue=${a}`)).body.posts), want, 'venue=A')
    assert.deepEqual(ids((await thread(m.id, '', undefined, await issueKey(svc, a))).body.posts), want, "A's key")
    assert.deepEqual(ids((await thread(m.id, `&venue=${b}`)).body.posts), want, 'venue=B')
    const fed = await call(svc, 'GET', `/v1/social/posts/feed?scope=subject&subjectType=event&subjectRef=${m.id}&venue=${a}`)
    assert.deepEqual(ids(fed.body.posts).sort(), [...want].sort(), 'feed, venue=A')
  })

  it('§3.1 "Rules while hidden: the post remains visible to its author on the market thread", with hidden: true; others do not see it', async () => {
    const m = await addMarket(svc)
    const author = await signIn(svc)
    const other = await signIn(svc)
    const p = await writePost(svc, author, 'event', m.id, 'reported away')
    for (let i = 0; i < 3; i++) {
      const reporter = await signIn(svc)
      assert.equal((await call(svc, 'POST', `/v1/social/posts/${p.id}/reports`, { token: reporter.token, body: { reason: 'spam' } })).status, 200)
    }
    assert.equal((await thread(m.id)).body.posts.length, 0)
    assert.equal((await thread(m.id, '', other)).body.posts.length, 0)
    const own = await thread(m.id, '', author)
    assert.deepEqual(ids(own.body.posts), [p.id])
    assert.equal(own.body.posts[0].hidden, true)
    await setState(svc, p.id, 'removed')
    assert.equal((await thread(m.id, '', author)).body.posts[0].hidden, true)
    assert.equal((await thread(m.id, '', other)).body.posts.length, 0)
  })

  it('§3.1 a post hidden on one venue stays visible to its author there, marked hidden: true; a visible post carries no hidden flag', async () => {
    const m = await addMarket(svc)
    const v = await makeVenue(svc)
    const author = await signIn(svc)
    const p = await writePost(svc, author, 'event', m.id, 'venue hid this')
    const q = await writePost(svc, author, 'event', m.id, 'still fine')
    await venueHide(svc, v, p.id)
    const own = await thread(m.id, `&venue=${v}`, author)
    const byId = Object.fromEntries(own.body.posts.map((x: any) => [x.id, x]))
    assert.equal(byId[p.id].hidden, true)
    assert.equal('hidden' in byId[q.id], false)
    assert.deepEqual(ids((await thread(m.id, `&venue=${v}`)).body.posts), [q.id])
  })

  it('§4.1 rule 5 "room is containment": room=<id> gives only that room\'s posts; without room, unroomed and public-room posts (private only for members)', async () => {
    const m = await addMarket(svc)
    const v = await makeVenue(svc)
    const pub = await makeRoom(svc, { venueId: v })
    const priv = await makeRoom(svc, { venueId: v, visibility: 'private' })
    const member = await signIn(svc)
    const outsider = await signIn(svc)
    await addMember(svc, pub, member)
    await addMember(svc, priv, member)
    const free = await writePost(svc, member, 'event', m.id, 'no room')
    const inPub = await writePost(svc, member, 'event', m.id, 'public room', { room: pub })
    const inPriv = await writePost(svc, member, 'event', m.id, 'private room', { room: priv })
    const reply = await writePost(svc, member, 'event', m.id, 'private reply', { parentId: inPriv.id })

    assert.deepEqual(ids((await thread(m.id, `&room=${pub}`)).body.posts), [inPub.id])
    assert.deepEqual(ids((await thread(m.id)).body.posts), [inPub.id, free.id])
    assert.deepEqual(ids((await thread(m.id, '', outsider)).body.posts), [inPub.id, free.id])
    assert.deepEqual(ids((await thread(m.id, '', member)).body.posts), [inPriv.id, inPub.id, free.id])
    const inside = await thread(m.id, `&room=${priv}`, member)
    assert.deepEqual(ids(inside.body.posts), [inPriv.id])
    assert.deepEqual(ids(inside.body.threads[inPriv.id]), [reply.id])
  })

  it('§7 a private room is hidden from outsiders, and a member who left is one: after the leave, the market thread and the author\'s profile no longer show its posts, and its thread is 404', async () => {
    const m = await addMarket(svc)
    const v = await makeVenue(svc)
    const priv = await makeRoom(svc, { venueId: v, visibility: 'private' })
    const author = await signIn(svc)
    const leaver = await signIn(svc, undefined, v)
    await addMember(svc, priv, author)
    await addMember(svc, priv, leaver)
    const secret = await writePost(svc, author, 'event', m.id, 'members only', { room: priv })
    const profile = () => call(svc, 'GET', `/v1/social/profile/${author.wallet}/posts?takes=false`, { token: leaver.token })
    assert.ok(ids((await thread(m.id, '', leaver)).body.posts).includes(secret.id), 'a member reads it')
    assert.ok(ids((await profile()).body.posts).includes(secret.id))
    assert.equal((await call(svc, 'POST', `/v1/rooms/${priv}/leave`, { token: leaver.token })).status, 200)
    assert.ok(!ids((await thread(m.id, '', leaver)).body.posts).includes(secret.id), 'not after leaving')
    assert.ok(!ids((await profile()).body.posts).includes(secret.id), 'nor on the profile')
    expectError(await thread(m.id, `&room=${priv}`, leaver), 404, 'room-not-found')
  })

  it('§7 "Thread ... of a private room read by an outsider: 404 (not 403, so existence is not confirmed)"', async () => {
    const m = await addMarket(svc)
    const v = await makeVenue(svc)
    const priv = await makeRoom(svc, { venueId: v, visibility: 'private' })
    const outsider = await signIn(svc)
    expectError(await thread(m.id, `&room=${priv}`), 404, 'room-not-found')
    expectError(await thread(m.id, `&room=${priv}`, outsider), 404, 'room-not-found')
    expectError(await thread(m.id, '&room=r_doesnotexist'), 404, 'room-not-found')
  })

  it('§4.1 rule 7 "room=self means the room of the venue whose API key sent the request and needs a venue key"', async () => {
    const m = await addMarket(svc)
    const v = await makeVenue(svc, newVenueId())
    const self = await makeRoom(svc, { venueId: v, isSelf: true })
    const key = await issueKey(svc, v)
    const u = await signIn(svc)
    await addMember(svc, self, u)
    const inSelf = await writePost(svc, u, 'event', m.id, 'in my venue room', { room: 'self', key })
    await writePost(svc, u, 'event', m.id, 'outside')
    assert.deepEqual(ids((await thread(m.id, '&room=self', undefined, key)).body.posts), [inSelf.id])
    expectError(await thread(m.id, '&room=self'), 401, 'venue-key-required')
    expectError(await thread(m.id, '&room=self', u), 401, 'venue-key-required')
  })

  it('§5.1 "Reads need no credential and work signed out": a bad session token reads as signed out', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    await writePost(svc, u, 'event', m.id, 'hello')
    const r = await call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${m.id}`, { token: 'vks_' + '0'.repeat(64) })
    assert.equal(r.status, 200)
    assert.equal(r.body.posts.length, 1)
    assert.equal('agreed' in r.body.posts[0], false)
  })

  it('a signed-in reader sees agreed on each row; a reader never sees posts by accounts they blocked', async () => {
    const m = await addMarket(svc)
    const a = await signIn(svc)
    const b = await signIn(svc)
    const c = await signIn(svc)
    const pa = await writePost(svc, a, 'event', m.id, 'by a')
    const pc = await writePost(svc, c, 'event', m.id, 'by c')
    await call(svc, 'POST', `/v1/social/posts/${pa.id}/reactions`, { token: b.token, body: { kind: 'agree', active: true } })
    const r = await thread(m.id, '', b)
    const byId = Object.fromEntries(r.body.posts.map((x: any) => [x.id, x]))
    assert.equal(byId[pa.id].agreed, true)
    assert.equal(byId[pc.id].agreed, false)
    await block(svc, b, c)
    assert.deepEqual(ids((await thread(m.id, '', b)).body.posts), [pa.id])
    assert.deepEqual(ids((await thread(m.id)).body.posts), [pc.id, pa.id])
  })

  it('node subjects: a thread on a taxonomy node reads the posts written on it', async () => {
    const u = await signIn(svc)
    const ref = `topic-${Date.now()}`
    const p = await writePost(svc, u, 'topic', ref, 'on a topic')
    const r = await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=${ref}`)
    assert.deepEqual(ids(r.body.posts), [p.id])
    assert.deepEqual(r.body.labels, {})
  })

  it('an unknown market reads as an empty thread (reads fail open), not an error', async () => {
    const r = await thread('0x' + 'cd'.repeat(32))
    assert.equal(r.status, 200)
    assert.deepEqual(r.body, { posts: [], threads: {}, series: null, labels: {}, titles: {}, hasMore: false, nextCursor: null, roomId: null })
  })

  it('bad input: unknown params are 400 unsupported-param; wrong types, bad ids and bad cursors are 400 with a code and a sentence', async () => {
    const m = await addMarket(svc)
    const base = `/v1/social/posts?subjectType=event&subjectRef=${m.id}`
    const get = (qs: string) => call(svc, 'GET', qs)
    expectError(await get(`${base}&author=0x${'1'.repeat(40)}`), 400, 'unsupported-param', /unsupported query parameter 'author'/)
    expectError(await get(`${base}&scope=global`), 400, 'unsupported-param')
    expectError(await get(`/v1/social/posts?subjectRef=${m.id}`), 400, 'validation-failed', /subjectType/)
    expectError(await get('/v1/social/posts?subjectType=event'), 400, 'validation-failed', /subjectRef/)
    expectError(await get(`/v1/social/posts?subjectType=planet&subjectRef=x`), 400, 'validation-failed', /subjectType/)
    expectError(await get('/v1/social/posts?subjectType=event&subjectRef=0x1234'), 400, 'validation-failed', "'subjectRef' must be a market id (0x and 64 hex characters) for subject type event")
    expectError(await get('/v1/social/posts?subjectType=topic&subjectRef=Not%20A%20Key'), 400, 'validation-failed', /node key/)
    expectError(await get(`${base}&includeReplies=yes`), 400, 'validation-failed', /'includeReplies'.*'true' or 'false'/)
    expectError(await get(`${base}&includeSeries=1`), 400, 'validation-failed', /'includeSeries'/)
    expectError(await get(`${base}&limit=0`), 400, 'validation-failed', /'limit'.*1 to 100/)
    expectError(await get(`${base}&limit=101`), 400, 'validation-failed', /'limit'.*1 to 100/)
    expectError(await get(`${base}&limit=ten`), 400, 'validation-failed', /'limit'.*whole number/)
    expectError(await get(`${base}&cursor=%25%25`), 400, 'validation-failed', /'cursor'/)
    expectError(await get(`${base}&cursor=notacursor`), 400, 'validation-failed', "'cursor' is not a cursor this service issued")
    expectError(await get(`${base}&cursor=${encodeCursor([1])}`), 400, 'validation-failed', "'cursor' is not a cursor this service issued")
    expectError(await get(`${base}&cursor=${encodeCursor(["' or 1=1 --"])}`), 400, 'validation-failed', "'cursor' is not a cursor this service issued")
    expectError(await get(`${base}&venue=NO`), 400, 'validation-failed', /'venue'/)
    expectError(await get(`${base}&room=kitchen`), 400, 'validation-failed', /'room'/)
    expectError(await get(`${base}&limit=2&limit=3`), 400, 'validation-failed', /more than once/)
  })
})
