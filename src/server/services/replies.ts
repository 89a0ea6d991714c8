/**
 * A post's earlier replies (`GET /v1/social/posts/:id/replies`): the page a thread or a feed folds in holds a
 * parent's newest `LIMITS.repliesPerParent` replies (page-extras.ts), so a reply just written is always read back;
 * this read pages back through the ones before them, for the "Show earlier replies" control.
 *
 * - The parent is reached as a write reaches it (post-access.ts): missing, deleted, hidden or removed for
 *   this reader, or in a private room the reader may not see, it is 404 `post-not-found`, so the read
 *   confirms nothing a thread read would not show.
 * - A parent the reader's thread would not show is 404 `post-not-found` too, with its replies: under `venue`'s
 *   overlay, one hidden on that venue or written by a wallet it banned (but for its author), and one by an
 *   account the reader blocked (`visibleTo`, the thread's own rule).
 * - Its replies are the ones a thread read folds under it (`visibleTo`, with the reader's own hidden ones,
 *   the venue's overlay, the reader's blocks, and the parent's private room opened to whoever may see it).
 * - `before` is a reply id: the page holds the newest `limit` replies older than it, oldest first (the order
 *   they are shown in); `hasMore` says whether older ones remain. A post that is itself a reply has none: it
 *   reads as an empty page where the reader may see it, and as 404 where the rules above hide it.
 */
import type { RepliesPage } from '../../contract/types.ts'
import type { Caller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { notFound } from '../http/errors.ts'
import { markVenueHidden } from './own-hidden.ts'
import { reachablePost } from './post-access.ts'
import { agreedSet, POST_COLUMNS, toPost, type PostRow } from './post-view.ts'
import { canSeePrivateRoom } from './rooms.ts'
import { visibleTo } from './visibility.ts'

export interface RepliesQuery {
  /** Replies older than this reply id; null: from the newest. */
  before: string | null
  limit: number
  /** Venue overlay (§4.1 rule 5): that venue's hides and bans; never a filter. */
  venue: string | null
  /** Read for a ranked feed's folded replies (§3.1 "the ranked feed shows visible posts only"): not the reader's own hidden ones. */
  feed?: boolean
}

export async function readReplies(ctx: ServiceContext, caller: Caller | null, parentId: string, q: RepliesQuery): Promise<RepliesPage> {
  const parent = await reachablePost(ctx, caller, parentId)
  const reader = caller?.accountId ?? null
  // The parent's private room is open to those who may see it (its owner and operators beside its members).
  const openRoom = parent.room_private && parent.room_id && parent.room_venue_id && (await canSeePrivateRoom(ctx, parent.room_id, parent.room_venue_id, caller)) ? parent.room_id : null
  const scope = { reader, venue: q.venue, ownHidden: !q.feed, openRoom }
  // A parent the reader's thread would not show (hidden on `venue` or by a wallet it banned, or by an account
  // the reader blocked) takes its replies with it, as on the thread.
  const shown = await ctx.db.selectFrom('posts as p').select('p.id').where('p.id', '=', parent.id).where(visibleTo(scope)).executeTakeFirst()
  if (!shown) throw notFound('no post with this id', 'post-not-found')
  // Replies are one level deep: a reply the reader may see has none.
  if (parent.parent_id) return { posts: [], hasMore: false }
  let query = ctx.db
    .selectFrom('posts as p')
    .select(POST_COLUMNS)
    .where('p.parent_id', '=', parent.id)
    .where(visibleTo(scope))
  if (q.before) query = query.where('p.id', '<', q.before)
  const rows = (await query.orderBy('p.id', 'desc').limit(q.limit + 1).execute()) as PostRow[]
  const page = rows.slice(0, q.limit).reverse()
  const agreed = await agreedSet(ctx, reader, page.map((r) => r.id))
  const posts = page.map((r) => toPost(r, reader, agreed))
  await markVenueHidden(ctx, posts, reader, q.venue)
  return { posts, hasMore: rows.length > q.limit }
}
