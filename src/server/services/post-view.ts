/** Post rows to wire posts (a page's replies, agrees and labels: page-extras.ts). */
import { type Selectable, sql } from 'kysely'
import type { Post } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import type { Database } from '../db/schema.ts'

export const POST_COLUMNS = [
  'p.id',
  'p.subject_type',
  'p.subject_ref',
  'p.account_id',
  'p.author',
  'p.body',
  'p.parent_id',
  'p.room_id',
  'p.market_id',
  'p.stance_side',
  'p.stance_size',
  'p.stance_price_bps',
  'p.created_at',
  'p.edited_at',
  'p.state',
  'p.agrees',
  'p.replies',
  'p.score',
  'p.pinned_at',
  'p.facet_type',
  'p.facet_ref',
] as const

/** A post as the views read it: the posts row's `POST_COLUMNS`, typed from the schema. */
export type PostRow = Pick<Selectable<Database['posts']>, (typeof POST_COLUMNS)[number] extends `p.${infer C}` ? C : never>

const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString())

/** `agreed`: the set of post ids the reader agreed with, or whether they agreed with this one. */
export function toPost(r: PostRow, reader: string | null, agreed?: Set<string> | boolean | null): Post {
  const post: Post = {
    id: r.id,
    subjectType: r.subject_type as Post['subjectType'],
    subjectRef: r.subject_ref,
    author: r.author,
    body: r.body,
    parentId: r.parent_id,
    roomId: r.room_id,
    createdAt: iso(r.created_at)!,
    editedAt: iso(r.edited_at),
    agrees: r.agrees,
    replies: r.replies,
  }
  if (r.stance_side != null) post.stance = { side: r.stance_side, size: r.stance_size ?? '0', priceBps: r.stance_price_bps }
  if (reader) post.agreed = typeof agreed === 'boolean' ? agreed : (agreed?.has(r.id) ?? false)
  if (r.state !== 'visible' && reader === r.account_id) post.hidden = true
  if (r.pinned_at) post.pinned = true
  return post
}

/** Which of these posts the reader agreed with. */
export async function agreedSet(ctx: ServiceContext, reader: string | null, ids: string[]): Promise<Set<string>> {
  if (!reader || !ids.length) return new Set()
  const rows = await ctx.db
    .selectFrom('reactions')
    .select('post_id')
    .where('account_id', '=', reader)
    .where('kind', '=', 'agree')
    .where('post_id', 'in', ids)
    .execute()
  return new Set(rows.map((r) => r.post_id))
}

/** Helper for `count(*)` that both drivers return as a number. */
export const countInt = sql<number>`count(*)::int`
