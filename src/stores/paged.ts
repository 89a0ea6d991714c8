/**
 * A cursor-paged read: the first page is a query store (cached, deduplicated, revalidated); further pages
 * are appended by `loadMore()` and kept across revalidations of the first page (they are dropped by
 * `refresh()` and when the reader changes). Pages stay in server order.
 *
 * A `loadMore()` that answers after `refresh()` (or after the reader changed) is dropped: its page follows the
 * pages `refresh()` dropped, read from their cursor, so appending it would bring stale rows back under the
 * fresh first page. `gen` counts the refreshes; a later page is appended only under the generation it was
 * asked for.
 *
 * Rows pushed down by a re-read: when the first page is read again while later pages are kept, posts that
 * new rows pushed past its end would fall between it and the next page (whose cursor follows the first
 * page as it was). For a list of posts, the first page as it was when `loadMore` was first called (`base`)
 * keeps the rows after the fresh page's last one (`pushedRows`), shown between the two.
 *
 * Two failures, two remedies: a failed read of the first page (also a failed re-read, which keeps the
 * page shown) is cured by `refresh()`; a failed `loadMore()` by `loadMore()` again. `error` is either;
 * `loadMoreError` is set only for the second, so a Retry knows which to call.
 */
import { atom } from 'nanostores'
import type { FetcherValue } from './query.ts'
import { loaded, type Ctx, type Loaded, type QueryOptions } from './ctx.ts'
import type { Post } from '../contract/types.ts'

/**
 * What every paged list's value offers for its tail: whether more pages remain, Load more, and the two
 * failures with their remedies (above). Each list's value extends it; "Show earlier replies" is one too.
 */
export interface PagedTail {
  hasMore: boolean
  /** A later page (`loadMore`) is in flight. */
  loadingMore: boolean
  /** A failed read: of the first page (retry with `refresh()`) or of a later one (`loadMoreError`). */
  error: unknown
  /** Set when the failure is a later page's: retry with `loadMore()` (else `refresh()` reads the first page again). */
  loadMoreError: unknown
  loadMore(): Promise<void>
  /** Reads again (the Retry of an error state). */
  refresh(): void
}

interface More<P> {
  key: string | undefined
  /** Bumped by `refresh()`: a later page asked for under another generation is not appended. */
  gen: number
  pages: Loaded<P>[]
  /** The first page the later pages were read after (set by the first `loadMore`). */
  base?: Loaded<P>
  loading: boolean
  error: unknown
}

export function paged<P extends { nextCursor: string | null }>(
  ctx: Ctx,
  key: string,
  load: (cursor?: string) => Promise<P>,
  qo?: QueryOptions,
  /** A list of posts: keep the rows a re-read first page pushed past its end (`pushedRows`). */
  posts?: boolean,
) {
  const first = ctx.query(key, () => load(), qo)
  const blank = (gen: number): More<P> => ({ key: undefined, gen, pages: [], loading: false, error: undefined })
  const $more = atom<More<P>>(blank(0))
  const extra = (m: More<P>) => (m.key === first.key ? m : blank(m.gen))

  /** The pages loaded for the current reader: the first, the rows it pushed down (`pushed`), then every page `loadMore` appended. */
  const pagesOf = (f: FetcherValue<Loaded<P>>, m: More<P>): Loaded<P>[] => {
    if (!f.data) return []
    const { base, pages } = extra(m)
    const down = posts && base && base !== f.data && pages.length ? pushedRows(f.data.v as never, base.v as never) : null
    return [f.data, ...(down ? [{ at: base!.at, v: down as unknown as P }] : []), ...pages]
  }

  const loadMore = async (): Promise<void> => {
    const key = first.key
    const m = extra($more.get())
    const pages = pagesOf(first.get(), m)
    const cursor = pages[pages.length - 1]?.v.nextCursor
    if (m.loading || !cursor) return
    const gen = m.gen
    $more.set({ ...m, key, loading: true, error: undefined })
    // Still the reader and the generation this page was asked for (no refresh since).
    const current = () => first.key === key && $more.get().gen === gen
    const at = Date.now()
    try {
      const v = await load(cursor)
      ctx.readSucceeded()
      if (current()) $more.set({ key, gen, pages: [...m.pages, loaded(at, v)], base: m.base ?? pages[0], loading: false, error: undefined })
    } catch (e) {
      if (current()) $more.set({ ...m, key, loading: false, error: e })
    }
  }
  const refresh = () => {
    $more.set(blank($more.get().gen + 1))
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

/**
 * The posts of `base` (the first page as it was) after the re-read first page's last post, when that post is on
 * `base` (the fresh page ends inside base's range, so what follows it there was pushed down, not removed), as a
 * page of their own: without the signals and settlements, which are on the pages already shown. Null otherwise.
 */
export function pushedRows(fresh: { posts: Post[] }, base: { posts: Post[] }) {
  const i = base.posts.findIndex((p) => p.id === fresh.posts.at(-1)?.id)
  return i < 0 || i === base.posts.length - 1 ? null : { ...base, posts: base.posts.slice(i + 1), signals: [], settlements: [] }
}
