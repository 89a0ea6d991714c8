/** `vk.feed`, `vk.forYou`, `vk.roomFeed` against the reference service. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { freshRef } from '../sdk/harness.ts'
import { expectPagedFailures, mount, page, signInOn, spyFetch, startEnv, tick, until, type Env } from './helpers.ts'

let env: Env
before(async () => {
  env = await startEnv()
})
after(() => env.svc.close())

const ids = (ps: { id: string }[]) => ps.map((p) => p.id)

/** A market with `n` comments (no takes), oldest first. */
async function commented(n: number) {
  const m = await env.h.addMarket()
  const w = await env.h.signedIn()
  for (let i = 0; i < n; i++) await w.createPost('event', m.id, `comment ${i + 1}`)
  return m
}

/** A market with an older take (ranked first by `live`: takes are boosted) and a newer comment. */
async function takeThenComment(node = { type: 'category' as const, ref: freshRef('feed') }) {
  const m = await env.h.addMarket({ nodes: [node], facet: node })
  const taker = await env.h.signedIn()
  await env.h.setPosition(taker.w.wallet, m.id, 1, '2000000')
  const take = await taker.createPost('event', m.id, 'a take')
  const commenter = await env.h.signedIn()
  const comment = await commenter.createPost('event', m.id, 'a comment')
  return { m, node, take, comment }
}

describe('feed (§2.2, §4.1)', () => {
  it('§4.5.1 "Do not re-sort a ranked feed": posts stay in the order the service ranked them, across pages', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const { m, take, comment } = await takeThenComment()
    assert.ok(comment.id > take.id, 'the comment is newer: a re-sort by time would put it first')
    const raw = await env.h.client().postFeed({ scope: 'subject', subjectType: 'event', subjectRef: m.id })
    assert.deepEqual(ids(raw.posts), [take.id, comment.id], 'the service ranks the older take first')
    const s = vk.feed('subject', { subjectType: 'event', subjectRef: m.id, limit: 1 })
    const off = mount(s)
    let v = await until(s, (v) => v.posts.length === 1)
    assert.equal(v.hasMore, true)
    await v.loadMore()
    v = await until(s, (v) => v.posts.length === 2)
    assert.deepEqual(ids(v.posts), [take.id, comment.id])
    assert.equal(v.posts[0].stance!.side, 1, '§4.5.2 the stance is the one the service proved (post.stance)')
    assert.equal(v.sort, 'live')
    assert.equal(v.hasMore, false)
    off()
  })

  it('§4.1 rule 3 "A subject given with scope global or following is ignored by the server": the store warns once and never sends it', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const warned: string[] = []
    const orig = console.warn
    console.warn = (...a: unknown[]) => void warned.push(a.join(' '))
    t.after(() => (console.warn = orig))
    const ref = freshRef('warn')
    const s = vk.feed('global', { subjectType: 'category', subjectRef: ref })
    vk.feed('global', { subjectType: 'category', subjectRef: ref })
    assert.equal(warned.filter((w) => w.includes(ref) && w.includes("scope 'global'")).length, 1, 'warned once')
    const off = mount(s)
    await until(s, (v) => !v.loading)
    const q = spy.to('/v1/social/posts/feed')[0].url.searchParams
    assert.equal(q.get('scope'), 'global')
    assert.equal(q.get('subjectType'), null)
    vk.feed('following', { subjectType: 'topic', subjectRef: ref })
    assert.equal(warned.filter((w) => w.includes(ref) && w.includes("scope 'following'")).length, 1, 'following warns too')
    off()
  })

  it('sort record is labelled by the value (sort: record) and fills post.record', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const { m } = await takeThenComment()
    const s = vk.feed('subject', { subjectType: 'event', subjectRef: m.id, sort: 'record' })
    const v = await until(s, (v) => v.posts.length === 2)
    assert.equal(v.sort, 'record')
    assert.ok(v.posts.every((p) => 'record' in p))
  })

  it('§4.1 rule 4 "Scope following needs a session": signed out the store sends nothing and says needsSession (no 401 error); signing in reads it', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const { node, take, comment } = await takeThenComment()
    const s = vk.feed('following')
    const off = mount(s)
    await tick(100)
    let v = s.get()
    assert.equal(v.needsSession, true)
    assert.equal(v.error, null, 'not an error: nothing was asked')
    assert.equal(v.loading, false)
    assert.deepEqual(v.posts, [])
    assert.equal(spy.to('/v1/social/posts/feed').length, 0, 'no read signed out')
    // The reader follows the node elsewhere, then signs in here: the following feed is read at once.
    const w = env.h.wallet()
    await (await env.h.signedIn({}, w)).follow(node.type, node.ref)
    await signInOn(vk, env, w)
    v = await until(s, (v) => v.posts.length === 2, 5000, 'the following feed after sign-in')
    assert.equal(v.needsSession, false)
    assert.deepEqual(new Set(ids(v.posts)), new Set([take.id, comment.id]))
    assert.equal(spy.to('/v1/social/posts/feed')[0].url.searchParams.get('scope'), 'following')
    // Other scopes never need a session.
    assert.equal(vk.feed('global').get().needsSession, false)
    off()
  })

  it('a failed re-read of the first page is `error` without `loadMoreError` (Retry = refresh(), which reads page 1 again); a failed loadMore sets both', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const { m, take } = await takeThenComment()
    const s = vk.feed('subject', { subjectType: 'event', subjectRef: m.id, limit: 1 })
    const off = mount(s)
    let v = await until(s, (v) => v.posts.length === 1 && v.hasMore)
    // A failed next page: retried with loadMore().
    spy.fail((u) => u.pathname === '/v1/social/posts/feed')
    await v.loadMore()
    v = s.get()
    assert.ok(v.error, 'the next page failed')
    assert.equal(v.loadMoreError, v.error)
    spy.fail(null)
    await v.loadMore()
    v = await until(s, (v) => v.posts.length === 2 && !v.error)
    assert.equal(v.loadMoreError, null)
    // A failed re-read of page 1: the stale page stays shown, with more to load, and the failure is page 1's.
    spy.fail((u) => u.pathname === '/v1/social/posts/feed')
    v.refresh()
    v = await until(s, (v) => !!v.error && !v.loading && !v.refreshing, 5000, 'the failed re-read')
    assert.equal(v.loadMoreError, null, 'not a later page: loadMore() would not cure it')
    spy.fail(null)
    spy.reset()
    v.refresh()
    v = await until(s, (v) => !v.error && v.posts.length === 1 && !v.loading, 5000, 'page 1 read again')
    assert.deepEqual(ids(v.posts), [take.id])
    assert.equal(v.hasMore, true)
    assert.ok(spy.to('/v1/social/posts/feed').every((c) => !c.url.searchParams.has('cursor')), 'page 1, not the next one')
    off()
  })

  it('"refresh() drops the later pages": a loadMore that answers after refresh() is not appended (a deleted post of the old page 2 never comes back under the fresh page 1)', async (t) => {
    // Later pages are read at once but answered only when released: a slow page 2.
    let release = () => {}
    const held = new Promise<void>((r) => (release = r))
    let served = () => {}
    const read = new Promise<void>((r) => (served = r))
    const f = (async (input: string | URL | Request, init?: RequestInit) => {
      const res = await fetch(input, init)
      if (new URL(String(input)).searchParams.has('cursor')) {
        served()
        await held
      }
      return res
    }) as typeof fetch
    const vk = page(env, { fetch: f })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const taker = await env.h.signedIn()
    await env.h.setPosition(taker.w.wallet, m.id, 1, '2000000')
    const take = await taker.createPost('event', m.id, 'a take')
    const commenter = await env.h.signedIn()
    const comment = await commenter.createPost('event', m.id, 'a comment')
    const s = vk.feed('subject', { subjectType: 'event', subjectRef: m.id, limit: 1 })
    const off = mount(s)
    let v = await until(s, (v) => v.posts.length === 1 && v.hasMore)
    assert.deepEqual(ids(v.posts), [take.id], 'page 1: the take (ranked first)')
    // Page 2 (the comment) is read and on its way; meanwhile its author deletes it and the reader refreshes.
    const more = v.loadMore()
    await until(s, (v) => v.loadingMore)
    await read
    await commenter.deletePost(comment.id)
    s.get().refresh()
    v = await until(s, (v) => !v.loading && !v.refreshing && !v.loadingMore, 5000, 'page 1 read again')
    assert.deepEqual(ids(v.posts), [take.id])
    release()
    await more
    await tick(20)
    v = s.get()
    assert.deepEqual(ids(v.posts), [take.id], 'the page asked for before refresh() is not appended')
    assert.equal(v.loadingMore, false)
    assert.equal(v.error, null)
    // Load more after the refresh reads on from the fresh page 1: the deleted comment is gone.
    await v.loadMore()
    v = await until(s, (v) => !v.loadingMore)
    assert.deepEqual(ids(v.posts), [take.id])
    off()
  })

  it('§4.2 "cursor-paged": the third page is read from the cursor of the second (the last page loaded), not the first; every post once, in the service\'s order', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await commented(5)
    const raw = env.h.client()
    const whole = await raw.postFeed({ scope: 'subject', subjectType: 'event', subjectRef: m.id, limit: 10 })
    const p1 = await raw.postFeed({ scope: 'subject', subjectType: 'event', subjectRef: m.id, limit: 2 })
    const p2 = await raw.postFeed({ scope: 'subject', subjectType: 'event', subjectRef: m.id, limit: 2, cursor: p1.nextCursor! })
    assert.ok(p1.nextCursor && p2.nextCursor && p1.nextCursor !== p2.nextCursor)
    const s = vk.feed('subject', { subjectType: 'event', subjectRef: m.id, limit: 2 })
    const off = mount(s)
    await until(s, (v) => v.posts.length === 2)
    await s.get().loadMore()
    assert.equal(s.get().posts.length, 4)
    await s.get().loadMore()
    const v = s.get()
    assert.deepEqual(ids(v.posts), ids(whole.posts), 'pages 1, 2 and 3, each post once, in order')
    assert.equal(v.hasMore, false)
    const cursors = spy.to('/v1/social/posts/feed').map((c) => c.url.searchParams.get('cursor'))
    assert.deepEqual(cursors, [null, p1.nextCursor, p2.nextCursor])
    off()
  })

  it('§4.2 "cursor-paged": two loadMore() calls at once read the next page once (one request, no row twice)', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await commented(3)
    const s = vk.feed('subject', { subjectType: 'event', subjectRef: m.id, limit: 1 })
    const off = mount(s)
    const v = await until(s, (v) => v.posts.length === 1 && v.hasMore)
    await Promise.all([v.loadMore(), v.loadMore()])
    assert.equal(spy.to('/v1/social/posts/feed').filter((c) => c.url.searchParams.has('cursor')).length, 1, 'the next page was asked for once')
    const got = s.get()
    assert.equal(got.posts.length, 2)
    assert.equal(new Set(ids(got.posts)).size, 2)
    assert.equal(got.signals.length + got.settlements.length, 0)
    off()
  })

  it('§2.2 "render in the order given": a post whose rank fell below the cursor after its page was read (an agree taken back) is not drawn again from a later page; each post once, where it was first read', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const a = await (await env.h.signedIn()).createPost('event', m.id, 'older, agreed with')
    const b = await (await env.h.signedIn()).createPost('event', m.id, 'newer')
    const fan = await env.h.signedIn()
    await fan.reactPost(a.id, true)
    const s = vk.feed('subject', { subjectType: 'event', subjectRef: m.id, limit: 1 })
    const off = mount(s)
    await until(s, (v) => v.posts.length === 1)
    assert.deepEqual(ids(s.get().posts), [a.id], 'the agreed post ranks first')
    // Its score falls below the newer post's, and below the cursor page 1 ended at: the service lists it again.
    await fan.reactPost(a.id, false)
    while (s.get().hasMore) await s.get().loadMore()
    assert.deepEqual(ids(s.get().posts), [a.id, b.id], 'each post once, in the order first read')
    off()
  })

  it('"a store never shows the previous reader\'s answer": a loadMore answered after another reader signed in is discarded, and leaves the new reader\'s pages alone', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await commented(3)
    const whole = await env.h.client().postFeed({ scope: 'subject', subjectType: 'event', subjectRef: m.id })
    await signInOn(vk, env)
    const s = vk.feed('subject', { subjectType: 'event', subjectRef: m.id, limit: 1 })
    const off = mount(s)
    let v = await until(s, (v) => v.posts.length === 1 && v.hasMore)
    // Reader A's next page is answered only when released (that one request).
    let first = true
    spy.hold((u) => u.searchParams.has('cursor') && first && !(first = false))
    const late = v.loadMore()
    assert.equal(s.get().loadingMore, true)
    // Reader B signs in: page 1 is read for B, who loads page 2 too.
    await signInOn(vk, env)
    v = await until(s, (v) => !v.loading && !v.loadingMore && v.posts.length === 1, 5000, "B's first page")
    assert.equal(v.hasMore, true)
    await v.loadMore()
    assert.deepEqual(ids(s.get().posts), ids(whole.posts).slice(0, 2), "B's pages 1 and 2")
    spy.release()
    await late
    v = s.get()
    assert.deepEqual(ids(v.posts), ids(whole.posts).slice(0, 2), "A's page is not appended, and B's page 2 stays")
    assert.equal(v.loadingMore, false)
    assert.equal(v.hasMore, true)
    await v.loadMore()
    assert.deepEqual(ids(s.get().posts), ids(whole.posts), "B reads on from B's page 2")
    off()
  })

  it('a failed first page is `error`, never `loadMoreError` (Retry = refresh()): on the first read, and on a re-read while a later page\'s failure stands', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await commented(3)
    await signInOn(vk, env)
    const feedReads = (u: URL) => u.pathname === '/v1/social/posts/feed'
    // The first read fails.
    spy.fail(feedReads)
    const s = vk.feed('subject', { subjectType: 'event', subjectRef: m.id, limit: 1 })
    const off = mount(s)
    // Page 1 is read again after this reader's post.
    await expectPagedFailures(spy, s, feedReads, 1, () => vk.postActions().get().create('event', m.id, 'a re-read of the feed follows'))
    off()
  })

  it('forYou: items with their reason and markets; personalized only when signed in', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const node = { type: 'topic' as const, ref: freshRef('fy') }
    const m = await env.h.addMarket({ nodes: [node], closesAt: new Date(Date.now() + 3600_000).toISOString() })
    const s = vk.forYou({ subjectType: 'topic', subjectRef: node.ref })
    const off = mount(s)
    const v = await until(s, (v) => v.items.length > 0)
    assert.equal(v.items[0].marketId, m.id)
    assert.equal(v.items[0].reason, 'closing-soon')
    assert.equal(v.markets[m.id].title, m.title)
    assert.equal(v.personalized, false)
    await signInOn(vk, env)
    await until(s, (v) => v.personalized === true, 5000, 'the rail re-read for the signed-in reader')
    off()
  })
})

describe('roomFeed (§4.4.5)', () => {
  it('a room: its discussion ranked by record by default, its closing-soon markets, the For-you rail and the room', async (t) => {
    const spy = spyFetch()
    const venue = await env.h.venue()
    const node = { type: 'category' as const, ref: freshRef('room') }
    const roomId = await env.h.room(venue, node)
    const m = await env.h.addMarket({ nodes: [node], closesAt: new Date(Date.now() + 3600_000).toISOString() })
    const w = await env.h.signedIn({ apiKey: venue.key })
    await w.rooms.join(roomId)
    await w.createPost('event', m.id, 'in the room', null, { room: roomId })
    const vk = page(env, { fetch: spy.fetch, config: { apiKey: venue.key } })
    t.after(() => vk.dispose())
    const s = vk.roomFeed(roomId)
    const off = mount(s)
    const v = await until(s, (v) => v.posts.length === 1 && !!v.room && v.markets.length === 1)
    assert.equal(v.sort, 'record')
    assert.equal(spy.to('/v1/social/posts/feed')[0].url.searchParams.get('sort'), 'record', 'sort defaults to record')
    assert.equal(v.room!.id, roomId)
    assert.equal(v.markets[0].id, m.id)
    assert.ok(v.forYou && v.forYou.items.length >= 1)
    assert.equal(v.notFound, false)
    off()
  })

  it('§4.4 rule 5 "a closing-soon rail of the room\'s markets": every room market on the rail that closes soon, soonest first, also one the reader holds (which the For-you rail lists as held), and none that closes later', async (t) => {
    const venue = await env.h.venue()
    const node = { type: 'category' as const, ref: freshRef('soon') }
    const roomId = await env.h.room(venue, node)
    const at = (h: number) => new Date(Date.now() + h * 3600_000).toISOString()
    const held = await env.h.addMarket({ nodes: [node], closesAt: at(2) })
    const other = await env.h.addMarket({ nodes: [node], closesAt: at(1) })
    const later = await env.h.addMarket({ nodes: [node], closesAt: at(24 * 30) })
    const vk = page(env, { config: { apiKey: venue.key } })
    t.after(() => vk.dispose())
    const w = await signInOn(vk, env)
    for (const m of [held, later]) await env.h.setPosition(w.wallet, m.id, 0, '100')
    const s = vk.roomFeed(roomId)
    t.after(mount(s))
    const v = await until(s, (v) => !!v.forYou?.personalized && !v.marketsLoading)
    assert.equal(v.forYou!.items.find((i) => i.marketId === held.id)?.reason, 'held', 'the rail lists it as held')
    assert.deepEqual(v.markets.map((m) => m.id), [other.id, held.id])
  })

  it('§4.3 useRoomFeed { marketLimit }: the room\'s For-you rail holds at most that many markets (its read asks for that limit)', async (t) => {
    const spy = spyFetch()
    const venue = await env.h.venue()
    const node = { type: 'category' as const, ref: freshRef('limit') }
    const roomId = await env.h.room(venue, node)
    const at = (h: number) => new Date(Date.now() + h * 3600_000).toISOString()
    for (let h = 1; h <= 4; h++) await env.h.addMarket({ nodes: [node], closesAt: at(h) })
    const vk = page(env, { fetch: spy.fetch, config: { apiKey: venue.key } })
    t.after(() => vk.dispose())
    const s = vk.roomFeed(roomId, { marketLimit: 2 })
    t.after(mount(s))
    const v = await until(s, (v) => !!v.forYou && !v.loading)
    assert.equal(v.forYou!.items.length, 2)
    assert.equal(spy.to('/v1/social/for-you')[0].url.searchParams.get('limit'), '2')
  })

  it('§7 "Thread or board of a private room read by an outsider: 404": roomFeed gives notFound, not an error', async (t) => {
    const venue = await env.h.venue()
    const roomId = await env.h.room(venue, { type: 'category', ref: freshRef('priv') }, 'private')
    const vk = page(env)
    t.after(() => vk.dispose())
    const s = vk.roomFeed(roomId)
    const v = await until(s, (v) => v.notFound)
    assert.equal(v.error, null)
    assert.deepEqual(v.posts, [])
  })

  it('a taxonomy-node section: roomFeed({ subjectType, subjectRef }) reads the subject, with no room', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const { node, take } = await takeThenComment()
    const s = vk.roomFeed({ subjectType: node.type, subjectRef: node.ref }, { sort: 'live' })
    const v = await until(s, (v) => v.posts.length === 2)
    assert.equal(v.room, null)
    assert.equal(v.posts[0].id, take.id)
  })
})
