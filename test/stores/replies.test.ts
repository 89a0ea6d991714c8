/**
 * Earlier replies (stores/replies.ts) against the reference service: a page folds in a busy post's newest
 * 50 replies; `earlier(p).loadMore()` reads the ones before them, and every list holding the post shows them.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mount, page, signInOn, spyFetch, startEnv, until, type Env } from './helpers.ts'
import { setState } from '../helpers/read-fixtures.ts'

let env: Env
before(async () => {
  env = await startEnv()
})
after(() => env.svc.close())

const ids = (ps: { id: string }[]) => ps.map((p) => p.id)

/** A market whose one post has `n` replies (ids oldest first), written by another reader's client. */
async function busyPost(n: number) {
  const m = await env.h.addMarket()
  const w = await env.h.signedIn()
  const parent = await w.createPost('event', m.id, 'a busy take')
  const replies: string[] = []
  for (let i = 0; i < n; i++) replies.push((await w.createPost('event', m.id, `reply ${i + 1}`, parent.id)).id)
  return { m, w, parent, replies }
}

/** A page signed in as a reader (`mine` writes as them), and a market whose one post, by `w`, will get replies. */
async function readerAndBusyPost(t: { after(fn: () => void): void }) {
  const vk = page(env)
  t.after(() => vk.dispose())
  const mine = await env.h.signedIn({}, await signInOn(vk, env))
  const m = await env.h.addMarket()
  const w = await env.h.signedIn()
  const parent = await w.createPost('event', m.id, 'a busy take')
  return { vk, mine, m, w, parent }
}

describe('earlier replies', () => {
  it('a page folds in the newest 50 replies; "Show earlier replies" reads the ones before them, page by page, oldest first, until none are left', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch, config: { venueId: undefined } })
    t.after(() => vk.dispose())
    const { m, parent, replies } = await busyPost(110)
    const s = vk.comments('event', m.id)
    const off = mount(s)
    t.after(off)
    let v = await until(s, (v) => v.posts.length === 1)
    assert.deepEqual(ids(v.threads[parent.id]), replies.slice(60), 'the newest 50, oldest first')
    const more = v.earlier(v.posts[0])
    assert.ok(more, 'earlier replies are offered')
    assert.equal(more.loadingMore, false)
    const loading = more.loadMore()
    assert.equal(s.get().earlier(s.get().posts[0])?.loadingMore, true, 'loading while the read is in flight')
    await loading
    v = s.get()
    assert.deepEqual(ids(v.threads[parent.id]), replies.slice(10), 'the 50 before them, above them')
    const req = spy.to(`/v1/social/posts/${parent.id}/replies`)
    assert.equal(req.length, 1)
    assert.equal(req[0].url.searchParams.get('before'), replies[60], 'read before the first reply shown')
    await v.earlier(v.posts[0])!.loadMore()
    v = s.get()
    assert.deepEqual(ids(v.threads[parent.id]), replies, 'every reply, once, in order')
    assert.equal(v.earlier(v.posts[0]), null, 'none left: no control')
    assert.equal(spy.to(`/v1/social/posts/${parent.id}/replies`)[1].url.searchParams.get('before'), replies[10])
  })

  it('§3.1 "the ranked feed shows visible posts only" and "the post remains visible to its author on the market thread": the earlier replies kept for a parent leave the reader\'s own hidden reply off the feed holding it, and show it on the thread, hidden: true', async (t) => {
    const { vk, mine, m, w, parent } = await readerAndBusyPost(t)
    const old = await w.createPost('event', m.id, 'an old reply', parent.id)
    const hidden = await mine.createPost('event', m.id, 'mine, hidden later', parent.id)
    const later: string[] = []
    for (let i = 0; i < 50; i++) later.push((await w.createPost('event', m.id, `later ${i}`, parent.id)).id)
    await setState(env.svc, hidden.id, 'hidden')
    const feed = vk.feed('subject', { subjectType: 'event', subjectRef: m.id })
    t.after(mount(feed))
    let f = await until(feed, (v) => v.posts.length === 1, 5000, 'the feed')
    assert.deepEqual(ids(f.threads[parent.id]), later, 'the feed folds the newest 50')
    await f.earlier(f.posts[0])!.loadMore()
    f = feed.get()
    assert.deepEqual(ids(f.threads[parent.id]), [old.id, ...later], 'the feed: the earlier reply, not the reader\'s hidden one')
    const thread = vk.comments('event', m.id)
    t.after(mount(thread))
    const v = await until(thread, (v) => v.posts.length === 1, 5000, 'the thread')
    assert.deepEqual(ids(v.threads[parent.id]), [old.id, hidden.id, ...later], 'the thread shows the author their hidden reply')
    assert.equal(v.threads[parent.id][1].hidden, true)
    assert.deepEqual(ids(feed.get().threads[parent.id]), [old.id, ...later], 'and the feed still does not')
  })

  it('§3.1 "the post remains visible to its author on the market thread": the earlier replies a feed reads again are kept whole, so the reader\'s own hidden reply among them stays on the thread, while the feed still leaves it out', async (t) => {
    const { vk, mine, m, w, parent } = await readerAndBusyPost(t)
    const write = async (n: number, label: string) => {
      const out: string[] = []
      for (let i = 0; i < n; i++) out.push((await w.createPost('event', m.id, `${label} ${i}`, parent.id)).id)
      return out
    }
    // first, a, mine (hidden), 48 more, then the 50 a page folds: the first "Show earlier replies" reads a, mine and
    // the 48; the second reads `first`, before `a`.
    const [first, a] = await write(2, 'early')
    const hidden = await mine.createPost('event', m.id, 'mine, hidden later', parent.id)
    const mid = await write(48, 'mid')
    const later = await write(50, 'later')
    await setState(env.svc, hidden.id, 'hidden')
    const feed = vk.feed('subject', { subjectType: 'event', subjectRef: m.id })
    t.after(mount(feed))
    const f = await until(feed, (v) => v.posts.length === 1, 5000, 'the feed')
    await f.earlier(f.posts[0])!.loadMore()
    assert.deepEqual(ids(feed.get().threads[parent.id]), [a, ...mid, ...later], 'the feed, after one read: not the hidden reply')
    await feed.get().earlier(feed.get().posts[0])!.loadMore()
    assert.deepEqual(ids(feed.get().threads[parent.id]), [first, a, ...mid, ...later], 'the feed, after two reads')
    const thread = vk.comments('event', m.id)
    t.after(mount(thread))
    const v = await until(thread, (v) => v.posts.length === 1, 5000, 'the thread')
    assert.deepEqual(ids(v.threads[parent.id]), [first, a, hidden.id, ...mid, ...later], 'the thread still shows the author their hidden reply')
  })

  it('a post whose replies all fit on the page offers no earlier replies', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const { m, parent, replies } = await busyPost(50)
    const s = vk.comments('event', m.id)
    const off = mount(s)
    t.after(off)
    const v = await until(s, (v) => v.posts.length === 1)
    assert.deepEqual(ids(v.threads[parent.id]), replies)
    assert.equal(v.earlier(v.posts[0]), null)
  })

  it('a re-read of the page after new replies leaves no gap and no repeat between the earlier replies and the page', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const { m, w, parent, replies } = await busyPost(60)
    const s = vk.comments('event', m.id)
    const off = mount(s)
    t.after(off)
    let v = await until(s, (v) => v.posts.length === 1)
    await v.earlier(v.posts[0])!.loadMore()
    assert.deepEqual(ids(s.get().threads[parent.id]), replies)
    // Five more replies push replies 11-15 off the page's newest 50.
    for (let i = 0; i < 5; i++) replies.push((await w.createPost('event', m.id, `late ${i}`, parent.id)).id)
    s.get().refresh()
    v = await until(s, (v) => v.threads[parent.id]?.length === 65, 5000, 'the five new replies')
    assert.deepEqual(ids(v.threads[parent.id]), replies)
  })

  it('a failed read says so (error), keeps the replies shown, and load() again reads them', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const { m, parent, replies } = await busyPost(55)
    const s = vk.comments('event', m.id)
    const off = mount(s)
    t.after(off)
    let v = await until(s, (v) => v.posts.length === 1)
    spy.fail((u) => u.pathname.endsWith('/replies'))
    await v.earlier(v.posts[0])!.loadMore()
    v = s.get()
    const failed = v.earlier(v.posts[0])
    assert.ok(failed?.error, 'the failure is on the control')
    assert.equal(failed.loadingMore, false)
    assert.deepEqual(ids(v.threads[parent.id]), replies.slice(5), 'the page is still shown')
    spy.fail(null)
    await failed.loadMore()
    v = s.get()
    assert.deepEqual(ids(v.threads[parent.id]), replies)
    assert.equal(v.earlier(v.posts[0]), null)
  })

  it('every list holding the post shows its earlier replies, with the page\'s Agree overrides on them', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const { m, parent, replies } = await busyPost(52)
    const thread = vk.comments('event', m.id)
    const feed = vk.feed('subject', { subjectType: 'event', subjectRef: m.id })
    const offs = [mount(thread), mount(feed)]
    t.after(() => offs.forEach((f) => f()))
    const v = await until(thread, (v) => v.posts.length === 1)
    let f = await until(feed, (v) => v.posts.length === 1)
    assert.deepEqual(ids(f.threads[parent.id]), replies.slice(2))
    assert.ok(f.earlier(f.posts[0]), 'the feed offers them too')
    await v.earlier(v.posts[0])!.loadMore()
    f = feed.get()
    assert.deepEqual(ids(f.threads[parent.id]), replies, 'read through the thread, shown in the feed')
    assert.equal(f.earlier(f.posts[0]), null)
    // An Agree on an earlier reply shows in both lists.
    await signInOn(vk, env)
    await until(thread, (v) => v.threads[parent.id]?.length === 50, 5000, "the new reader's page")
    await until(feed, (v) => v.threads[parent.id]?.length === 50, 5000, "the new reader's feed page")
    await thread.get().earlier(thread.get().posts[0])!.loadMore()
    const first = thread.get().threads[parent.id][0]
    assert.equal(first.id, replies[0])
    await vk.postActions().get().react(first)
    for (const s of [thread, feed]) {
      const r = s.get().threads[parent.id][0]
      assert.equal(r.id, replies[0])
      assert.equal(r.agreed, true)
      assert.equal(r.agrees, 1)
    }
  })

  it('another reader starts clean: a sign-in drops the earlier replies read for the previous one', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const { m, parent, replies } = await busyPost(53)
    const s = vk.comments('event', m.id)
    const off = mount(s)
    t.after(off)
    let v = await until(s, (v) => v.posts.length === 1)
    await v.earlier(v.posts[0])!.loadMore()
    assert.equal(s.get().threads[parent.id].length, 53)
    await signInOn(vk, env)
    v = await until(s, (v) => v.threads[parent.id]?.length === 50, 5000, 'back to the page alone')
    assert.deepEqual(ids(v.threads[parent.id]), replies.slice(3))
    assert.ok(v.earlier(v.posts[0]), 'offered again, for this reader')
  })

  it('an edit or a delete of an earlier reply through this page shows on it', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const other = await env.h.signedIn()
    const me = await signInOn(vk, env)
    const parent = await other.createPost('event', m.id, 'a busy take')
    const actions = vk.postActions()
    const mine = await actions.get().create('event', m.id, 'my early reply', { parentId: parent.id })
    const gone = await actions.get().create('event', m.id, 'my other early reply', { parentId: parent.id })
    for (let i = 0; i < 50; i++) await other.createPost('event', m.id, `reply ${i + 1}`, parent.id)
    assert.ok(me)
    const s = vk.comments('event', m.id)
    const off = mount(s)
    t.after(off)
    let v = await until(s, (v) => v.posts.length === 1 && v.threads[parent.id]?.length === 50)
    await v.earlier(v.posts[0])!.loadMore()
    assert.deepEqual(ids(s.get().threads[parent.id].slice(0, 2)), [mine.id, gone.id])
    await actions.get().edit(mine.id, 'edited early reply')
    await actions.get().remove(gone.id)
    v = s.get()
    assert.equal(v.threads[parent.id][0].body, 'edited early reply')
    assert.equal(v.threads[parent.id].length, 51)
    assert.ok(!ids(v.threads[parent.id]).includes(gone.id), 'the deleted reply left the list')
  })
})
