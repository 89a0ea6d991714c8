/**
 * The page's read cache: keyed fetcher stores (cached, deduplicated, revalidated), the part of
 * `@nanostores/query` the stores use, and one rule it lacks. A store's key is its parts joined; a part
 * may be a store (the reader), and a key with a null part is no key (no read: signed out).
 * - Mounting a store, or a new listener on it, reads its key unless the cache holds an answer younger than
 *   `dedupeMs`; the shown data stays while a re-read runs (`loading` with `data`).
 * - `revalidate(selector)` marks the matching answers stale and re-reads the mounted ones. A re-read asked
 *   for while the same key is being read is not dropped: the key is read once more when that read settles,
 *   since its answer could predate the change that asked (a live event, the reader's own post).
 * - A failed read keeps the shown data with its `error` (also while read again); it is not retried by
 *   itself (the elements' Retry).
 * - `mutate` shows an answer at once; a read that was running then does not overwrite it (it is read again).
 * - A store made for a key another store is still reading (that one released meanwhile) waits for that read.
 * - While the page is hidden nothing is read; becoming visible again, or coming back online, re-reads
 *   every mounted store whose answer is stale.
 */
import { map, onStart, onStop, type MapStore, type ReadableAtom } from 'nanostores'

export interface FetcherValue<T> {
  data?: T
  error?: unknown
  loading: boolean
}

export interface FetcherStore<T> extends MapStore<FetcherValue<T>> {
  /** The current key (parts joined), or undefined without one. */
  key?: string
  /** Re-reads this store's key (keeping the shown data). */
  revalidate(): void
  /** Puts an answer in the cache and shows it. */
  mutate(data: T): void
}

type Part = string | ReadableAtom<string | null>
type Selector = string | ((key: string) => boolean)

interface Entry {
  data?: unknown
  error?: unknown
  at: number
}

export function createQueryCache(dedupeMs: number) {
  const cache = new Map<string, Entry>()
  /**
   * Keys being read: the read (settled once its answer is cached) and whether a re-read was asked for
   * meanwhile. A store that finds its key being read (another store made it, since released) waits for it.
   */
  const running = new Map<string, { done: Promise<void>; again: boolean }>()
  /** Mounted stores: their re-read. */
  const mounted = new Set<{ key?: string; run(): void }>()
  let visible = true
  const all = () => mounted.forEach((m) => m.run())
  const shown = () => (visible = !document.hidden) && all()
  const web = typeof document == 'object'
  if (web) {
    addEventListener('visibilitychange', shown)
    addEventListener('online', all)
  }
  const hits = (s: Selector, k: string) => (typeof s == 'string' ? s == k : s(k))

  const revalidate = (s: Selector) => {
    for (const [k, e] of cache) if (hits(s, k)) e.at = -Infinity
    running.forEach((r, k) => hits(s, k) && (r.again = true))
    mounted.forEach((m) => m.key && hits(s, m.key) && m.run())
  }

  const store = <T>(parts: Part[], fetcher: (...parts: string[]) => Promise<T>): FetcherStore<T> => {
    const $ = map<FetcherValue<T>>({ loading: false }) as FetcherStore<T>
    const keyOf = () => {
      const v = parts.map((p) => (typeof p == 'string' ? p : p.get()))
      return v.every((x) => x != null) ? (v as string[]) : null
    }
    const cur = () => $.value as FetcherValue<T>
    const run = (): void => {
      const v = keyOf()
      const key = ($.key = v?.join(''))
      if (!key) return $.set({ loading: false })
      if (!visible) return
      const c = cache.get(key)
      const r = running.get(key)
      if (r) {
        if (!cur().loading) $.set({ data: c?.data as T, loading: true })
        // Shown once that read is cached (deduplicated then).
        return void r.done.then(() => $.key == key && run())
      }
      if (c && c.at + dedupeMs > Date.now()) {
        if (cur().data !== c.data || cur().error !== c.error || cur().loading) $.set({ data: c.data as T, error: c.error, loading: false })
        return
      }
      $.set({ data: c?.data as T, loading: true })
      const read = { again: false, done: Promise.resolve() }
      running.set(key, read)
      read.done = fetcher(...v!).then(
        (data) => {
          // Written meanwhile (`mutate`): that answer stands, and the key is read again.
          if (cache.get(key) !== c) return void (read.again = true)
          cache.set(key, { data, at: Date.now() })
          if ($.key == key) $.set({ data, loading: false })
        },
        (error: unknown) => {
          // The answer the cache holds stays shown (the reader's own key: never another reader's).
          const data = cache.get(key)?.data
          cache.set(key, { data, error, at: Date.now() })
          if ($.key == key) $.set({ data: data as T, error, loading: false })
        },
      ).finally(() => {
        running.delete(key)
        if (read.again) revalidate(key)
      })
    }
    const self = { get key() { return $.key }, run }
    let offs: (() => void)[] = []
    onStart($, () => {
      mounted.add(self)
      offs = parts.map((p) => (typeof p == 'string' ? () => {} : p.listen(run)))
      run()
    })
    onStop($, () => {
      mounted.delete(self)
      offs.forEach((f) => f())
      ;($ as { value: FetcherValue<T> }).value = { loading: false }
    })
    // A later listener reads too (deduplicated), as the first does on mount.
    const listen = $.listen
    $.listen = (l) => {
      const off = listen(l)
      if ($.lc > 1) run()
      return off
    }
    $.revalidate = () => $.key && revalidate($.key)
    $.mutate = (data) => {
      const key = $.key
      if (!key) return
      cache.set(key, { data, at: Date.now() })
      $.set({ data, loading: false })
    }
    return $
  }
  /** Stops listening to the page (the context is disposed): its stores read nothing more by themselves. */
  const dispose = () => {
    if (web) {
      removeEventListener('visibilitychange', shown)
      removeEventListener('online', all)
    }
    mounted.clear()
  }
  return { cache, store, revalidate, dispose }
}
