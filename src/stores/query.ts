/**
 * The page's read cache: keyed fetcher stores (cached, deduplicated, revalidated), the part of
 * `@nanostores/query` the stores use, and one rule it lacks. A store's key is its parts joined; a part
 * may be a store (the reader), and a key with a null part is no key (no read: signed out).
 * - Mounting a store, or a new listener on it, reads its key unless the cache holds an answer younger than
 *   `dedupeMs`; the shown data stays while a re-read runs (`loading` with `data`).
 * - `revalidate(selector)` marks the matching answers stale and re-reads the mounted ones. A re-read asked
 *   for while the same key is being read is not dropped: the key is read once more when that read settles,
 *   since its answer could predate the change that asked (a live event, the reader's own post).
 * - A failed read keeps the shown data with its `error`; it is not retried by itself (the elements' Retry).
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
  /** Keys being read → whether a re-read was asked for meanwhile. */
  const running = new Map<string, boolean>()
  /** Mounted stores: their re-read. */
  const mounted = new Set<{ key?: string; run(): void }>()
  let visible = true
  const all = () => mounted.forEach((m) => m.run())
  if (typeof document == 'object') {
    addEventListener('visibilitychange', () => (visible = !document.hidden) && all())
    addEventListener('online', all)
  }
  const hits = (s: Selector, k: string) => (typeof s == 'string' ? s == k : s(k))

  const revalidate = (s: Selector) => {
    for (const [k, e] of cache) if (hits(s, k)) e.at = -Infinity
    running.forEach((_, k) => hits(s, k) && running.set(k, true))
    mounted.forEach((m) => m.key && hits(s, m.key) && m.run())
  }

  const store = <T>(parts: Part[], fetcher: (...parts: string[]) => Promise<T>): FetcherStore<T> => {
    const $ = map<FetcherValue<T>>({ loading: false }) as FetcherStore<T>
    const keyOf = () => {
      const v = parts.map((p) => (typeof p == 'string' ? p : p.get()))
      return v.every((x) => x != null) ? (v as string[]) : null
    }
    const cur = () => $.value as FetcherValue<T>
    const run = async () => {
      const v = keyOf()
      const key = ($.key = v?.join(''))
      if (!key) return $.set({ loading: false })
      if (!visible) return
      const c = cache.get(key)
      if (running.has(key)) return cur().loading || $.set({ data: c?.data as T, loading: true })
      if (c && c.at + dedupeMs > Date.now()) {
        if (cur().data !== c.data || cur().error !== c.error || cur().loading) $.set({ data: c.data as T, error: c.error, loading: false })
        return
      }
      running.set(key, false)
      $.set({ data: c?.data as T, loading: true })
      const show = (e: Entry, value: FetcherValue<T>) => {
        cache.set(key, e)
        if ($.key == key) $.set(value)
      }
      try {
        const data = await fetcher(...v!)
        show({ data, at: Date.now() }, { data, loading: false })
      } catch (error) {
        show({ error, at: Date.now() }, { data: cur().data, error, loading: false })
      } finally {
        if (running.get(key)) setTimeout(() => revalidate(key))
        running.delete(key)
      }
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
  return { cache, store, revalidate }
}
