/** `GET /v1/social/posts/:id/replies` (services/replies.ts), §2.7, §3.1, §4.1 rule 5, §7: a post's earlier replies. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { addMarket, call, expectError, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'
import { accountOf, addMember, ban, block, makeRoom, makeVenue, setState, venueHide, writePost } from '../helpers/read-fixtures.ts'
import { createClient } from '../../src/sdk/index.ts'
import { HttpError, ValidationError } from '../../src/sdk/errors.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

const replies = (id: string, qs = '', u?: TestUser) => call(svc, 'GET', `/v1/social/posts/${id}/replies${qs ? `?${qs}` : ''}`, { token: u?.token })
const thread = (ref: string, u?: TestUser) => call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${ref}`, { token: u?.token })
const ids = (posts: { id: string }[]) => posts.map((p) => p.id)
const del = (id: string, u: TestUser) => call(svc, 'DELETE', `/v1/social/posts/${id}`, { token: u.token })
/** A post id this service never issued (well-formed). */
const UNKNOWN = 'p_0000000000zzzzzzzzzzzz'

/** A market with a parent post by `author` and `n` replies by `replier` (the author when unset), oldest first. */
async function busyPost(author: TestUser, n: number, replier = author) {
  const m = await addMarket(svc)
  const top = await writePost(svc, author, 'event', m.id, 'busy post')
  const written: string[] = []
  for (let i = 0; i < n; i++) written.push((await writePost(svc, replier, 'event', m.id, `reply ${i}`, { parentId: top.id })).id)
  return { m, top, written }
}

describe('earlier replies', () => {
  it('"a thread page folds in only the newest 50 replies per parent; replies?before=<its first> pages back through the rest, oldest first": 120 replies read as 50 folded + 50 + 20, each exactly once, in order, hasMore true then false', async () => {
    const a = await signIn(svc)
    const b = await signIn(svc)
    const m = await addMarket(svc)
    const top = await writePost(svc, a, 'event', m.id, 'busy post')
    const written: string[] = []
    for (let i = 0; i < 120; i++) written.push((await writePost(svc, i % 2 ? a : b, 'event', m.id, `reply ${i}`, { parentId: top.id })).id)

    const t = await thread(m.id)
    assert.equal(t.body.posts[0].replies, 120)
    const folded = ids(t.body.threads[top.id])
    assert.deepEqual(folded, written.slice(70), 'the thread folds in the newest 50, oldest first')

    const p1 = await replies(top.id, `before=${folded[0]}`)
    assert.equal(p1.status, 200)
    assert.deepEqual(Object.keys(p1.body).sort(), ['hasMore', 'posts'])
    assert.deepEqual(ids(p1.body.posts), written.slice(20, 70), 'the 50 before them, oldest first')
    assert.equal(p1.body.hasMore, true)
    const p2 = await replies(top.id, `before=${p1.body.posts[0].id}`)
    assert.deepEqual(ids(p2.body.posts), written.slice(0, 20), 'then the last 20')
    assert.equal(p2.body.hasMore, false)

    const seen = [...ids(p2.body.posts), ...ids(p1.body.posts), ...folded]
    assert.deepEqual(seen, written, 'all 120, each exactly once, in order')
    assert.equal(new Set(seen).size, 120)

    // Each reply reads as the thread folds it in: same post objects.
    const newest = await replies(top.id)
    assert.deepEqual(newest.body.posts, t.body.threads[top.id], 'no before: the newest 50, the thread\'s own fold')
    assert.equal(newest.body.hasMore, true)
    assert.ok(p1.body.posts.every((p: any) => p.parentId === top.id && p.subjectType === 'event' && p.subjectRef === m.id), 'replies of the parent, on its subject')
  })

  it('"limit" (1..100, default 50) bounds the page; hasMore says whether older replies remain, exactly at the boundary', async () => {
    const u = await signIn(svc)
    const { top, written } = await busyPost(u, 12)
    const last = await replies(top.id, 'limit=5')
    assert.deepEqual(ids(last.body.posts), written.slice(7), 'no before: the newest 5, oldest first')
    assert.equal(last.body.hasMore, true)
    const mid = await replies(top.id, `before=${written[7]}&limit=3`)
    assert.deepEqual(ids(mid.body.posts), written.slice(4, 7))
    assert.equal(mid.body.hasMore, true)
    const exact = await replies(top.id, `before=${written[4]}&limit=4`)
    assert.deepEqual(ids(exact.body.posts), written.slice(0, 4), 'exactly the rest')
    assert.equal(exact.body.hasMore, false, 'none older remain')
    const short = await replies(top.id, `before=${written[4]}&limit=3`)
    assert.deepEqual(ids(short.body.posts), written.slice(1, 4))
    assert.equal(short.body.hasMore, true, 'one older remains')
    const all = await replies(top.id, 'limit=100')
    assert.deepEqual(ids(all.body.posts), written)
    assert.equal(all.body.hasMore, false)
    const one = await replies(top.id, `limit=1&before=${written[1]}`)
    assert.deepEqual(ids(one.body.posts), [written[0]])
    assert.equal(one.body.hasMore, false)
    const none = await replies(top.id, `before=${written[0]}`)
    assert.deepEqual(none.body, { posts: [], hasMore: false }, 'nothing older than the first reply')
    const noReplies = await writePost(svc, u, 'event', (await addMarket(svc)).id, 'no replies yet')
    assert.deepEqual((await replies(noReplies.id)).body, { posts: [], hasMore: false })
  })

  it('"a signed-in reader sees agreed on each row": agreed per reader on replies; signed out, no agreed field', async () => {
    const a = await signIn(svc)
    const b = await signIn(svc)
    const { top, written } = await busyPost(a, 3)
    const r = await call(svc, 'POST', `/v1/social/posts/${written[1]}/reactions`, { token: b.token, body: { kind: 'agree', active: true } })
    assert.equal(r.status, 200)
    const asB = await replies(top.id, '', b)
    assert.deepEqual(asB.body.posts.map((p: any) => p.agreed), [false, true, false])
    const asA = await replies(top.id, '', a)
    assert.deepEqual(asA.body.posts.map((p: any) => p.agreed), [false, false, false], 'agreed is the reader\'s own')
    const out = await replies(top.id)
    assert.equal(out.body.posts.length, 3)
    assert.ok(out.body.posts.every((p: any) => !('agreed' in p)), 'signed out: no agreed field')
  })

  it('§3.1 "the post remains visible to its author", with hidden: true: a deleted reply is gone for everyone; a reply hidden by reports or removed is read only by its author', async () => {
    const a = await signIn(svc)
    const b = await signIn(svc)
    const c = await signIn(svc)
    const m = await addMarket(svc)
    const top = await writePost(svc, a, 'event', m.id, 'parent')
    const r1 = await writePost(svc, b, 'event', m.id, 'fine', { parentId: top.id })
    const gone = await writePost(svc, b, 'event', m.id, 'deleted', { parentId: top.id })
    const hidden = await writePost(svc, c, 'event', m.id, 'reported away', { parentId: top.id })
    const removed = await writePost(svc, c, 'event', m.id, 'removed by an operator', { parentId: top.id })
    const r5 = await writePost(svc, b, 'event', m.id, 'also fine', { parentId: top.id })
    assert.equal((await del(gone.id, b)).status, 200)
    await setState(svc, hidden.id, 'hidden')
    await setState(svc, removed.id, 'removed')

    for (const reader of [undefined, a, b]) {
      const r = await replies(top.id, '', reader)
      assert.deepEqual(ids(r.body.posts), [r1.id, r5.id], `reader ${reader?.wallet ?? 'signed out'}`)
      assert.equal(r.body.hasMore, false)
    }
    const own = await replies(top.id, '', c)
    assert.deepEqual(ids(own.body.posts), [r1.id, hidden.id, removed.id, r5.id])
    const byId = Object.fromEntries(own.body.posts.map((p: any) => [p.id, p]))
    assert.equal(byId[hidden.id].hidden, true)
    assert.equal(byId[removed.id].hidden, true)
    assert.equal('hidden' in byId[r1.id], false, 'a visible reply carries no hidden flag')
    assert.deepEqual(ids((await replies(top.id, '', b)).body.posts), ids((await thread(m.id, b)).body.threads[top.id]), 'the replies a thread folds in')
    // Paging skips what the reader may not see: the page still holds `limit` replies.
    const paged = await replies(top.id, `before=${r5.id}&limit=1`)
    assert.deepEqual(ids(paged.body.posts), [r1.id])
    assert.equal(paged.body.hasMore, false)
  })

  it('§3.1 "the ranked feed shows visible posts only": read for a feed (feed=true), earlier replies leave out the reader\'s own hidden replies (hidden by reports, removed, or hidden on the venue read), as the feed\'s folded replies do; the thread\'s read still shows them to their author', async () => {
    const a = await signIn(svc)
    const h = await signIn(svc)
    const venue = await makeVenue(svc)
    const { m, top, written } = await busyPost(a, 0)
    const hidden = await writePost(svc, h, 'event', m.id, 'mine, hidden by reports', { parentId: top.id })
    const removed = await writePost(svc, h, 'event', m.id, 'mine, removed', { parentId: top.id })
    const venueHidden = await writePost(svc, h, 'event', m.id, 'mine, hidden on the venue', { parentId: top.id })
    for (let i = 0; i < 50; i++) written.push((await writePost(svc, a, 'event', m.id, `later ${i}`, { parentId: top.id })).id)
    await setState(svc, hidden.id, 'hidden')
    await setState(svc, removed.id, 'removed')
    await venueHide(svc, venue, venueHidden.id)
    const f = await call(svc, 'GET', `/v1/social/posts/feed?subjectType=event&subjectRef=${m.id}&venue=${venue}`, { token: h.token })
    assert.deepEqual(ids(f.body.threads[top.id]), written, "the feed folds the newest 50, none of the reader's hidden ones")
    const before = `before=${written[0]}&venue=${venue}`
    assert.deepEqual(ids((await replies(top.id, `${before}&feed=true`, h)).body.posts), [], 'read for the feed')
    assert.deepEqual(ids((await replies(top.id, `${before}&feed=false`, h)).body.posts), [hidden.id, removed.id, venueHidden.id], 'feed=false: the thread\'s read')
    const own = await replies(top.id, before, h)
    assert.deepEqual(ids(own.body.posts), [hidden.id, removed.id, venueHidden.id], 'the thread\'s read shows the author their hidden replies')
    assert.ok(own.body.posts.every((p: any) => p.hidden === true))
    expectError(await replies(top.id, 'feed=yes'), 400, 'validation-failed', "'feed' must be 'true' or 'false'")
  })

  it('§4.1 rule 5 "venue is a moderation overlay (that venue\'s hides and bans)": with venue=, replies hidden on that venue or by its banned wallets are left out for others; the author still reads theirs, hidden: true', async () => {
    const a = await signIn(svc)
    const b = await signIn(svc)
    const banned = await signIn(svc)
    const other = await signIn(svc)
    const v1 = await makeVenue(svc)
    const v2 = await makeVenue(svc)
    const m = await addMarket(svc)
    const top = await writePost(svc, a, 'event', m.id, 'parent')
    const kept = await writePost(svc, b, 'event', m.id, 'kept', { parentId: top.id })
    const hiddenHere = await writePost(svc, b, 'event', m.id, 'hidden on v1', { parentId: top.id })
    const byBanned = await writePost(svc, banned, 'event', m.id, 'banned on v1', { parentId: top.id })
    await venueHide(svc, v1, hiddenHere.id)
    await ban(svc, v1, banned)

    const everyone = [kept.id, hiddenHere.id, byBanned.id]
    assert.deepEqual(ids((await replies(top.id)).body.posts), everyone, 'no venue: no overlay')
    assert.deepEqual(ids((await replies(top.id, `venue=${v2}`)).body.posts), everyone, 'another venue\'s overlay: it never filters')
    assert.deepEqual(ids((await replies(top.id, `venue=${v1}`)).body.posts), [kept.id])
    assert.deepEqual(ids((await replies(top.id, `venue=${v1}`, other)).body.posts), [kept.id])
    const ownB = await replies(top.id, `venue=${v1}`, b)
    assert.deepEqual(ids(ownB.body.posts), [kept.id, hiddenHere.id])
    assert.equal(ownB.body.posts[1].hidden, true)
    assert.equal('hidden' in ownB.body.posts[0], false)
    const ownBanned = await replies(top.id, `venue=${v1}`, banned)
    assert.deepEqual(ids(ownBanned.body.posts), [kept.id, byBanned.id])
    assert.equal(ownBanned.body.posts[1].hidden, true)
    assert.equal('hidden' in (await replies(top.id, '', b)).body.posts[1], false, 'not hidden without the overlay')
  })

  it('§4.1 rule 5 with §2.6 "a reply is read folded under its parent": under venue=, a parent hidden on that venue or written by a wallet it banned is 404 post-not-found for all but its author (the venue\'s thread shows neither it nor its replies); without the overlay it reads as before', async () => {
    const a = await signIn(svc)
    const banned = await signIn(svc)
    const other = await signIn(svc)
    const v = await makeVenue(svc)
    const v2 = await makeVenue(svc)
    const hiddenParent = await busyPost(a, 2, other)
    const bannedParent = await busyPost(banned, 2, other)
    await venueHide(svc, v, hiddenParent.top.id)
    await ban(svc, v, banned)
    for (const p of [hiddenParent, bannedParent]) {
      assert.deepEqual(ids((await thread(p.m.id, other)).body.posts), [p.top.id])
      const onVenue = await call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${p.m.id}&venue=${v}`, { token: other.token })
      assert.deepEqual(onVenue.body.posts, [], "the venue's thread shows neither the parent nor its replies")
      expectError(await replies(p.top.id, `venue=${v}`), 404, 'post-not-found')
      expectError(await replies(p.top.id, `venue=${v}`, other), 404, 'post-not-found')
      expectError(await replies(p.top.id, `venue=${v}&before=${p.written[1]}`, other), 404, 'post-not-found')
      assert.deepEqual(ids((await replies(p.top.id)).body.posts), p.written, 'no overlay: its replies')
      assert.deepEqual(ids((await replies(p.top.id, `venue=${v2}`, other)).body.posts), p.written, "another venue's overlay")
    }
    // Its author still reads it there (hidden: true on the thread), and so its replies.
    assert.deepEqual(ids((await replies(hiddenParent.top.id, `venue=${v}`, a)).body.posts), hiddenParent.written)
    assert.deepEqual(ids((await replies(bannedParent.top.id, `venue=${v}`, banned)).body.posts), bannedParent.written)
  })

  it('"a reader never sees posts by accounts they blocked": a blocked author\'s replies are left out for the blocker only', async () => {
    const a = await signIn(svc)
    const reader = await signIn(svc)
    const blocked = await signIn(svc)
    const m = await addMarket(svc)
    const top = await writePost(svc, a, 'event', m.id, 'parent')
    const r1 = await writePost(svc, a, 'event', m.id, 'by a', { parentId: top.id })
    const r2 = await writePost(svc, blocked, 'event', m.id, 'by the blocked', { parentId: top.id })
    await block(svc, reader, blocked)
    assert.deepEqual(ids((await replies(top.id, '', reader)).body.posts), [r1.id])
    assert.deepEqual(ids((await replies(top.id)).body.posts), [r1.id, r2.id])
    assert.deepEqual(ids((await replies(top.id, '', a)).body.posts), [r1.id, r2.id])
  })

  it('"a reader never sees posts by accounts they blocked": a parent by an account the reader blocked is 404 post-not-found for that reader (the thread shows neither it nor its replies), and reads as before for everyone else', async () => {
    const a = await signIn(svc)
    const reader = await signIn(svc)
    const m = await addMarket(svc)
    const top = await writePost(svc, a, 'event', m.id, 'parent')
    const r1 = await writePost(svc, reader, 'event', m.id, 'a reply', { parentId: top.id })
    await block(svc, reader, a)
    const thread = await call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${m.id}`, { token: reader.token })
    assert.deepEqual(ids(thread.body.posts), [], 'the thread leaves the parent out for the blocker')
    expectError(await replies(top.id, '', reader), 404, 'post-not-found')
    assert.deepEqual(ids((await replies(top.id)).body.posts), [r1.id])
    assert.deepEqual(ids((await replies(top.id, '', a)).body.posts), [r1.id])
  })

  it('"the parent is reached as a write reaches it": 404 post-not-found for an unknown id, a deleted parent, and a hidden or removed parent (for all but its author, who still reads its replies)', async () => {
    const a = await signIn(svc)
    const b = await signIn(svc)
    expectError(await replies(UNKNOWN), 404, 'post-not-found', 'no post with this id')
    expectError(await replies(UNKNOWN, '', a), 404, 'post-not-found')

    const deleted = await busyPost(a, 2, b)
    assert.equal((await del(deleted.top.id, a)).status, 200)
    for (const reader of [undefined, a, b]) expectError(await replies(deleted.top.id, '', reader), 404, 'post-not-found')

    for (const state of ['hidden', 'removed'] as const) {
      const p = await busyPost(a, 2, b)
      await setState(svc, p.top.id, state)
      for (const reader of [undefined, b]) expectError(await replies(p.top.id, '', reader), 404, 'post-not-found')
      const own = await replies(p.top.id, '', a)
      assert.equal(own.status, 200, `${state}: its author reads the replies of their own post`)
      assert.deepEqual(ids(own.body.posts), p.written)
      // A reply of it left every read with it: 404 for all but the reply's author.
      expectError(await replies(p.written[0], '', a), 404, 'post-not-found')
      assert.deepEqual((await replies(p.written[0], '', b)).body, { posts: [], hasMore: false })
    }
  })

  it('§7 "a private room ... 404 (not 403, so existence is not confirmed)": a private-room parent is 404 for an outsider, signed out, and a member who left; its members, the venue\'s owner and the parent\'s author read its replies', async () => {
    const owner = await signIn(svc)
    const v = await makeVenue(svc, undefined, await accountOf(svc, owner.wallet))
    const priv = await makeRoom(svc, { venueId: v, visibility: 'private' })
    const author = await signIn(svc)
    const member = await signIn(svc)
    const leaver = await signIn(svc, undefined, v)
    const outsider = await signIn(svc)
    for (const u of [author, member, leaver]) await addMember(svc, priv, u)
    const m = await addMarket(svc)
    const top = await writePost(svc, author, 'event', m.id, 'members only', { room: priv })
    const r1 = await writePost(svc, member, 'event', m.id, 'a member replies', { parentId: top.id })
    const r2 = await writePost(svc, author, 'event', m.id, 'the author replies', { parentId: top.id })
    assert.equal((await call(svc, 'POST', `/v1/rooms/${priv}/leave`, { token: leaver.token })).status, 200)

    expectError(await replies(top.id), 404, 'post-not-found')
    expectError(await replies(top.id, '', outsider), 404, 'post-not-found')
    expectError(await replies(top.id, '', leaver), 404, 'post-not-found')
    expectError(await replies(top.id, `before=${r2.id}`, outsider), 404, 'post-not-found')
    for (const reader of [member, author, owner]) {
      const r = await replies(top.id, '', reader)
      assert.equal(r.status, 200)
      assert.deepEqual(ids(r.body.posts), [r1.id, r2.id], 'the venue\'s owner, not a member, reads them too (the room is open to it)')
    }
  })

  it('"a post that is itself a reply has none": a reply\'s id reads as an empty page, and as 404 post-not-found where the thread would not show that reply (blocked author, hidden on the venue)', async () => {
    const u = await signIn(svc)
    const { top, written } = await busyPost(u, 3)
    const r = await replies(written[1])
    assert.equal(r.status, 200)
    assert.deepEqual(r.body, { posts: [], hasMore: false })
    assert.deepEqual((await replies(written[2], `before=${written[1]}`, u)).body, { posts: [], hasMore: false })
    assert.equal((await replies(top.id)).body.posts.length, 3)
    // The same rule as for a parent: an empty page would confirm a reply the reader's thread does not show.
    const reader = await signIn(svc)
    await block(svc, reader, u)
    expectError(await replies(written[0], '', reader), 404, 'post-not-found')
    const v = await makeVenue(svc)
    await venueHide(svc, v, written[2])
    expectError(await replies(written[2], `venue=${v}`), 404, 'post-not-found')
    assert.deepEqual((await replies(written[2], `venue=${v}`, u)).body, { posts: [], hasMore: false }, 'its author still reads it')
  })

  it('bad input: unknown params are 400 unsupported-param; a bad id, before, limit or venue is 400 validation-failed with a sentence', async () => {
    const u = await signIn(svc)
    const { top, written } = await busyPost(u, 1)
    expectError(await call(svc, 'GET', '/v1/social/posts/notapost/replies'), 400, 'validation-failed', "'id' must be a post id")
    expectError(await call(svc, 'GET', `/v1/social/posts/${top.id.toUpperCase()}/replies`), 400, 'validation-failed', "'id' must be a post id")
    expectError(await replies(top.id, 'before=notapost'), 400, 'validation-failed', "'before' must be a post id")
    expectError(await replies(top.id, 'before='), 400, 'validation-failed', /'before'/)
    expectError(await replies(top.id, 'limit=0'), 400, 'validation-failed', "'limit' must be from 1 to 100")
    expectError(await replies(top.id, 'limit=101'), 400, 'validation-failed', "'limit' must be from 1 to 100")
    expectError(await replies(top.id, 'limit=abc'), 400, 'validation-failed', "'limit' must be a whole number")
    expectError(await replies(top.id, 'venue=NO'), 400, 'validation-failed', /^'venue' must be a venue id/)
    expectError(await replies(top.id, 'venue=------'), 400, 'validation-failed', /^'venue' must be a venue id \(6 to 64 lowercase letters, digits and hyphens, with at least one letter or digit\)$/)
    expectError(await replies(top.id, `cursor=${written[0]}`), 400, 'unsupported-param', "unsupported query parameter 'cursor'; accepted: before, limit, venue, feed")
    expectError(await replies(top.id, 'subjectType=event'), 400, 'unsupported-param', /'subjectType'/)
    expectError(await replies(top.id, 'limit=2&limit=3'), 400, 'validation-failed', /more than once/)
    // A bad input is refused before the parent is looked up: an unknown parent with a bad limit is 400, not 404.
    expectError(await replies(UNKNOWN, 'limit=0'), 400, 'validation-failed')
    expectError(await replies(UNKNOWN, 'cursor=x'), 400, 'unsupported-param')
  })

  it('SDK client.replies(postId, { before, limit, venue }) reads the page from the service, with the session when there is one; a bad before is a validation error before any request', async () => {
    const a = await signIn(svc)
    const v = await makeVenue(svc)
    const { top, written } = await busyPost(a, 5)
    await venueHide(svc, v, written[3])
    let requests = 0
    const fetchImpl: typeof fetch = (input, init) => {
      requests++
      return fetch(input, init)
    }
    const c = createClient({ baseUrl: svc.url, apiKey: null, fetchImpl })

    const page = await c.replies(top.id, { before: written[4], limit: 2 })
    assert.deepEqual(ids(page.posts), written.slice(2, 4))
    assert.equal(page.hasMore, true)
    const rest = await c.replies(top.id, { before: page.posts[0].id })
    assert.deepEqual(ids(rest.posts), written.slice(0, 2))
    assert.equal(rest.hasMore, false)
    const newest = await c.replies(top.id)
    assert.deepEqual(ids(newest.posts), written)
    assert.ok(newest.posts.every((p) => !('agreed' in p)), 'signed out: no agreed')
    assert.deepEqual(ids((await c.replies(top.id, { venue: v })).posts), [...written.slice(0, 3), written[4]], 'venue: the overlay')
    const keyed = createClient({ baseUrl: svc.url, apiKey: null, venueId: v })
    assert.deepEqual(ids((await keyed.replies(top.id)).posts), [...written.slice(0, 3), written[4]], "the client's venueId is the overlay when none is named")

    // Signed in: the session goes along (agreed appears; the author reads their own hidden reply).
    const signedIn = createClient({ baseUrl: svc.url, apiKey: null })
    await signedIn.auth.signIn({ address: a.account.address, signMessage: (message: string) => a.account.signMessage({ message }) })
    const mine = await signedIn.replies(top.id, { venue: v })
    assert.deepEqual(ids(mine.posts), written)
    assert.equal(mine.posts[3].hidden, true)
    assert.ok(mine.posts.every((p) => p.agreed === false), 'signed in: agreed on each')

    const before = requests
    for (const bad of ['notapost', '', 'P_0000000000']) {
      const e = await c.replies(top.id, { before: bad }).catch((x) => x)
      assert.ok(e instanceof ValidationError, String(e))
      assert.equal(e.code, 'validation')
      assert.equal(e.argument, 'before')
      assert.equal(e.message, 'before must be a post id')
    }
    const badId = await c.replies('notapost').catch((x) => x)
    assert.ok(badId instanceof ValidationError, String(badId))
    assert.equal(badId.argument, 'postId')
    assert.equal(requests, before, 'no request was sent for a bad argument')

    const missing = await c.replies(UNKNOWN).catch((x) => x)
    assert.ok(missing instanceof HttpError, String(missing))
    assert.equal(missing.status, 404)
    assert.equal(missing.code, 'post-not-found')
    const badLimit = await c.replies(top.id, { limit: 0 }).catch((x) => x)
    assert.ok(badLimit instanceof HttpError, String(badLimit))
    assert.equal(badLimit.code, 'validation-failed')
  })
})
