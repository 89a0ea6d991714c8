/**
 * Trading reaches a feed as signals, never as rows (§1.6): "N ranked callers moved to <side>".
 *
 * - A ranked caller is an account whose settled record at the market's node (global when the market has
 *   none) holds a rank within the top max(10, 10% of that node's population) (records.ts recordsFor).
 * - It moved to a side when its latest trade on the market in the last 24 h (any of its wallets) was on
 *   that side. One signal per (market, side) with at least one such caller.
 * - Signals exist only on a taxonomy node's scope (§2.2): markets on that node, unresolved.
 * - Placement: a signal attaches to the highest post about its market in the whole feed, and so rides on
 *   the page holding that post. A market with no post in the feed gets a quiet row (attachTo null),
 *   ranked like a take written at the latest move with one agree per caller (core liveScore), and placed
 *   before the first post on the page that ranks below it (`before` null: after the last post). In `record`
 *   order it has no author, so no record: it ranks as a post whose author has none (record score 0) with
 *   that live score, below every post of an author with a record. Each quiet row lands on exactly one page,
 *   the one whose range of the order's keys holds it.
 */
import { sql } from 'kysely'
import type { NodeRef, Signal } from '../../contract/types.ts'
import { liveScore } from '../../core/ranking.ts'
import type { ServiceContext } from '../context.ts'
import { StatementShapes } from '../db/statement-shapes.ts'
import { feedKeys, groupByFacet, nodeScopePosts, type FeedRequest, type RankedRow } from './feed-source.ts'
import { recordsFor } from './records.ts'

export const SIGNAL_WINDOW_MS = 24 * 3600_000
/** Most (market, side) movements a page considers, and most quiet rows on one page. */
export const SIGNAL_MOVES_MAX = 20
export const QUIET_SIGNALS_MAX = 5

/** The rank a caller must hold to count: the top max(10, 10%) of the node's ranked population. */
export const rankedCallerCutoff = (population: number) => Math.max(10, Math.ceil(population * 0.1))

interface Mover {
  account_id: string
  market_id: string
  side: number
  at: Date
  facet_type: string | null
  facet_ref: string | null
}

export interface Move {
  marketId: string
  side: number
  count: number
  lastAt: number
}

export interface MoversInput {
  node: NodeRef
  since: Date
  now: Date
}

/** The movers' statement, compiled once per node type (db/statement-shapes.ts); the node's ref and the window are values. */
const moversStatements = new StatementShapes<MoversInput>(({ node, since, now }, value) => ({
  node: { type: node.type, ref: value(node.ref) },
  since: value(since),
  now: value(now),
}))

/** The statement of each account's latest trade per market on `node` in the window (`since`, `now`]. */
export function moversStatement(ctx: ServiceContext, input: MoversInput) {
  return moversStatements.compile(ctx.db, input, ({ node, since, now }) =>
    sql<Mover>`${ctx.db
      .selectFrom('trades as t')
      .innerJoin('market_nodes as mn', 'mn.market_id', 't.market_id')
      .innerJoin('markets as m', 'm.id', 't.market_id')
      .innerJoin('wallets as w', 'w.address', 't.wallet')
      .select(['w.account_id', 't.market_id', 't.side', 't.at', 'm.facet_type', 'm.facet_ref'])
      .distinctOn(['w.account_id', 't.market_id'])
      .where('mn.node_type', '=', node.type)
      .where('mn.node_ref', '=', node.ref)
      .where('t.at', '>', since)
      .where('t.at', '<=', now)
      .where('m.result', 'is', null)
      .orderBy('w.account_id')
      .orderBy('t.market_id')
      .orderBy('t.at', 'desc')
      .orderBy('t.id', 'desc')}`,
  )
}

/** Each account's latest trade per market on this node in the window, then only ranked callers, counted per side. */
export async function movesOnNode(ctx: ServiceContext, node: NodeRef): Promise<Move[]> {
  const now = ctx.now()
  const statement = moversStatement(ctx, { node, since: new Date(now.getTime() - SIGNAL_WINDOW_MS), now })
  const movers = (await ctx.db.executeQuery(statement)).rows
  const counts = new Map<string, Move>()
  for (const { facet, rows: list } of groupByFacet(movers)) {
    const records = await recordsFor(ctx, list.map((m) => m.account_id), facet)
    for (const m of list) {
      const r = records.get(m.account_id)
      if (!r || r.rank == null || r.rank > rankedCallerCutoff(r.population)) continue
      const key = `${m.market_id}:${m.side}`
      const at = new Date(m.at).getTime()
      const c = counts.get(key) ?? { marketId: m.market_id, side: m.side, count: 0, lastAt: at }
      c.count++
      c.lastAt = Math.max(c.lastAt, at)
      counts.set(key, c)
    }
  }
  return [...counts.values()]
    .sort((a, b) => b.count - a.count || b.lastAt - a.lastAt || a.marketId.localeCompare(b.marketId) || a.side - b.side)
    .slice(0, SIGNAL_MOVES_MAX)
}

/** Whether keys `a` rank below keys `b` (compared in order, the first difference decides). */
const ranksBelow = (a: number[], b: number[]) => {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] < b[i]
  return false
}

/** Live rank of a quiet row: a take written at the latest move, one agree per caller. */
export const signalScore = (m: Move) => liveScore({ createdAtMs: m.lastAt, agrees: m.count, replies: 0, isTake: true })

/** The signals of one page of a node's feed, placed against its posts. */
export async function callerSignals(ctx: ServiceContext, req: FeedRequest, node: NodeRef, page: RankedRow[], hasMore: boolean): Promise<Signal[]> {
  const moves = await movesOnNode(ctx, node)
  if (!moves.length) return []
  const markets = [...new Set(moves.map((m) => m.marketId))]
  // Which of these markets have posts in this feed, and whether one was on an earlier page: at or above the cursor,
  // which is the last row of the page before (this page's rows rank strictly below it).
  const keys = feedKeys(req.sort, false)
  const earlier = req.cursor ? sql<boolean>`bool_or((${sql.join(keys)}) >= (${sql.join(req.cursor)}))` : sql<boolean>`false`
  const present = await nodeScopePosts(ctx, req, node)
    .select(['p.market_id', earlier.as('earlier')])
    .where('p.market_id', 'in', markets)
    .groupBy('p.market_id')
    .execute()
  const inFeed = new Map(present.map((r) => [r.market_id!, r.earlier]))
  const firstOnPage = new Map<string, string>()
  for (const r of page) if (r.market_id && !firstOnPage.has(r.market_id)) firstOnPage.set(r.market_id, r.id)

  // The order's keys without the id: [live score], or [record score, live score] (feed-source.ts feedKeys).
  const record = req.sort === 'record'
  const keyOf = (r: RankedRow) => (record ? [Number(r.k0), Number(r.k1)] : [Number(r.k0)])
  const upper = req.cursor ? req.cursor.slice(0, record ? 2 : 1).map(Number) : [Infinity]
  const lower = hasMore ? keyOf(page[page.length - 1]) : [-Infinity]
  const out: Signal[] = []
  let quiet = 0
  for (const m of moves) {
    const base = { kind: 'callers-moved' as const, marketId: m.marketId, side: m.side, count: m.count }
    if (inFeed.has(m.marketId)) {
      const anchor = firstOnPage.get(m.marketId)
      if (anchor && !inFeed.get(m.marketId)) out.push({ ...base, attachTo: anchor, before: null })
      continue
    }
    const at = record ? [0, signalScore(m)] : [signalScore(m)]
    if (!(ranksBelow(lower, at) && !ranksBelow(upper, at)) || quiet >= QUIET_SIGNALS_MAX) continue
    quiet++
    out.push({ ...base, attachTo: null, before: page.find((r) => ranksBelow(keyOf(r), at))?.id ?? null })
  }
  const position = (s: Signal) => {
    const id = s.attachTo ?? s.before
    const i = id ? page.findIndex((r) => r.id === id) : page.length
    return i * 2 + (s.attachTo ? 1 : 0)
  }
  return out.sort((a, b) => position(a) - position(b))
}
