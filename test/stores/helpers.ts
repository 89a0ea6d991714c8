/**
 * Store tests run against a real reference service (dev fixture routes on, a known operator), through
 * the SDK harness: wallets that sign with viem, markets and positions through the dev routes, venues,
 * keys and rooms through the public API. One page context at a time: every test disposes its own.
 */
import '../helpers/assert-messages.ts'
import assert from 'node:assert/strict'
import WebSocket from 'ws'
import type { ReadableAtom } from 'nanostores'
import type { SocketConstructor } from '../../src/sdk/index.ts'
import { createVenuekit, type Venuekit, type VenuekitOptions } from '../../src/stores/index.ts'
import type { ClientConfig } from '../../src/sdk/config.ts'
import { startSdkFixture } from '../helpers/sdk-fixture.ts'
import type { TestService } from '../helpers/service.ts'
import { harness, type Harness, type TestWallet } from '../sdk/harness.ts'

export const WS = WebSocket as unknown as SocketConstructor

export interface Env {
  svc: TestService
  h: Harness
}

export async function startEnv(o: Parameters<typeof startSdkFixture>[0] = {}): Promise<Env> {
  const svc = await startSdkFixture(o)
  return { svc, h: harness({ url: svc.url, streamUrl: svc.streamUrl, WebSocketImpl: WS }) }
}

/** A recording fetch around the real one; `fail(pred)` makes matching requests fail with a 500. */
export function spyFetch() {
  const calls: { method: string; url: URL; body: unknown }[] = []
  let failing: ((u: URL, method: string) => boolean) | null = null
  let holding: ((u: URL, method: string) => boolean) | null = null
  let held = Promise.resolve()
  let letGo = () => {}
  let reached = Promise.resolve()
  let onReach = () => {}
  const f = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input))
    const method = init?.method ?? 'GET'
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined })
    const r = failing?.(url, method)
      ? new Response(JSON.stringify({ error: { code: 'internal', message: 'injected failure' } }), { status: 500, headers: { 'content-type': 'application/json' } })
      : await fetch(input, init)
    if (holding?.(url, method)) {
      onReach()
      await held
    }
    return r
  }) as typeof fetch
  return {
    fetch: f,
    calls,
    /** Requests to paths starting with `path` (and of `method` when given). */
    to: (path: string, method?: string) => calls.filter((c) => c.url.pathname.startsWith(path) && (!method || c.method === method)),
    fail(pred: ((u: URL, method: string) => boolean) | null) {
      failing = pred
    },
    /** Holds the answers to matching requests (the service has already answered) until `release()`. */
    hold(pred: (u: URL, method: string) => boolean) {
      holding = pred
      held = new Promise((r) => (letGo = r))
      reached = new Promise((r) => (onReach = r))
    },
    /**
     * Resolves once an answer is held: the service has answered the request. Await it before a sign-out, which ends
     * the session on the service: a request still on its way would be refused (session-expired) instead.
     */
    reached: () => reached,
    release() {
      holding = null
      letGo()
    },
    reset: () => void calls.splice(0),
  }
}

/** A page context over the test service. Dispose it at the end of the test (`using`-style: `t.after`). */
export function page(env: Env, o: { config?: ClientConfig; fetch?: typeof fetch } & Omit<VenuekitOptions, 'config' | 'client'> = {}): Venuekit {
  const { config, fetch: f, ...rest } = o
  return createVenuekit({
    config: { baseUrl: env.svc.url, apiKey: null, WebSocketImpl: WS, fetchImpl: f, ...config },
    releaseMs: 50,
    ...rest,
  })
}

/** Subscribes to a store until `pred` holds for its value; resolves with that value (or rejects after `ms`). */
export function until<T>(store: ReadableAtom<T>, pred: (v: T) => boolean, ms = 5000, what = 'the expected value'): Promise<T> {
  return new Promise((resolve, reject) => {
    let off = () => {}
    const timer = setTimeout(() => {
      off()
      reject(new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(store.get(), (_k, v) => (typeof v === 'function' ? undefined : v))}`))
    }, ms)
    off = store.subscribe((v) => {
      if (!pred(v)) return
      clearTimeout(timer)
      queueMicrotask(() => off())
      resolve(v)
    })
  })
}

/** Keeps a store mounted (as an element would) until the returned function is called. */
export const mount = (store: ReadableAtom<any>) => store.listen(() => {})

export const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms))

/** Signs a wallet in on this page's context. */
export async function signInOn(vk: Venuekit, env: Env, w: TestWallet = env.h.wallet()) {
  await vk.signIn(w)
  return w
}

/** What the paged stores (the thread, the feeds) share. */
interface PagedLike {
  posts: unknown[]
  loading: boolean
  refreshing: boolean
  error: unknown
  loadMoreError: unknown
  hasMore: boolean
  loadMore(): Promise<void>
  refresh(): void
}

/**
 * A paged store's failures: a failed first page is `error`, never `loadMoreError` (Retry = `refresh()`); a
 * later page's failure is `loadMoreError` (Retry = `loadMore()`); a failed re-read of page 1 while that
 * stands is `error` again, not `loadMoreError`, with page 1 (`shown` posts) still shown. `reads` matches the
 * store's page requests, `reRead` makes it read page 1 again. Leaves the spy failing nothing.
 */
export async function expectPagedFailures<V extends PagedLike>(spy: ReturnType<typeof spyFetch>, s: ReadableAtom<V>, reads: (u: URL) => boolean, shown: number, reRead: () => unknown) {
  let v = await until(s, (v) => !!v.error && !v.loading)
  assert.equal(v.loadMoreError, null, 'a first page failed: refresh() is the cure')
  spy.fail(null)
  v.refresh()
  v = await until(s, (v) => v.posts.length === shown && !v.error && v.hasMore)
  // A later page fails: loadMoreError.
  spy.fail((u) => reads(u) && u.searchParams.has('cursor'))
  await v.loadMore()
  const later = s.get().loadMoreError
  assert.ok(later, 'the next page failed')
  // Then a re-read of page 1 fails too: the first page's failure is the error.
  spy.fail(reads)
  await reRead()
  v = await until(s, (v) => !!v.error && v.error !== later && !v.refreshing, 5000, "page 1's failed re-read")
  assert.equal(v.loadMoreError, null, 'not a later page: loadMore() would not cure it')
  assert.equal(v.posts.length, shown, 'page 1 stays shown')
  spy.fail(null)
  return later
}
