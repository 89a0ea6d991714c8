/** The page context (§4.5.5, §5.2, §9.2), identity stores (§2.12), author takes (§4.5.6), events and notifications (§6.3). */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import WebSocket from 'ws'
import { createClient, type SocketConstructor } from '../../src/sdk/index.ts'
import { createVenuekit, getVenuekit, VenuekitError } from '../../src/stores/index.ts'
import { freshRef } from '../sdk/harness.ts'
import { mount, page, signInOn, spyFetch, startEnv, tick, until, WS, type Env } from './helpers.ts'

/** The page's WebSocket, and a promise settled once the service confirms a topic subscription (live events flow from then on). */
function watchedSocket() {
  let confirm = () => {}
  const subscribed = new Promise<void>((r) => (confirm = r))
  class Watched extends WebSocket {
    constructor(url: string) {
      super(url)
      this.addEventListener('message', (e) => JSON.parse(String(e.data)).type === 'subscribed' && confirm())
    }
  }
  return { WebSocketImpl: Watched as unknown as SocketConstructor, subscribed }
}

let env: Env
before(async () => {
  env = await startEnv()
})
after(() => env.svc.close())

describe('the page context (§4.5.5, §5.2)', () => {
  it('§4.5.5 "Do not mount two session-auth objects": a second createVenuekit is refused with a clear error; getVenuekit returns the one', (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    assert.equal(getVenuekit(), vk)
    assert.throws(
      () => createVenuekit({ config: { baseUrl: env.svc.url, apiKey: null } }),
      (e: unknown) => e instanceof VenuekitError && e.code === 'session-auth-exists' && /share it/.test(e.message),
    )
    vk.dispose()
    assert.equal(getVenuekit(), null, 'dispose unregisters')
    const again = page(env)
    again.dispose()
  })

  it('§5.2 "Posting and reacting need the single session shared by both providers": one client session for every store; canPost reads it, not a wallet', async (t) => {
    const client = createClient({ baseUrl: env.svc.url, apiKey: null, WebSocketImpl: WS })
    const vk = createVenuekit({ client, releaseMs: 50 })
    t.after(() => vk.dispose())
    const canPost = vk.canPost()
    assert.equal(canPost, vk.canPost())
    assert.equal(canPost.get(), false)
    // A wallet alone (no session) does not make canPost true.
    env.h.wallet()
    assert.equal(canPost.get(), false)
    await client.auth.signIn(env.h.wallet())
    assert.equal(canPost.get(), true, 'a sign-in through the shared client reaches every store')
    assert.equal(vk.$session.get(), client.session)
    await vk.signOut()
    assert.equal(canPost.get(), false)
  })

  it('§9.2 "when set (onSignOut), every logout also ends the wallet session"', async (t) => {
    let ended = 0
    const vk = page(env, { onSignOut: () => void ended++ })
    t.after(() => vk.dispose())
    await signInOn(vk, env)
    await vk.signOut()
    assert.equal(ended, 1)
    await signInOn(vk, env)
    vk.client.setSession(null)
    assert.equal(ended, 2, 'a session dropped elsewhere is a logout too')
  })

  it('§4.4 rule 4 "Report only on another\'s post, signed in, with moderation on": with moderation: false Report is never offered, signed in or not; moderation is on by default', async () => {
    const off = page(env, { moderation: false })
    try {
      assert.equal(off.moderation, false)
      assert.equal(off.$canReport.get(), false)
      await signInOn(off, env)
      assert.equal(off.$canReport.get(), false, 'signed in, moderation off: not offered')
    } finally {
      off.dispose()
    }
    const on = page(env)
    try {
      assert.equal(on.moderation, true, 'on by default')
      assert.equal(on.$canReport.get(), false, 'signed out: not offered')
      await signInOn(on, env)
      assert.equal(on.$canReport.get(), true)
    } finally {
      on.dispose()
    }
  })

  it('the same arguments return the same store; a store is released a grace period after its last subscriber leaves', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const s = vk.comments('event', m.id)
    assert.equal(vk.comments('event', m.id.toUpperCase().replace('0X', '0x')), s)
    const off = mount(s)
    await until(s, (v) => !v.loading)
    off()
    assert.equal(vk.comments('event', m.id), s, 'kept during the grace period')
    // nanostores waits 1 s before unmounting, then the context's own grace (50 ms here).
    await tick(1200)
    assert.notEqual(vk.comments('event', m.id), s, 'released')
  })
})

describe('identity (§2.12)', () => {
  it('§2.12 "useFollow: its refreshKey must be bumped on login and logout, otherwise a latched \'Follow\' can silently unfollow"', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const ref = freshRef('fol')
    const s = vk.follow('category', ref)
    const off = mount(s)
    let v = await until(s, (v) => v.following !== null)
    const k0 = v.refreshKey
    const alice = await signInOn(vk, env)
    v = s.get()
    assert.equal(v.refreshKey, k0 + 1, 'bumped on login')
    assert.equal(v.following, null, 'unknown until re-read for the new reader: nothing latched')
    v = await until(s, (v) => v.following === false)
    await v.follow()
    v = await until(s, (v) => v.following === true)
    const latched = v
    await vk.signOut()
    assert.equal(s.get().refreshKey, k0 + 2, 'bumped on logout')
    // Signed out: never Alice's 'following: true' (null, or the signed-out reader's own answer while it is read again).
    assert.notEqual(s.get().following, true, "the previous reader's 'following' is not shown")
    await signInOn(vk, env)
    v = await until(s, (v) => v.following === false, 5000, 'the new reader does not follow')
    assert.equal(v.refreshKey, k0 + 3)
    // A button that latched the old value ('following: true', so it offers Unfollow) is refused.
    await assert.rejects(latched.unfollow(), (e: unknown) => e instanceof VenuekitError && e.code === 'stale-follow')
    assert.equal(s.get().following, false)
    // Alice still follows: nothing acted on her state for the new reader.
    const again = env.h.client()
    await again.auth.signIn(alice)
    assert.equal((await again.followState('category', ref)).following, true)
    off()
  })

  it('§2.12 useFollow "refreshKey must be bumped on login and logout": only then — linking a wallet keeps the session (same token) and the key, and a Follow latched before it still follows', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const s = vk.follow('category', freshRef('fol'))
    const off = mount(s)
    await signInOn(vk, env)
    const latched = await until(s, (v) => v.following === false)
    await vk.client.auth.linkWallet(env.h.wallet())
    assert.equal(s.get().refreshKey, latched.refreshKey, 'the same reader: not bumped')
    await latched.follow()
    assert.equal((await until(s, (v) => v.following === true)).following, true)
    off()
  })

  it('§4.5 rule 3 (a reader change): a Follow answered after a logout and another login is the previous reader\'s; the new reader never sees it, nor its pending state or failure', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const ref = freshRef('folrace')
    const s = vk.follow('category', ref)
    t.after(mount(s))
    await signInOn(vk, env)
    let v = await until(s, (v) => v.following === false)
    const isFollow = (u: URL, method: string) => method !== 'GET' && u.pathname.startsWith('/v1/social/follows/')
    // Alice's Follow reaches the service; its answer is held while Bob signs in on the page.
    spy.hold(isFollow)
    const alices = v.follow()
    await until(s, (v) => v.pending)
    await spy.reached()
    await vk.signOut()
    await signInOn(vk, env)
    v = await until(s, (v) => v.following === false, 5000, "Bob's own answer")
    assert.equal(v.pending, false, "Alice's write is not Bob's")
    spy.release()
    assert.equal((await alices).following, true)
    await tick(100)
    v = s.get()
    assert.deepEqual([v.following, v.pending, v.error], [false, false, null], 'Bob still does not follow')
    // Alice's failed Follow, failing after the reader changed, is not shown as Bob's failure.
    await vk.signOut()
    await signInOn(vk, env)
    v = await until(s, (v) => v.following === false)
    spy.fail(isFollow)
    spy.hold(isFollow)
    const failing = v.follow()
    await vk.signOut()
    await signInOn(vk, env)
    await until(s, (v) => v.following === false)
    spy.release()
    await assert.rejects(failing)
    await tick(50)
    assert.deepEqual([s.get().error, s.get().pending], [null, false])
  })

  it('§2.12 useFollow: following is "null while unknown (loading, failed read …)": a failed re-read of a known state shows null with the error, never the old state (injected failing fetch)', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const s = vk.follow('category', freshRef('folfail'))
    t.after(mount(s))
    await signInOn(vk, env)
    let v = await until(s, (v) => v.following === false)
    await v.follow()
    v = await until(s, (v) => v.following === true && !v.pending)
    const reads = () => spy.to('/v1/social/follows/', 'GET').length
    const before = reads()
    spy.fail((u, method) => method === 'GET' && u.pathname.startsWith('/v1/social/follows/'))
    v.refresh()
    v = await until(s, (v) => !!v.error, 5000, 'the re-read failed')
    assert.ok(reads() > before, 'it was a re-read')
    assert.equal(v.following, null, 'not the state of the earlier read')
    assert.equal(v.loading, false)
  })

  it('me: null signed out with no request, the account once signed in', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const s = vk.me()
    const off = mount(s)
    assert.deepEqual([s.get().me, s.get().loading], [null, false])
    const w = await signInOn(vk, env)
    const v = await until(s, (v) => !!v.me)
    assert.equal(v.me!.wallet, w.wallet)
    await vk.signOut()
    assert.equal(s.get().me, null)
    off()
  })
})

describe('author takes (§2.4, §4.5.6)', () => {
  it('§4.5.6 "Show the profile Takes tab by default only when it has posts (check posts.length); otherwise fall back to Discussion (takes: false)"', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const talker = await env.h.signedIn()
    const comment = await talker.createPost('event', m.id, 'just a comment')
    const s = vk.authorTakes(talker.w.address)
    const off = mount(s)
    assert.equal(s.get().defaultTab, null, 'null while loading')
    let v = await until(s, (v) => v.defaultTab !== null && !v.discussion.loading)
    assert.equal(v.defaultTab, 'discussion')
    assert.deepEqual(v.posts, [])
    assert.deepEqual(v.discussion.posts.map((p) => p.id), [comment.id])

    const taker = await env.h.signedIn()
    await env.h.setPosition(taker.w.wallet, m.id, 0, '100')
    const take = await taker.createPost('event', m.id, 'a take')
    await env.h.resolve(m.id, 0)
    const s2 = vk.authorTakes(taker.w.wallet)
    const off2 = mount(s2)
    v = await until(s2, (v) => v.defaultTab !== null)
    assert.equal(v.defaultTab, 'takes')
    assert.deepEqual(v.posts.map((p) => p.id), [take.id])
    assert.deepEqual(v.results[m.id], { winner: 0 }, 'results for the receipt')
    off()
    off2()
  })

  it('§4.5.6 a failed re-read of a loaded profile keeps its takes and the tab chosen from them (the profile is not replaced by an error)', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const taker = await env.h.signedIn()
    await env.h.setPosition(taker.w.wallet, m.id, 0, '100')
    const take = await taker.createPost('event', m.id, 'a take')
    const s = vk.authorTakes(taker.w.wallet)
    t.after(mount(s))
    await until(s, (v) => v.defaultTab === 'takes')
    spy.fail((u) => u.pathname.includes('/posts') && u.pathname.startsWith('/v1/social/profile/'))
    s.get().refresh()
    const v = await until(s, (v) => !!v.error && !v.loading)
    assert.equal(v.defaultTab, 'takes')
    assert.deepEqual(v.posts.map((p) => p.id), [take.id])
  })
})

describe('events and notifications (§6.3)', () => {
  it('§6.3 "Notification reads propagate across all mounts of the notifications hook"; preferences use effectiveMode', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const w = await env.h.signedIn()
    const thread = vk.comments('event', m.id)
    const offThread = mount(thread)
    await until(thread, (v) => !v.loading)
    await tick(300)
    const a = vk.notifications()
    const offA = mount(a)
    await w.createPost('event', m.id, 'ping')
    const v = await until(a, (v) => v.unread >= 1, 5000, 'a thread change noticed')
    assert.equal(v.effectiveMode('inApp', 'thread'), 'realtime', 'a missing row is not off: in-app defaults to realtime')
    assert.equal(v.effectiveMode('email', 'thread'), 'off', 'external channels are opt-in')
    // A second mount (another element) sees the same read state.
    const b = vk.notifications()
    const offB = mount(b)
    a.get().markRead(v.items[0].id)
    assert.equal(b.get().items.find((i) => i.id === v.items[0].id)!.read, true)
    assert.equal(b.get().unread, a.get().unread)
    b.get().setPrefs([{ channel: 'inApp', kind: '*', mode: 'off' }])
    assert.equal(a.get().items.length, 0, 'in-app off: nothing shown')
    assert.equal(a.get().effectiveMode('inApp', 'thread'), 'off')
    a.get().setPrefs([])
    const ev = vk.events({ limit: 1 }, { refreshMs: 20 })
    const offE = mount(ev)
    const e = await until(ev, (x) => !x.loading)
    assert.equal(e.events.length, 1)
    assert.equal(e.events[0].subjectRef, m.id)
    ;[offThread, offA, offB, offE].forEach((off) => off())
  })

  it('§6.3 notifications: unread counts the items not read; markRead marks that one, markAllRead every one; events({ limit }) is the newest `limit` events, polled or not', async (t) => {
    const sock = watchedSocket()
    const vk = page(env, { config: { WebSocketImpl: sock.WebSocketImpl } })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const w = await env.h.signedIn()
    const thread = vk.comments('event', m.id)
    t.after(mount(thread))
    await until(thread, (v) => !v.loading)
    await sock.subscribed
    const n = vk.notifications()
    t.after(mount(n))
    for (const body of ['one', 'two', 'three']) await w.createPost('event', m.id, body)
    await until(n, (v) => v.items.length >= 3, 5000, 'three thread changes')
    // Read and acted on synchronously: no event lands in between.
    const first = n.get()
    assert.equal(first.unread, first.items.length, 'nothing read yet')
    first.markRead(first.items[1].id)
    let v = n.get()
    assert.equal(v.unread, first.unread - 1)
    assert.deepEqual(v.items.map((i) => i.read), first.items.map((_, k) => k === 1), 'that one only')
    v.markRead(first.items[1].id)
    assert.equal(n.get().unread, v.unread, 'reading it again changes nothing')
    n.get().markAllRead()
    v = n.get()
    assert.equal(v.unread, 0)
    assert.ok(v.items.every((i) => i.read))
    const all = vk.events({ limit: 50 })
    const two = vk.events({ limit: 2 })
    const polled = vk.events({ limit: 2 }, { refreshMs: 20 })
    for (const s of [all, two, polled]) t.after(mount(s))
    const p = await until(polled, (x) => !x.loading)
    const newest = all.get().events.slice(0, 2).map((e) => e.id)
    assert.ok(all.get().events.length >= 3)
    assert.deepEqual(two.get().events.map((e) => e.id), newest)
    assert.deepEqual(p.events.map((e) => e.id), newest)
  })
})
