/** `vk.comments` (useComments, §2.7, §6.1) against the reference service, live over its stream. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { REPLAY_MS } from '../../src/server/realtime/hub.ts'
import type { Venuekit } from '../../src/stores/index.ts'
import { LIMITS } from '../../src/contract/limits.ts'
import { HttpError } from '../../src/sdk/index.ts'
import { expectPagedFailures, mount, page, signInOn, spyFetch, startEnv, until, WS, type Env } from './helpers.ts'

let env: Env
before(async () => {
  env = await startEnv()
})
after(() => env.svc.close())

const ids = (ps: { id: string }[]) => ps.map((p) => p.id)

/** A market with a thread of `n` posts, oldest first. */
async function thread(n: number) {
  const m = await env.h.addMarket()
  const w = await env.h.signedIn()
  const made = []
  for (let i = 0; i < n; i++) made.push(await w.createPost('event', m.id, `post ${i + 1}`))
  return { m, made }
}

/** A market thread with one post ('already here'), its store mounted on `vk` and its first read in. */
async function mountedThread(vk: Venuekit, on: Env = env) {
  const m = await on.h.addMarket()
  const w = await on.h.signedIn()
  const first = await w.createPost('event', m.id, 'already here')
  const s = vk.comments('event', m.id)
  const off = mount(s)
  await until(s, (v) => v.posts.length === 1 && !v.loading, 5000, 'the first read')
  return { m, w, first, s, off }
}

describe('comments (§2.7)', () => {
  it('reads one thread newest first with replies folded under their parents, labels and titles', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket({ title: 'Thread market?' })
    const w = await env.h.signedIn()
    const p1 = await w.createPost('event', m.id, 'first')
    const p2 = await w.createPost('event', m.id, 'second')
    const r1 = await w.createPost('event', m.id, 'a reply', p1.id)
    const s = vk.comments('event', m.id.toUpperCase().replace('0X', '0x'))
    assert.equal(s, vk.comments('event', m.id), 'one store per thread, market id lowercased')
    const v = await until(s, (v) => v.posts.length === 2)
    assert.deepEqual(ids(v.posts), [p2.id, p1.id])
    assert.deepEqual(ids(v.threads[p1.id]), [r1.id])
    assert.equal(v.titles[m.id], 'Thread market?')
    assert.equal(v.labels[m.id].length, 2)
    assert.equal(v.loading, false)
  })

  it('loadMore appends the next page; hasMore turns false at the end', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const w = await env.h.signedIn()
    const made = []
    for (let i = 0; i < 5; i++) made.push(await w.createPost('event', m.id, `post ${i}`))
    const s = vk.comments('event', m.id, { limit: 2 })
    const off = mount(s)
    let v = await until(s, (v) => v.posts.length === 2)
    assert.equal(v.hasMore, true)
    await v.loadMore()
    await v.loadMore()
    v = await until(s, (v) => v.posts.length === 5)
    assert.deepEqual(ids(v.posts), ids(made).reverse())
    assert.equal(v.hasMore, false)
    off()
  })

  it('§6.1 "The callback carries no payload; the client must refetch": comments refetch on onComments; a post from elsewhere is held as newCount until showNew()', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const { m, w, first, s, off } = await mountedThread(vk)
    // Let the stream subscription settle before the change.
    await new Promise((r) => setTimeout(r, 300))
    const later = await w.createPost('event', m.id, 'arrived live')
    let v = await until(s, (v) => v.newCount === 1, 5000, 'newCount 1 after a live change')
    assert.deepEqual(ids(v.posts), [first.id], 'held back until shown')
    v.showNew()
    v = s.get()
    assert.deepEqual(ids(v.posts), [later.id, first.id])
    assert.equal(v.newCount, 0)
    // A deletion elsewhere also reaches the thread.
    await w.deletePost(first.id)
    v = await until(s, (v) => v.posts.length === 1, 5000, 'the deleted post gone')
    assert.deepEqual(ids(v.posts), [later.id])
    const ev = vk.events({ limit: 5 }).get()
    assert.ok(ev.events.length >= 2 && ev.events[0].subjectRef === m.id.toLowerCase(), 'thread changes are seen as events')
    off()
  })

  it('§2.7 and §6.1 a round read with includeSeries hears a post on another round of its series live (newCount 1, labelled fromSeries), and the service fires the series topic for it', async (t) => {
    // The thread's own topic is swapped for the series topic once the first page names it, on the same socket.
    let sockets = 0
    const Counted = class extends (WS as unknown as typeof import('ws').default) {
      constructor(url: string) {
        super(url)
        sockets++
      }
    }
    const vk = page(env, { config: { baseUrl: env.svc.url, apiKey: null, WebSocketImpl: Counted as unknown as typeof WS } })
    t.after(() => vk.dispose())
    const series = `store-series-${Date.now()}`
    const [x, y] = [await env.h.addMarket({ series }), await env.h.addMarket({ series })]
    const w = await env.h.signedIn()
    const mine = await w.createPost('event', y.id, 'on this round')
    const s = vk.comments('event', y.id, { includeSeries: true })
    const off = mount(s)
    await until(s, (v) => v.posts.length === 1 && v.series === series, 5000, 'the round, its series named')
    // Let the subscription to the series topic be made (it is known from the first page).
    await new Promise((r) => setTimeout(r, 300))
    const other = await w.createPost('event', x.id, 'on another round')
    const v = await until(s, (v) => v.newCount === 1, 5000, 'newCount 1 from the other round')
    v.showNew()
    assert.deepEqual(ids(s.get().posts), [other.id, mine.id])
    assert.equal(s.get().posts[0].fromSeries, true)
    assert.equal(sockets, 1, 'one socket: the swap subscribes the series topic before it leaves the thread\'s own')
    off()
  })

  it('§6.1 a post written after the thread was read but before its live subscription was made (the socket still opening) still reaches the thread: newCount 1', async (t) => {
    // The socket opens only when the test says: the first read is answered, a post is written, and only then
    // does the subscription reach the service, which tells it of the change it missed (hub.ts REPLAY_MS).
    let release!: () => void
    const opening = new Promise<void>((r) => (release = r))
    class HeldSocket {
      onopen: ((e: unknown) => unknown) | null = null
      onmessage: ((e: { data: unknown }) => unknown) | null = null
      onclose: ((e: unknown) => unknown) | null = null
      onerror: ((e: unknown) => unknown) | null = null
      private ws: InstanceType<typeof WS> | null = null
      private closed = false
      constructor(url: string) {
        void opening.then(() => {
          if (this.closed) return
          const w = (this.ws = new WS(url))
          w.onopen = (e) => this.onopen?.(e)
          w.onmessage = (e) => this.onmessage?.(e)
          w.onclose = (e) => this.onclose?.(e)
          w.onerror = (e) => this.onerror?.(e)
        })
      }
      get readyState() {
        return this.ws?.readyState ?? 0
      }
      send(data: string) {
        this.ws?.send(data)
      }
      close(code?: number) {
        this.closed = true
        this.ws?.close(code)
      }
    }
    // A service with the replay on (the shared fixture has it off: sdk-fixture.ts).
    const replaying = await startEnv({ streamReplayMs: REPLAY_MS })
    const vk = page(replaying, { config: { baseUrl: replaying.svc.url, apiKey: null, WebSocketImpl: HeldSocket } })
    t.after(async () => {
      vk.dispose()
      await replaying.svc.close()
    })
    const { m, w, first, s, off } = await mountedThread(vk, replaying)
    const missed = await w.createPost('event', m.id, 'written while the socket was opening')
    release()
    const v = await until(s, (v) => v.newCount === 1, 5000, 'newCount 1: the change made before the subscription')
    v.showNew()
    assert.deepEqual(ids(s.get().posts), [missed.id, first.id])
    off()
  })

  /**
   * A member of a private room reads a market's thread (in the room, or the plain one, which shows members the
   * room's posts); the room's owner posts in the room, and the thread hears it live.
   */
  async function memberHearsRoomPost(t: { after(fn: () => void): void }, inRoom: boolean) {
    const vk = page(env)
    t.after(() => vk.dispose())
    const v = await env.h.venue()
    const room = await env.h.room(v, { type: 'topic', ref: `inner-${v.venueId}` }, 'private')
    const m = await env.h.addMarket()
    const member = await signInOn(vk, env)
    const add = await fetch(`${env.svc.url}/v1/rooms/${room}/members/${member.wallet}`, { method: 'PUT', headers: { authorization: `Bearer ${v.owner.session!.token}` } })
    assert.equal(add.status, 200)
    const s = vk.comments('event', m.id, inRoom ? { room } : {})
    const off = mount(s)
    await until(s, (x) => !x.loading && !x.error, 5000, 'the thread read')
    await new Promise((r) => setTimeout(r, 300))
    const p = await v.owner.createPost('event', m.id, 'members only', null, { room })
    const got = await until(s, (x) => x.newCount === 1, 5000, 'newCount 1 from the live change')
    got.showNew()
    assert.deepEqual(ids(s.get().posts), [p.id])
    off()
  }

  it('§2.1 a private room\'s posts are "visible to its members only": a member who leaves through vk.roomMembership stops seeing them on the plain thread at once (no event tells a leaver: the leave re-reads the page\'s threads)', async (t) => {
    const v = await env.h.venue()
    const vk = page(env, { config: { apiKey: v.key } })
    t.after(() => vk.dispose())
    const room = await env.h.room(v, { type: 'topic', ref: `leave-${v.venueId}` }, 'private')
    const m = await env.h.addMarket()
    const member = await signInOn(vk, env)
    const add = await fetch(`${env.svc.url}/v1/rooms/${room}/members/${member.wallet}`, { method: 'PUT', headers: { authorization: `Bearer ${v.owner.session!.token}` } })
    assert.equal(add.status, 200)
    const p = await v.owner.createPost('event', m.id, 'members only', null, { room })
    const s = vk.comments('event', m.id)
    const membership = vk.roomMembership(room)
    const offs = [mount(s), mount(membership)]
    await until(s, (x) => x.posts.some((q) => q.id === p.id), 5000, 'the member reads the room\'s post on the plain thread')
    await until(membership, (x) => x.member === true, 5000, 'a member')
    await membership.get().leave()
    await until(s, (x) => !x.posts.some((q) => q.id === p.id), 5000, 'gone once left')
    offs.forEach((f) => f())
  })

  it('§6.1 "fires when the thread changes" in a private room: a member\'s thread in the room follows the room\'s topic with the session and sees another member\'s post live', (t) => memberHearsRoomPost(t, true))

  it('§6.1 "fires when the thread changes" for a private room\'s member on the plain market thread, which shows them the room\'s posts: another member\'s post in the room arrives live', (t) => memberHearsRoomPost(t, false))

  it('§6.1 a thread in `room: \'self\'` (the venue key\'s room) follows that room\'s topic once the first page names the room, and sees its posts live', async (t) => {
    const v = await env.h.venue()
    const vk = page(env, { config: { apiKey: v.key } })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const s = vk.comments('event', m.id, { room: 'self' })
    const off = mount(s)
    await until(s, (x) => !x.loading && !x.error, 5000, 'the room thread read')
    await new Promise((r) => setTimeout(r, 300))
    const owner = env.h.client({ apiKey: v.key })
    owner.setSession(v.owner.session)
    const p = await owner.createPost('event', m.id, 'in our own room', null, { room: 'self' })
    await until(s, (x) => x.newCount === 1, 5000, 'newCount 1 from the room topic')
    s.get().showNew()
    assert.deepEqual(ids(s.get().posts), [p.id])
    off()
  })

  it('§4.3 useComments { includeReplies, venue }: the thread read asks for them, on its first page and on the next (a venue\'s hides hold, and replies stay out when asked)', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const { m } = await thread(3)
    const venue = (await env.h.venue()).venueId
    const s = vk.comments('event', m.id, { includeReplies: false, venue, limit: 2 })
    t.after(mount(s))
    await until(s, (v) => v.posts.length === 2 && v.hasMore)
    s.get().loadMore()
    await until(s, (v) => v.posts.length === 3)
    const reads = spy.to('/v1/social/posts', 'GET').filter((c) => c.url.pathname === '/v1/social/posts')
    assert.equal(reads.length, 2)
    for (const r of reads) {
      assert.equal(r.url.searchParams.get('includeReplies'), 'false')
      assert.equal(r.url.searchParams.get('venue'), venue)
    }
    assert.ok(reads[1].url.searchParams.get('cursor'), 'the second is the next page')
  })

  it('§4.2 "cursor-paged": the third page is read from the cursor of the second (the last page loaded), not the first, also after page 1 was read again', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const { m, made } = await thread(5)
    const raw = env.h.client()
    const p1 = await raw.posts('event', m.id, { limit: 2 })
    const p2 = await raw.posts('event', m.id, { limit: 2, cursor: p1.nextCursor! })
    assert.ok(p1.nextCursor && p2.nextCursor && p1.nextCursor !== p2.nextCursor)
    const s = vk.comments('event', m.id, { limit: 2 })
    const off = mount(s)
    await until(s, (v) => v.posts.length === 2)
    await s.get().loadMore()
    assert.equal(s.get().posts.length, 4)
    // Page 1 is read again: the next page still follows page 2.
    s.get().refresh()
    await until(s, (v) => !v.refreshing && !v.loading)
    await s.get().loadMore()
    const v = s.get()
    assert.deepEqual(ids(v.posts), ids(made).reverse(), 'pages 1, 2 and 3, each post once, newest first')
    assert.equal(v.hasMore, false)
    const cursors = spy.to('/v1/social/posts', 'GET').map((c) => c.url.searchParams.get('cursor'))
    assert.deepEqual(cursors, [null, p1.nextCursor, null, p2.nextCursor])
    off()
  })

  it('§4.2 "cursor-paged": two loadMore() calls at once read the next page once (one request, no row twice)', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const { m, made } = await thread(3)
    const s = vk.comments('event', m.id, { limit: 1 })
    const off = mount(s)
    const v = await until(s, (v) => v.posts.length === 1 && v.hasMore)
    await Promise.all([v.loadMore(), v.loadMore()])
    assert.equal(spy.to('/v1/social/posts', 'GET').filter((c) => c.url.searchParams.has('cursor')).length, 1, 'the next page was asked for once')
    assert.deepEqual(ids(s.get().posts), ids(made).reverse().slice(0, 2))
    off()
  })

  it('"a store never shows the previous reader\'s answer": a loadMore answered after another reader signed in is discarded; the new reader reads on from their own page 1', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const { m, made } = await thread(3)
    const newest = ids(made).reverse()
    await signInOn(vk, env)
    const s = vk.comments('event', m.id, { limit: 1 })
    const off = mount(s)
    let v = await until(s, (v) => v.posts.length === 1 && v.hasMore)
    // Reader A's next page is answered only when released (that one request).
    let first = true
    spy.hold((u) => u.searchParams.has('cursor') && first && !(first = false))
    const late = v.loadMore()
    assert.equal(s.get().loadingMore, true)
    // Reader B signs in: page 1 is read for B.
    await signInOn(vk, env)
    await until(s, (v) => !v.loading && !v.loadingMore && v.posts.length === 1, 5000, "B's first page")
    spy.release()
    await late
    v = s.get()
    assert.deepEqual(ids(v.posts), newest.slice(0, 1), "A's page 2 is not added to B's thread")
    assert.equal(v.loadingMore, false)
    assert.equal(v.hasMore, true)
    await v.loadMore()
    await s.get().loadMore()
    assert.deepEqual(ids(s.get().posts), newest, 'B reads on: pages 2 and 3')
    off()
  })

  it('a failed first page is `error`, never `loadMoreError` (Retry = refresh()): on the first read, and on a re-read while a later page\'s failure stands', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const { m } = await thread(3)
    const threadReads = (u: URL) => u.pathname === '/v1/social/posts'
    spy.fail(threadReads)
    const s = vk.comments('event', m.id, { limit: 2 })
    const off = mount(s)
    const later = await expectPagedFailures(spy, s, threadReads, 2, () => s.get().refresh())
    // Page 1 read again: the later page's failure is back in loadMoreError (Retry = loadMore()).
    s.get().refresh()
    const v = await until(s, (v) => !v.refreshing && v.error === later)
    assert.equal(v.loadMoreError, later)
    off()
  })

  it('§6.1 after Load more, a live change reads the loaded rows again too: an edit and a delete among the older rows show, the row after them is not "new", and Load more still continues', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const w = await env.h.signedIn()
    const made: { id: string }[] = []
    for (let i = 0; i < 6; i++) made.push(await w.createPost('event', m.id, `post ${i}`))
    const s = vk.comments('event', m.id, { limit: 2 })
    const off = mount(s)
    await until(s, (v) => v.posts.length === 2)
    await s.get().loadMore()
    await until(s, (v) => v.posts.length === 4, 5000, 'two pages')
    await new Promise((r) => setTimeout(r, 300))
    // Both on the second page (posts 3 and 2), changed by their author on another page.
    await w.editPost(made[3].id, 'post 3, edited')
    await w.deletePost(made[2].id)
    const v = await until(s, (v) => !v.posts.some((p) => p.id === made[2].id) && v.posts.some((p) => p.body === 'post 3, edited'), 5000, 'the older rows read again')
    // The re-read of four rows now reaches post 1, the next older one: it shows at the bottom, not as "1 new".
    assert.equal(v.newCount, 0)
    assert.deepEqual(ids(v.posts), [made[5].id, made[4].id, made[3].id, made[1].id])
    assert.equal(v.hasMore, true)
    await v.loadMore()
    const all = await until(s, (v) => !v.hasMore, 5000, 'the rest')
    assert.deepEqual(ids(all.posts), [made[5].id, made[4].id, made[3].id, made[1].id, made[0].id])
    // A post written now is still new.
    const live = await w.createPost('event', m.id, 'live')
    const later = await until(s, (v) => v.newCount === 1, 5000, 'one new')
    later.showNew()
    assert.equal(ids(s.get().posts)[0], live.id)
    off()
  })

  it('a live refetch of the first page keeps the older posts it pushed out (nothing loaded disappears)', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const w = await env.h.signedIn()
    const made = []
    for (let i = 0; i < 3; i++) made.push(await w.createPost('event', m.id, `post ${i}`))
    const s = vk.comments('event', m.id, { limit: 2 })
    const off = mount(s)
    await until(s, (v) => v.posts.length === 2)
    await s.get().loadMore()
    await until(s, (v) => v.posts.length === 3)
    await new Promise((r) => setTimeout(r, 300))
    const live = await w.createPost('event', m.id, 'live')
    let v = await until(s, (v) => v.newCount === 1)
    assert.deepEqual(ids(v.posts), ids(made).reverse(), 'all three still shown')
    v.showNew()
    v = s.get()
    assert.deepEqual(ids(v.posts), [live.id, ...ids(made).reverse()])
    assert.equal(v.hasMore, false)
    off()
  })

  it('a post written on this page shows at once in its thread (never held as new)', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    await signInOn(vk, env)
    const m = await env.h.addMarket()
    const s = vk.comments('event', m.id)
    const off = mount(s)
    await until(s, (v) => !v.loading)
    const p = await vk.postActions().get().create('event', m.id, 'mine')
    const v = await until(s, (v) => v.posts.length === 1)
    assert.deepEqual(ids(v.posts), [p.id])
    assert.equal(v.newCount, 0)
    off()
  })

  it('a failed re-read of the first page is `error` without `loadMoreError` (Retry = refresh()); a failed loadMore sets both (Retry = loadMore())', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const w = await env.h.signedIn()
    for (let i = 0; i < 3; i++) await w.createPost('event', m.id, `post ${i}`)
    const s = vk.comments('event', m.id, { limit: 2 })
    const off = mount(s)
    let v = await until(s, (v) => v.posts.length === 2 && v.hasMore)
    const thread = (u: URL) => u.pathname === '/v1/social/posts'
    spy.fail(thread)
    await v.loadMore()
    v = s.get()
    assert.ok(v.error)
    assert.equal(v.loadMoreError, v.error, 'a later page failed')
    spy.fail(null)
    await v.loadMore()
    v = await until(s, (v) => v.posts.length === 3 && !v.error)
    assert.equal(v.loadMoreError, null)
    spy.fail(thread)
    v.refresh()
    v = await until(s, (v) => !!v.error && !v.refreshing && !v.loading, 5000, 'the failed re-read')
    assert.equal(v.loadMoreError, null, 'the first page failed: refresh() is the cure')
    assert.equal(v.posts.length, 3, 'what was shown stays')
    spy.fail(null)
    v.refresh()
    v = await until(s, (v) => !v.error && !v.loading && !v.refreshing, 5000, 'page 1 read again')
    assert.equal(v.posts.length, 3)
    off()
  })

  it('"Every public function answers bad input with a clear error": a thread asked for a page the service does not serve (limit 101, 0) is its 400 validation-failed, not a page quietly read at another size; limit 3 reads 3', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const w = await env.h.signedIn()
    for (const n of [1, 2, 3, 4]) await w.createPost('event', m.id, `post ${n}`)
    for (const limit of [LIMITS.pageMax + 1, 0]) {
      const s = vk.comments('event', m.id, { limit })
      const off = mount(s)
      const v = await until(s, (v) => !!v.error || v.posts.length > 0)
      assert.ok(v.error instanceof HttpError, `limit ${limit}: ${String(v.error)} (${v.posts.length} posts)`)
      assert.deepEqual([v.error.status, v.error.code], [400, 'validation-failed'])
      off()
    }
    const s = vk.comments('event', m.id, { limit: 3 })
    const off = mount(s)
    const v = await until(s, (v) => v.posts.length > 0)
    assert.deepEqual([v.posts.length, v.hasMore], [3, true])
    off()
  })

  it('a failed read is an error with no posts; refresh() reads again', async (t) => {
    const spy = spyFetch()
    spy.fail((u) => u.pathname === '/v1/social/posts')
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const s = vk.comments('event', m.id)
    const off = mount(s)
    const v = await until(s, (v) => !!v.error)
    assert.deepEqual(v.posts, [])
    assert.equal(v.loading, false)
    spy.fail(null)
    v.refresh()
    const ok = await until(s, (v) => !v.error && !v.loading)
    assert.deepEqual(ok.posts, [])
    off()
  })

  it('§3.2 "open → right / wrong when the market resolution is recorded": a market resolving while its thread is open re-reads the market, so its take receipts move without a reload', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const s = vk.comments('event', m.id)
    const market = vk.market(m.id)
    const offs = [mount(s), mount(market)]
    await until(s, (v) => !v.loading)
    await until(market, (v) => !!v.market, 5000, 'the market read')
    assert.equal(market.get().market!.result, null, 'open')
    // Let the stream subscription settle before the change.
    await new Promise((r) => setTimeout(r, 300))
    await env.h.resolve(m.id, 0)
    const v = await until(market, (v) => v.market?.result != null, 5000, 'the result after the resolution')
    assert.deepEqual(v.market!.result, { winner: 0 })
    offs.forEach((f) => f())
  })

  it("§6.1 and §2.6: a market's thread changing live re-reads that market's take counts on the page (not another market's)", async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const [m, elsewhere] = [await env.h.addMarket(), await env.h.addMarket()]
    const w = await env.h.signedIn()
    const s = vk.comments('event', m.id)
    const mine = vk.takeCounts([m.id])
    const other = vk.takeCounts([elsewhere.id])
    // `other` mounts after `mine` has its count, so each was read alone and the SDK holds `m`'s count under the key
    // the re-read asks for: only the change's dropping of that cached count lets the new count through.
    const offs = [mount(s), mount(mine)]
    await until(s, (v) => !v.loading)
    await until(mine, (v) => v.countOf(m.id)?.posts === 0)
    offs.push(mount(other))
    await until(other, (v) => v.countOf(elsewhere.id)?.posts === 0)
    // Let the stream subscription settle before the change.
    await new Promise((r) => setTimeout(r, 300))
    spy.reset()
    await w.createPost('event', m.id, 'from elsewhere')
    // Within the SDK's 5 s reuse of a count: the change drops it.
    await until(mine, (v) => v.countOf(m.id)?.posts === 1, 5000, 'the count after the live change')
    const reads = spy.to('/v1/social/take-counts', 'GET').map((c) => c.url.searchParams.get('ids'))
    assert.deepEqual(reads, [m.id.toLowerCase()])
    offs.forEach((f) => f())
  })
  it('§1.9 "a global WebSocket (realtime only) or an injected WebSocketImpl" and §6.2 "Plain HTTP reads do not need a socket": with neither, a thread still reads over HTTP (no live updates, no error)', async (t) => {
    // No global WebSocket (Node 22 and later have one) and none injected.
    const g = globalThis as { WebSocket?: unknown }
    const had = g.WebSocket
    delete g.WebSocket
    t.after(() => void (had && (g.WebSocket = had)))
    const vk = page(env, { config: { baseUrl: env.svc.url, apiKey: null, WebSocketImpl: undefined } })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const w = await env.h.signedIn()
    const p = await w.createPost('event', m.id, 'read over HTTP')
    const s = vk.comments('event', m.id)
    const off = mount(s)
    t.after(off)
    const v = await until(s, (v) => !v.loading, 5000, 'the first read')
    assert.deepEqual(ids(v.posts), [p.id])
    assert.equal(v.error, null)
  })
})
