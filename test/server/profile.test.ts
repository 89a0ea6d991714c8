/** §2.4, §4.2 `postsByAuthor`, §3.1, §3.2: a person's posts with results; §1.7, §2.12 batched profiles. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { addMarket, call, expectError, newWallet, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'
import { expectDefaultAndMaxPage } from '../helpers/page-limits.ts'
import { addMember, ban, linkWallet, makeRoom, makeVenue, setState, venueHide, writePost } from '../helpers/read-fixtures.ts'
import { encodeCursor } from '../../src/server/http/cursor.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

const byAuthor = (wallet: string, qs = '', reader?: TestUser) => call(svc, 'GET', `/v1/social/profile/${wallet}/posts${qs ? `?${qs}` : ''}`, { token: reader?.token })
const ids = (posts: { id: string }[]) => posts.map((p) => p.id)

/** A user with one take (held side 0), one comment and one reply take on the same market. */
async function takerWithMix() {
  const m = await addMarket(svc)
  const u = await signIn(svc)
  const comment = await writePost(svc, u, 'event', m.id, 'a comment before buying')
  await svc.chain.setPosition(u.wallet, m.id, 0, 50n)
  const take = await writePost(svc, u, 'event', m.id, 'yes, I hold it')
  const other = await signIn(svc)
  const parent = await writePost(svc, other, 'event', m.id, 'someone else')
  const reply = await writePost(svc, u, 'event', m.id, 'a reply with a stance', { parentId: parent.id })
  return { m, u, comment, take, reply }
}

describe('author posts', () => {
  it('§2.4 "The person\'s posts. Default: takes only, no replies"', async () => {
    const { u, take } = await takerWithMix()
    const r = await byAuthor(u.wallet)
    assert.equal(r.status, 200)
    assert.deepEqual(ids(r.body.posts), [take.id])
    assert.equal(r.body.posts[0].stance.side, 0)
  })

  it('§4.5 trap 6 "fall back to Discussion (takes: false)": takes=false gives every post; includeReplies=true adds replies', async () => {
    const { u, comment, take, reply } = await takerWithMix()
    assert.deepEqual(ids((await byAuthor(u.wallet, 'takes=false')).body.posts), [take.id, comment.id])
    assert.deepEqual(ids((await byAuthor(u.wallet, 'takes=false&includeReplies=true')).body.posts), [reply.id, take.id, comment.id])
    assert.deepEqual(ids((await byAuthor(u.wallet, 'includeReplies=true')).body.posts), [reply.id, take.id])
  })

  it('§2.1 "Any wallet owned by one person yields the same posts": every linked wallet reads the account\'s posts', async () => {
    const { u, take } = await takerWithMix()
    const second = await linkWallet(svc, u, newWallet())
    const a = await byAuthor(u.wallet, 'takes=false')
    const b = await byAuthor(second, 'takes=false')
    assert.deepEqual(ids(b.body.posts), ids(a.body.posts))
    assert.ok(ids(b.body.posts).includes(take.id))
    // Mixed-case address reads the same.
    assert.deepEqual(ids((await byAuthor(second.replace('0x', '0X').toUpperCase().replace('0X', '0x'), 'takes=false')).body.posts), ids(a.body.posts))
  })

  it('§5.1 "Reads need no credential and work signed out": a session token that ended (signed out) or is mangled reads a profile as signed out — never 401; the author\'s hidden post is not shown to it', async () => {
    const u = await signIn(svc)
    const m = await addMarket(svc)
    await svc.chain.setPosition(u.wallet, m.id, 0, 5n)
    const shown = await writePost(svc, u, 'event', m.id, 'shown')
    const hidden = await writePost(svc, u, 'event', m.id, 'hidden')
    await setState(svc, hidden.id, 'hidden')
    assert.deepEqual(ids((await byAuthor(u.wallet, '', u)).body.posts), [hidden.id, shown.id], 'the author sees it while signed in')
    assert.equal((await call(svc, 'POST', '/v1/auth/signout', { token: u.token })).status, 200)
    for (const auth of [{ token: u.token }, { headers: { authorization: 'Bearer vks_mangled' } }]) {
      const r = await call(svc, 'GET', `/v1/social/profile/${u.wallet}/posts`, auth)
      assert.equal(r.status, 200, JSON.stringify(r.body))
      assert.deepEqual(ids(r.body.posts), [shown.id], 'read as signed out')
    }
  })

  it('an unknown wallet gives empty posts, not 404', async () => {
    const r = await byAuthor('0x' + 'ab'.repeat(20))
    assert.equal(r.status, 200)
    assert.deepEqual(r.body, { posts: [], results: {}, labels: {}, titles: {}, hasMore: false, nextCursor: null })
  })

  it('§3.1 "Rules while hidden: the post remains visible to its author ... on their profile"; no one else sees it', async () => {
    const { u, take } = await takerWithMix()
    const other = await signIn(svc)
    await setState(svc, take.id, 'hidden')
    assert.deepEqual((await byAuthor(u.wallet)).body.posts, [])
    assert.deepEqual((await byAuthor(u.wallet, '', other)).body.posts, [])
    const own = await byAuthor(u.wallet, '', u)
    assert.deepEqual(ids(own.body.posts), [take.id])
    assert.equal(own.body.posts[0].hidden, true)
  })

  it('§4.1 rule 5 venue overlay on a profile: that venue\'s hides and bans apply, except to the author reading their own profile', async () => {
    const { u, take } = await takerWithMix()
    const v = await makeVenue(svc)
    await venueHide(svc, v, take.id)
    assert.deepEqual((await byAuthor(u.wallet, `venue=${v}`)).body.posts, [])
    assert.deepEqual(ids((await byAuthor(u.wallet)).body.posts), [take.id])
    const own = await byAuthor(u.wallet, `venue=${v}`, u)
    assert.equal(own.body.posts[0].hidden, true)
    const v2 = await makeVenue(svc)
    await ban(svc, v2, u)
    assert.deepEqual((await byAuthor(u.wallet, `venue=${v2}`)).body.posts, [])
  })

  it('§2.4 results: "How each resolved market on the page ended, keyed by market id, as the chain recorded it. An unresolved market is absent."', async () => {
    const u = await signIn(svc)
    const won = await addMarket(svc)
    const voided = await addMarket(svc)
    const open = await addMarket(svc)
    for (const m of [won, voided, open]) {
      await svc.chain.setPosition(u.wallet, m.id, 1, 7n)
      await writePost(svc, u, 'event', m.id, `take on ${m.id}`)
    }
    await svc.chain.resolve(won.id, 1)
    await svc.chain.resolve(voided.id, 'void')
    const r = await byAuthor(u.wallet)
    assert.equal(r.body.posts.length, 3)
    assert.deepEqual(r.body.results, { [won.id]: { winner: 1 }, [voided.id]: { void: true } })
    assert.equal(r.body.titles[open.id], 'Will it rain tomorrow?')
    assert.deepEqual(r.body.labels[won.id], [{ label: 'Yes' }, { label: 'No' }])
  })

  it('§3.2 "A CLOB market has no results yet, so a CLOB take stays open even after its market resolves": CLOB markets are absent from results', async () => {
    const u = await signIn(svc)
    const clob = await addMarket(svc, { clob: true })
    await svc.chain.setPosition(u.wallet, clob.id, 0, 3n)
    await writePost(svc, u, 'event', clob.id, 'clob take')
    await svc.chain.resolve(clob.id, 0)
    const r = await byAuthor(u.wallet)
    assert.equal(r.body.posts.length, 1)
    assert.deepEqual(r.body.results, {})
  })

  it('§2.4 "hasMore: more pages exist": keyset paging with an opaque cursor, newest first', async () => {
    const u = await signIn(svc)
    const m = await addMarket(svc)
    const written: string[] = []
    for (let i = 0; i < 5; i++) written.push((await writePost(svc, u, 'event', m.id, `c${i}`)).id)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const r = await byAuthor(u.wallet, `takes=false&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...ids(r.body.posts))
      assert.equal(r.body.hasMore, r.body.nextCursor !== null)
      cursor = r.body.nextCursor
      // A cursor that moves nothing on would loop forever: 5 posts in pages of 2 end within 3 pages.
      assert.ok(seen.length <= written.length, `paged past the ${written.length} posts: ${seen.join(', ')}`)
    } while (cursor)
    assert.deepEqual(seen, written.reverse())
  })

  it('§4.1 profile `limit`: defaults to the page default (20, as on the ranked feed) and takes up to 100 (LIMITS.pageMax)', async () => {
    const u = await signIn(svc)
    const m = await addMarket(svc)
    for (let i = 0; i < 21; i++) await writePost(svc, u, 'event', m.id, `c${i}`)
    await expectDefaultAndMaxPage(svc, `/v1/social/profile/${u.wallet}/posts?takes=false`, 'posts', { withHasMore: true })
  })

  it('§2.4 "hasMore: boolean; more pages exist": a page that ends exactly at the last post says no more (false, no cursor)', async () => {
    const u = await signIn(svc)
    const m = await addMarket(svc)
    const written: string[] = []
    for (let i = 0; i < 4; i++) written.push((await writePost(svc, u, 'event', m.id, `e${i}`)).id)
    // Exactly `limit` posts: one page, and nothing after it.
    const all = await byAuthor(u.wallet, 'takes=false&limit=4')
    assert.deepEqual(ids(all.body.posts), [...written].reverse())
    assert.equal(all.body.hasMore, false)
    assert.equal(all.body.nextCursor, null)
    // Two full pages: the first says more, the second (holding the last post) says none.
    const p1 = await byAuthor(u.wallet, 'takes=false&limit=2')
    assert.equal(p1.body.hasMore, true)
    const p2 = await byAuthor(u.wallet, `takes=false&limit=2&cursor=${p1.body.nextCursor}`)
    assert.deepEqual(ids(p2.body.posts), [written[1], written[0]])
    assert.equal(p2.body.hasMore, false)
    assert.equal(p2.body.nextCursor, null)
  })

  it('private-room posts appear on a profile only for members of that room', async () => {
    const m = await addMarket(svc)
    const v = await makeVenue(svc)
    const priv = await makeRoom(svc, { venueId: v, visibility: 'private' })
    const u = await signIn(svc)
    const member = await signIn(svc)
    await addMember(svc, priv, u)
    await addMember(svc, priv, member)
    const p = await writePost(svc, u, 'event', m.id, 'in private', { room: priv })
    assert.deepEqual((await byAuthor(u.wallet, 'takes=false')).body.posts, [])
    assert.deepEqual(ids((await byAuthor(u.wallet, 'takes=false', member)).body.posts), [p.id])
  })

  it('bad input: bad wallet, unknown params, wrong types and bad cursors are 400 with a code and a sentence', async () => {
    const w = '0x' + '12'.repeat(20)
    expectError(await call(svc, 'GET', '/v1/social/profile/0x12/posts'), 400, 'validation-failed', "'wallet' must be a wallet address (0x and 40 hex characters)")
    expectError(await call(svc, 'GET', '/v1/social/profile/alice/posts'), 400, 'validation-failed', /'wallet'/)
    expectError(await byAuthor(w, 'sort=record'), 400, 'unsupported-param', /unsupported query parameter 'sort'/)
    expectError(await byAuthor(w, 'takes=maybe'), 400, 'validation-failed', /'takes'.*'true' or 'false'/)
    expectError(await byAuthor(w, 'includeReplies=1'), 400, 'validation-failed', /'includeReplies'/)
    expectError(await byAuthor(w, 'limit=-1'), 400, 'validation-failed', /'limit'/)
    expectError(await byAuthor(w, 'limit=500'), 400, 'validation-failed', /'limit'.*1 to 100/)
    expectError(await byAuthor(w, 'cursor=zzz'), 400, 'validation-failed', "'cursor' is not a cursor this service issued")
    expectError(await byAuthor(w, `cursor=${encodeCursor(['x', 'y'])}`), 400, 'validation-failed', "'cursor' is not a cursor this service issued")
    expectError(await byAuthor(w, 'venue=a'), 400, 'validation-failed', /'venue'/)
  })
})

describe('profiles batch', () => {
  it('§2.12 "useProfiles is one batched request per page, deduplicated, lowercased": one read keyed by lowercased wallet', async () => {
    const a = await signIn(svc)
    const b = await signIn(svc)
    assert.equal((await call(svc, 'PUT', '/v1/me/profile', { token: a.token, body: { name: 'Alice', avatarUrl: 'https://example.com/a.png' } })).status, 200)
    const stranger = '0x' + 'ef'.repeat(20)
    const upper = a.wallet.toUpperCase().replace('0X', '0x')
    const r = await call(svc, 'GET', `/v1/social/profiles?wallets=${upper},${a.wallet},${b.wallet},${stranger}`)
    assert.equal(r.status, 200)
    assert.deepEqual(Object.keys(r.body.profiles).sort(), [a.wallet, b.wallet, stranger].sort())
    assert.deepEqual(r.body.profiles[a.wallet], { wallet: a.wallet, name: 'Alice', avatarUrl: 'https://example.com/a.png' })
    assert.deepEqual(r.body.profiles[stranger], { wallet: stranger, name: null, avatarUrl: null })
  })

  it('§1.7 "Identity is referenced, not embedded: a post carries only author (a wallet address)": no name, avatar or account id on a post as written, or as read on a thread, a feed or a profile', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    assert.equal((await call(svc, 'PUT', '/v1/me/profile', { token: u.token, body: { name: 'Hydrated Elsewhere', avatarUrl: 'https://example.com/me.png' } })).status, 200)
    await svc.chain.setPosition(u.wallet, m.id, 0, 5n)
    const top = await writePost(svc, u, 'event', m.id, 'a take')
    await writePost(svc, u, 'event', m.id, 'a reply', { parentId: top.id })
    const written = (await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'another' } })).body.post
    const thread = (await call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${m.id}`, { token: u.token })).body
    const feed = (await call(svc, 'GET', `/v1/social/posts/feed?subjectType=event&subjectRef=${m.id}`, { token: u.token })).body
    const profile = (await byAuthor(u.wallet, 'takes=false&includeReplies=true', u)).body
    const posts = [written, ...thread.posts, ...Object.values(thread.threads).flat(), ...feed.posts, ...Object.values(feed.threads).flat(), ...profile.posts] as Record<string, unknown>[]
    assert.ok(posts.length >= 8, `${posts.length} posts read`)
    // The contract's Post (src/contract/types.ts): author is the only field about who wrote it.
    const fields = new Set(['id', 'subjectType', 'subjectRef', 'author', 'body', 'parentId', 'roomId', 'createdAt', 'editedAt', 'agrees', 'replies', 'agreed', 'stance', 'hidden', 'pinned', 'record', 'fromSeries'])
    for (const p of posts) {
      assert.deepEqual(Object.keys(p).filter((k) => !fields.has(k)), [], `post ${p.id}`)
      assert.equal(p.author, u.wallet)
      assert.ok(!JSON.stringify(p).includes('Hydrated Elsewhere') && !JSON.stringify(p).includes('me.png'), `post ${p.id} embeds the profile`)
    }
  })

  it(`at most 200 wallets per batched profiles read: more is 400 too-many-ids`, async () => {
    const many = Array.from({ length: 201 }, (_, i) => '0x' + i.toString(16).padStart(40, '0'))
    expectError(await call(svc, 'GET', `/v1/social/profiles?wallets=${many.join(',')}`), 400, 'too-many-ids', "'wallets' names more than 200 wallets; split the request")
    const ok = await call(svc, 'GET', `/v1/social/profiles?wallets=${many.slice(0, 200).join(',')}`)
    assert.equal(ok.status, 200)
    assert.equal(Object.keys(ok.body.profiles).length, 200)
  })

  it('bad input: missing, empty or malformed wallets and unknown params are 400 naming the problem', async () => {
    expectError(await call(svc, 'GET', '/v1/social/profiles'), 400, 'validation-failed', "'wallets' is required: a comma-separated list of wallets")
    expectError(await call(svc, 'GET', '/v1/social/profiles?wallets='), 400, 'validation-failed', /'wallets' has an empty entry/)
    expectError(await call(svc, 'GET', `/v1/social/profiles?wallets=0x${'1'.repeat(40)},bob`), 400, 'validation-failed', "'wallets' entry 'bob' is not a wallet address (0x and 40 hex characters)")
    expectError(await call(svc, 'GET', `/v1/social/profiles?wallet=0x${'1'.repeat(40)}`), 400, 'unsupported-param')
  })
})
