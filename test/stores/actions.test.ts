/** `vk.postActions` (§4.2, §7.1) and moderation (`vk.moderationQueue`, `vk.moderate`, §2.10). */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { privateKeyToAccount } from 'viem/accounts'
import { MSG } from '../../src/contract/errors.ts'
import { HttpError, VenuekitError } from '../../src/sdk/errors.ts'
import { OPERATOR_KEY } from '../sdk/harness.ts'
import type { Venuekit } from '../../src/stores/index.ts'
import { mount, page, signInOn, spyFetch, startEnv, tick, until, type Env } from './helpers.ts'

let env: Env
before(async () => {
  env = await startEnv()
})
after(() => env.svc.close())

const isReaction = (u: URL, method: string) => method === 'POST' && u.pathname.endsWith('/reactions')

/** Fails the `n`th reaction write from now (1-based) and holds its answer until `spy.release()`; the others reach the service. */
function failAndHold(spy: ReturnType<typeof spyFetch>, n: number) {
  let sent = 0
  let failed = false
  // A failed request is held (or not) right after it failed: `failed` names that one request.
  spy.fail((u, method) => (failed = isReaction(u, method) && ++sent === n))
  spy.hold(() => {
    const h = failed
    failed = false
    return h
  })
}

/** `n` posts by another author, and this page signed in with their thread and their market's feed mounted. */
async function agreeable(vk: Venuekit, n = 1) {
  const m = await env.h.addMarket()
  const author = await env.h.signedIn()
  const post = await author.createPost('event', m.id, 'agree with me')
  for (let i = 1; i < n; i++) await author.createPost('event', m.id, `agree with me too (${i})`)
  await signInOn(vk, env)
  const thread = vk.comments('event', m.id)
  const feed = vk.feed('subject', { subjectType: 'event', subjectRef: m.id })
  const offs = [thread, feed].map(mount)
  await until(thread, (v) => v.posts.length === n)
  await until(feed, (v) => v.posts.length === n)
  return { m, author, post, thread, feed, offs }
}

/** Another reader agrees with the post: the next reads of the thread and the feed count 2 and show this reader's Agree (no override kept for good). */
async function nextReadsCount2(a: Awaited<ReturnType<typeof agreeable>>) {
  await (await env.h.signedIn()).reactPost(a.post.id, true)
  a.thread.get().refresh()
  a.feed.get().refresh()
  await until(a.thread, (v) => v.posts[0].agrees === 2 && v.posts[0].agreed === true, 5000, "the thread's fresh read")
  await until(a.feed, (v) => v.posts[0].agrees === 2 && v.posts[0].agreed === true, 5000, "the feed's fresh read")
}

describe('postActions (§4.2)', () => {
  it('"Agree (optimistic, rolls back)": react shows at once in every store holding the post, and rolls back on failure and throws (injected failing fetch)', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const author = await env.h.signedIn()
    await env.h.setPosition(author.w.wallet, m.id, 0, '1000')
    await author.createPost('event', m.id, 'agree with me')
    await signInOn(vk, env)
    const thread = vk.comments('event', m.id)
    const feed = vk.feed('subject', { subjectType: 'event', subjectRef: m.id })
    const profile = vk.authorTakes(author.w.wallet)
    const offs = [thread, feed, profile].map(mount)
    await until(thread, (v) => v.posts.length === 1)
    await until(feed, (v) => v.posts.length === 1)
    await until(profile, (v) => v.posts.length === 1)
    const agreesIn = () => [thread.get().posts[0], feed.get().posts[0], profile.get().posts[0]].map((x) => [x.agreed, x.agrees])

    // Success: optimistic first, then the service's answer.
    const ok = vk.postActions().get().react(thread.get().posts[0], true)
    assert.deepEqual(agreesIn(), [[true, 1], [true, 1], [true, 1]], 'optimistic in every store at once')
    assert.equal(vk.postActions().get().pending, true)
    const r = await ok
    assert.deepEqual([r.agreed, r.agrees], [true, 1])
    assert.equal(vk.postActions().get().pending, false)
    assert.deepEqual(agreesIn(), [[true, 1], [true, 1], [true, 1]])

    // Failure: rolled back everywhere, and the action throws.
    spy.fail((u) => u.pathname.endsWith('/reactions'))
    const undo = vk.postActions().get().react(feed.get().posts[0], false)
    assert.deepEqual(agreesIn(), [[false, 0], [false, 0], [false, 0]], 'optimistic take-back')
    await assert.rejects(undo, (e: unknown) => e instanceof HttpError && e.status === 500)
    assert.deepEqual(agreesIn(), [[true, 1], [true, 1], [true, 1]], 'rolled back in every store')
    spy.fail(null)
    // The service still holds the agree.
    const fresh = await env.h.client().posts('event', m.id)
    assert.equal(fresh.posts[0].agrees, 1)
    offs.forEach((off) => off())
  })

  it('"Agree (optimistic)": agreeing again while an Agree is still pending counts the reader once (+1 shown once, in every store, until and after the service answers)', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const { thread, feed, offs } = await agreeable(vk)
    const shown = () => [thread.get().posts[0], feed.get().posts[0]].map((x) => [x.agreed, x.agrees])
    spy.hold(isReaction)
    const a = vk.postActions().get()
    // Two cards hold the post (the thread's and the feed's); each hands over the post as it shows it.
    const first = a.react(thread.get().posts[0], true)
    assert.deepEqual(shown(), [[true, 1], [true, 1]])
    const again = a.react(feed.get().posts[0], true)
    assert.deepEqual(shown(), [[true, 1], [true, 1]], 'still +1 once while both writes are pending')
    spy.release()
    const [, r] = await Promise.all([first, again])
    assert.deepEqual([r.agreed, r.agrees], [true, 1])
    assert.deepEqual(shown(), [[true, 1], [true, 1]], 'the service counts the reader once too')
    offs.forEach((off) => off())
  })

  it('"Agree (optimistic, rolls back)": a failed earlier Agree does not roll back a later successful one (the same post agreed again, another post agreed meanwhile)', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const { thread, feed, offs } = await agreeable(vk, 2)
    const [first, second] = thread.get().posts.map((p) => p.id)
    const shown = () =>
      [thread, feed].map((s) => [first, second].map((id) => s.get().posts.find((p) => p.id === id)!).map((x) => [x.agreed, x.agrees]))
    const a = vk.postActions().get()
    // The first Agree fails, and its answer is held until after the later ones succeeded.
    failAndHold(spy, 1)
    const failed = a.react(thread.get().posts[0], true)
    const again = await a.react(feed.get().posts.find((p) => p.id === first)!, true)
    assert.deepEqual([again.agreed, again.agrees], [true, 1])
    await a.react(thread.get().posts[1], true)
    assert.deepEqual(shown(), [[[true, 1], [true, 1]], [[true, 1], [true, 1]]])
    spy.release()
    await assert.rejects(failed, (e: unknown) => e instanceof HttpError && e.status === 500)
    assert.deepEqual(shown(), [[[true, 1], [true, 1]], [[true, 1], [true, 1]]], 'the later Agrees stand')
    offs.forEach((off) => off())
  })

  it('"Agree (optimistic, rolls back)": an optimistic override does not outlive newer reads: once the write has settled, a fresh read shows the service\'s count', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const ag = await agreeable(vk)
    const r = await vk.postActions().get().react(ag.thread.get().posts[0], true)
    assert.deepEqual([r.agreed, r.agrees], [true, 1])
    // Another reader agrees: the next reads of the post count 2.
    await nextReadsCount2(ag)
    ag.offs.forEach((off) => off())
  })

  it('"Agree (optimistic, rolls back)": a take-back that fails after the Agree before it succeeded shows the service\'s answer, and newer reads replace it', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const ag = await agreeable(vk)
    const { thread, feed, offs } = ag
    const shown = () => [thread.get().posts[0], feed.get().posts[0]].map((x) => [x.agreed, x.agrees])
    const a = vk.postActions().get()
    // Agree, and take it back at once (another card): the take-back fails, answered after the Agree succeeded.
    failAndHold(spy, 2)
    const agree = a.react(thread.get().posts[0], true)
    const takeBack = a.react(feed.get().posts[0], false)
    assert.deepEqual(shown(), [[false, 0], [false, 0]])
    const r = await agree
    assert.deepEqual([r.agreed, r.agrees], [true, 1])
    spy.release()
    await assert.rejects(takeBack, (e: unknown) => e instanceof HttpError && e.status === 500)
    assert.deepEqual(shown(), [[true, 1], [true, 1]], 'rolled back to what the service holds: the Agree')
    // Not a pending write's override kept for good: the next reads count another reader's Agree.
    await nextReadsCount2(ag)
    offs.forEach((off) => off())
  })

  it('"Agree (optimistic, rolls back)": when an Agree and the take-back after it both fail, the post rolls back to what the service holds (no Agree)', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const { thread, feed, offs } = await agreeable(vk)
    const shown = () => [thread.get().posts[0], feed.get().posts[0]].map((x) => [x.agreed, x.agrees])
    const a = vk.postActions().get()
    spy.fail(isReaction)
    const agree = a.react(thread.get().posts[0], true)
    const takeBack = a.react(feed.get().posts[0], false)
    assert.deepEqual(shown(), [[false, 0], [false, 0]])
    await assert.rejects(agree, (e: unknown) => e instanceof HttpError && e.status === 500)
    await assert.rejects(takeBack, (e: unknown) => e instanceof HttpError && e.status === 500)
    assert.deepEqual(shown(), [[false, 0], [false, 0]], 'neither write reached the service')
    spy.fail(null)
    offs.forEach((off) => off())
  })

  it('"Agree (optimistic, rolls back)": three reacts at once (Agree, take-back, Agree), the last two failing, the middle one first: the post rolls back through the failed one to the Agree that succeeded, and newer reads replace it', async (t) => {
    // Each reaction write waits for its own gate; `fails` answers it 500 without reaching the service.
    const gates = [0, 1, 2].map(() => {
      let resolve!: () => void
      const promise = new Promise<void>((r) => (resolve = r))
      return { promise, resolve }
    })
    const fails = [false, true, true]
    let sent = 0
    const gated = (async (input: string | URL | Request, init?: RequestInit) => {
      if (!isReaction(new URL(String(input)), init?.method ?? 'GET')) return fetch(input, init)
      const k = sent++
      const r = fails[k]
        ? new Response(JSON.stringify({ error: { code: 'internal', message: 'injected failure' } }), { status: 500, headers: { 'content-type': 'application/json' } })
        : await fetch(input, init)
      await gates[k].promise
      return r
    }) as typeof fetch
    const vk = page(env, { fetch: gated })
    t.after(() => vk.dispose())
    const ag = await agreeable(vk)
    const { thread, feed, offs } = ag
    const shown = () => [thread.get().posts[0], feed.get().posts[0]].map((x) => [x.agreed, x.agrees])
    const a = vk.postActions().get()
    const agree = a.react(thread.get().posts[0], true)
    const takeBack = a.react(feed.get().posts[0], false)
    const again = a.react(thread.get().posts[0], true)
    assert.deepEqual(shown(), [[true, 1], [true, 1]])
    gates[1].resolve()
    await assert.rejects(takeBack, (e: unknown) => e instanceof HttpError && e.status === 500)
    gates[0].resolve()
    const r = await agree
    assert.deepEqual([r.agreed, r.agrees], [true, 1])
    gates[2].resolve()
    await assert.rejects(again, (e: unknown) => e instanceof HttpError && e.status === 500)
    assert.deepEqual(shown(), [[true, 1], [true, 1]], 'what the service holds: the first Agree')
    // No pending write's override is left for good: the next reads count another reader's Agree.
    await nextReadsCount2(ag)
    offs.forEach((off) => off())
  })

  it('"Agree (optimistic, rolls back)" on a reply too: the reply\'s count moves before the service answers, in the thread and the feed, and rolls back on failure', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const { thread, feed, offs, post, author, m } = await agreeable(vk)
    const reply = await author.createPost('event', m.id, 'a reply', post.id)
    thread.get().refresh()
    feed.get().refresh()
    await until(thread, (v) => v.threads[post.id]?.length === 1)
    await until(feed, (v) => v.threads[post.id]?.length === 1)
    const shown = () => [thread.get().threads[post.id][0], feed.get().threads[post.id][0]].map((x) => [x.id, x.agreed, x.agrees])
    assert.deepEqual(shown(), [[reply.id, false, 0], [reply.id, false, 0]])
    spy.fail(isReaction)
    spy.hold(isReaction)
    const agree = vk.postActions().get().react(thread.get().threads[post.id][0], true)
    assert.deepEqual(shown(), [[reply.id, true, 1], [reply.id, true, 1]], 'optimistic before the service answers')
    spy.release()
    await assert.rejects(agree, (e: unknown) => e instanceof HttpError && e.status === 500)
    assert.deepEqual(shown(), [[reply.id, false, 0], [reply.id, false, 0]], 'rolled back')
    spy.fail(null)
    offs.forEach((off) => off())
  })

  it('"a store never shows the previous reader\'s answer": an Agree whose answer lands after another reader signed in is not shown to that reader', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const author = await env.h.signedIn()
    await author.createPost('event', m.id, 'agree with me')
    await signInOn(vk, env)
    const thread = vk.comments('event', m.id)
    const off = mount(thread)
    await until(thread, (v) => v.posts.length === 1 && v.posts[0].agreed === false)
    // Reader A agrees; the answer is held while reader B signs in and the thread is read for B.
    spy.hold((u, method) => method === 'POST' && u.pathname.endsWith('/reactions'))
    const agreed = vk.postActions().get().react(thread.get().posts[0], true)
    await signInOn(vk, env)
    await until(thread, (v) => !v.loading && v.posts.length === 1)
    spy.release()
    await agreed
    await tick(50)
    assert.equal(thread.get().posts[0].agreed, false, "B has not agreed: A's agree is not shown to B")
    assert.equal(thread.get().posts[0].agrees, 1, 'the count is the service\'s')
    off()
  })

  it('§2.4 loadMore: a re-read first page drops no row: a post that new rows pushed past its end, before the next page\'s cursor, stays in the list (author pages, 20 per page)', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const author = await signInOn(vk, env)
    const topic = `pushed-${Date.now().toString(36)}`
    const a = vk.postActions().get()
    const written: string[] = []
    for (let i = 0; i < 21; i++) written.push((await a.create('topic', topic, `post ${i + 1}`)).id)
    const s = vk.authorTakes(author.wallet)
    const off = mount(s)
    let v = await until(s, (v) => v.discussion.posts.length === 20 && v.discussion.hasMore)
    await v.discussion.loadMore()
    v = await until(s, (v) => v.discussion.posts.length === 21 && !v.discussion.loadingMore)
    assert.deepEqual(v.discussion.posts.map((p) => p.id), [...written].reverse())
    // A new post: page 1 is read again ([new, 21 … 3]); post 2 was page 1's last row and is on neither page 1 nor page 2 ([1]).
    const fresh = await a.create('topic', topic, 'post 22')
    v = await until(s, (v) => v.discussion.posts[0]?.id === fresh.id && !v.discussion.loading)
    assert.deepEqual(v.discussion.posts.map((p) => p.id), [fresh.id, ...[...written].reverse()], 'every post once, in order')
    // A deleted row is not brought back by what was kept.
    await a.remove(written[10])
    v = await until(s, (v) => !v.discussion.posts.some((p) => p.id === written[10]) && !v.discussion.loading)
    assert.deepEqual(v.discussion.posts.map((p) => p.id), [fresh.id, ...[...written].reverse().filter((id) => id !== written[10])])
    off()
  })

  it('§7.1 "Every client write action throws on failure": create, edit, remove, react and report throw', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const a = vk.postActions().get()
    const m = await env.h.addMarket()
    await assert.rejects(a.create('event', m.id, 'signed out'), (e: unknown) => e instanceof VenuekitError && e.code === 'unauthenticated')
    await signInOn(vk, env)
    await assert.rejects(a.create('event', m.id, '   '), (e: unknown) => e instanceof VenuekitError && e.code === 'validation')
    await assert.rejects(a.edit('p_0000000000notthere', 'x'), (e: unknown) => e instanceof HttpError && e.status === 404)
    await assert.rejects(a.remove('p_0000000000notthere'), (e: unknown) => e instanceof HttpError && e.status === 404)
    await assert.rejects(a.react({ id: 'p_0000000000notthere', agrees: 0 }), (e: unknown) => e instanceof HttpError && e.status === 404)
    await assert.rejects(a.report('p_0000000000notthere', 'spam'), (e: unknown) => e instanceof HttpError && e.status === 404)
    assert.equal(vk.postActions().get().pending, false)
  })

  it('§4.5.2 "Do not send a stance": create sends no stance, and the post carries the stance the service proved', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const w = await signInOn(vk, env)
    const m = await env.h.addMarket()
    await env.h.setPosition(w.wallet, m.id, 1, '3000000')
    const p = await vk.postActions().get().create('event', m.id, 'I hold No')
    const body = spy.to('/v1/social/posts', 'POST')[0].body as Record<string, unknown>
    assert.equal('stance' in body, false)
    assert.deepEqual(p.stance, { side: 1, size: '3000000', priceBps: 6000 })
  })

  it('create, edit and remove re-read the thread and the feed; a room post refused for a non-member throws the spec message', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    await signInOn(vk, env)
    const m = await env.h.addMarket()
    const thread = vk.comments('event', m.id)
    const feed = vk.feed('subject', { subjectType: 'event', subjectRef: m.id })
    const offs = [thread, feed].map(mount)
    await until(thread, (v) => !v.loading)
    await until(feed, (v) => !v.loading)
    const a = vk.postActions().get()
    const p = await a.create('event', m.id, 'hello')
    await until(feed, (v) => v.posts.length === 1)
    await a.edit(p.id, 'hello again')
    await until(thread, (v) => v.posts[0]?.body === 'hello again')
    await until(feed, (v) => v.posts[0]?.body === 'hello again')
    await a.remove(p.id)
    await until(thread, (v) => v.posts.length === 0)
    await until(feed, (v) => v.posts.length === 0)
    const venue = await env.h.venue()
    const roomId = await env.h.room(venue, { type: 'org', ref: `org-${Date.now()}` })
    await assert.rejects(a.create('event', m.id, 'in a room', { room: roomId }), (e: unknown) => e instanceof HttpError && e.message === MSG.JOIN_TO_POST)
    offs.forEach((off) => off())
  })
})

describe('block and unblock (§4.2 writes; the service: "a reader never sees posts by accounts they blocked")', () => {
  const ids = (ps: { id: string }[]) => ps.map((p) => p.id)

  it('"a reader never sees posts by accounts they blocked": block(wallet) re-reads every shown list at once, so the author\'s takes and replies leave the thread and the feed, and the earlier replies kept for a parent are dropped; unblock brings them back', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const other = await env.h.signedIn()
    const blocked = await env.h.signedIn()
    const parent = await other.createPost('event', m.id, 'a busy take')
    const early = await blocked.createPost('event', m.id, 'an early reply by the author to block', parent.id)
    for (let i = 0; i < 50; i++) await other.createPost('event', m.id, `reply ${i + 1}`, parent.id)
    const take = await blocked.createPost('event', m.id, 'a take by the author to block')
    await signInOn(vk, env)
    const thread = vk.comments('event', m.id)
    const feed = vk.feed('subject', { subjectType: 'event', subjectRef: m.id })
    const offs = [thread, feed].map(mount)
    t.after(() => offs.forEach((off) => off()))
    let v = await until(thread, (v) => v.posts.length === 2 && v.threads[parent.id]?.length === 50)
    await v.earlier(v.posts.find((p) => p.id === parent.id)!)!.loadMore()
    assert.ok(ids(thread.get().threads[parent.id]).includes(early.id), 'the earlier reply is kept and shown')
    await until(feed, (v) => v.posts.length === 2)
    // Quiet: no change is on its way, so only the block makes the lists read again.
    await tick(300)
    spy.reset()

    const actions = vk.postActions()
    const blocking = actions.get().block(blocked.w.wallet)
    assert.equal(actions.get().pending, true, 'a write in flight')
    assert.deepEqual(await blocking, { blocked: true, wallet: blocked.w.wallet.toLowerCase() })
    assert.equal(actions.get().pending, false)
    assert.ok(!ids(thread.get().threads[parent.id] ?? []).includes(early.id), 'the kept earlier replies are dropped at once')
    v = await until(thread, (v) => ids(v.posts).join() === parent.id && !v.refreshing, 5000, 'the thread read again without the blocked author')
    assert.ok(!ids(v.threads[parent.id]).includes(early.id))
    await until(feed, (v) => ids(v.posts).join() === parent.id, 5000, 'the feed read again without the blocked author')
    const reads = spy.calls.filter((c) => c.method === 'GET').map((c) => c.url.pathname)
    assert.ok(reads.length >= 2, `the shown lists were read again: ${reads.join(', ')}`)

    spy.reset()
    assert.deepEqual(await actions.get().unblock(blocked.w.wallet), { blocked: false, wallet: blocked.w.wallet.toLowerCase() })
    await until(thread, (v) => ids(v.posts).includes(take.id) && v.posts.length === 2, 5000, 'the thread read again with the author')
    await until(feed, (v) => v.posts.length === 2, 5000, 'the feed read again with the author')
  })

  it('§7.1 "Every client write action throws on failure": block and unblock throw, and nothing shown changes', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const author = await env.h.signedIn()
    await author.createPost('event', m.id, 'still here')
    const a = vk.postActions().get()
    await assert.rejects(a.block(author.w.wallet), (e: unknown) => e instanceof VenuekitError && e.code === 'unauthenticated')
    const me = await signInOn(vk, env)
    const thread = vk.comments('event', m.id)
    const off = mount(thread)
    t.after(off)
    await until(thread, (v) => v.posts.length === 1)
    await assert.rejects(a.block('not a wallet'), (e: unknown) => e instanceof VenuekitError && e.code === 'validation')
    await assert.rejects(a.block(me.wallet), (e: unknown) => e instanceof HttpError && e.status === 400 && e.message === "you can't block yourself")
    spy.fail((u, method) => method === 'POST' && u.pathname === '/v1/social/blocks')
    await assert.rejects(a.block(author.w.wallet), (e: unknown) => e instanceof HttpError && e.status === 500)
    spy.fail(null)
    assert.equal(vk.postActions().get().pending, false)
    await tick(100)
    assert.equal(thread.get().posts.length, 1, 'nothing was blocked')
  })
})

describe('moderation (§2.10, §4.2)', () => {
  it('§7 "Moderation read by someone who cannot moderate the venue: forbidden state, distinct from an empty queue"', async (t) => {
    const venue = await env.h.venue()
    const vk = page(env)
    t.after(() => vk.dispose())
    await signInOn(vk, env)
    const s = vk.moderationQueue({ venueId: venue.venueId })
    const v = await until(s, (v) => v.forbidden)
    assert.equal(v.error, null)
    assert.deepEqual(v.items, [])
    assert.equal(v.loading, false)
  })

  it('§7 the forbidden state is "someone who cannot moderate" only: a 403 of another kind (the page\'s origin not on the venue\'s list) is an error', async (t) => {
    const venue = await env.h.venue()
    const put = await fetch(`${env.svc.url}/v1/venues/${venue.venueId}/origins`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${venue.owner.session!.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ origins: ['https://venue.example'] }),
    })
    assert.equal(put.status, 200)
    // The venue's owner, keyed, on a page whose origin the venue does not list.
    const elsewhere = ((input: string | URL | Request, init?: RequestInit) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: 'https://elsewhere.example' } })) as typeof fetch
    const vk = page(env, { fetch: elsewhere, config: { apiKey: venue.key } })
    t.after(() => vk.dispose())
    vk.client.setSession(venue.owner.session)
    const s = vk.moderationQueue({ venueId: venue.venueId })
    const v = await until(s, (v) => v.error != null, 5000, 'the error')
    assert.equal(v.forbidden, false)
    assert.equal((v.error as HttpError).code, 'origin-not-allowed')
  })

  it('"Moderation writes are not optimistic": the queue changes only after the service answered; a refused action throws and sets error', async (t) => {
    const operator = privateKeyToAccount(OPERATOR_KEY)
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const author = await env.h.signedIn()
    const p = await author.createPost('event', m.id, 'report me')
    for (let i = 0; i < 3; i++) await (await env.h.signedIn()).reportPost(p.id, 'spam')
    await vk.signIn({ address: operator.address, signMessage: (message) => operator.signMessage({ message }) })
    const queue = vk.moderationQueue()
    const off = mount(queue)
    const v = await until(queue, (v) => v.items.some((i) => i.post.id === p.id))
    assert.equal(v.forbidden, false)
    const mod = vk.moderate()
    const act = mod.get().keep(p.id)
    assert.equal(mod.get().pending, true)
    assert.ok(queue.get().items.some((i) => i.post.id === p.id), 'not optimistic: still in the open queue while the write is in flight')
    const r = await act
    assert.equal(r.item!.state, 'actioned')
    await until(queue, (v) => !v.items.some((i) => i.post.id === p.id), 5000, 'the queue re-read after the answer')
    assert.equal(mod.get().pending, false)
    await assert.rejects(mod.get().hide('p_0000000000notthere'), HttpError)
    assert.ok(mod.get().error instanceof HttpError)
    off()
    await tick()
  })

  it('"a failure is kept in error" for the reader who acted: after a sign-out or another sign-in, moderate() shows no error or pending of the previous moderator', async (t) => {
    const operator = privateKeyToAccount(OPERATOR_KEY)
    const opWallet = { address: operator.address, signMessage: (message: string) => operator.signMessage({ message }) }
    const vk = page(env)
    t.after(() => vk.dispose())
    const v = await env.h.venue()
    const mod = vk.moderate()
    const off = mount(mod)
    // The operator's action is refused: their error.
    await vk.signIn(opWallet)
    await assert.rejects(mod.get().hide('p_0000000000notthere'), HttpError)
    assert.ok(mod.get().error instanceof HttpError)
    // Signed out: nobody's error.
    await vk.signOut()
    assert.equal(mod.get().error, null, 'signed out: not the previous moderator\'s error')
    // Another reader signs in: still none.
    await vk.signIn(v.owner.w)
    assert.equal(mod.get().error, null, 'another reader: not the previous moderator\'s error')
    assert.equal(mod.get().pending, false)
    // A write of the previous reader that fails after the switch leaves the new reader's state alone.
    await vk.signOut()
    await vk.signIn(opWallet)
    const late = mod.get().hide('p_0000000000notthere').then(() => null, (e: unknown) => e)
    assert.equal(mod.get().pending, true)
    await vk.signOut()
    await vk.signIn(v.owner.w)
    assert.equal(mod.get().pending, false, 'the operator\'s write in flight is not the new reader\'s')
    assert.ok((await late) instanceof HttpError, 'it failed')
    assert.equal(mod.get().error, null)
    assert.equal(mod.get().pending, false)
    off()
    await tick()
  })
})
