/**
 * The page's read cache (src/stores/query.ts) and §6.1 "`onComments` … fires when the thread changes. The
 * callback carries no payload; the client must refetch": a change announced while the thread is already being
 * read is read again after that read, because the running read's answer can predate the change.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { atom } from 'nanostores'
import { createQueryCache } from '../../src/stores/query.ts'
import { mount, page, signInOn, startEnv, tick, until, type Env } from './helpers.ts'

/** A fetcher whose answers the test gives, one per call, in order. */
function held<T>() {
  const calls: { parts: string[]; resolve: (v: T) => void; reject: (e: unknown) => void }[] = []
  const fetcher = (...parts: string[]) => new Promise<T>((resolve, reject) => void calls.push({ parts, resolve, reject }))
  return { calls, fetcher }
}
const settle = () => tick(5)
/** Polls until `ok()` (a re-read is scheduled on a timer: a loaded machine may run it late). */
async function waitFor(ok: () => boolean, what: string) {
  for (const end = Date.now() + 2000; !ok(); await tick(5)) if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
}
/** A store's value without its unset fields. */
const shown = (v: object) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined))

describe('the read cache', () => {
  it('a re-read asked for while the same key is being read is made once that read settles, and its answer shown', async () => {
    const q = createQueryCache(60_000)
    const f = held<string>()
    const s = q.store(['thread|a'], f.fetcher)
    const off = mount(s)
    assert.equal(f.calls.length, 1)
    s.revalidate()
    q.revalidate((k) => k.startsWith('thread|'))
    assert.equal(f.calls.length, 1, 'not two reads of one key at once')
    assert.equal(s.get().loading, true)
    f.calls[0].resolve('before the change')
    await waitFor(() => f.calls.length >= 2, 'the read once more')
    await settle()
    assert.equal(f.calls.length, 2, 'read once more (both asks fold into one)')
    assert.deepEqual(shown(s.get()), { data: 'before the change', loading: true }, 'the shown data stays while it is read again')
    f.calls[1].resolve('after the change')
    await settle()
    assert.deepEqual(shown(s.get()), { data: 'after the change', loading: false })
    assert.equal(f.calls.length, 2)
    off()
  })

  it(`a mount or a new listener reads the key unless the cache holds an answer younger than the dedupe time; a re-read marks it stale`, async () => {
    const q = createQueryCache(60_000)
    const f = held<number>()
    const s = q.store(['k'], f.fetcher)
    const off1 = mount(s)
    f.calls[0].resolve(1)
    await settle()
    const off2 = mount(s)
    off1()
    off2()
    const again = q.store(['k'], f.fetcher)
    const off3 = mount(again)
    assert.equal(f.calls.length, 1, 'answered from the cache')
    assert.deepEqual(shown(again.get()), { data: 1, loading: false })
    q.revalidate('k')
    assert.equal(f.calls.length, 2)
    assert.deepEqual(shown(again.get()), { data: 1, loading: true })
    f.calls[1].resolve(2)
    await settle()
    assert.deepEqual(shown(again.get()), { data: 2, loading: false })
    off3()
  })

  it('a key with a missing part (signed out, for a signed-in read) reads nothing; the part arriving reads it, with the parts as the fetcher\'s arguments', async () => {
    const q = createQueryCache(60_000)
    const f = held<string>()
    const $account = atom<string | null>(null)
    const s = q.store(['me|', '@', $account], f.fetcher)
    const off = mount(s)
    assert.deepEqual([f.calls.length, shown(s.get()), s.key], [0, { loading: false }, undefined])
    $account.set('a_1')
    assert.deepEqual(f.calls[0].parts, ['me|', '@', 'a_1'])
    assert.equal(s.key, 'me|@a_1')
    f.calls[0].resolve('mine')
    await settle()
    assert.deepEqual(shown(s.get()), { data: 'mine', loading: false })
    $account.set(null)
    assert.deepEqual(shown(s.get()), { loading: false })
    off()
  })

  it("an answer for the previous key (the reader changed while it was read) is never shown for the new one", async () => {
    const q = createQueryCache(60_000)
    const f = held<string>()
    const $viewer = atom('a')
    const s = q.store(['x|', '@', $viewer], f.fetcher)
    const off = mount(s)
    $viewer.set('b')
    assert.equal(f.calls.length, 2)
    f.calls[0].resolve("a's answer")
    await settle()
    assert.deepEqual(shown(s.get()), { loading: true })
    f.calls[1].resolve("b's answer")
    await settle()
    assert.deepEqual(shown(s.get()), { data: "b's answer", loading: false })
    off()
  })

  it('a failed re-read keeps the shown data with its error and is not retried by itself; mutate shows an answer at once', async () => {
    const q = createQueryCache(60_000)
    const f = held<string>()
    const s = q.store(['k'], f.fetcher)
    const off = mount(s)
    f.calls[0].resolve('shown')
    await settle()
    s.revalidate()
    const boom = new Error('down')
    f.calls[1].reject(boom)
    await settle()
    assert.deepEqual(shown(s.get()), { data: 'shown', error: boom, loading: false })
    await tick(50)
    assert.equal(f.calls.length, 2, 'no retry of its own')
    s.mutate('written')
    assert.deepEqual(shown(s.get()), { data: 'written', loading: false })
    const other = q.store(['k'], f.fetcher)
    const off2 = mount(other)
    assert.deepEqual([shown(other.get()), f.calls.length], [{ data: 'written', loading: false }, 2], 'cached')
    off2()
    off()
  })
  it('a store made for a key another (since released) store is still reading waits for that read and shows its answer', async () => {
    const q = createQueryCache(60_000)
    const f = held<string>()
    const first = q.store(['k'], f.fetcher)
    mount(first)() // mounted, read started, unmounted before the answer
    const second = q.store(['k'], f.fetcher)
    const off = mount(second)
    assert.deepEqual([f.calls.length, shown(second.get())], [1, { loading: true }], 'no second read of the key')
    f.calls[0].resolve('the answer')
    await waitFor(() => !second.get().loading, 'the answer shown')
    assert.deepEqual(shown(second.get()), { data: 'the answer', loading: false })
    assert.equal(f.calls.length, 1)
    off()
  })

  it("a read still running when `mutate` shows a newer answer does not overwrite it; the key is read again", async () => {
    const q = createQueryCache(60_000)
    const f = held<string>()
    const s = q.store(['k'], f.fetcher)
    const off = mount(s)
    f.calls[0].resolve('old')
    await settle()
    s.revalidate()
    s.mutate('written')
    f.calls[1].resolve('read before the write')
    await waitFor(() => f.calls.length === 3, 'the read again')
    assert.deepEqual(shown(s.get()), { data: 'written', loading: true })
    f.calls[2].resolve('after the write')
    await settle()
    assert.deepEqual(shown(s.get()), { data: 'after the write', loading: false })
    off()
  })

  it('a failed read keeps the cached answer while read again (Retry shows the page, not a skeleton)', async () => {
    const q = createQueryCache(60_000)
    const f = held<string>()
    const s = q.store(['k'], f.fetcher)
    const off = mount(s)
    f.calls[0].resolve('page')
    await settle()
    s.revalidate()
    f.calls[1].reject(new Error('down'))
    await settle()
    s.revalidate()
    assert.deepEqual(shown(s.get()), { data: 'page', loading: true })
    f.calls[2].resolve('page again')
    await settle()
    assert.deepEqual(shown(s.get()), { data: 'page again', loading: false })
    off()
  })
})

describe('§6.1 live changes while the thread is being read (real service)', () => {
  let env: Env
  before(async () => {
    env = await startEnv()
  })
  after(() => env.svc.close())

  const within = <T>(p: Promise<T>, what: string) =>
    Promise.race([p, tick(5000).then(() => Promise.reject(new Error(`timed out waiting for ${what}`)))])

  /** A fetch whose next thread read is held after the service answered it, until released. */
  function holdingFetch() {
    let hold: { answered: () => void; release: Promise<void> } | null = null
    const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const res = await fetch(input, init)
      if (hold && new URL(String(input)).pathname === '/v1/social/posts' && (init?.method ?? 'GET') === 'GET') {
        const h = hold
        hold = null
        h.answered()
        await h.release
      }
      return res
    }) as typeof fetch
    const holdNext = () => {
      let release!: () => void
      const released = new Promise<void>((r) => (release = r))
      const answered = new Promise<void>((r) => (hold = { answered: r, release: released }))
      return { answered, release }
    }
    return { fetchImpl, holdNext }
  }

  it('§6.1 "the client must refetch": a post announced while the thread\'s re-read is in flight (answered before the post existed) reaches the thread', async (t) => {
    const { fetchImpl, holdNext } = holdingFetch()
    const vk = page(env, { fetch: fetchImpl })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const other = await env.h.signedIn()
    const s = vk.comments('event', m.id)
    const off = mount(s)
    await until(s, (v) => !v.loading && !v.refreshing)
    // Let the stream subscription settle before the change.
    await tick(300)
    const h = holdNext()
    const p1 = await other.createPost('event', m.id, 'one')
    await within(h.answered, "p1's re-read") // it has its answer, without p2
    const p2 = await other.createPost('event', m.id, 'two')
    await until(vk.events({ limit: 10 }), (v) => v.events.length >= 2, 5000, "p2's change event")
    h.release()
    const v = await until(s, (v) => v.newCount === 2, 5000, 'both posts read')
    v.showNew()
    assert.deepEqual(s.get().posts.map((p) => p.id).slice(0, 2), [p2.id, p1.id])
    off()
  })

  it("the reader's own post, written while the thread is being re-read (a Retry, another reader's change), appears", async (t) => {
    const { fetchImpl, holdNext } = holdingFetch()
    const vk = page(env, { fetch: fetchImpl })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    await signInOn(vk, env)
    const s = vk.comments('event', m.id)
    const off = mount(s)
    await until(s, (v) => !v.loading && !v.refreshing)
    const h = holdNext()
    s.get().refresh()
    await within(h.answered, 'the re-read')
    const p = await vk.postActions().get().create('event', m.id, 'mine')
    h.release()
    await until(s, (v) => v.posts.some((x) => x.id === p.id), 5000, 'the own post shown')
    off()
  })
})
