/**
 * Post writes (§1.2–1.5, §2.1). The stance is never taken from the client: when the author's account
 * holds a position on the market at write time, the server reads side, size and that side's price
 * from the chain source and freezes them on the post. Editing changes the body only.
 */
import { sql, type Transaction } from 'kysely'
import type { Post, Stance } from '../../contract/types.ts'
import { provenStance } from '../chain/source.ts'
import { liveScore } from '../../core/ranking.ts'
import { timeId } from '../../core/ids.ts'
import type { Caller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import type { Database } from '../db/schema.ts'
import { PLAN_CACHED } from '../db/plan-cache.ts'
import { ApiError, forbidden, notFound } from '../http/errors.ts'
import { toPost, type PostRow } from './post-view.ts'
import { reachablePost } from './post-access.ts'
import { placeAgain, placeReply } from './room-placement.ts'
import { publishThreads } from './thread-events.ts'

export interface NewPost {
  subjectType: Post['subjectType']
  subjectRef: string
  body: string
  parentId?: string | null
}

/** Room a post goes into, decided by the rooms service before the write. */
export interface RoomPlacement {
  roomId: string
  private: boolean
  /** Record membership with the post (a follower's first post, §3.3). */
  joinOnPost: boolean
}

/**
 * A ban everywhere ('*') or on the venue the write is made on refuses it (the bans come with the session).
 * That venue is the request's (`venueOfRequest`): its key's venue, else the one the session claimed.
 */
export function assertNotBanned(caller: Caller, venueId: string | null) {
  if (caller.bans.includes('*')) throw new ApiError(403, 'banned', 'you are banned from posting')
  if (venueId && caller.bans.includes(venueId)) throw new ApiError(403, 'banned', 'you are banned from posting on this venue')
}

const PARENT_MISSING = 'the post you reply to does not exist'

/** Re-scores a post after its engagement changed, in the posts table and the node index. */
async function rescore(tx: Transaction<Database>, id: string) {
  const p = await tx.selectFrom('posts').select(['created_at', 'agrees', 'replies', 'stance_side']).where('id', '=', id).executeTakeFirstOrThrow()
  const score = liveScore({ createdAtMs: new Date(p.created_at).getTime(), agrees: p.agrees, replies: p.replies, isTake: p.stance_side != null })
  await tx.updateTable('posts').set({ score }).where('id', '=', id).execute()
  await tx.updateTable('post_nodes').set({ score }).where('post_id', '=', id).execute()
}

/** `venueId`: the venue the post is written on (the request's venue; its bans apply). */
export async function createPost(
  ctx: ServiceContext,
  caller: Caller,
  input: NewPost,
  room: RoomPlacement | null = null,
  venueId: string | null = caller.venueId,
  /** Set on the second try, after the membership changed under the first (see below). */
  placedAgain = false,
): Promise<Post> {
  assertNotBanned(caller, venueId)
  if (input.parentId) {
    // The parent must be one the caller may reach (post-access.ts): a private room's post is 404 to outsiders.
    const parent = await reachablePost(ctx, caller, input.parentId, { missing: PARENT_MISSING })
    // A reply lands in its parent's room: the room's posting rules apply to it too.
    if (!room && parent.room_id) room = await placeReply(ctx, caller, parent.room_id, venueId)
  }
  let marketId: string | null = null
  let facet: { type: string; ref: string } | null = null
  let nodes: { type: string; ref: string }[]
  let stance: Stance | null = null
  if (input.subjectType === 'event') {
    // The market and the caller's stance facts in one read.
    const facts = await ctx.chain.stanceOf(caller.wallets, input.subjectRef)
    const market = facts.market
    if (!market) throw notFound('no market with this id', 'market-not-found')
    marketId = market.id
    facet = market.facet
    nodes = market.nodes
    stance = provenStance(facts)
  } else {
    facet = { type: input.subjectType, ref: input.subjectRef }
    nodes = [facet]
  }

  const now = ctx.now()
  const id = timeId('p_', now.getTime())
  const score = liveScore({ createdAtMs: now.getTime(), agrees: 0, replies: 0, isTake: !!stance })
  const row = (roomId: string | null, roomPrivate: boolean) => ({
    id,
    subject_type: input.subjectType,
    subject_ref: input.subjectRef,
    account_id: caller.accountId,
    author: caller.wallet,
    body: input.body,
    parent_id: input.parentId ?? null,
    room_id: roomId,
    room_private: roomPrivate,
    market_id: marketId,
    facet_type: facet?.type ?? null,
    facet_ref: facet?.ref ?? null,
    stance_side: stance?.side ?? null,
    stance_size: stance?.size ?? null,
    stance_price_bps: stance?.priceBps ?? null,
    created_at: now,
    score,
    // `record_score`, the `sort=record` key, is set by the insert's trigger under the record's lock (migration 008).
  })

  let post: PostRow
  if (!input.parentId && !room) {
    // A top-level post outside rooms: the post and its node-index rows in one statement (atomic on its own,
    // no begin/commit round trips). The inserted row is the post as stored: no re-read.
    // Written as SQL: one statement text whatever the number of nodes (they travel as two arrays), so
    // PostgreSQL keeps its plan (plan-cache.ts), and no query builder runs on the hottest write.
    const r = row(null, false)
    const { rows: [inserted] } = await sql<PostRow>`${sql.raw(PLAN_CACHED)}with ins as (
        insert into posts (${sql.join(Object.keys(r).map((k) => sql.ref(k)))}) values (${sql.join(Object.values(r))}) returning *
      ), nodes as (
        insert into post_nodes (post_id, node_type, node_ref, score, record_score)
        select ins.id, n.t, n.r, ins.score, ins.record_score
        from ins, unnest(${nodes.map((n) => n.type)}::text[], ${nodes.map((n) => n.ref)}::text[]) as n(t, r)
        on conflict do nothing
        returning post_id
      )
      select * from ins`.execute(ctx.db)
    if (!inserted) throw new Error('the post insert answered no row')
    post = inserted as PostRow
  } else {
    const placed = room
    const written = await ctx.db.transaction().execute(async (tx) => {
      // A member's post (placed by an active membership) checks that membership again, held until the
      // commit (FOR SHARE): a leave or a removal either waits for the post, or lands first and the post
      // is placed again (the refusal it gets now). Never a post in a room its author has just left.
      /** The author's membership row, held until the commit (FOR SHARE). */
      const membership = (roomId: string) =>
        tx.selectFrom('room_members').select('left_at').where('room_id', '=', roomId).where('account_id', '=', caller.accountId).forShare().executeTakeFirst()
      if (placed && !placed.joinOnPost) {
        const m = await membership(placed.roomId)
        if (!m || m.left_at) return null
      }
      // A follower's first post makes them a member (§3.3), written before the post. When a membership row lands
      // meanwhile (a join, or a join and a leave, the insert waiting for it), the row decides: a leave stays
      // sticky, and the post is placed again (its refusal), never written in a room its author has left.
      if (placed?.joinOnPost) {
        const joined = await tx
          .insertInto('room_members')
          .values({ room_id: placed.roomId, account_id: caller.accountId, joined_at: now })
          .onConflict((oc) => oc.columns(['room_id', 'account_id']).doNothing())
          .returning('room_id')
          .executeTakeFirst()
        if (!joined && (await membership(placed.roomId))?.left_at) return null
      }
      let roomId = room?.roomId ?? null
      let roomPrivate = room?.private ?? false
      if (input.parentId) {
        // Checked again under the parent's lock (the check above ran outside the transaction): a parent
        // deleted, hidden by reports or removed meanwhile refuses the reply as it would have then (404).
        const parent = await reachablePost(ctx, caller, input.parentId, { db: tx, lock: true, missing: PARENT_MISSING })
        if (parent.parent_id) throw new ApiError(400, 'reply-depth', 'replies are one level deep: reply to the top-level post instead')
        if (parent.subject_type !== input.subjectType || parent.subject_ref !== input.subjectRef)
          throw new ApiError(400, 'parent-mismatch', 'a reply must be on the same subject as the post it answers')
        if (room && parent.room_id !== room.roomId) throw new ApiError(400, 'parent-mismatch', 'a reply must be in the same room as the post it answers')
        roomId = parent.room_id
        roomPrivate = parent.room_private
      }
      // The inserted row is the post as stored (nothing later in this transaction changes it): no re-read.
      // A reply's insert moves its parent's reply count and score (a trigger, migration 010).
      const inserted = await tx.insertInto('posts').values(row(roomId, roomPrivate)).returningAll().executeTakeFirstOrThrow()
      if (!input.parentId && nodes.length) {
        await sql`insert into post_nodes (post_id, node_type, node_ref, score, record_score)
          select p.id, n.t, n.r, p.score, p.record_score
          from posts p, unnest(${nodes.map((n) => n.type)}::text[], ${nodes.map((n) => n.ref)}::text[]) as n(t, r)
          where p.id = ${inserted.id}
          on conflict do nothing`.execute(tx)
      }
      return inserted as PostRow
    })
    // The membership changed under the write: placed again (once), which refuses the post as it is now.
    if (!written) {
      if (placedAgain) throw new Error('the room membership changed twice during one post')
      return createPost(ctx, caller, input, await placeAgain(ctx, caller, placed!.roomId, venueId, !!input.parentId), venueId, true)
    }
    post = written
  }
  // Both inserts return the whole row: `room_private` says whether the post went into a private room.
  await publishThreads(ctx, [{ subject_type: input.subjectType, subject_ref: input.subjectRef, room_id: post.room_id, room_private: (post as PostRow & { room_private?: boolean }).room_private }])
  return toPost(post, caller.accountId, new Set())
}

/** Why a post that is not visible cannot be edited (§3.1): its text is what the moderators review. */
const EDIT_REFUSED = {
  hidden: 'this post is under review; it cannot be edited until a moderator has reviewed it',
  removed: 'this post was removed by a moderator; it cannot be edited',
} as const

/**
 * Edit: the author only. Rewriting a post is posting (§5.7 "A ban blocks posting"): a ban everywhere, on the
 * venue the edit is made on, or on the venue whose room holds the post refuses it. Deleting stays open.
 * A post hidden by reports (pending review) or removed by an operator cannot be edited (403 `forbidden`):
 * the queue shows the live body next to the reports' reasons, so an edit would rewrite the evidence under
 * review (and a kept post could then be changed back). The post is locked for the check and the update,
 * and the update is guarded on `deleted_at`: an edit racing a delete is 404, never an edit of a deleted row.
 */
export async function editPost(ctx: ServiceContext, caller: Caller, id: string, body: string, venueId: string | null): Promise<Post> {
  const { row, edited } = await ctx.db.transaction().execute(async (tx) => {
    const row = await reachablePost(ctx, caller, id, { db: tx, lock: true })
    if (row.account_id !== caller.accountId) throw forbidden('only the author can edit this post')
    assertNotBanned(caller, venueId)
    assertNotBanned(caller, row.room_venue_id)
    if (row.state !== 'visible') throw forbidden(row.state === 'removed' ? EDIT_REFUSED.removed : EDIT_REFUSED.hidden)
    const edited = await tx
      .updateTable('posts')
      .set({ body, edited_at: ctx.now() })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where('state', '=', 'visible')
      .returningAll()
      .executeTakeFirst()
    if (!edited) throw notFound('no post with this id', 'post-not-found')
    return { row, edited }
  })
  await publishThreads(ctx, [row])
  return toPost(edited, caller.accountId)
}

export async function deletePost(ctx: ServiceContext, caller: Caller, id: string): Promise<void> {
  const row = await reachablePost(ctx, caller, id)
  if (row.account_id !== caller.accountId) throw forbidden('only the author can delete this post')
  const deleted = await ctx.db.transaction().execute(async (tx) => {
    // A reply's delete moves its parent's reply count and score (a trigger, migration 010): the parent is
    // locked first, the order post-access.ts gives every writer (parent, then reply).
    if (row.parent_id) await tx.selectFrom('posts').select('id').where('id', '=', row.parent_id).forUpdate().execute()
    const done = await tx.updateTable('posts').set({ deleted_at: ctx.now() }).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst()
    if (!done.numUpdatedRows) return false
    await tx.deleteFrom('post_nodes').where('post_id', '=', id).execute()
    return true
  })
  // A racing second delete found it gone: it answers the same, and the thread changed once (§6.1).
  if (deleted) await publishThreads(ctx, [row])
}

/**
 * Agree: once per account; `active` sets it on or off (idempotent either way). A change of the post's
 * agrees is a change of its thread (§6.1); a repeat that changes nothing fires nothing.
 */
export async function reactPost(ctx: ServiceContext, caller: Caller, id: string, kind: 'agree', active: boolean) {
  const { row, agrees, changed } = await ctx.db.transaction().execute(async (tx) => {
    // The post is locked first: agrees store a recount of their rows, and without the lock two concurrent
    // transactions each count without the other's row (read committed); the last to commit stores a stale count.
    const row = await reachablePost(ctx, caller, id, { db: tx, lock: true })
    if (row.account_id === caller.accountId) throw forbidden("you can't agree with your own post")
    const touched = active
      ? await tx
          .insertInto('reactions')
          .values({ post_id: id, account_id: caller.accountId, kind, created_at: ctx.now() })
          .onConflict((oc) => oc.columns(['post_id', 'account_id', 'kind']).doNothing())
          .returning('post_id')
          .execute()
      : await tx.deleteFrom('reactions').where('post_id', '=', id).where('account_id', '=', caller.accountId).where('kind', '=', kind).returning('post_id').execute()
    const n = await tx.selectFrom('reactions').select(sql<number>`count(*)::int`.as('n')).where('post_id', '=', id).where('kind', '=', 'agree').executeTakeFirstOrThrow()
    await tx.updateTable('posts').set({ agrees: n.n }).where('id', '=', id).execute()
    await rescore(tx, id)
    return { row, agrees: n.n, changed: touched.length > 0 }
  })
  if (changed) await publishThreads(ctx, [row])
  return { postId: id, kind, agreed: active, agrees }
}

/**
 * Report: one per account and post. When distinct reporters reach the threshold, the post is hidden
 * pending review and enters the platform queue (§3.1). The report also goes to one venue's queue: the
 * venue whose room holds the post (that venue moderates its rooms, and a private room's post never reaches
 * another venue's moderators), else the venue the report was made on (`venueId`, the request's venue) when
 * that venue exists. A keyless session may claim any venue id at sign-in (§5.4); a report filed under an id
 * nobody holds would wait in that id's queue for whoever claims it later, so it goes to the platform's
 * queue only.
 *
 * Each queue settles on its own (moderation.ts): a venue's keep or clear sets `settled_at`, the platform's
 * `platform_settled_at`; a report settled by one queue is still open in the other. A report is new to a
 * queue when its row is inserted or when that queue had settled it: then the same account reporting again
 * makes it open there again, and that queue's item opens. A repeat that is new to no queue changes nothing:
 * an item a moderator already actioned is not reopened by a report it has already seen.
 * Reporting one's own post is 403 `forbidden`, like agreeing with it.
 */
export async function reportPost(ctx: ServiceContext, caller: Caller, id: string, reason: string, venueId: string | null) {
  const { row, hidden } = await ctx.db.transaction().execute(async (tx) => {
    // Locked first: the report count is a recount of the rows (see reactPost), and this account's report of
    // the post is read and written under the lock (moderation's settlements lock the post too).
    const row = await reachablePost(ctx, caller, id, { db: tx, lock: true, hidden: true })
    if (row.account_id === caller.accountId) throw forbidden("you can't report your own post")
    const madeOn = !row.room_venue_id && venueId ? await tx.selectFrom('venues').select('id').where('id', '=', venueId).executeTakeFirst() : undefined
    const queueVenue = row.room_venue_id ?? madeOn?.id ?? null
    const now = ctx.now()
    const had = await tx
      .selectFrom('reports')
      .select(['venue_id', 'settled_at', 'platform_settled_at'])
      .where('post_id', '=', id)
      .where('account_id', '=', caller.accountId)
      .executeTakeFirst()
    const forPlatform = !had || had.platform_settled_at != null
    const forVenue = !had || had.settled_at != null || (had.venue_id == null && queueVenue != null)
    if (!forPlatform && !forVenue) return { row, hidden: false }
    // A report still open in a venue's queue stays in that queue.
    const reportVenue = forVenue ? queueVenue : had!.venue_id
    if (!had) await tx.insertInto('reports').values({ post_id: id, account_id: caller.accountId, reason, venue_id: reportVenue, created_at: now }).execute()
    else
      await tx
        .updateTable('reports')
        .set({ reason, venue_id: reportVenue, created_at: now, settled_at: null, platform_settled_at: null })
        .where('post_id', '=', id)
        .where('account_id', '=', caller.accountId)
        .execute()
    let state = row.state
    if (forPlatform) {
      const n = await tx
        .selectFrom('reports')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('post_id', '=', id)
        .where('platform_settled_at', 'is', null)
        .executeTakeFirstOrThrow()
      const upd = await tx
        .updateTable('posts')
        .set({ report_count: n.n, ...(n.n >= ctx.config.reportThreshold ? { state: sql`case when state = 'visible' then 'hidden' else state end` } : {}) })
        .where('id', '=', id)
        .returning('state')
        .executeTakeFirstOrThrow()
      state = upd.state
    }
    for (const scope of [...(forPlatform ? ['*'] : []), ...(forVenue && reportVenue ? [reportVenue] : [])]) {
      await tx
        .insertInto('mod_items')
        .values({ post_id: id, scope, state: 'open', updated_at: now })
        .onConflict((oc) => oc.columns(['scope', 'post_id']).doUpdateSet({ state: 'open', updated_at: now }))
        .execute()
    }
    return { row, hidden: row.state === 'visible' && state !== 'visible' }
  })
  // The threshold hide changes the thread (§6.1); a report that hides nothing does not.
  if (hidden) await publishThreads(ctx, [row])
  return { postId: id, reported: true }
}
