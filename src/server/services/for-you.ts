/**
 * The for-you rail (§2.3): discovery items, each with its reason, and the markets they reference.
 *
 * Reasons, in priority order (a market appears once; the first reason that holds it wins):
 * - `held`: unresolved markets any of the reader's wallets holds a position on (signed in only);
 * - `followed`: open markets on a node the reader follows, with that `node` (signed in only);
 * - `closing-soon`: open markets closing within LIMITS.closingSoonMs (7 days), soonest first;
 * - `trending`: open markets with the most trades in the last 24 h.
 * The rail interleaves the reasons one at a time in that order, so no reason crowds out the others.
 * "Open" means unresolved and not past its closing time. `nodes` narrows every reason to markets on all
 * of them (a room's node, a subject node; a market subject gives its facet, and `except` leaves the market
 * itself out: the rail beside a market's thread is about the markets around it). `personalized` is true
 * exactly when the reader is signed in.
 */
import { sql, type ExpressionBuilder } from 'kysely'
import { LIMITS } from '../../contract/limits.ts'
import type { ForYouItem, ForYouRail, Market, NodeRef } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import type { Database } from '../db/schema.ts'

export const TRENDING_WINDOW_MS = 24 * 3600_000
export const FOR_YOU_DEFAULT_LIMIT = 10

export interface ForYouRequest {
  /** Signed-in reader: account and wallets; null when signed out. */
  reader: { accountId: string; wallets: string[] } | null
  /** Narrow to markets on every one of these nodes. */
  nodes: NodeRef[]
  /** A market left out (the subject market of the page). */
  except?: string
  limit: number
}

type MarketsEb = ExpressionBuilder<Database & { m: Database['markets'] }, 'm'>

/** Markets on every node of the request, other than the one it leaves out. */
const narrowed = (req: ForYouRequest) => (eb: MarketsEb) =>
  eb.and([
    ...req.nodes.map((n) =>
      eb.exists(
        eb
          .selectFrom('market_nodes as mn')
          .select('mn.market_id')
          .whereRef('mn.market_id', '=', 'm.id')
          .where('mn.node_type', '=', n.type)
          .where('mn.node_ref', '=', n.ref),
      ),
    ),
    ...(req.except ? [eb('m.id', '<>', req.except)] : []),
  ])

const isOpen = (now: Date) => (eb: MarketsEb) => eb.and([eb('m.result', 'is', null), eb.or([eb('m.closes_at', 'is', null), eb('m.closes_at', '>', now)])])

async function held(ctx: ServiceContext, req: ForYouRequest): Promise<ForYouItem[]> {
  if (!req.reader || !req.reader.wallets.length) return []
  const wallets = req.reader.wallets.map((w) => w.toLowerCase())
  const rows = await ctx.db
    .selectFrom('markets as m')
    .select('m.id')
    .where('m.result', 'is', null)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('positions as ps').select('ps.market_id').whereRef('ps.market_id', '=', 'm.id').where('ps.wallet', 'in', wallets).where('ps.size', '>', '0')),
    )
    .where(narrowed(req))
    .orderBy(sql`m.closes_at asc nulls last`)
    .orderBy('m.id')
    .limit(req.limit)
    .execute()
  return rows.map((r) => ({ marketId: r.id, reason: 'held' }))
}

async function followed(ctx: ServiceContext, req: ForYouRequest): Promise<ForYouItem[]> {
  if (!req.reader) return []
  const now = ctx.now()
  const perMarket = ctx.db
    .selectFrom('follows as f')
    .innerJoin('market_nodes as fn', (j) => j.onRef('fn.node_type', '=', 'f.subject_type').onRef('fn.node_ref', '=', 'f.subject_ref'))
    .innerJoin('markets as m', 'm.id', 'fn.market_id')
    .select(['m.id', 'm.closes_at', 'fn.node_type', 'fn.node_ref'])
    .distinctOn('m.id')
    .where('f.account_id', '=', req.reader.accountId)
    .where(isOpen(now))
    .where(narrowed(req))
    .orderBy('m.id')
    .orderBy('f.created_at')
    .orderBy('fn.node_type')
    .orderBy('fn.node_ref')
  const rows = await ctx.db
    .selectFrom(perMarket.as('x'))
    .selectAll('x')
    .orderBy(sql`x.closes_at asc nulls last`)
    .orderBy('x.id')
    .limit(req.limit)
    .execute()
  return rows.map((r) => ({ marketId: r.id, reason: 'followed', node: { type: r.node_type, ref: r.node_ref } as NodeRef }))
}

async function closingSoon(ctx: ServiceContext, req: ForYouRequest): Promise<ForYouItem[]> {
  const now = ctx.now()
  const rows = await ctx.db
    .selectFrom('markets as m')
    .select('m.id')
    .where('m.result', 'is', null)
    .where('m.closes_at', '>', now)
    .where('m.closes_at', '<=', new Date(now.getTime() + LIMITS.closingSoonMs))
    .where(narrowed(req))
    .orderBy('m.closes_at')
    .orderBy('m.id')
    .limit(req.limit)
    .execute()
  return rows.map((r) => ({ marketId: r.id, reason: 'closing-soon' }))
}

async function trending(ctx: ServiceContext, req: ForYouRequest): Promise<ForYouItem[]> {
  const now = ctx.now()
  const rows = await ctx.db
    .selectFrom('trades as t')
    .innerJoin('markets as m', 'm.id', 't.market_id')
    .select(['m.id', sql<number>`count(*)::int`.as('n')])
    .where('t.at', '>', new Date(now.getTime() - TRENDING_WINDOW_MS))
    .where('t.at', '<=', now)
    .where(isOpen(now))
    .where(narrowed(req))
    .groupBy('m.id')
    .orderBy('n', 'desc')
    .orderBy('m.id')
    .limit(req.limit)
    .execute()
  return rows.map((r) => ({ marketId: r.id, reason: 'trending' }))
}

export async function forYouRail(ctx: ServiceContext, req: ForYouRequest): Promise<ForYouRail> {
  // Priority order; a market keeps the first reason that lists it.
  const lists = [await held(ctx, req), await followed(ctx, req), await closingSoon(ctx, req), await trending(ctx, req)]
  const seen = new Set<string>()
  const deduped = lists.map((l) => l.filter((i) => !seen.has(i.marketId) && !!seen.add(i.marketId)))
  const items: ForYouItem[] = []
  for (let round = 0; items.length < req.limit && deduped.some((l) => l.length > round); round++)
    for (const l of deduped) if (l[round] && items.length < req.limit) items.push(l[round])
  const found = await ctx.chain.markets(items.map((i) => i.marketId))
  const markets: Record<string, Market> = {}
  for (const [id, m] of found) markets[id] = m
  return { items: items.filter((i) => markets[i.marketId]), markets, personalized: !!req.reader }
}
