/** §2.6, §4.1 take counts (public, per market) and `/v1/markets/counts` grouped by axis. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { addMarket, call, expectError, newMarketId, signIn, startTestService, type TestService } from '../helpers/service.ts'
import { addMember, ban, block, makeRoom, makeVenue, setState, venueHide, writePost } from '../helpers/read-fixtures.ts'
import { claimVenue } from '../helpers/venues.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

const takeCounts = (ids: string[], qs = '', token?: string) => call(svc, 'GET', `/v1/social/take-counts?ids=${ids.join(',')}${qs}`, { token })

describe('take counts', () => {
  it('§2.6 "{ posts, takes, bySide }": takes are posts with a stance, bySide counts takes per side index; replies count as posts', async () => {
    const m = await addMarket(svc)
    const yes1 = await signIn(svc)
    const yes2 = await signIn(svc)
    const no = await signIn(svc)
    const watcher = await signIn(svc)
    await svc.chain.setPosition(yes1.wallet, m.id, 0, 5n)
    await svc.chain.setPosition(yes2.wallet, m.id, 0, 9n)
    await svc.chain.setPosition(no.wallet, m.id, 1, 2n)
    const top = await writePost(svc, yes1, 'event', m.id, 'yes')
    await writePost(svc, yes2, 'event', m.id, 'yes too')
    await writePost(svc, no, 'event', m.id, 'no')
    await writePost(svc, watcher, 'event', m.id, 'just a comment')
    await writePost(svc, watcher, 'event', m.id, 'a comment reply', { parentId: top.id })
    await writePost(svc, no, 'event', m.id, 'a take reply', { parentId: top.id })
    const r = await takeCounts([m.id])
    assert.equal(r.status, 200)
    assert.deepEqual(r.body.counts[m.id], { posts: 6, takes: 4, bySide: { '0': 2, '1': 2 } })
  })

  it('§2.6 "Once loaded, a market with no posts is all zeros": every asked id answers, unknown markets too', async () => {
    const empty = await addMarket(svc)
    const unknown = newMarketId()
    const r = await takeCounts([empty.id, unknown])
    assert.deepEqual(r.body.counts, { [empty.id]: { posts: 0, takes: 0, bySide: {} }, [unknown]: { posts: 0, takes: 0, bySide: {} } })
  })

  it('§4.1 "the same set of ids in any order or casing": ids are deduplicated case-insensitively and keyed lowercased', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    await writePost(svc, u, 'event', m.id, 'x')
    const upper = '0x' + m.id.slice(2).toUpperCase()
    const r = await takeCounts([upper, m.id, upper])
    assert.deepEqual(Object.keys(r.body.counts), [m.id])
    assert.equal(r.body.counts[m.id].posts, 1)
  })

  it('§2.6 "they include visible posts in public rooms and unroomed threads, and exclude private-room discussion"', async () => {
    const m = await addMarket(svc)
    const v = await makeVenue(svc)
    const pub = await makeRoom(svc, { venueId: v })
    const priv = await makeRoom(svc, { venueId: v, visibility: 'private' })
    const u = await signIn(svc)
    await addMember(svc, pub, u)
    await addMember(svc, priv, u)
    await svc.chain.setPosition(u.wallet, m.id, 1, 1n)
    await writePost(svc, u, 'event', m.id, 'unroomed')
    await writePost(svc, u, 'event', m.id, 'public room', { room: pub })
    const p = await writePost(svc, u, 'event', m.id, 'private room', { room: priv })
    await writePost(svc, u, 'event', m.id, 'private reply', { parentId: p.id })
    const r = await takeCounts([m.id])
    assert.deepEqual(r.body.counts[m.id], { posts: 2, takes: 2, bySide: { '1': 2 } })
    // A member of the private room gets the same counts (counts are not per reader).
    assert.deepEqual((await takeCounts([m.id], '', u.token)).body.counts[m.id], r.body.counts[m.id])
  })

  it('§2.6 "visible posts": hidden, removed and deleted posts do not count', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const a = await writePost(svc, u, 'event', m.id, 'will be hidden')
    const b = await writePost(svc, u, 'event', m.id, 'will be removed')
    const c = await writePost(svc, u, 'event', m.id, 'will be deleted')
    await writePost(svc, u, 'event', m.id, 'stays')
    await setState(svc, a.id, 'hidden')
    await setState(svc, b.id, 'removed')
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${c.id}`, { token: u.token })).status, 200)
    assert.equal((await takeCounts([m.id])).body.counts[m.id].posts, 1)
    // The author of the hidden post sees the same count: own hidden posts are not counted for them.
    assert.equal((await takeCounts([m.id], '', u.token)).body.counts[m.id].posts, 1)
  })

  it('§2.6 "Counts are identical for every reader": a reader\'s blocks and session change nothing', async () => {
    const m = await addMarket(svc)
    const author = await signIn(svc)
    const reader = await signIn(svc)
    await writePost(svc, author, 'event', m.id, 'one')
    await writePost(svc, reader, 'event', m.id, 'two')
    await block(svc, reader, author)
    const signedOut = await takeCounts([m.id])
    const signedIn = await takeCounts([m.id], '', reader.token)
    assert.deepEqual(signedIn.body, signedOut.body)
    assert.equal(signedOut.body.counts[m.id].posts, 2)
  })

  it('§2.6 "Counts are identical for every reader": a session that claims venue V, where V hid a post and banned an author, gets the signed-out take counts and `/v1/markets/counts`; with V\'s key (§5.3 "It scopes reads to the venue") the take counts are V\'s overlay whoever holds the session, and the grouped counts stay the signed-out ones', async () => {
    const cat = `every-reader-${Date.now().toString(36)}`
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: cat }] })
    const v = await claimVenue(svc)
    const hiddenAuthor = await signIn(svc, undefined, v.venueId)
    const bannedAuthor = await signIn(svc, undefined, v.venueId)
    const commenter = await signIn(svc)
    await svc.chain.setPosition(hiddenAuthor.wallet, m.id, 0, 3n)
    await svc.chain.setPosition(bannedAuthor.wallet, m.id, 1, 4n)
    const hidden = await writePost(svc, hiddenAuthor, 'event', m.id, 'hidden on v')
    await writePost(svc, bannedAuthor, 'event', m.id, 'by a wallet v bans')
    await writePost(svc, commenter, 'event', m.id, 'a comment v keeps')
    // V moderates through its own routes: a venue hide and a venue ban.
    const mod = (action: string, body: Record<string, unknown>) => call(svc, 'POST', `/v1/mod/${action}`, { token: v.owner.token, body: { venueId: v.venueId, ...body } })
    assert.equal((await mod('hide', { postId: hidden.id })).status, 200)
    assert.equal((await mod('ban', { wallet: bannedAuthor.wallet })).status, 200)

    const everyone = { posts: 3, takes: 2, bySide: { '0': 1, '1': 1 } }
    const onV = { posts: 1, takes: 0, bySide: {} }
    const counted = async (opts: { token?: string; key?: string } = {}) => {
      const r = await call(svc, 'GET', `/v1/social/take-counts?ids=${m.id}`, opts)
      assert.equal(r.status, 200, JSON.stringify(r.body))
      return r.body
    }
    const grouped = async (opts: { token?: string; key?: string } = {}) => {
      const r = await call(svc, 'GET', '/v1/markets/counts?by=category', opts)
      assert.equal(r.status, 200, JSON.stringify(r.body))
      return r.body
    }
    const signedOut = await counted()
    assert.deepEqual(signedOut.counts[m.id], everyone)
    // V's hide and ban are in force: V's overlay drops both posts (so the equalities below are not vacuous).
    assert.deepEqual((await call(svc, 'GET', `/v1/social/take-counts?ids=${m.id}&venue=${v.venueId}`)).body.counts[m.id], onV)
    const signedOutGroups = await grouped()
    assert.deepEqual(signedOutGroups.groups.find((g: { key: string }) => g.key === cat), { key: cat, posts: 3, takes: 2 })

    // Sessions that claim V: a plain reader, V's owner (its moderator), the author V hid and the author V banned.
    const readers = { reader: await signIn(svc, undefined, v.venueId), owner: v.owner, hiddenAuthor, bannedAuthor }
    for (const [who, u] of Object.entries(readers)) {
      assert.deepEqual(await counted({ token: u.token }), signedOut, `take counts, ${who} on a session claiming V`)
      assert.deepEqual(await grouped({ token: u.token }), signedOutGroups, `counts by category, ${who} on a session claiming V`)
    }

    // With V's key: V's overlay for every reader alike, signed out or on any of those sessions.
    const keyed = await counted({ key: v.key })
    assert.deepEqual(keyed.counts[m.id], onV)
    assert.deepEqual(await grouped({ key: v.key }), signedOutGroups, 'counts by category with the key')
    for (const [who, u] of Object.entries({ ...readers, commenter })) {
      assert.deepEqual(await counted({ key: v.key, token: u.token }), keyed, `take counts, ${who} with V's key`)
      assert.deepEqual(await grouped({ key: v.key, token: u.token }), signedOutGroups, `counts by category, ${who} with V's key`)
    }
  })

  it('§4.2 takeCounts(marketIds, { venue }): venue applies that venue\'s hides and bans to the counts, for every reader alike', async () => {
    const m = await addMarket(svc)
    const v = await makeVenue(svc)
    const a = await signIn(svc)
    const banned = await signIn(svc)
    await svc.chain.setPosition(a.wallet, m.id, 0, 1n)
    await svc.chain.setPosition(banned.wallet, m.id, 1, 1n)
    const hidden = await writePost(svc, a, 'event', m.id, 'hidden on v')
    await writePost(svc, a, 'event', m.id, 'fine')
    await writePost(svc, banned, 'event', m.id, 'banned on v')
    await venueHide(svc, v, hidden.id)
    await ban(svc, v, banned)
    assert.deepEqual((await takeCounts([m.id])).body.counts[m.id], { posts: 3, takes: 3, bySide: { '0': 2, '1': 1 } })
    assert.deepEqual((await takeCounts([m.id], `&venue=${v}`)).body.counts[m.id], { posts: 1, takes: 1, bySide: { '0': 1 } })
    assert.deepEqual((await takeCounts([m.id], `&venue=${v}`, a.token)).body.counts[m.id], { posts: 1, takes: 1, bySide: { '0': 1 } })
  })

  it('§4.1 "one request covers up to 100 market ids": 100 answer, 101 are 400 too-many-ids', async () => {
    const hundred = Array.from({ length: 100 }, () => newMarketId())
    const ok = await takeCounts(hundred)
    assert.equal(ok.status, 200)
    assert.equal(Object.keys(ok.body.counts).length, 100)
    expectError(await takeCounts([...hundred, newMarketId()]), 400, 'too-many-ids', "'ids' names more than 100 market ids; split the request")
  })

  it('bad input: missing, empty or malformed ids, unknown params and a bad venue are 400 naming the problem', async () => {
    const good = newMarketId()
    expectError(await call(svc, 'GET', '/v1/social/take-counts'), 400, 'validation-failed', "'ids' is required: a comma-separated list of market ids")
    expectError(await call(svc, 'GET', '/v1/social/take-counts?ids='), 400, 'validation-failed', /'ids' has an empty entry/)
    expectError(await call(svc, 'GET', `/v1/social/take-counts?ids=${good},,${good}`), 400, 'validation-failed', /'ids' has an empty entry/)
    expectError(await takeCounts([good, '0x1234']), 400, 'validation-failed', "'ids' entry '0x1234' is not a market id (0x and 64 hex characters)")
    expectError(await takeCounts([good], '&subjectType=event'), 400, 'unsupported-param', /unsupported query parameter 'subjectType'/)
    expectError(await takeCounts([good], '&venue=NOPE'), 400, 'validation-failed', /'venue'/)
  })
})

describe('counts by axis', () => {
  it('§4.1 counts "grouped by the axis": market posts under their markets\' nodes of that axis, node posts under their subject', async () => {
    const cat = `sport-${Date.now()}`
    const cat2 = `${cat}-b`
    const m1 = await addMarket(svc, { nodes: [{ type: 'category', ref: cat }, { type: 'topic', ref: 'football' }] })
    const m2 = await addMarket(svc, { nodes: [{ type: 'category', ref: cat }, { type: 'category', ref: cat2 }] })
    const u = await signIn(svc)
    await svc.chain.setPosition(u.wallet, m1.id, 0, 1n)
    await writePost(svc, u, 'event', m1.id, 'take on m1')
    await writePost(svc, u, 'event', m2.id, 'comment on m2')
    await writePost(svc, u, 'category', cat2, 'on the node itself')
    const r = await call(svc, 'GET', '/v1/markets/counts?by=category')
    assert.equal(r.status, 200)
    assert.equal(r.body.by, 'category')
    const g = Object.fromEntries(r.body.groups.map((x: any) => [x.key, x]))
    assert.deepEqual(g[cat], { key: cat, posts: 2, takes: 1 })
    assert.deepEqual(g[cat2], { key: cat2, posts: 2, takes: 0 })
    const topics = await call(svc, 'GET', '/v1/markets/counts?by=topic')
    assert.deepEqual(topics.body.groups.find((x: any) => x.key === 'football'), { key: 'football', posts: 1, takes: 1 })
    // Groups are ordered by posts, most first.
    const posts = r.body.groups.map((x: any) => x.posts)
    assert.deepEqual(posts, [...posts].sort((a: number, b: number) => b - a))
  })

  it('§4.1 counts use the public rule: private-room and hidden posts do not count', async () => {
    const cat = `private-${Date.now()}`
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: cat }] })
    const v = await makeVenue(svc)
    const priv = await makeRoom(svc, { venueId: v, visibility: 'private' })
    const u = await signIn(svc)
    await addMember(svc, priv, u)
    await writePost(svc, u, 'event', m.id, 'private', { room: priv })
    const h = await writePost(svc, u, 'event', m.id, 'hidden')
    await setState(svc, h.id, 'hidden')
    await writePost(svc, u, 'event', m.id, 'public')
    const r = await call(svc, 'GET', '/v1/markets/counts?by=category', { token: u.token })
    assert.deepEqual(r.body.groups.find((x: any) => x.key === cat), { key: cat, posts: 1, takes: 0 })
  })

  it('§4.1 "an axis it cannot group on gives status 400 naming the existing axes (country and series are refused)"', async () => {
    for (const axis of ['country', 'series', 'planet']) {
      const r = await call(svc, 'GET', `/v1/markets/counts?by=${axis}`)
      expectError(r, 400, 'unsupported-axis', `counts cannot be grouped by '${axis}'; the axes that exist are category, topic, org, brand`)
      assert.deepEqual(r.body.error.axes, ['category', 'topic', 'org', 'brand'])
    }
  })

  it('bad input: a missing by and unknown params are 400 with a code and a sentence', async () => {
    const r = await call(svc, 'GET', '/v1/markets/counts')
    expectError(r, 400, 'validation-failed', "'by' is required: one of category, topic, org, brand")
    expectError(await call(svc, 'GET', '/v1/markets/counts?by='), 400, 'unsupported-axis')
    expectError(await call(svc, 'GET', '/v1/markets/counts?by=category&venue=abcdef'), 400, 'unsupported-param', /'venue'/)
    expectError(await call(svc, 'GET', '/v1/markets/counts?by=category&by=topic'), 400, 'validation-failed', /more than once/)
  })
})
