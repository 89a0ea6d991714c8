/**
 * A cursor-paged read: the first page is a query store (cached, deduplicated, revalidated); further pages
 * are appended by `loadMore()` and kept across revalidations of the first page (they are dropped by
 * `refresh()` and when the reader changes). Pages stay in server order.
 *
 * Two failures, two remedies: a failed read of the first page (also a failed re-read, which keeps the
 * page shown) is cured by `refresh()`; a failed `loadMore()` by `loadMore()` again. `error` is either;
 * `loadMoreError` is set only for the second, so a Retry knows which to call.
 */
import { atom } from 'nanostores'
import type { FetcherValue } from '@nanostores/query'
import { loaded, type Ctx, type Loaded, type QueryOptions } from './ctx.ts'

interface More<P> {
  key: string | undefined
  pages: Loaded<P>[]
  loading: boolean
  error: unknown
}

export function paged<P extends { nextCursor: string | null }>(ctx: Ctx, key: string, load: (cursor?: string) => Promise<P>, qo?: QueryOptions) {
  const first = ctx.query(key, () => load(), qo)
  const blank: More<P> = { key: undefined, pages: [], loading: false, error: undefined }
  const $more = atom<More<P>>(blank)
  const extra = (m: More<P>) => (m.key === first.key ? m : blank)

  /** The pages loaded for the current reader: the first, then every page `loadMore` appended. */
  const pagesOf = (f: FetcherValue<Loaded<P>>, m: More<P>): Loaded<P>[] => (f.data ? [f.data, ...extra(m).pages] : [])

  const loadMore = async (): Promise<void> => {
    const key = first.key
    const m = extra($more.get())
    const pages = pagesOf(first.get(), m)
    const cursor = pages[pages.length - 1]?.v.nextCursor
    if (m.loading || !cursor) return
    $more.set({ ...m, key, loading: true, error: undefined })
    const at = Date.now()
    try {
      const v = await load(cursor)
      if (first.key === key) $more.set({ key, pages: [...m.pages, loaded(at, v)], loading: false, error: undefined })
    } catch (e) {
      if (first.key === key) $more.set({ ...m, key, loading: false, error: e })
    }
  }
  const refresh = () => {
    $more.set(blank)
    first.revalidate()
  }
  /** Progress fields shared by every paged value. */
  const status = (f: FetcherValue<Loaded<P>>, m: More<P>) => {
    const pages = pagesOf(f, m)
    const x = extra(m)
    return {
      loading: !!f.loading && !f.data,
      refreshing: !!f.loading && !!f.data,
      loadingMore: x.loading,
      error: (f.error ?? x.error ?? null) as unknown,
      /** The error is a later page's (retry with `loadMore()`); null when the first page failed or none did. */
      loadMoreError: (f.error ? null : (x.error ?? null)) as unknown,
      hasMore: !!pages[pages.length - 1]?.v.nextCursor,
    }
  }
  return { first, $more, pagesOf, loadMore, refresh, status }
}
