/** §2.2, §4.1 (the ranked feed and its seven rules), §3.1, §1.6: GET /v1/social/posts/feed. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { FEED_PARAMS } from '../../src/contract/params.ts'
import { PATHS } from '../../src/contract/paths.ts'
import { addMarket, call, expectError, signIn, startTestService, type TestService } from '../helpers/service.ts'
import { accountOf, allPages, feed, makeRoom, makeVenue, makeVenueKey, settleTakes, uniqueRef, writePost } from '../helpers/feed-fixtures.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

const ids = (body: any) => body.posts.map((p: any) => p.id)

describe('feed: rule 1 (unsupported params)', () => {
  it('§4.1 rule 1 "Any query parameter not in its contract gives status 400 with code unsupported-param": `author` is refused', async () => {
    const u = await signIn(svc)
    const r = await feed(svc, { author: u.wallet })
    expectError(r, 400, 'unsupported-param')
    assert.equal(r.body.error.param, 'author')
    expectError(await feed(svc, { scope: 'global', foo: '1' }), 400, 'unsupported-param')
    expectError(await feed(svc, { takes: 'true' }), 400, 'unsupported-param')
  })

  it('§4.1 rule 1 and §9.4 "the ranked feed rejects undeclared query params with 400": also with an empty value or none (?author=, ?author, ?foo)', async () => {
    for (const qs of ['author=', 'author', 'scope=global&author=', 'foo']) {
      const r = await call(svc, 'GET', `/v1/social/posts/feed?${qs}`)
      expectError(r, 400, 'unsupported-param')
      assert.equal(r.body.error.param, qs.includes('author') ? 'author' : 'foo', qs)
    }
  })

  it('§4.1 rule 1: every name in FEED_PARAMS is accepted (none is refused as unsupported)', async () => {
    const ref = uniqueRef('cat')
    const r = await feed(svc, { scope: 'subject', subjectType: 'category', subjectRef: ref, venue: 'some-venue', sort: 'live', limit: 5 })
    assert.equal(r.status, 200, JSON.stringify(r.body))
    assert.deepEqual([...FEED_PARAMS].sort(), ['cursor', 'limit', 'room', 'scope', 'sort', 'subjectRef', 'subjectType', 'venue'])
  })

  it('a repeated query parameter is 400 naming it', async () => {
    const r = await call(svc, 'GET', '/v1/social/posts/feed?scope=global&scope=following')
    expectError(r, 400, 'validation-failed', /scope/)
  })

  it('§4.1 rule 1 "Any query parameter not in its contract gives status 400 with code unsupported-param", even after a repeated one', async () => {
    const r = await call(svc, 'GET', '/v1/social/posts/feed?scope=global&scope=global&author=x')
    expectError(r, 400, 'unsupported-param')
    assert.equal(r.body.error.param, 'author')
  })
})

describe('feed: rule 2 (default scope) and validation', () => {
  it('§4.1 rule 2 "scope defaults to subject when both subjectType and subjectRef are given, otherwise global"', async () => {
    const u = await signIn(svc)
    const mine = uniqueRef('cat')
    const other = uniqueRef('cat')
    const a = await writePost(svc, u, 'category', mine, 'on my node')
    const b = await writePost(svc, u, 'category', other, 'on another node')
    const both = await feed(svc, { subjectType: 'category', subjectRef: mine })
    assert.equal(both.status, 200)
    assert.equal(both.body.scope, 'subject')
    assert.deepEqual(ids(both.body), [a.id])
    const onlyType = await feed(svc, { subjectType: 'category' })
    assert.equal(onlyType.body.scope, 'global')
    const none = await feed(svc, { limit: 100 })
    assert.equal(none.body.scope, 'global')
    assert.ok(ids(none.body).includes(a.id) && ids(none.body).includes(b.id))
  })

  it('§4.1 rule 2: an unknown scope or sort, or an unknown subjectType read as the subject, is 400 validation-failed naming the parameter', async () => {
    for (const [name, value, more] of [
      ['scope', 'everyone', {}],
      ['sort', 'hot', {}],
      ['subjectType', 'person', { subjectRef: 'x' }],
      ['subjectType', 'person', { scope: 'subject', subjectRef: 'x' }],
      ['subjectRef', 'y'.repeat(201), { scope: 'subject', subjectType: 'category' }],
    ] as const) {
      const r = await feed(svc, { [name]: value, ...more })
      expectError(r, 400, 'validation-failed', new RegExp(name))
      assert.equal(r.body.error.param, name)
    }
  })

  it('§4.1 rule 2: scope subject with only one of subjectType / subjectRef is 400 naming the missing one', async () => {
    const r = await feed(svc, { scope: 'subject', subjectType: 'category' })
    expectError(r, 400, 'validation-failed', /subjectRef/)
    assert.equal(r.body.error.param, 'subjectRef')
    expectError(await feed(svc, { scope: 'subject', subjectRef: 'weather' }), 400, 'validation-failed', /subjectType/)
    expectError(await feed(svc, { scope: 'subject' }), 400, 'validation-failed')
    expectError(await feed(svc, { subjectType: 'event', subjectRef: 'not-a-market' }), 400, 'validation-failed', /subjectRef/)
  })

  it('limit is 1..100 and a cursor must be one the service issued', async () => {
    for (const limit of ['0', '101', 'abc', '-1', '2.5']) expectError(await feed(svc, { limit }), 400, 'validation-failed', /limit/)
    expectError(await feed(svc, { cursor: 'bm90LWEtY3Vyc29y' }), 400, 'validation-failed', /cursor/)
    const u = await signIn(svc)
    const ref = uniqueRef('cat')
    for (let i = 0; i < 3; i++) await writePost(svc, u, 'category', ref, `p${i}`)
    const live = await feed(svc, { subjectType: 'category', subjectRef: ref, limit: 1 })
    // A `live` cursor is not a `record` cursor.
    expectError(await feed(svc, { subjectType: 'category', subjectRef: ref, sort: 'record', cursor: live.body.nextCursor }), 400, 'validation-failed', /cursor/)
  })

  it(`limit defaults to the page default; nextCursor is null on the last page`, async () => {
    const u = await signIn(svc)
    const ref = uniqueRef('cat')
    for (let i = 0; i < 21; i++) await writePost(svc, u, 'category', ref, `p${i}`)
    const first = await feed(svc, { subjectType: 'category', subjectRef: ref })
    assert.equal(first.body.posts.length, 20)
    assert.ok(first.body.nextCursor)
    const second = await feed(svc, { subjectType: 'category', subjectRef: ref, cursor: first.body.nextCursor })
    assert.equal(second.body.posts.length, 1)
    assert.equal(second.body.nextCursor, null)
  })
})

describe('feed: rule 3 (subject ignored outside scope subject)', () => {
  it('§4.1 rule 3 "A subject given with scope global or following is ignored by the server"', async () => {
    const u = await signIn(svc)
    const ref = uniqueRef('cat')
    await writePost(svc, u, 'category', ref, 'x')
    await svc.ctx.db.insertInto('follows').values({ account_id: await accountOf(svc, u.wallet), subject_type: 'category', subject_ref: ref }).execute()
    for (const scope of ['global', 'following']) {
      const plain = await feed(svc, { scope, limit: 50 }, { token: u.token })
      const withSubject = await feed(svc, { scope, subjectType: 'category', subjectRef: 'some-other-node', limit: 50 }, { token: u.token })
      assert.equal(plain.status, 200)
      assert.equal(withSubject.body.scope, scope)
      assert.deepEqual(withSubject.body, plain.body)
      // Ignored means not read at all: values that would be refused under scope subject change nothing.
      for (const subject of [
        { subjectType: 'person', subjectRef: 'x' },
        { subjectType: 'event', subjectRef: 'not-a-market' },
        { subjectType: 'category', subjectRef: 'y'.repeat(500) },
        { subjectType: 'person' },
      ]) {
        const ignored = await feed(svc, { scope, ...subject, limit: 50 }, { token: u.token })
        assert.equal(ignored.status, 200, JSON.stringify(ignored.body))
        assert.deepEqual(ignored.body, plain.body)
      }
    }
    // A lone subjectType (no scope) gives scope global (rule 2), so it is ignored too.
    assert.equal((await feed(svc, { subjectType: 'person' })).body.scope, 'global')
  })
})

describe('feed: rule 4 (following)', () => {
  it('§4.1 rule 4 "Scope following needs a session": 401 unauthenticated without one, or with a dead token', async () => {
    expectError(await feed(svc, { scope: 'following' }), 401, 'unauthenticated')
    expectError(await feed(svc, { scope: 'following' }, { token: `vks_${'0'.repeat(64)}` }), 401, 'unauthenticated')
  })

  it('§4.1 rule 4: following holds posts on followed subjects, takes on markets in a followed node, and a followed market\'s posts', async () => {
    const reader = await signIn(svc)
    const writer = await signIn(svc)
    const followedCat = uniqueRef('cat')
    const otherCat = uniqueRef('cat')
    const inCat = await addMarket(svc, { nodes: [{ type: 'category', ref: followedCat }] })
    const followedMarket = await addMarket(svc, { nodes: [{ type: 'category', ref: otherCat }] })
    const unrelated = await addMarket(svc, { nodes: [{ type: 'category', ref: otherCat }] })
    const onNode = await writePost(svc, writer, 'category', followedCat, 'on the node')
    const onMarketInNode = await writePost(svc, writer, 'event', inCat.id, 'on a market in the node')
    const onFollowedMarket = await writePost(svc, writer, 'event', followedMarket.id, 'on the followed market')
    const notFollowed = await writePost(svc, writer, 'event', unrelated.id, 'elsewhere')
    await writePost(svc, writer, 'category', otherCat, 'other node')
    const reply = await writePost(svc, reader, 'category', followedCat, 'a reply', { parentId: onNode.id })
    const acc = await accountOf(svc, reader.wallet)
    await svc.ctx.db
      .insertInto('follows')
      .values([
        { account_id: acc, subject_type: 'category', subject_ref: followedCat },
        { account_id: acc, subject_type: 'event', subject_ref: followedMarket.id },
      ])
      .execute()
    const r = await feed(svc, { scope: 'following' }, { token: reader.token })
    assert.equal(r.status, 200)
    assert.equal(r.body.scope, 'following')
    assert.deepEqual(new Set(ids(r.body)), new Set([onNode.id, onMarketInNode.id, onFollowedMarket.id]))
    assert.ok(!ids(r.body).includes(notFollowed.id))
    assert.deepEqual(r.body.threads[onNode.id].map((p: any) => p.id), [reply.id])
    // Following nothing is an empty page, not everyone's posts.
    const lonely = await signIn(svc)
    const empty = await feed(svc, { scope: 'following' }, { token: lonely.token })
    assert.deepEqual(empty.body.posts, [])
    assert.equal(empty.body.nextCursor, null)
  })
})

describe('feed: rule 5 (venue overlay, room containment)', () => {
  it('§4.1 rule 5 "venue is a moderation overlay (that venue\'s hides and bans); it never filters to that venue\'s posts"', async () => {
    const writer = await signIn(svc)
    const banned = await signIn(svc)
    const ref = uniqueRef('cat')
    const venueA = await makeVenue(svc)
    const venueB = await makeVenue(svc)
    const hidden = await writePost(svc, writer, 'category', ref, 'hidden on venue A')
    const kept = await writePost(svc, writer, 'category', ref, 'kept everywhere')
    const byBanned = await writePost(svc, banned, 'category', ref, 'author banned on venue A')
    await svc.ctx.db.insertInto('venue_hides').values({ venue_id: venueA, post_id: hidden.id, by_account: 'a_test' }).execute()
    await svc.ctx.db.insertInto('bans').values({ scope: venueA, account_id: await accountOf(svc, banned.wallet), by_account: 'a_test' }).execute()
    const all = new Set([hidden.id, kept.id, byBanned.id])
    const plain = await feed(svc, { subjectType: 'category', subjectRef: ref })
    assert.deepEqual(new Set(ids(plain.body)), all)
    const onA = await feed(svc, { subjectType: 'category', subjectRef: ref, venue: venueA })
    assert.deepEqual(ids(onA.body), [kept.id])
    // Venue B has no hides: every post stays, none of them was written "on" venue B.
    const onB = await feed(svc, { subjectType: 'category', subjectRef: ref, venue: venueB })
    assert.deepEqual(new Set(ids(onB.body)), all)
    // The hide stays a hide even for its author: the ranked feed shows visible posts only.
    const asAuthor = await feed(svc, { subjectType: 'category', subjectRef: ref, venue: venueA }, { token: writer.token })
    assert.deepEqual(ids(asAuthor.body), [kept.id])
    // The same on the global feed, live and by record: these unroomed posts are no venue's, and stay on it.
    for (const sort of ['live', 'record']) {
      const ours = async (venue: string) =>
        new Set((await allPages(svc, { scope: 'global', sort, venue, limit: 100 })).flatMap((pg) => ids(pg)).filter((id: string) => all.has(id)))
      assert.deepEqual(await ours(venueA), new Set([kept.id]), `global ${sort} on venue A`)
      assert.deepEqual(await ours(venueB), all, `global ${sort} on venue B`)
    }
  })

  it('§4.1 rule 5 "room is containment": only that room\'s posts; without room, unroomed and public-room posts', async () => {
    const member = await signIn(svc)
    const ref = uniqueRef('cat')
    const { roomId } = await makeRoom(svc, { subject: { type: 'category', ref }, members: [member] })
    const inRoom = await writePost(svc, member, 'category', ref, 'in the room', { room: roomId })
    const outside = await writePost(svc, member, 'category', ref, 'outside any room')
    const roomFeed = await feed(svc, { room: roomId })
    assert.equal(roomFeed.status, 200)
    assert.deepEqual(ids(roomFeed.body), [inRoom.id])
    const nodeFeed = await feed(svc, { subjectType: 'category', subjectRef: ref })
    assert.deepEqual(new Set(ids(nodeFeed.body)), new Set([inRoom.id, outside.id]))
    // Room and subject together: the room's posts on that subject.
    const other = uniqueRef('cat')
    const narrowed = await feed(svc, { room: roomId, subjectType: 'category', subjectRef: other })
    assert.deepEqual(ids(narrowed.body), [])
  })

  it('§4.1 rule 5: room with scope following holds the room\'s posts on subjects the reader follows', async () => {
    const member = await signIn(svc)
    const reader = await signIn(svc)
    const ref = uniqueRef('cat')
    const followedMarket = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    const otherMarket = await addMarket(svc, { nodes: [{ type: 'category', ref: uniqueRef('cat') }] })
    const { roomId } = await makeRoom(svc, { subject: { type: 'category', ref }, members: [member] })
    const a = await writePost(svc, member, 'event', followedMarket.id, 'followed market, in room', { room: roomId })
    await writePost(svc, member, 'event', otherMarket.id, 'other market, in room', { room: roomId })
    await writePost(svc, member, 'event', followedMarket.id, 'followed market, outside the room')
    await svc.ctx.db.insertInto('follows').values({ account_id: await accountOf(svc, reader.wallet), subject_type: 'event', subject_ref: followedMarket.id }).execute()
    const r = await feed(svc, { scope: 'following', room: roomId }, { token: reader.token })
    assert.equal(r.status, 200)
    assert.deepEqual(ids(r.body), [a.id])
  })

  it('§4.1 rule 5: a private room\'s posts never reach the global, subject or following feeds, even for members; room= reads them (members only, outsiders 404)', async () => {
    const member = await signIn(svc)
    const outsider = await signIn(svc)
    const ref = uniqueRef('cat')
    const { roomId } = await makeRoom(svc, { subject: { type: 'category', ref }, visibility: 'private', members: [member] })
    const secret = await writePost(svc, member, 'category', ref, 'members only', { room: roomId })
    await svc.ctx.db.insertInto('follows').values({ account_id: await accountOf(svc, member.wallet), subject_type: 'category', subject_ref: ref }).execute()
    for (const q of [{ limit: 100 }, { subjectType: 'category', subjectRef: ref }, { scope: 'following' }]) {
      const r = await feed(svc, q, { token: member.token })
      assert.equal(r.status, 200)
      assert.ok(!ids(r.body).includes(secret.id), JSON.stringify(q))
    }
    const asMember = await feed(svc, { room: roomId }, { token: member.token })
    assert.deepEqual(ids(asMember.body), [secret.id])
    expectError(await feed(svc, { room: roomId }, { token: outsider.token }), 404, 'room-not-found')
    expectError(await feed(svc, { room: roomId }), 404, 'room-not-found')
    expectError(await feed(svc, { room: 'r_doesnotexist' }), 404, 'room-not-found')
  })
})

describe('feed: rule 6 (sort=record)', () => {
  it('§4.1 rule 6 "sort: record orders by each author\'s settled record at the prediction\'s node and fills post.record"', async () => {
    const ref = uniqueRef('cat')
    const strong = await signIn(svc)
    const weak = await signIn(svc)
    const fresh = await signIn(svc)
    await settleTakes(svc, strong, ref, { right: 3, wrong: 0 })
    await settleTakes(svc, weak, ref, { right: 1, wrong: 2 })
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    const a = await writePost(svc, strong, 'event', m.id, 'strong author, oldest')
    const b = await writePost(svc, weak, 'event', m.id, 'weak author')
    const c = await writePost(svc, fresh, 'event', m.id, 'no record, newest')
    const r = await feed(svc, { scope: 'subject', subjectType: 'event', subjectRef: m.id, sort: 'record' })
    assert.equal(r.status, 200)
    assert.equal(r.body.sort, 'record')
    assert.deepEqual(ids(r.body), [a.id, b.id, c.id])
    const [ra, rb, rc] = r.body.posts.map((p: any) => p.record)
    assert.deepEqual({ right: ra.right, wrong: ra.wrong, rank: ra.rank, population: ra.population }, { right: 3, wrong: 0, rank: 1, population: 2 })
    assert.deepEqual(ra.facet, { type: 'category', ref })
    assert.deepEqual({ right: rb.right, wrong: rb.wrong, rank: rb.rank }, { right: 1, wrong: 2, rank: 2 })
    assert.equal(rc.rank, null, 'unranked is a state, not last place')
    assert.equal(rc.population, 2)
    // Same posts by live order: newest first, and no record field.
    const live = await feed(svc, { scope: 'subject', subjectType: 'event', subjectRef: m.id })
    assert.equal(live.body.sort, 'live')
    assert.deepEqual(ids(live.body), [c.id, b.id, a.id])
    assert.ok(live.body.posts.every((p: any) => !('record' in p)))
    // §2.1 "record only when feed sort is record": not on the market's thread, nor on an author's profile.
    const thread = await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${m.id}`)
    assert.deepEqual(thread.body.posts.map((p: any) => p.id).sort(), [a.id, b.id, c.id].sort())
    assert.ok(thread.body.posts.every((p: any) => !('record' in p)), 'thread')
    const profile = await call(svc, 'GET', PATHS.profilePosts(r.body.posts[0].author))
    assert.equal(profile.status, 200, JSON.stringify(profile.body))
    assert.ok(profile.body.posts.length > 0)
    assert.ok(profile.body.posts.every((p: any) => !('record' in p)), 'profile')
  })

  it('§4.1 rule 6 "it is never implied by room": a room feed without sort is live', async () => {
    const member = await signIn(svc)
    const ref = uniqueRef('cat')
    const { roomId } = await makeRoom(svc, { subject: { type: 'category', ref }, members: [member] })
    await writePost(svc, member, 'category', ref, 'in room', { room: roomId })
    const r = await feed(svc, { room: roomId })
    assert.equal(r.body.sort, 'live')
    assert.ok(r.body.posts.every((p: any) => !('record' in p)))
    const rec = await feed(svc, { room: roomId, sort: 'record' })
    assert.equal(rec.body.sort, 'record')
    assert.ok(rec.body.posts.every((p: any) => 'record' in p))
  })
})

describe('feed: rule 7 (room=self)', () => {
  it('§4.1 rule 7 "room=self means the room of the venue whose API key sent the request and needs a venue key"', async () => {
    const member = await signIn(svc)
    const ref = uniqueRef('cat')
    const venueId = await makeVenue(svc)
    const { roomId } = await makeRoom(svc, { venueId, subject: { type: 'category', ref }, members: [member], isSelf: true })
    const key = await makeVenueKey(svc, venueId)
    const post = await writePost(svc, member, 'category', ref, 'in the self room', { room: roomId })
    const noKey = await feed(svc, { room: 'self' }, { token: member.token })
    expectError(noKey, 401, 'venue-key-required', /venue key/)
    const keyed = await feed(svc, { room: 'self' }, { key })
    assert.equal(keyed.status, 200)
    assert.deepEqual(ids(keyed.body), [post.id])
    expectError(await feed(svc, { room: 'self' }, { key: `pck_${'0'.repeat(64)}` }), 401, 'invalid-venue-key')
    // A session signed in on the venue names no room either: only the key does (§5 rule 6 "room=self on a read needs a venue key").
    const onVenue = await signIn(svc, member.account, venueId)
    expectError(await feed(svc, { room: 'self' }, { token: onVenue.token }), 401, 'venue-key-required', /venue key/)
  })
})

describe('feed: rows, threads, labels', () => {
  it('§3.1 "the ranked feed shows visible posts only": hidden (even to the author), deleted and blocked posts are not rows', async () => {
    const author = await signIn(svc)
    const reader = await signIn(svc)
    const ref = uniqueRef('cat')
    const hidden = await writePost(svc, author, 'category', ref, 'to be hidden')
    const deleted = await writePost(svc, author, 'category', ref, 'to be deleted')
    const kept = await writePost(svc, author, 'category', ref, 'kept')
    for (let i = 0; i < svc.ctx.config.reportThreshold; i++) {
      const rep = await signIn(svc)
      assert.equal((await call(svc, 'POST', `/v1/social/posts/${hidden.id}/reports`, { token: rep.token, body: { reason: 'spam' } })).status, 200)
    }
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${deleted.id}`, { token: author.token })).status, 200)
    assert.deepEqual(ids((await feed(svc, { subjectType: 'category', subjectRef: ref })).body), [kept.id])
    assert.deepEqual(ids((await feed(svc, { subjectType: 'category', subjectRef: ref }, { token: author.token })).body), [kept.id])
    // Every way the global feed is read, by the author too: live and by record.
    for (const sort of ['live', 'record']) {
      const global = (await allPages(svc, { scope: 'global', sort, limit: 100 }, { token: author.token })).flatMap((pg) => ids(pg))
      assert.deepEqual([hidden.id, deleted.id, kept.id].filter((id) => global.includes(id)), [kept.id], `global ${sort}`)
    }
    await call(svc, 'POST', '/v1/social/blocks', { token: reader.token, body: { wallet: author.wallet } })
    assert.deepEqual(ids((await feed(svc, { subjectType: 'category', subjectRef: ref }, { token: reader.token })).body), [])
  })

  it('§2.2 threads: "Replies folded under their parent, keyed by post id"; replies are never rows; hidden replies are left out', async () => {
    const u = await signIn(svc)
    const v = await signIn(svc)
    const m = await addMarket(svc)
    const top = await writePost(svc, u, 'event', m.id, 'top')
    const r1 = await writePost(svc, v, 'event', m.id, 'first reply', { parentId: top.id })
    const r2 = await writePost(svc, u, 'event', m.id, 'second reply', { parentId: top.id })
    const r3 = await writePost(svc, u, 'event', m.id, 'reply to be hidden', { parentId: top.id })
    await svc.ctx.db.updateTable('posts').set({ state: 'hidden' }).where('id', '=', r3.id).execute()
    const r = await feed(svc, { subjectType: 'event', subjectRef: m.id }, { token: u.token })
    assert.deepEqual(ids(r.body), [top.id])
    assert.deepEqual(r.body.threads[top.id].map((p: any) => p.id), [r1.id, r2.id])
    assert.equal(r.body.threads[top.id][0].parentId, top.id)
  })

  it('§2.2 labels and titles: "for everything on the page, keyed by lowercased market id"', async () => {
    const u = await signIn(svc)
    const upper = `0x${'AB'.repeat(32)}`
    const m = await addMarket(svc, { id: upper, title: 'Upper-case id market', outcomes: [{ label: 'Yes' }, { label: 'No', displayLabel: 'Below' }] })
    await writePost(svc, u, 'event', upper, 'hi')
    const r = await feed(svc, { subjectType: 'event', subjectRef: upper })
    assert.equal(r.status, 200)
    assert.equal(r.body.posts.length, 1)
    assert.deepEqual(Object.keys(r.body.labels), [m.id])
    assert.equal(m.id, upper.toLowerCase())
    assert.deepEqual(r.body.labels[m.id], [{ label: 'Yes' }, { label: 'No', displayLabel: 'Below' }])
    assert.equal(r.body.titles[m.id], 'Upper-case id market')
  })

  it('§2.2 the page shape: posts, signals, settlements, threads, labels, titles, sort, scope, nextCursor', async () => {
    const r = await feed(svc, { limit: 1 })
    assert.equal(r.status, 200)
    assert.deepEqual(Object.keys(r.body).sort(), ['labels', 'nextCursor', 'posts', 'scope', 'settlements', 'signals', 'sort', 'threads', 'titles'])
  })
})

describe('feed: settlements', () => {
  it('§2.2 settlements: a resolved market on the page gets {result, resolvedAt, right, wrong} attached to the page\'s highest post about it', async () => {
    const ref = uniqueRef('cat')
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    const yes1 = await signIn(svc)
    const yes2 = await signIn(svc)
    const no1 = await signIn(svc)
    await svc.chain.setPosition(yes1.wallet, m.id, 0, 5n)
    await svc.chain.setPosition(yes2.wallet, m.id, 0, 5n)
    await svc.chain.setPosition(no1.wallet, m.id, 1, 5n)
    await writePost(svc, yes1, 'event', m.id, 'yes')
    await writePost(svc, no1, 'event', m.id, 'no')
    const last = await writePost(svc, yes2, 'event', m.id, 'yes too')
    const open = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    await writePost(svc, yes1, 'event', open.id, 'still open')
    await svc.chain.resolve(m.id, 0)
    const r = await feed(svc, { subjectType: 'category', subjectRef: ref })
    assert.equal(r.body.settlements.length, 1)
    const s = r.body.settlements[0]
    assert.equal(s.marketId, m.id)
    assert.deepEqual(s.result, { winner: 0 })
    assert.equal(s.right, 2)
    assert.equal(s.wrong, 1)
    assert.ok(!Number.isNaN(Date.parse(s.resolvedAt)))
    const firstAboutM = r.body.posts.find((p: any) => p.subjectRef === m.id)
    assert.equal(s.attachTo, firstAboutM.id)
    assert.equal(s.attachTo, last.id)
  })

  it('§2.2 settlements: "a voided market counts nobody wrong" (right and wrong are zero); CLOB markets have no results', async () => {
    const ref = uniqueRef('cat')
    const voided = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    const clob = await addMarket(svc, { nodes: [{ type: 'category', ref }], clob: true })
    const u = await signIn(svc)
    await svc.chain.setPosition(u.wallet, voided.id, 0, 5n)
    await svc.chain.setPosition(u.wallet, clob.id, 0, 5n)
    await writePost(svc, u, 'event', voided.id, 'take on voided')
    await writePost(svc, u, 'event', clob.id, 'take on clob')
    await svc.chain.resolve(voided.id, 'void')
    await svc.chain.resolve(clob.id, 1)
    const r = await feed(svc, { subjectType: 'category', subjectRef: ref })
    assert.equal(r.body.settlements.length, 1)
    assert.deepEqual(r.body.settlements[0].result, { void: true })
    assert.equal(r.body.settlements[0].right, 0)
    assert.equal(r.body.settlements[0].wrong, 0)
  })
})

describe('feed: signals (§1.6)', () => {
  /** Callers with settled records at `ref`, each trading `market` on `side` now. */
  async function rankedCallers(ref: string, n: number) {
    const callers = []
    for (let i = 0; i < n; i++) {
      const u = await signIn(svc)
      await settleTakes(svc, u, ref, { right: 1, wrong: 0 })
      callers.push(u)
    }
    return callers
  }

  it('§1.6 "A single trade is never a feed row": trades by ranked callers become one "N ranked callers moved to <side>" signal attached to the highest post about the market', async () => {
    const ref = uniqueRef('cat')
    const callers = await rankedCallers(ref, 3)
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    const writer = await signIn(svc)
    const older = await writePost(svc, writer, 'event', m.id, 'older')
    const newer = await writePost(svc, writer, 'event', m.id, 'newer')
    const before = await feed(svc, { subjectType: 'category', subjectRef: ref, limit: 100 })
    await svc.chain.trade({ wallet: callers[0].wallet, marketId: m.id, side: 0, size: 10n })
    await svc.chain.trade({ wallet: callers[1].wallet, marketId: m.id, side: 1, size: 10n })
    await svc.chain.trade({ wallet: callers[1].wallet, marketId: m.id, side: 0, size: 10n }) // latest move: side 0
    await svc.chain.trade({ wallet: callers[2].wallet, marketId: m.id, side: 1, size: 10n })
    const unranked = await signIn(svc)
    await svc.chain.trade({ wallet: unranked.wallet, marketId: m.id, side: 1, size: 10n })
    const r = await feed(svc, { subjectType: 'category', subjectRef: ref, limit: 100 })
    // No trade became a row.
    assert.deepEqual(ids(r.body), ids(before.body))
    assert.ok(r.body.posts.every((p: any) => [older.id, newer.id].includes(p.id) || p.subjectRef !== m.id))
    const about = r.body.signals.filter((s: any) => s.marketId === m.id)
    const top = r.body.posts.find((p: any) => p.subjectRef === m.id).id
    assert.deepEqual(
      about.map((s: any) => [s.kind, s.side, s.count, s.attachTo, s.before]).sort(),
      [
        ['callers-moved', 0, 2, top, null],
        ['callers-moved', 1, 1, top, null],
      ],
    )
    assert.equal(top, newer.id)
    assert.ok(r.body.labels[m.id], 'the signal market has labels to name the side')
  })

  it('§1.6 "Trading reaches a feed as signals ... attached to a page": paged one post at a time, in live and record order, a signal appears once, under the highest post about its market, and never again beside a lower one on a later page', async () => {
    const ref = uniqueRef('cat')
    const [caller] = await rankedCallers(ref, 1)
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    const writer = await signIn(svc)
    const older = await writePost(svc, writer, 'event', m.id, 'older')
    const newer = await writePost(svc, writer, 'event', m.id, 'newer')
    await svc.chain.trade({ wallet: caller.wallet, marketId: m.id, side: 0, size: 1n })
    for (const sort of ['live', 'record']) {
      const pages = await allPages(svc, { subjectType: 'category', subjectRef: ref, sort, limit: 1 })
      const rows = pages.flatMap((p) => p.posts.map((post: any) => post.id))
      assert.ok(rows.indexOf(newer.id) >= 0 && rows.indexOf(newer.id) < rows.indexOf(older.id), `${sort}: both posts, newer first`)
      const about = pages.flatMap((p) => p.signals.filter((s: any) => s.marketId === m.id).map((s: any) => [s.side, s.count, s.attachTo]))
      assert.deepEqual(about, [[0, 1, newer.id]], sort)
    }
  })

  /** A settled record at `ref` written straight into the records table (one right call). */
  async function rankAt(u: { wallet: string }, ref: string, right = 1, wrong = 0) {
    await svc.ctx.db
      .insertInto('records')
      .values({ account_id: await accountOf(svc, u.wallet), facet_type: 'category', facet_ref: ref, right_count: right, wrong_count: wrong, void_count: 0, odds_sum: 0, score: right / (right + wrong) })
      .execute()
  }

  it('§2.2 signals: a market with no post on the feed gets its own quiet row (attachTo null, before = a post id or null)', async () => {
    const ref = uniqueRef('cat')
    const [c] = await rankedCallers(ref, 1)
    const quietMarket = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    await svc.chain.trade({ wallet: c.wallet, marketId: quietMarket.id, side: 1, size: 10n })
    const r = await feed(svc, { subjectType: 'category', subjectRef: ref, limit: 100 })
    const s = r.body.signals.find((x: any) => x.marketId === quietMarket.id)
    assert.equal(s.attachTo, null)
    assert.equal(s.count, 1)
    assert.equal(s.side, 1)
    // `before` names a post on the page, or null for after the last post.
    assert.ok(s.before === null || ids(r.body).includes(s.before))
    // Ranked like a fresh take with one agree: above the settled takes written earlier.
    assert.equal(s.before, r.body.posts[0].id)
    // A node with no posts at all: the quiet row goes after the (absent) last post.
    const empty = uniqueRef('cat')
    const c2 = await signIn(svc)
    await rankAt(c2, empty)
    const lone = await addMarket(svc, { nodes: [{ type: 'category', ref: empty }] })
    await svc.chain.trade({ wallet: c2.wallet, marketId: lone.id, side: 0, size: 1n })
    const e = await feed(svc, { subjectType: 'category', subjectRef: empty })
    assert.deepEqual(e.body.posts, [])
    assert.deepEqual(e.body.signals.map((x: any) => [x.marketId, x.attachTo, x.before]), [[lone.id, null, null]])
  })

  it('§2.2 a quiet row in `record` order ranks as a post whose author has no record: after the posts of authors with one, before the first unrecorded post that ranks below it live, and on exactly one page', async () => {
    const ref = uniqueRef('cat')
    const node = [{ type: 'category' as const, ref }]
    const m = await addMarket(svc, { nodes: node })
    const [plain1, plain2, recorded] = [await signIn(svc), await signIn(svc), await signIn(svc)]
    await rankAt(recorded, ref, 3, 0)
    // Oldest first: so every post ranks below the quiet row live, the recorded author's included.
    const low = await writePost(svc, plain1, 'event', m.id, 'oldest, no record')
    const high = await writePost(svc, plain2, 'event', m.id, 'newer, no record')
    const top = await writePost(svc, recorded, 'event', m.id, 'by an author with a record')
    const c = await signIn(svc)
    await rankAt(c, ref)
    const quiet = await addMarket(svc, { nodes: node })
    await svc.chain.trade({ wallet: c.wallet, marketId: quiet.id, side: 0, size: 1n })
    const quietRows = (body: any) => body.signals.filter((x: any) => x.marketId === quiet.id).map((x: any) => [x.attachTo, x.before])

    const whole = await feed(svc, { subjectType: 'category', subjectRef: ref, sort: 'record' })
    assert.deepEqual(ids(whole.body), [top.id, high.id, low.id])
    assert.deepEqual(quietRows(whole.body), [[null, high.id]], 'below the recorded post, above the unrecorded ones')
    const live = await feed(svc, { subjectType: 'category', subjectRef: ref })
    assert.deepEqual(quietRows(live.body), [[null, live.body.posts[0].id]], 'live: above all three')

    // One post a page: the quiet row is on the second page only, before its post.
    const pages = []
    let cursor: string | undefined
    do {
      const p = await feed(svc, { subjectType: 'category', subjectRef: ref, sort: 'record', limit: 1, ...(cursor ? { cursor } : {}) })
      pages.push([ids(p.body), quietRows(p.body)])
      cursor = p.body.nextCursor ?? undefined
      assert.ok(pages.length <= 50, 'the cursor moves the page on (a cursor that does not would loop forever)')
    } while (cursor)
    assert.deepEqual(pages, [
      [[top.id], []],
      [[high.id], [[null, high.id]]],
      [[low.id], []],
    ])
  })

  it('§2.2 signals "are present for a taxonomy node and empty on a market\'s thread", and empty for global and following scopes', async () => {
    const ref = uniqueRef('cat')
    const [c] = await rankedCallers(ref, 1)
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    const u = await signIn(svc)
    await writePost(svc, u, 'event', m.id, 'take')
    await svc.ctx.db.insertInto('follows').values({ account_id: await accountOf(svc, u.wallet), subject_type: 'category', subject_ref: ref }).execute()
    await svc.chain.trade({ wallet: c.wallet, marketId: m.id, side: 0, size: 1n })
    assert.equal((await feed(svc, { subjectType: 'category', subjectRef: ref })).body.signals.length, 1)
    assert.deepEqual((await feed(svc, { subjectType: 'event', subjectRef: m.id })).body.signals, [])
    assert.deepEqual((await feed(svc, { limit: 100 })).body.signals, [])
    assert.deepEqual((await feed(svc, { scope: 'following' }, { token: u.token })).body.signals, [])
  })

  it('§2.2 signals "For scope subject they are present for a taxonomy node (category, topic, org, country, a family series)": each node\'s feed carries the signal of its own market, attached to that market\'s post, and no other node\'s', async () => {
    // Callers ranked at one category; every market below also sits on it, so they are ranked callers there
    // (a market's records are read at its category, §2.12 nodeFacetOf). Each market sits on one other node.
    const cat = uniqueRef('cat')
    const [caller] = await rankedCallers(cat, 1)
    const writer = await signIn(svc)
    const nodes = [
      { type: 'category', ref: uniqueRef('cat') },
      { type: 'topic', ref: uniqueRef('topic') },
      { type: 'org', ref: uniqueRef('org') },
      { type: 'country', ref: uniqueRef('country') },
      // A family series: the rounds of a recurring market roll into the durable `series` node.
      { type: 'series', ref: uniqueRef('series') },
    ] as const
    const on = []
    for (const [i, node] of nodes.entries()) {
      const m =
        node.type === 'series'
          ? await addMarket(svc, { title: 'Up or down today? (round 2)', nodes: [{ type: 'category', ref: cat }], series: node.ref })
          : await addMarket(svc, { nodes: [{ type: 'category', ref: cat }, node] })
      const p = await writePost(svc, writer, 'event', m.id, `about the ${node.type} market`)
      // Sides differ per node, so a signal read at the wrong node would not match.
      await svc.chain.trade({ wallet: caller.wallet, marketId: m.id, side: i % 2, size: 1n })
      on.push({ node, market: m, post: p, side: i % 2 })
    }
    const seriesRound = on[on.length - 1].market
    assert.ok(seriesRound.nodes.some((n: { type: string; ref: string }) => n.type === 'series' && n.ref === nodes[4].ref), 'the round sits on its series node')
    for (const { node, market, post, side } of on) {
      const r = await feed(svc, { subjectType: node.type, subjectRef: node.ref, limit: 100 })
      assert.equal(r.status, 200, JSON.stringify(r.body))
      assert.equal(r.body.scope, 'subject')
      assert.deepEqual(ids(r.body), [post.id], `${node.type}: the node's feed holds its market's post`)
      assert.deepEqual(
        r.body.signals.map((s: any) => [s.kind, s.marketId, s.side, s.count, s.attachTo, s.before]),
        [['callers-moved', market.id, side, 1, post.id, null]],
        `${node.type}: one signal, attached to the post about its market`,
      )
      assert.ok(r.body.labels[market.id], `${node.type}: labels name the signal's side`)
      // Empty on that market's own thread.
      assert.deepEqual((await feed(svc, { subjectType: 'event', subjectRef: market.id })).body.signals, [], `${node.type}: none on the market's thread`)
    }
    // The shared category holds every market, so all five signals.
    const all = await feed(svc, { subjectType: 'category', subjectRef: cat, limit: 100 })
    assert.deepEqual(all.body.signals.map((s: any) => s.marketId).sort(), on.map((x) => x.market.id).sort())
  })

  it('§1.6 signals count only ranked callers (rank within max(10, 10% of the population)) trading in the last 24 h', async () => {
    const ref = uniqueRef('cat')
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref }] })
    // Twelve ranked accounts at the node: the cutoff is max(10, ceil(1.2)) = 10.
    const users = []
    for (let i = 0; i < 12; i++) {
      const u = await signIn(svc)
      users.push(u)
      await rankAt(u, ref, 12 - i, i)
    }
    await svc.chain.trade({ wallet: users[0].wallet, marketId: m.id, side: 0, size: 1n }) // rank 1
    await svc.chain.trade({ wallet: users[9].wallet, marketId: m.id, side: 0, size: 1n }) // rank 10
    await svc.chain.trade({ wallet: users[10].wallet, marketId: m.id, side: 0, size: 1n }) // rank 11: not a ranked caller
    await svc.chain.trade({ wallet: users[1].wallet, marketId: m.id, side: 0, size: 1n, at: new Date(Date.now() - 25 * 3600_000) }) // too old
    const r = await feed(svc, { subjectType: 'category', subjectRef: ref })
    assert.deepEqual(r.body.signals.map((s: any) => [s.marketId, s.side, s.count]), [[m.id, 0, 2]])
  })
})
