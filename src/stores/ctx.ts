/**
 * The internal page context every store factory is built on: one SDK client, one session mirror, one
 * read cache (`query.ts`: deduplication, revalidation), and a cache of stores per key of
 * their arguments that releases a store a grace period after its last subscriber leaves.
 */
import { atom, computed, onMount, type ReadableAtom } from 'nanostores'
import type { SessionInfo } from '../contract/types.ts'
import type { VenuekitClient } from '../sdk/client.ts'
import { HttpError } from '../sdk/errors.ts'
import { createQueryCache, type FetcherStore, type FetcherValue } from './query.ts'

/** A read's answer and when the read started (optimistic overrides newer than it still apply). */
export interface Loaded<T> {
  at: number
  v: T
  /** The reader the read was made for ('-' signed out, else the account id). */
  who?: string
}

export interface QueryOptions {
  /** The answer depends on who reads (the default): the key carries the reader's account. */
  viewer?: boolean
  /** Read only when signed in; signed out the store stays empty and makes no request. */
  signedIn?: boolean
  /**
   * A read for the rows of a list (names and avatars, records, markets): after it fails it is read again
   * once a read of another kind succeeds (a list's Retry, a later page, a re-read), so the rows recover
   * with their list instead of keeping a placeholder ("0x67a5…633d", 'Record unavailable') for good.
   */
  recover?: boolean
}

export interface Ctx {
  client: VenuekitClient
  $session: ReadableAtom<SessionInfo | null>
  /** '-' when signed out, else the account id. */
  $viewer: ReadableAtom<string>
  /** One memoized fetcher store per key. */
  query<T>(key: string, load: () => Promise<T>, o?: QueryOptions): FetcherStore<Loaded<T>>
  /** One store per key, kept while subscribed and released `releaseMs` after the last subscriber leaves. */
  keep<S extends ReadableAtom<any>>(key: string, make: () => S): S
  /** Re-reads (keeping the shown data) every cached read whose key starts with one of the prefixes (or passes one of the tests). */
  revalidate(...prefixes: (string | ((key: string) => boolean))[]): void
  /** Clean-ups run by `dispose()`. */
  onDispose(fn: () => void): void
  /**
   * A read made outside `query` succeeded (a later page of a list): failed `recover` reads are read again,
   * as after a successful query.
   */
  readSucceeded(): void
}

const now = () => Date.now()
export const loaded = <T>(at: number, v: T): Loaded<T> => ({ at, v })

/** A stable key of an options object: sorted keys, undefined members left out (JSON leaves them out). */
export const keyOf = (o: Record<string, unknown> | undefined): string => JSON.stringify(Object.fromEntries(Object.entries(o ?? {}).sort()))

/**
 * A set of ids as a key: valid ones only (an id that is not one is never sent, so it cannot fail the
 * batch other stores share), lowercased, deduplicated, sorted.
 */
export const idsOf = (ids: readonly string[], valid: (id: string) => boolean) =>
  [...new Set((Array.isArray(ids) ? ids : []).filter(valid).map((i) => i.toLowerCase()))].sort()

/**
 * The answer of a reader-dependent read, only when it was made for the current reader: right after a
 * login or logout the previous reader's answer is never shown (the new one is read at once).
 */
export const forViewer = <T>(d: Loaded<T> | undefined, viewer: string): T | undefined => (d && d.who === viewer ? d.v : undefined)

/**
 * The read state most stores show of their query: loading only while nothing was read yet (a re-read keeps
 * the data shown), the read's error or null, and `refresh` reading it again (the Retry of an error state).
 */
export const readState = <T>(f: FetcherValue<T>, q: FetcherStore<T>) => ({
  loading: !!f.loading && !f.data,
  error: f.error ?? null,
  refresh: () => q.revalidate(),
})

/** The service's error code of a failed read (`HttpError`), or null (a network failure, a timeout). */
export const codeOf = (e: unknown) => (e instanceof HttpError ? e.code : null)

export function createCtx(client: VenuekitClient, o: { releaseMs: number; dedupeMs: number }): Ctx & { dispose(): void } {
  const { cache, store, revalidate, dispose: stopReading } = createQueryCache(o.dedupeMs)
  const $session = atom<SessionInfo | null>(client.session)
  const offSession = client.onSessionChange((s) => $session.set(s))
  const $viewer = computed($session, (s) => (s ? s.accountId : '-'))
  const $account = computed($session, (s) => (s ? s.accountId : null))
  const stores = new Map<string, ReadableAtom<unknown>>()
  const timers = new Set<ReturnType<typeof setTimeout>>()
  const cleanups: (() => void)[] = [offSession]

  /** Keys of failed `recover` reads: read again (once) after the next successful read of another kind. */
  const failed = new Set<string>()
  let healing: ReturnType<typeof setTimeout> | undefined
  const heal = () => {
    if (!failed.size || healing) return
    const t = (healing = setTimeout(() => {
      timers.delete(t)
      healing = undefined
      const keys = [...failed]
      failed.clear()
      // A failure again puts the key back (the fetcher below).
      revalidate((k) => keys.some((f) => k.startsWith(f)))
    }))
    timers.add(t)
  }

  const keep = <S extends ReadableAtom<any>>(key: string, make: () => S): S => {
    const hit = stores.get(key)
    if (hit) return hit as S
    const s = make()
    stores.set(key, s)
    let t: ReturnType<typeof setTimeout> | undefined
    onMount(s, () => {
      if (t) {
        clearTimeout(t)
        timers.delete(t)
      }
      return () => {
        t = setTimeout(() => {
          timers.delete(t!)
          if (stores.get(key) !== s) return
          stores.delete(key)
          // The reads of a released query store leave the cache too (memory stays bounded).
          if (key.startsWith('q:')) for (const k of cache.keys()) if (k.startsWith(key.slice(2))) cache.delete(k)
        }, o.releaseMs)
        timers.add(t)
      }
    })
    return s
  }

  return {
    client,
    $session,
    $viewer,
    query<T>(key: string, load: () => Promise<T>, qo: QueryOptions = {}) {
      return keep(`q:${key}`, () => {
        const input = qo.signedIn ? [key, '@', $account] : qo.viewer === false ? [key] : [key, '@', $viewer]
        return store<Loaded<T>>(input, () => {
          const at = now()
          const who = $viewer.get()
          return load().then(
            (v) => {
              if (qo.recover) failed.delete(key)
              else heal()
              return { at, v, who }
            },
            (e: unknown) => {
              if (qo.recover) failed.add(key)
              throw e
            },
          )
        })
      })
    },
    keep,
    revalidate: (...prefixes) => revalidate((k) => prefixes.some((p) => (typeof p == 'string' ? k.startsWith(p) : p(k)))),
    onDispose: (fn) => void cleanups.push(fn),
    readSucceeded: heal,
    dispose() {
      stopReading()
      cleanups.splice(0).forEach((fn) => fn())
      timers.forEach(clearTimeout)
      timers.clear()
      failed.clear()
      healing = undefined
      stores.clear()
      cache.clear()
    },
  }
}
