/**
 * What every post-list store shares: the optimistic Agree overrides (one map for the page, merged into
 * every list holding the post, rolled back on failure), the posts created on this page (shown at once
 * in their thread, never held back as "new"), and the earlier replies read past the newest 50 a page
 * folds in (replies.ts), so every list holding a parent shows them.
 */
import { atom, map } from 'nanostores'
import type { Post } from '../contract/types.ts'

export interface AgreedOverride {
  agreed: boolean
  agrees: number
  /**
   * Applies to reads started at or before this time (one started in the millisecond the answer came may predate the
   * write); Infinity while the write is pending.
   */
  at: number
}

/** A parent's earlier replies ("Show earlier replies", replies.ts): oldest first, with the replies shown below them when read. */
export interface KeptReplies {
  posts: Post[]
  /** When the oldest of the reads they come from was started (the overrides newer than it apply). */
  at: number
  /** Older replies remain. */
  more: boolean
  loading?: boolean
  error?: unknown
}

export function createPostOverlay() {
  const $agreed = map<Record<string, AgreedOverride | undefined>>({})
  /** Ids of posts written through this page's context. */
  const $own = atom<ReadonlySet<string>>(new Set())

  /** A post with its override applied, when the override is not older than the read that produced it. */
  const withAgreed = (p: Post, at: number, o: Record<string, AgreedOverride | undefined>): Post => {
    const x = o[p.id]
    return x && x.at >= at ? { ...p, agreed: x.agreed, agrees: x.agrees } : p
  }
  const apply = (posts: readonly Post[], at: number, o: Record<string, AgreedOverride | undefined>) => posts.map((p) => withAgreed(p, at, o))
  return {
    $agreed,
    $own,
    /** Earlier replies per parent id (replies.ts). */
    $replies: map<Record<string, KeptReplies | undefined>>({}),
    apply,
    addOwn: (id: string) => $own.set(new Set([...$own.get(), id])),
  }
}
export type PostOverlay = ReturnType<typeof createPostOverlay>

/** Posts of several pages in server order, each id once (the first occurrence wins): never re-sorted. */
export function concatPosts(pages: readonly Post[][]): Post[] {
  const seen = new Set<string>()
  const out: Post[] = []
  for (const page of pages)
    for (const p of page) {
      if (seen.has(p.id)) continue
      seen.add(p.id)
      out.push(p)
    }
  return out
}
