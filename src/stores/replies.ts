/**
 * Earlier replies: a thread or feed page folds in each parent's newest `LIMITS.repliesPerParent` replies (so
 * a reply just written is always read back). "Show earlier replies" reads the ones before them, page by page
 * (`client.replies`), and every list holding the parent shows them above its page's replies.
 *
 * - What is read is kept per parent (`overlay.$replies`) with the replies that were below it then, so a
 *   later re-read of the page, whose newest 50 moved on, leaves no gap between the two.
 * - Kept replies are raw reads: the page's Agree overrides apply to them as to any read (posts.ts).
 * - Another reader's reads start clean (context.ts); an edit or a delete through this page is applied to
 *   the kept replies (`patch`), as the re-read it triggers applies it to the page.
 */
import { LIMITS } from '../contract/limits.ts'
import type { Post } from '../contract/types.ts'
import type { Ctx, Loaded } from './ctx.ts'
import type { PagedTail } from './paged.ts'
import type { AgreedOverride, KeptReplies, PostOverlay } from './posts.ts'

/**
 * "Show earlier replies" for one parent, a paged list's tail: `loadMore()` reads the next older page. A failed
 * read sets `error` and `loadMoreError` alike; `loadMore()` and `refresh()` both read it again.
 */
export interface EarlierReplies extends PagedTail {
  hasMore: true
  refresh(): Promise<void>
}

export function earlierReplies(ctx: Ctx, { $replies, apply }: PostOverlay) {
  /** Whether `id`'s earlier replies are still being read for this reader (a sign-in or sign-out drops them). */
  const reading = (id: string) => $replies.get()[id]?.loading
  return {
    /**
     * A list's replies per parent as its pages read them (`pages`), each after the earlier replies kept for
     * it, with the Agree overrides applied; and "Show earlier replies" for a post of the list (null when its
     * replies are all shown, or it has none on the list's pages).
     *
     * `venue` is the list's overlay, and `feed` says it is a ranked feed.
     */
    fold: (pages: Record<string, Loaded<Post[]>>, agreed: Record<string, AgreedOverride | undefined>, kept: Record<string, KeptReplies | undefined>, venue?: string, feed?: boolean) => {
      const threads: Record<string, Post[]> = {}
      const raws: Record<string, Loaded<Post[]>> = {}
      for (const id in pages) {
        // A parent's replies as the page read them, after the earlier ones kept for it (oldest first). The kept
        // ones are read as the thread reads them, for every list holding the parent, and kept whole (a later
        // "Show earlier replies" keeps `r.v`); a ranked feed shows them without the reader's own hidden replies,
        // as its pages leave them out (§3.1).
        const page = pages[id]
        const k = kept[id]
        const r = (raws[id] = k ? { v: [...k.posts.filter((r) => r.id < (page.v[0]?.id ?? '~')), ...page.v], at: Math.min(k.at, page.at) } : page)
        threads[id] = apply(feed ? r.v.filter((r) => !r.hidden) : r.v, r.at, agreed)
      }
      /** "Show earlier replies" for `p`, or null when none are left to read (or it has none on the pages). */
      const earlier = (p: Post): EarlierReplies | null => {
        const r = raws[p.id]
        const k = $replies.get()[p.id]
        const load = async () => {
          if (reading(p.id)) return
          const set = (x: Partial<KeptReplies>) => $replies.setKey(p.id, { posts: [], at: r.at, more: true, ...$replies.get()[p.id], ...x })
          set({ loading: true, error: null })
          try {
            const page = await ctx.client.replies(p.id, { before: r.v[0]?.id, venue })
            if (reading(p.id)) set({ posts: [...page.posts, ...r.v], more: page.hasMore, loading: false })
          } catch (error) {
            if (reading(p.id)) set({ loading: false, error })
          }
        }
        return r && (k ? k.more : r.v.length >= LIMITS.repliesPerParent && p.replies > r.v.length)
          ? { hasMore: true, loadingMore: !!k?.loading, error: k?.error, loadMoreError: k?.error, loadMore: load, refresh: load }
          : null
      }
      return { threads, earlier }
    },
    /** An edit (`post`) or a delete (`post` null) of `id` through this page, applied to the kept replies. */
    patch: (id: string, post: Post | null) => {
      for (const [parent, k] of Object.entries($replies.get()))
        if (k?.posts.some((r) => r.id == id)) $replies.setKey(parent, { ...k, posts: k.posts.flatMap((r) => (r.id != id ? [r] : post ? [post] : [])) })
    },
  }
}
export type RepliesReader = ReturnType<typeof earlierReplies>
