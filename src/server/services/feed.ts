/**
 * The ranked feed page (§2.2, §4.1 `GET /v1/social/posts/feed`). A page whose rows are one index range
 * (every `live` page; a node's or the global `record` page) is one statement, compiled once per shape: the
 * ranked rows (feed-source.ts) with their replies, the reader's agrees and their markets' labels and titles
 * (page-extras.ts). Another `record` page reads its rows in up to two parts, then the extras in one more.
 * Then, at once and only where they apply: records (`sort=record`), signals (feed-signals.ts, taxonomy
 * nodes) and settlements (feed-settlements.ts, resolved markets on the page); then labels of markets only
 * a signal names.
 * No per-post queries.
 */
import type { FeedPage, Post, RoomInfo } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { StatementShapes } from '../db/statement-shapes.ts'
import { encodeCursor } from '../http/cursor.ts'
import { extrasOf, pageStatement, pageView, runPageStatement, type ExtrasSpec } from './page-extras.ts'
import { recordsFor } from './records.ts'
import { callerSignals } from './feed-signals.ts'
import { settlementsFor } from './feed-settlements.ts'
import { groupByFacet, isOneRange, pageRowsQuery, signalNode, twoPartRecordRows, type FeedRequest, type RankedRow } from './feed-source.ts'

export { CURSOR_SHAPE, type FeedRequest } from './feed-source.ts'

/**
 * The page's extras: replies visible to the reader (never their own hidden ones), and their agrees. In a
 * room's feed the replies see the room as its rows do (`openRoom`): a private room's owner or an operator
 * who is not a member was admitted by `resolveRoom`, and reads the replies as the thread shows them.
 */
const extrasSpec = (req: FeedRequest): ExtrasSpec => ({
  reader: req.reader,
  replies: { reader: req.reader, venue: req.venue, ownHidden: false, openRoom: req.room?.id ?? null },
})

interface OneRangePage {
  req: FeedRequest
  /** Rows to read: the page's limit and one more, to know whether there is a next page. */
  rows: number
}

/**
 * A one-range page's statement, compiled once per shape (db/statement-shapes.ts): the scope, subject type
 * and order, and whether a cursor, a reader, a venue or a room is given. Ids, keys and limits are values.
 */
const oneRangePages = new StatementShapes<OneRangePage>(({ req, rows }, value) => ({
  req: {
    scope: req.scope,
    subject: req.subject && { type: req.subject.type, ref: value(req.subject.ref) },
    room: req.room && ({ id: value(req.room.id) } as RoomInfo),
    sort: req.sort,
    limit: value(req.limit),
    cursor: req.cursor && req.cursor.map(value),
    reader: req.reader === null ? null : value(req.reader),
    venue: req.venue === null ? null : value(req.venue),
  },
  rows: value(rows),
}))

/** The statement of a one-range page (feed-source.ts isOneRange): its rows with their extras. */
export function oneRangePageStatement(ctx: ServiceContext, page: OneRangePage) {
  return oneRangePages.compile(ctx.db, page, ({ req, rows }) =>
    pageStatement<RankedRow>(ctx, pageRowsQuery(ctx, req, rows)!, req.sort === 'record' ? ['k0', 'k1', 'k2'] : ['k0', 'k1'], extrasSpec(req)),
  )
}

/** One page of the ranked feed. */
export async function readFeed(ctx: ServiceContext, req: FeedRequest): Promise<FeedPage> {
  const limit = req.limit + 1
  const rows = isOneRange(req)
    ? await runPageStatement(ctx, oneRangePageStatement(ctx, { req, rows: limit }))
    : await extrasOf(ctx, await twoPartRecordRows(ctx, req, limit), extrasSpec(req))
  const hasMore = rows.length > req.limit
  const page = rows.slice(0, req.limit)
  const { posts, threads, labels, titles, results } = pageView(page, req.reader)
  // Independent reads, at once (on PostgreSQL each takes its own pooled connection).
  const node = signalNode(req)
  const [, signals, settlements] = await Promise.all([
    req.sort === 'record' ? fillRecords(ctx, page, posts) : null,
    node ? callerSignals(ctx, req, node, page, hasMore) : [],
    settlementsFor(ctx, page, (id) => !!results.get(id), req.venue),
  ])
  // Labels and titles of markets only a signal names (a quiet row), from the chain source.
  const unlabelled = [...new Set(signals.map((s) => s.marketId))].filter((id) => !(id in labels))
  if (unlabelled.length)
    for (const [id, m] of await ctx.chain.markets(unlabelled)) {
      labels[id] = m.outcomes
      titles[id] = m.title
    }
  const last = page[page.length - 1]
  const nextCursor = hasMore ? encodeCursor(req.sort === 'record' ? [last.k0, last.k1, last.k2!] : [last.k0, last.k1]) : null
  return { posts, signals, settlements, threads, labels, titles, sort: req.sort, scope: req.scope, nextCursor }
}

/** `sort=record` (§4.1 rule 6): each post carries its author's settled record at the post's node, one batch per node. */
async function fillRecords(ctx: ServiceContext, page: RankedRow[], posts: Post[]) {
  const at = new Map(page.map((r, i) => [r.id, i]))
  await Promise.all(
    groupByFacet(page).map(async ({ facet, rows }) => {
      const records = await recordsFor(ctx, rows.map((r) => r.account_id), facet)
      for (const r of rows) posts[at.get(r.id)!].record = records.get(r.account_id) ?? null
    }),
  )
}
