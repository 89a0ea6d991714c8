/**
 * One subject's thread (§4.2 `posts`, §2.7): top-level posts newest first, keyset-paged on the post id
 * (ids are time-ordered), replies folded under their parents, labels and titles for the page. Two
 * statements: the subject's market (its series), then the page with its extras (page-extras.ts), compiled
 * once per shape.
 *
 * A recurring market names its durable series thread (`series`). With `includeSeries` the series thread
 * is merged in newest first: posts written on the series node and top-level posts on the series' other
 * rounds (indexed under the `series` node in post_nodes). Those rows, and the replies under them, carry
 * `fromSeries: true` because their stances concern a different round.
 */
import type { SubjectType } from '../../contract/ids.ts'
import type { Expression } from 'kysely'
import type { Market, Post, ThreadPage } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { encodeCursor } from '../http/cursor.ts'
import { markVenueHidden } from './own-hidden.ts'
import { StatementShapes } from '../db/statement-shapes.ts'
import { pageStatement, pageView, runPageStatement } from './page-extras.ts'
import { POST_COLUMNS, type PostRow } from './post-view.ts'
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

/** The market a thread is about (an `event` subject; its series thread, if any), or null for a node subject or an unknown market. */
async function subjectMarketOf(ctx: ServiceContext, subjectType: SubjectType, subjectRef: string): Promise<Market | null> {
  if (subjectType !== 'event') return null
  return (await ctx.chain.markets([subjectRef])).get(subjectRef.toLowerCase()) ?? null
}

/** A thread page's statement input: the query, the reader, the series merged in (if any). */
interface ThreadPageInput {
  q: ThreadQuery
  reader: string | null
  merge: string | null
  /** Rows to read: the page's limit and one more, to know whether there is a next page. */
  rows: number
}

/**
 * A thread page's statement, compiled once per shape (db/statement-shapes.ts): the subject type, whether
 * replies are folded in, and whether a series, a cursor, a reader, a venue or a room is given. Ids and limits
 * are values.
 */
const threadPages = new StatementShapes<ThreadPageInput>(({ q, reader, merge, rows }, value) => ({
  q: {
    subjectType: q.subjectType,
    subjectRef: value(q.subjectRef),
    includeReplies: q.includeReplies,
    includeSeries: q.includeSeries,
    limit: value(q.limit),
    after: q.after === null ? null : value(q.after),
    venue: q.venue === null ? null : value(q.venue),
    roomId: q.roomId === null ? null : value(q.roomId),
  },
  reader: reader === null ? null : value(reader),
  merge: merge === null ? null : value(merge),
  rows: value(rows),
}))

/** The page's rows (newest first, from the cursor on), with their extras, as one statement. */
export function threadPageStatement(ctx: ServiceContext, input: ThreadPageInput) {
  return threadPages.compile(ctx.db, input, ({ q, reader, merge, rows }) => {
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
    const rowsQuery = query.orderBy('p.id', 'desc').limit(rows) as unknown as Expression<PostRow>
    return pageStatement(ctx, rowsQuery, ['id'], { reader, replies: q.includeReplies ? scope : null })
  })
}

/**
 * §2.7: rows merged from the series "must be labelled because their stances concern a different round":
 * every post on another subject than the thread's, top-level rows and the replies under them alike.
 */
function labelSeriesRows(q: ThreadQuery, posts: Post[]) {
  for (const p of posts) if (p.subjectType !== q.subjectType || p.subjectRef !== q.subjectRef) p.fromSeries = true
}

export async function readThread(ctx: ServiceContext, reader: string | null, q: ThreadQuery): Promise<ThreadPage> {
  const subjectMarket = await subjectMarketOf(ctx, q.subjectType, q.subjectRef)
  const series = subjectMarket?.series ?? null
  const merge = q.includeSeries && series ? series : null
  // One statement: the rows, with their replies, the reader's agrees and their markets (page-extras.ts).
  const rows = await runPageStatement(ctx, threadPageStatement(ctx, { q, reader, merge, rows: q.limit + 1 }))

  const hasMore = rows.length > q.limit
  const page = rows.slice(0, q.limit)
  const { posts, threads, labels, titles } = pageView(page, reader)
  labelSeriesRows(q, [...posts, ...Object.values(threads).flat()])
  await markVenueHidden(ctx, [...posts, ...Object.values(threads).flat()], reader, q.venue)
  // The thread's own market is labelled even when no post is on the page.
  if (subjectMarket && !(subjectMarket.id in labels)) {
    labels[subjectMarket.id] = subjectMarket.outcomes
    titles[subjectMarket.id] = subjectMarket.title
  }
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
