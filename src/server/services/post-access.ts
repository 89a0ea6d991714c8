/**
 * Which post a write may name (§7, §2.6, §3.1). The one check for every write that targets a post by id:
 * agree, report, reply (its parent), edit, delete and every moderation action; and for the one read that names
 * a post by id, its earlier replies (replies.ts), where `caller` may be null (signed out).
 * - A missing or deleted post is 404 `post-not-found`.
 * - A private-room post is reached by its author and by those who may see the room (`canSeePrivateRoom`:
 *   its members, the venue's owner, operators). Anyone else, a member who left or was removed included,
 *   gets the same 404: §7 answers an outsider 404 "not 403, so existence is not confirmed", and a write
 *   that succeeded (or failed differently) would confirm it.
 * - A post hidden by reports or removed by an operator is seen only by its author (§3.1), so for anyone
 *   else it is gone as it is in a read: no agree, no reply (404); so is a reply whose parent was deleted,
 *   hidden by reports or removed (`parent_shown`, migration 010: a reply is read only folded under its
 *   parent, so it left every read with it). A report and a moderation action still
 *   reach it (`hidden: true`): the queue is where it is reviewed, and a report sent from a page read
 *   before the hide is evidence for that review.
 * - `lock` locks a reply's parent before the reply: every transaction that may change a reply's
 *   visibility (report threshold, moderation, delete) takes parent, then reply, the order in which a change
 *   of the parent's visibility takes them (migration 010's triggers), so neither waits on the other while
 *   holding what the other needs. A top-level post is locked in the one read, as before.
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

export async function reachablePost(ctx: ServiceContext, caller: Caller | null, id: string, opts: Reach = {}): Promise<ReachedPost> {
  const db = opts.db ?? ctx.db
  const read = (topLevelOnly: boolean) => {
    let q = db
      .selectFrom('posts as p')
      .select(POST_COLUMNS)
      .select(['p.deleted_at', 'p.room_private', 'p.parent_shown'])
      .select((eb) => eb.selectFrom('rooms as r').select('r.venue_id').whereRef('r.id', '=', 'p.room_id').as('room_venue_id'))
      .where('p.id', '=', id)
    if (topLevelOnly) q = q.where('p.parent_id', 'is', null)
    if (opts.lock) q = q.forUpdate()
    return q.executeTakeFirst() as Promise<(ReachedPost & { deleted_at: Date | null; parent_shown: boolean }) | undefined>
  }
  // Locked: a top-level post in one read (a reply's row does not match, so it is not locked); a reply (or a
  // missing post) after its parent (a post's parent never changes, so the unlocked read of it holds).
  let row = await read(!!opts.lock)
  if (!row && opts.lock) {
    await db.selectFrom('posts as c').innerJoin('posts as pp', 'pp.id', 'c.parent_id').select('pp.id').where('c.id', '=', id).forUpdate('pp').execute()
    row = await read(false)
  }
  const gone = () => notFound(opts.missing ?? 'no post with this id', 'post-not-found')
  if (!row || row.deleted_at) throw gone()
  const own = !!caller && row.account_id === caller.accountId
  // A reply leaves every read with its parent once that is deleted, hidden or removed: for anyone else it
  // is gone like a hidden post.
  if (!own && (row.state !== 'visible' || !row.parent_shown) && !opts.hidden) throw gone()
  if (!own && row.room_private && !(row.room_id && row.room_venue_id && (await canSeePrivateRoom(ctx, row.room_id, row.room_venue_id, caller, db)))) throw gone()
  return row
}
