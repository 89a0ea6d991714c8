/**
 * One subject's thread (§4.2 `posts`, §2.7): top-level posts newest first, keyset-paged on the post id
 * (ids are time-ordered), replies folded under their parents, labels and titles for the page.
 *
 * A recurring market names its durable series thread (`series`). With `includeSeries` the series thread
 * is merged in newest first: posts written on the series node and top-level posts on the series' other
 * rounds (indexed under the `series` node in post_nodes). Those rows carry `fromSeries: true` because
 * their stances concern a different round.
 */
import type { SubjectType } from '../../contract/ids.ts'
import type { ThreadPage } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { encodeCursor } from '../http/cursor.ts'
import { markVenueHidden } from './own-hidden.ts'
import { agreedSet, labelsAndTitles, POST_COLUMNS, repliesOf, toPost, type PostRow } from './post-view.ts'
import { visibleTo, type ReadScope } from './visibility.ts'

export interface ThreadQuery {
  subjectType: SubjectType
  subjectRef: string
  includeReplies: boolean
  includeSeries: boolean
  limit: number
  /** Last post id of the previous page. */
  after: string | null
  /** Venue overlay (§4.1 rule 5): hides and bans of that venue; never a filter. */
  venue: string | null
  /** Room containment: only this room's posts. Null: every post the reader may see. */
  roomId: string | null
}

/** The series thread a market's rounds roll into, or null for a one-off market or a node subject. */
export async function seriesOf(ctx: ServiceContext, subjectType: SubjectType, subjectRef: string): Promise<string | null> {
  if (subjectType !== 'event') return null
  const market = (await ctx.chain.markets([subjectRef])).get(subjectRef.toLowerCase())
  return market?.series ?? null
}

export async function readThread(ctx: ServiceContext, reader: string | null, q: ThreadQuery): Promise<ThreadPage> {
  const series = await seriesOf(ctx, q.subjectType, q.subjectRef)
  const merge = q.includeSeries && series ? series : null
  const scope: ReadScope = { reader, venue: q.venue, ownHidden: true, openRoom: q.roomId }

  let query = ctx.db
    .selectFrom('posts as p')
    .select(POST_COLUMNS)
    .where('p.parent_id', 'is', null)
    .where((eb) => {
      const own = eb.and([eb('p.subject_type', '=', q.subjectType), eb('p.subject_ref', '=', q.subjectRef)])
      if (!merge) return own
      return eb.or([
        own,
        eb.and([eb('p.subject_type', '=', 'series'), eb('p.subject_ref', '=', merge)]),
        eb('p.id', 'in', eb.selectFrom('post_nodes as pn').select('pn.post_id').where('pn.node_type', '=', 'series').where('pn.node_ref', '=', merge)),
      ])
    })
    .where(visibleTo(scope))
  if (q.roomId) query = query.where('p.room_id', '=', q.roomId)
  if (q.after) query = query.where('p.id', '<', q.after)
  const rows = (await query.orderBy('p.id', 'desc').limit(q.limit + 1).execute()) as PostRow[]

  const hasMore = rows.length > q.limit
  const page = rows.slice(0, q.limit)
  const agreed = await agreedSet(ctx, reader, page.map((r) => r.id))
  const posts = page.map((r) => {
    const post = toPost(r, reader, agreed)
    if (r.subject_type !== q.subjectType || r.subject_ref !== q.subjectRef) post.fromSeries = true
    return post
  })
  const threads = q.includeReplies ? await repliesOf(ctx, page.map((r) => r.id), scope) : {}
  await markVenueHidden(ctx, [...posts, ...Object.values(threads).flat()], reader, q.venue)
  const marketIds = [...page.map((r) => r.market_id), ...(q.subjectType === 'event' ? [q.subjectRef] : [])]
  const { labels, titles } = await labelsAndTitles(ctx, marketIds)
  return {
    posts,
    threads,
    series,
    labels,
    titles,
    hasMore,
    nextCursor: hasMore ? encodeCursor([page[page.length - 1].id]) : null,
  }
}
