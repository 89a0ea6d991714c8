/**
 * The ranked feed page (§2.2, §4.1 `GET /v1/social/posts/feed`): the ranked rows (feed-source.ts), then
 * a few batched lookups for the page: agrees, replies (threads), records (`sort=record`), signals
 * (feed-signals.ts), settlements (feed-settlements.ts), labels and titles. No per-post queries.
 */
import type { FeedPage, Labels, Post, Titles } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { encodeCursor } from '../http/cursor.ts'
import { agreedSet, repliesOf, toPost } from './post-view.ts'
import { recordsFor } from './records.ts'
import { callerSignals } from './feed-signals.ts'
import { settlementsFor } from './feed-settlements.ts'
import { groupByFacet, rankedRows, signalNode, type FeedRequest, type RankedRow } from './feed-source.ts'

export { CURSOR_SHAPE, type FeedRequest } from './feed-source.ts'

/** One page of the ranked feed. */
export async function readFeed(ctx: ServiceContext, req: FeedRequest): Promise<FeedPage> {
  const rows = await rankedRows(ctx, req, req.limit + 1)
  const hasMore = rows.length > req.limit
  const page = rows.slice(0, req.limit)
  const ids = page.map((r) => r.id)
  const agreed = await agreedSet(ctx, req.reader, ids)
  const posts = page.map((r) => toPost(r, req.reader, agreed))
  const threads = await repliesOf(ctx, ids, { reader: req.reader, venue: req.venue, ownHidden: false })
  if (req.sort === 'record') await fillRecords(ctx, page, posts)
  const node = signalNode(req)
  const signals = node ? await callerSignals(ctx, req, node, page, hasMore) : []
  // Labels and titles for every market on the page (posts and signals), from one read of the chain source.
  const markets = await ctx.chain.markets([...new Set([...page.map((r) => r.market_id), ...signals.map((s) => s.marketId)].filter((x): x is string => !!x))])
  const labels: Labels = {}
  const titles: Titles = {}
  for (const [id, m] of markets) {
    labels[id] = m.outcomes
    titles[id] = m.title
  }
  const settlements = await settlementsFor(ctx, page, markets)
  const last = page[page.length - 1]
  const nextCursor = hasMore ? encodeCursor(req.sort === 'record' ? [last.k0, last.k1, last.k2!] : [last.k0, last.k1]) : null
  return { posts, signals, settlements, threads, labels, titles, sort: req.sort, scope: req.scope, nextCursor }
}

/** `sort=record` (§4.1 rule 6): each post carries its author's settled record at the post's node, one batch per node. */
async function fillRecords(ctx: ServiceContext, page: RankedRow[], posts: Post[]) {
  const at = new Map(page.map((r, i) => [r.id, i]))
  for (const { facet, rows } of groupByFacet(page)) {
    const records = await recordsFor(ctx, rows.map((r) => r.account_id), facet)
    for (const r of rows) posts[at.get(r.id)!].record = records.get(r.account_id) ?? null
  }
}
