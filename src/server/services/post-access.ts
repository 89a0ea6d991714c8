/**
 * Which post a write may name (§7, §2.6, §3.1). The one check for every write that targets a post by id:
 * agree, report, reply (its parent), edit, delete and every moderation action.
 * - A missing or deleted post is 404 `post-not-found`.
 * - A private-room post is reached by its author and by those who may see the room (`canSeePrivateRoom`:
 *   its members, the venue's owner, operators). Anyone else, a member who left or was removed included,
 *   gets the same 404: §7 answers an outsider 404 "not 403, so existence is not confirmed", and a write
 *   that succeeded (or failed differently) would confirm it.
 * - A post hidden by reports or removed by an operator is seen only by its author (§3.1), so for anyone
 *   else it is gone as it is in a read: no agree, no reply (404); so is a reply whose parent was deleted (it
 *   left the thread with its parent). A report and a moderation action still
 *   reach it (`hidden: true`): the queue is where it is reviewed, and a report sent from a page read
 *   before the hide is evidence for that review.
 */
import type { Kysely } from 'kysely'
import type { Caller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import type { Database } from '../db/schema.ts'
import { notFound } from '../http/errors.ts'
import { POST_COLUMNS, type PostRow } from './post-view.ts'
import { canSeePrivateRoom } from './rooms.ts'

export interface Reach {
  /** The transaction to read in (and, with `lock`, to lock the post's row for). */
  db?: Kysely<Database>
  /** Lock the post's row for the rest of the transaction (`db` must be one). */
  lock?: boolean
  /** Reach hidden and removed posts too (reports, moderation). Their author always reaches them. */
  hidden?: boolean
  /** The 404's message. */
  missing?: string
}

/** A reached post: its row, whether it is in a private room, and the venue of its room (null: no room). */
export type ReachedPost = PostRow & { room_private: boolean; room_venue_id: string | null }

export async function reachablePost(ctx: ServiceContext, caller: Caller, id: string, opts: Reach = {}): Promise<ReachedPost> {
  const db = opts.db ?? ctx.db
  let q = db
    .selectFrom('posts as p')
    .select(POST_COLUMNS)
    .select(['p.deleted_at', 'p.room_private'])
    .select((eb) => eb.selectFrom('rooms as r').select('r.venue_id').whereRef('r.id', '=', 'p.room_id').as('room_venue_id'))
    .select((eb) => eb.selectFrom('posts as pp').select('pp.deleted_at').whereRef('pp.id', '=', 'p.parent_id').as('parent_deleted_at'))
    .where('p.id', '=', id)
  if (opts.lock) q = q.forUpdate()
  const row = (await q.executeTakeFirst()) as (ReachedPost & { deleted_at: Date | null; parent_deleted_at: Date | null }) | undefined
  const gone = () => notFound(opts.missing ?? 'no post with this id', 'post-not-found')
  if (!row || row.deleted_at) throw gone()
  const own = row.account_id === caller.accountId
  // A reply leaves the thread with its deleted parent: for anyone else it is gone like a hidden post.
  if (!own && (row.state !== 'visible' || row.parent_deleted_at) && !opts.hidden) throw gone()
  if (!own && row.room_private && !(row.room_id && row.room_venue_id && (await canSeePrivateRoom(ctx, row.room_id, row.room_venue_id, caller, db)))) throw gone()
  return row
}
