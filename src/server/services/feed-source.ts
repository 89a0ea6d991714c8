/**
 * Where a ranked feed's rows come from (§4.1): one keyset-ranged query over an index in feed order.
 * Rows are top-level posts the reader may see (visibleTo, never own-hidden: the ranked feed shows
 * visible posts only, §3.1).
 *
 * Sources, per scope (without `room`; private-room posts never reach these, even for members):
 * - global: the partial index `posts_live` (score desc, id desc);
 * - subject on a taxonomy node: `post_nodes_rank`, so a category feed holds takes on its markets;
 * - subject on a market: that market's top-level posts;
 * - following: per followed subject, the same ranged scan (one LATERAL arm per follow), merged.
 * With `room`, the room's posts (`posts_room`) narrowed by the scope; private rooms are readable here only.
 *
 * Orders: `live` is (score, id) desc, score from core/ranking.ts liveScore. `record` is (author's
 * settled record score at the post's node, live score, id) desc; the cursor carries the same tuple. A
 * record page reads in two parts: posts whose author holds a positive record at the post's node (a join
 * on `records`: few rows, sorted), then all other posts, which share record key 0, in plain live order
 * straight off the index. So a record page over a big node never sorts the whole node's unrecorded posts.
 * The global scope's record page is one range of `posts_record` (`globalRecordRows`), a taxonomy node's
 * one range of `post_nodes_record` (`nodeRecordRows`): both carry the record score on the row.
 */
import { sql, type Expression, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import type { NodeType, SubjectType } from '../../contract/ids.ts'
import type { FeedScope, FeedSort, NodeRef, RoomInfo } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { POST_COLUMNS, type PostRow } from './post-view.ts'
import { positiveRecordScore, recordAtFacet } from './records.ts'
import { visibleTo, type ReadScope } from './visibility.ts'

export interface FeedRequest {
  scope: FeedScope
  /** Only for scope `subject` (a subject with `global` / `following` is ignored, §4.1 rule 3). */
  subject: { type: SubjectType; ref: string } | null
  /** Containment (§4.1 rule 5): only this room's posts. */
  room: RoomInfo | null
  sort: FeedSort
  limit: number
  /** Decoded cursor: [score, id] for `live`, [recordScore, score, id] for `record`. */
  cursor: (string | number)[] | null
  /** Reader's account, or null when signed out. */
  reader: string | null
  /** Venue whose moderation overlay applies (§4.1 rule 5). */
  venue: string | null
}

/** The cursor shape of each order, for decodeCursor. */
export const CURSOR_SHAPE: Record<FeedSort, ('string' | 'number')[]> = {
  live: ['number', 'string'],
  record: ['number', 'number', 'string'],
}

/** The node a subject scope reads signals at: a taxonomy node, never a market (§2.2). */
export function signalNode(req: FeedRequest): NodeRef | null {
  if (req.scope !== 'subject' || !req.subject || req.subject.type === 'event') return null
  return { type: req.subject.type as NodeType, ref: req.subject.ref }
}

export type RankedRow = PostRow & { k0: number; k1: number | string; k2?: string }

/** Groups rows by the node their records are read at (`facet_type`/`facet_ref`; null = global). */
export function groupByFacet<T extends { facet_type: string | null; facet_ref: string | null }>(rows: T[]) {
  const groups = new Map<string, { facet: NodeRef | null; rows: T[] }>()
  for (const r of rows) {
    const facet = r.facet_type && r.facet_ref ? ({ type: r.facet_type, ref: r.facet_ref } as NodeRef) : null
    const key = facet ? `${facet.type}:${facet.ref}` : '*'
    const g = groups.get(key) ?? { facet, rows: [] }
    g.rows.push(r)
    groups.set(key, g)
  }
  return [...groups.values()]
}

/** The author's settled record score at the post's node (global when the post has none); 0 when unranked. */
const recordKey = positiveRecordScore(sql`p`)
/** The author's record row at the post's node (`rec`, a record of the outer query or of a join). */
const recordOf = recordAtFacet(sql`p`)
/** Join condition: the author's record row at the post's node, when positive. */
const recordJoin = sql<boolean>`${recordOf} and rec.score > 0`
const noRecord = sql<boolean>`not exists (select 1 from records rec where ${recordJoin})`
const notPrivate = sql<boolean>`not p.room_private`
const always = sql<boolean>`true`

/** Sort keys in feed order. A node source ranks on `post_nodes` columns so the page is a range of its index. */
export function feedKeys(sort: FeedSort, fromNodes: boolean): RawBuilder<number | string>[] {
  const score = fromNodes ? sql<number>`pn.score` : sql<number>`p.score`
  const id = fromNodes ? sql<string>`pn.post_id` : sql<string>`p.id`
  return sort === 'record' ? [recordKey, score, id] : [score, id]
}

/** Keyset range, order and limit over the keys. */
export function ranked<DB, TB extends keyof DB, O>(
  qb: SelectQueryBuilder<DB, TB, O>,
  keys: RawBuilder<number | string>[],
  cursor: (string | number)[] | null,
  limit: number,
) {
  let q = qb
  if (cursor) q = q.where(sql<boolean>`(${sql.join(keys)}) < (${sql.join(cursor)})`)
  for (const k of keys) q = q.orderBy(k, 'desc')
  return q.limit(limit)
}

/** Keys as selected columns k0, k1 (and k2 for `record`). */
function keyColumns(keys: RawBuilder<number | string>[]) {
  const cols = [keys[0].as('k0'), keys[1].as('k1')]
  return keys[2] ? [...cols, keys[2].as('k2')] : cols
}

/**
 * Which posts a query reads and how it ranks them: `live` (all, live keys); `recorded` (authors with a
 * positive record at the post's node, joined as `rec`; keys rec.score, score, id); `unrecorded` (the
 * rest, live keys).
 */
type Part = 'live' | 'recorded' | 'unrecorded'
interface PartPlan {
  keys(fromNodes: boolean): RawBuilder<number | string>[]
  join: boolean
  filter: RawBuilder<boolean>
}
function plan(part: Part): PartPlan {
  return {
    keys: (fromNodes) => (part === 'recorded' ? [sql<number>`rec.score`, ...feedKeys('live', fromNodes)] : feedKeys('live', fromNodes)),
    join: part === 'recorded',
    filter: part === 'unrecorded' ? noRecord : always,
  }
}

/** Top-level posts of the scope, in feed order, from the cursor on: at most `limit` rows (the rows alone, no extras). */
export async function rankedRows(ctx: ServiceContext, req: FeedRequest, limit: number): Promise<RankedRow[]> {
  const one = pageRowsQuery(ctx, req, limit)
  return one ? run(ctx, one) : twoPartRecordRows(ctx, req, limit)
}

/**
 * A `record` page read in two parts (where `pageRowsQuery` is null: rooms, follows, a market's thread): the
 * recorded posts, then the unrecorded ones in live order. At most `limit` rows, from the cursor on.
 */
export async function twoPartRecordRows(ctx: ServiceContext, req: FeedRequest, limit: number): Promise<RankedRow[]> {
  const c = req.cursor
  const recorded = scopeQuery(ctx, req, limit, plan('recorded'))
  const rows = !c || Number(c[0]) > 0 ? await run(ctx, recorded) : []
  if (rows.length < limit) {
    // Record key 0: the live order; its cursor is the tail of the record cursor.
    const tail = await run(ctx, scopeQuery(ctx, { ...req, cursor: c && Number(c[0]) === 0 ? c.slice(1) : null }, limit - rows.length, plan('unrecorded')))
    for (const r of tail) rows.push({ ...r, k0: 0, k1: r.k0, k2: String(r.k1) })
  }
  return rows
}

/**
 * Whether the page's rows are one index range: every `live` page, and the `record` page of a taxonomy node
 * (`nodeRecordRows`) or of the global scope (`globalRecordRows`). Not a `record` page read in two parts
 * (rooms, follows, a market's thread).
 */
export function isOneRange(req: FeedRequest): boolean {
  if (req.sort === 'live') return true
  if (req.room) return false
  return req.scope === 'global' || (req.scope === 'subject' && !!req.subject && req.subject.type !== 'event')
}

/**
 * The page's rows as one query when they are one index range (`isOneRange`), else null. The caller can
 * then read the page's extras in the same statement (page-extras.ts pageStatement).
 */
export function pageRowsQuery(ctx: ServiceContext, req: FeedRequest, limit: number): Expression<RankedRow> | null {
  if (!isOneRange(req)) return null
  if (req.sort === 'live') return liveRowsQuery(ctx, req, limit)
  return req.scope === 'global' ? globalRecordRows(ctx, req, limit) : nodeRecordRows(ctx, req, req.subject!, limit)
}

/**
 * The `live` page's rows as one query (a parenthesized subquery selecting `POST_COLUMNS` and the keys k0,
 * k1), so a page can read its extras in the same statement (page-extras.ts).
 */
export function liveRowsQuery(ctx: ServiceContext, req: FeedRequest, limit: number): Expression<RankedRow> {
  return scopeQuery(ctx, { ...req, sort: 'live' }, limit, plan('live'))
}

/**
 * A taxonomy node's `record` page (migration 006): the node's index rows carry their author's record score
 * at the post's facet (`record_score`, 0 when none is positive), so the page, recorded and unrecorded posts
 * alike, is one range of `post_nodes_record` from the cursor on, like a `live` page.
 */
function nodeRecordRows(ctx: ServiceContext, req: FeedRequest, node: { type: string; ref: string }, limit: number): Expression<RankedRow> {
  const keys = [sql<number>`pn.record_score`, sql<number>`pn.score`, sql<string>`pn.post_id`]
  const q = nodeScopePosts(ctx, req, node).select(POST_COLUMNS).select(keyColumns(keys))
  return ranked(q, keys, req.cursor, limit) as unknown as Expression<RankedRow>
}

/**
 * The global `record` page (migration 007): each top-level post carries its author's record score at the
 * post's facet (`posts.record_score`, 0 when none is positive), so the page, recorded and unrecorded posts
 * alike, is one range of `posts_record` from the cursor on, like a `live` page.
 */
function globalRecordRows(ctx: ServiceContext, req: FeedRequest, limit: number): Expression<RankedRow> {
  const read: ReadScope = { reader: req.reader, venue: req.venue, ownHidden: false, openRoom: null }
  const keys = [sql<number>`p.record_score`, sql<number>`p.score`, sql<string>`p.id`]
  const q = ctx.db
    .selectFrom('posts as p')
    .select(POST_COLUMNS)
    .select(keyColumns(keys))
    .where('p.parent_id', 'is', null)
    .where(notPrivate)
    .where(visibleTo(read))
  return ranked(q, keys, req.cursor, limit) as unknown as Expression<RankedRow>
}

const run = async (ctx: ServiceContext, q: Expression<RankedRow>) => (await sql<RankedRow>`${q}`.execute(ctx.db)).rows

function scopeQuery(ctx: ServiceContext, req: FeedRequest, limit: number, part: PartPlan): Expression<RankedRow> {
  const read: ReadScope = { reader: req.reader, venue: req.venue, ownHidden: false, openRoom: req.room?.id ?? null }
  const subject = req.scope === 'subject' ? req.subject : null
  const nodeSubject = subject && subject.type !== 'event' ? subject : null
  const rows = <O>(q: Expression<O>) => q as unknown as Expression<RankedRow>

  if (req.room) return rows(roomRows(ctx, req, read, limit, part))

  if (req.scope === 'following') return followingRows(ctx, req, read, limit, part)

  if (nodeSubject) {
    const keys = part.keys(true)
    const q = nodeScopePosts(ctx, req, nodeSubject)
      .$if(part.join, (qb) => qb.innerJoin('records as rec', (j) => j.on(recordJoin)))
      .select(POST_COLUMNS)
      .select(keyColumns(keys))
      .where(part.filter)
    return rows(ranked(q, keys, req.cursor, limit))
  }

  const keys = part.keys(false)
  let q = ctx.db
    .selectFrom('posts as p')
    .$if(part.join, (qb) => qb.innerJoin('records as rec', (j) => j.on(recordJoin)))
    .select(POST_COLUMNS)
    .select(keyColumns(keys))
    .where('p.parent_id', 'is', null)
    .where(notPrivate)
    .where(visibleTo(read))
    .where(part.filter)
  if (subject) q = q.where('p.subject_type', '=', 'event').where('p.subject_ref', '=', subject.ref)
  return rows(ranked(q, keys, req.cursor, limit))
}

/**
 * Posts of a node-subject scope, unordered: top-level, visible, on the node (post_nodes), inside the
 * room when one is given, else outside private rooms. A room's posts are visible as its page shows them
 * (`openRoom`): to an owner or operator `resolveRoom` admitted, not to members only.
 */
export function nodeScopePosts(ctx: ServiceContext, req: FeedRequest, node: { type: string; ref: string }) {
  const q = ctx.db
    .selectFrom('post_nodes as pn')
    .innerJoin('posts as p', 'p.id', 'pn.post_id')
    .where('pn.node_type', '=', node.type)
    .where('pn.node_ref', '=', node.ref)
    .where('p.parent_id', 'is', null)
    .where(visibleTo({ reader: req.reader, venue: req.venue, ownHidden: false, openRoom: req.room?.id ?? null }))
  return req.room ? q.where('p.room_id', '=', req.room.id) : q.where(notPrivate)
}

/** A room's posts (posts_room), narrowed by the scope. visibleTo keeps private-room posts to members. */
function roomRows(ctx: ServiceContext, req: FeedRequest, read: ReadScope, limit: number, part: PartPlan) {
  const keys = part.keys(false)
  let q = ctx.db
    .selectFrom('posts as p')
    .$if(part.join, (qb) => qb.innerJoin('records as rec', (j) => j.on(recordJoin)))
    .select(POST_COLUMNS)
    .select(keyColumns(keys))
    .where('p.room_id', '=', req.room!.id)
    .where('p.parent_id', 'is', null)
    .where(visibleTo(read))
    .where(part.filter)
  const subject = req.scope === 'subject' ? req.subject : null
  if (subject?.type === 'event') q = q.where('p.subject_type', '=', 'event').where('p.subject_ref', '=', subject.ref)
  else if (subject)
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('post_nodes as pn')
          .select('pn.post_id')
          .whereRef('pn.post_id', '=', 'p.id')
          .where('pn.node_type', '=', subject.type)
          .where('pn.node_ref', '=', subject.ref),
      ),
    )
  if (req.scope === 'following')
    q = q.where(sql<boolean>`exists (select 1 from follows f where f.account_id = ${req.reader}
      and ((f.subject_type = p.subject_type and f.subject_ref = p.subject_ref)
        or exists (select 1 from post_nodes fn where fn.post_id = p.id and fn.node_type = f.subject_type and fn.node_ref = f.subject_ref)))`)
  return ranked(q, keys, req.cursor, limit)
}

/**
 * Following (§4.1 rule 4): top-level posts whose subject the reader follows, or whose market sits on a
 * followed node (post_nodes). One LATERAL arm per follow takes that subject's top `limit` rows from the
 * cursor on, so the merged top `limit` is exact and every arm is an index range, however rare the subject.
 */
function followingRows(ctx: ServiceContext, req: FeedRequest, read: ReadScope, limit: number, part: PartPlan) {
  const nodeKeys = part.keys(true)
  const postKeys = part.keys(false)
  const nodeArm = ctx.db
    .selectFrom('follows as f')
    .innerJoinLateral(
      (eb) =>
        ranked(
          eb
            .selectFrom('post_nodes as pn')
            .innerJoin('posts as p', 'p.id', 'pn.post_id')
            .$if(part.join, (qb) => qb.innerJoin('records as rec', (j) => j.on(recordJoin)))
            .select('p.id')
            .select(keyColumns(nodeKeys))
            .whereRef('pn.node_type', '=', 'f.subject_type')
            .whereRef('pn.node_ref', '=', 'f.subject_ref')
            .where('p.parent_id', 'is', null)
            .where(notPrivate)
            .where(visibleTo(read))
            .where(part.filter),
          nodeKeys,
          req.cursor,
          limit,
        ).as('x'),
      (join) => join.onTrue(),
    )
    .selectAll('x')
    .where('f.account_id', '=', req.reader!)
    .where('f.subject_type', '!=', 'event')
  const marketArm = ctx.db
    .selectFrom('follows as f')
    .innerJoinLateral(
      (eb) =>
        ranked(
          eb
            .selectFrom('posts as p')
            .$if(part.join, (qb) => qb.innerJoin('records as rec', (j) => j.on(recordJoin)))
            .select('p.id')
            .select(keyColumns(postKeys))
            .where('p.subject_type', '=', 'event')
            .whereRef('p.subject_ref', '=', 'f.subject_ref')
            .where('p.parent_id', 'is', null)
            .where(notPrivate)
            .where(visibleTo(read))
            .where(part.filter),
          postKeys,
          req.cursor,
          limit,
        ).as('x'),
      (join) => join.onTrue(),
    )
    .selectAll('x')
    .where('f.account_id', '=', req.reader!)
    .where('f.subject_type', '=', 'event')
  const keyNames = postKeys.length === 3 ? ['k0', 'k1', 'k2'] : ['k0', 'k1']
  const order = sql.join(keyNames.map((k) => sql`${sql.ref(`u.${k}`)} desc`))
  const keyCols = sql.join(keyNames.map((k) => sql.ref(`u.${k}`)))
  const cols = sql.join(POST_COLUMNS.map((c) => sql.ref(c)))
  return sql<RankedRow>`(select ${cols}, ${keyCols} from (${nodeArm} union ${marketArm}) u
    join posts p on p.id = u.id order by ${order} limit ${limit})`
}
