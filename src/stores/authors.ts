/**
 * `vk.authorTakes(wallet)` (hook `useAuthorTakes`, §2.4): the person's takes with how their markets
 * ended (`results`, for `takeReceipt`), and their discussion (`takes: false`). `defaultTab` is 'takes'
 * only when the takes page has posts, otherwise 'discussion' (§4.5.6); null until the takes are read.
 */
import { computed, type ReadableAtom } from 'nanostores'
import type { AuthorPostsResult, Labels, MarketResult, Post, Titles } from '../contract/types.ts'
import type { Ctx } from './ctx.ts'
import { paged, type PagedTail } from './paged.ts'
import type { MarketCache } from './reads.ts'
import { concatPosts, type PostOverlay } from './posts.ts'

/** A failed later page leaves the list with what it has (`loadMoreError`). */
export interface AuthorListValue extends PagedTail {
  posts: Post[]
  loading: boolean
}
export interface AuthorTakesValue extends AuthorListValue {
  /** How each resolved market on the loaded pages ended, keyed by lowercased market id. */
  results: Record<string, MarketResult>
  labels: Labels
  titles: Titles
  discussion: AuthorListValue & { results: Record<string, MarketResult> }
  defaultTab: 'takes' | 'discussion' | null
}

export function authors(ctx: Ctx, overlay: PostOverlay, markets: MarketCache) {
  return (wallet: string): ReadableAtom<AuthorTakesValue> => {
    const w = String(wallet).toLowerCase()
    return ctx.keep(`author:${w}`, () => {
      const list = (takes: boolean) =>
        paged<AuthorPostsResult>(ctx, `author|${w}|${takes}|`, async (cursor) => {
          const page = await ctx.client.postsByAuthor(w, { takes, cursor })
          // The page's copy of a market that has ended since it was read follows `results` (§3.2).
          markets.settle(page.results)
          return page
        }, undefined, true)
      const t = list(true)
      const d = list(false)
      return computed([t.first, t.$more, d.first, d.$more, overlay.$agreed], (tf, tm, df, dm, agreed): AuthorTakesValue => {
        const fold = (pages: ReturnType<typeof t.pagesOf>) => ({
          posts: concatPosts(pages.map((p) => overlay.apply(p.v.posts, p.at, agreed))),
          results: Object.assign({}, ...pages.map((p) => p.v.results)) as Record<string, MarketResult>,
          labels: Object.assign({}, ...pages.map((p) => p.v.labels)) as Labels,
          titles: Object.assign({}, ...pages.map((p) => p.v.titles)) as Titles,
        })
        const takes = fold(t.pagesOf(tf, tm))
        const disc = fold(d.pagesOf(df, dm))
        const ts = t.status(tf, tm)
        const ds = d.status(df, dm)
        return {
          ...takes,
          labels: { ...disc.labels, ...takes.labels },
          titles: { ...disc.titles, ...takes.titles },
          hasMore: ts.hasMore,
          loadMore: t.loadMore,
          loading: ts.loading,
          loadingMore: ts.loadingMore,
          error: ts.error,
          loadMoreError: ts.loadMoreError,
          refresh: () => {
            t.refresh()
            d.refresh()
          },
          discussion: { posts: disc.posts, results: disc.results, hasMore: ds.hasMore, loadMore: d.loadMore, loading: ds.loading, loadingMore: ds.loadingMore, error: ds.error, loadMoreError: ds.loadMoreError, refresh: d.refresh },
          // A failed re-read keeps the loaded takes, so the tab chosen from them stays (§4.5.6).
          defaultTab: tf.data ? (takes.posts.length > 0 ? 'takes' : 'discussion') : null,
        }
      })
    })
  }
}
