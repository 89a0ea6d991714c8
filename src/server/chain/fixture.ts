/** The fixture chain: driven by tests and the demo, stored in the service's tables. */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { Market } from '../../contract/types.ts'
import { isNodeType } from '../../contract/ids.ts'
import { normalizeMarketId, normalizeWallet, timeId } from '../../core/ids.ts'
import type { ChainController, ChainSource, HeldPosition, MarketInput, StanceFacts } from './source.ts'
import { marketFromRow } from './markets.ts'
import { PLAN_CACHED } from '../db/plan-cache.ts'

/** A market the chain has already resolved: a result is recorded once. */
export class MarketResolvedError extends Error {
  constructor(readonly marketId: string) {
    super(`market ${marketId} is already resolved`)
  }
}

export class FixtureChain implements ChainSource, ChainController {
  /**
   * Called inside the resolution's transaction (records): if it fails, the market stays unresolved and the
   * resolution can be tried again.
   */
  onSettle: (tx: Kysely<Database>, marketId: string) => Promise<void> = async () => {}
  /** Called after a market's resolution committed (realtime). */
  onResolved: (marketId: string) => Promise<void> = async () => {}
  /** Called after a trade is recorded. */
  onTrade: (marketId: string) => Promise<void> = async () => {}

  constructor(private readonly db: Kysely<Database>) {}

  async markets(ids: string[]): Promise<Map<string, Market>> {
    const out = new Map<string, Market>()
    const list = [...new Set(ids.map((i) => i.toLowerCase()))]
    if (!list.length) return out
    const rows = await this.db.selectFrom('markets').selectAll().where('id', 'in', list).execute()
    for (const r of rows) out.set(r.id, marketFromRow(r))
    return out
  }

  async positionOf(wallets: string[], marketId: string): Promise<HeldPosition | null> {
    return (await this.stanceOf(wallets, marketId)).position
  }

  /**
   * One statement: the market, its resolution, the wallets' largest open position on it (summed over the
   * wallets per side; the larger size wins, ties go to the lower side) and that side's price.
   */
  async stanceOf(wallets: string[], marketId: string): Promise<StanceFacts> {
    const id = marketId.toLowerCase()
    const held = wallets.length
      ? sql`select side, sum(size) as size from positions where wallet in (${sql.join(wallets.map((w) => w.toLowerCase()))})
          and market_id = m.id and size > 0 group by side order by sum(size) desc, side limit 1`
      : sql`select null::int as side, null::numeric as size where false`
    const { rows } = await sql<Record<string, unknown> & { resolved: boolean; held_side: number | null; held_size: string | null; held_price_bps: number | null }>`${sql.raw(PLAN_CACHED)}
      select m.*, m.resolved_at is not null as resolved, h.side as held_side, h.size::text as held_size, pr.price_bps as held_price_bps
      from markets m
      left join lateral (${held}) h on true
      left join prices pr on pr.market_id = m.id and pr.side = h.side
      where m.id = ${id}`.execute(this.db)
    const r = rows[0]
    if (!r) return { market: null, position: null, priceBps: null, resolved: false }
    const position = r.held_side == null || r.held_size == null ? null : { side: r.held_side, size: BigInt(r.held_size.split('.')[0]).toString() }
    return { market: marketFromRow(r), position, priceBps: position ? r.held_price_bps : null, resolved: !!r.resolved }
  }

  async priceOf(marketId: string, side: number): Promise<number | null> {
    const r = await this.db
      .selectFrom('prices')
      .select('price_bps')
      .where('market_id', '=', marketId.toLowerCase())
      .where('side', '=', side)
      .executeTakeFirst()
    return r ? r.price_bps : null
  }

  async addMarket(m: MarketInput): Promise<Market> {
    const id = normalizeMarketId(m.id)
    if (!id) throw new Error(`market id must be 0x and 64 hex characters: ${m.id}`)
    const outcomes = m.outcomes ?? [{ label: 'Yes' }, { label: 'No' }]
    const nodes = (m.nodes ?? []).map((n) => {
      if (!isNodeType(n.type)) throw new Error(`unknown node type ${n.type}`)
      return { type: n.type, ref: n.ref }
    })
    if (m.series) nodes.push({ type: 'series', ref: m.series })
    const facet = m.facet !== undefined ? m.facet : nodes.find((n) => n.type === 'category') ?? nodes[0] ?? null
    const uniq = [...new Map(nodes.map((n) => [`${n.type}:${n.ref}`, n])).values()]
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('markets')
        .values({
          id,
          title: m.title,
          outcomes: JSON.stringify(outcomes),
          nodes: JSON.stringify(uniq),
          facet_type: facet?.type ?? null,
          facet_ref: facet?.ref ?? null,
          series: m.series ?? null,
          clob: !!m.clob,
          closes_at: m.closesAt ? new Date(m.closesAt) : null,
          decimals: m.decimals === undefined ? 6 : m.decimals,
          result: null,
          created_at: new Date(),
        })
        .execute()
      if (uniq.length)
        await tx
          .insertInto('market_nodes')
          .values(uniq.map((n) => ({ market_id: id, node_type: n.type, node_ref: n.ref })))
          .execute()
    })
    return (await this.markets([id])).get(id)!
  }

  async setPrice(marketId: string, side: number, priceBps: number): Promise<void> {
    if (!Number.isInteger(priceBps) || priceBps < 0 || priceBps > 10_000) throw new Error('price must be 0..10000 bps')
    await this.db
      .insertInto('prices')
      .values({ market_id: marketId.toLowerCase(), side, price_bps: priceBps, updated_at: new Date() })
      .onConflict((oc) => oc.columns(['market_id', 'side']).doUpdateSet({ price_bps: priceBps, updated_at: new Date() }))
      .execute()
  }

  async setPosition(wallet: string, marketId: string, side: number, size: bigint | number | string): Promise<void> {
    const w = normalizeWallet(wallet)
    if (!w) throw new Error(`not a wallet: ${wallet}`)
    const s = BigInt(size).toString()
    await this.db
      .insertInto('positions')
      .values({ wallet: w, market_id: marketId.toLowerCase(), side, size: s, updated_at: new Date() })
      .onConflict((oc) => oc.columns(['wallet', 'market_id', 'side']).doUpdateSet({ size: s, updated_at: new Date() }))
      .execute()
  }

  async trade(t: { wallet: string; marketId: string; side: number; size: bigint | number | string; priceBps?: number; at?: Date }): Promise<void> {
    const w = normalizeWallet(t.wallet)
    if (!w) throw new Error(`not a wallet: ${t.wallet}`)
    const id = t.marketId.toLowerCase()
    const size = BigInt(t.size)
    const price = t.priceBps ?? (await this.priceOf(id, t.side))
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('trades')
        .values({ id: timeId('t_'), wallet: w, market_id: id, side: t.side, size: size.toString(), price_bps: price, at: t.at ?? new Date() })
        .execute()
      await tx
        .insertInto('positions')
        .values({ wallet: w, market_id: id, side: t.side, size: size.toString(), updated_at: new Date() })
        .onConflict((oc) =>
          oc.columns(['wallet', 'market_id', 'side']).doUpdateSet({ size: sql`positions.size + ${size.toString()}::numeric`, updated_at: new Date() }),
        )
        .execute()
      await tx.updateTable('markets').set({ volume: sql`volume + 1` }).where('id', '=', id).execute()
    })
    await this.onTrade(id)
  }

  async resolve(marketId: string, outcome: number | 'void'): Promise<void> {
    const id = marketId.toLowerCase()
    const m = (await this.markets([id])).get(id)
    if (!m) throw new Error(`unknown market ${marketId}`)
    if (outcome !== 'void' && (!Number.isInteger(outcome) || outcome < 0 || outcome >= m.outcomes.length))
      throw new Error(`market ${id} has no outcome ${outcome}`)
    const result = outcome === 'void' ? { void: true as const } : { winner: outcome }
    await this.db.transaction().execute(async (tx) => {
      // Check and set in one statement: of two resolutions at once, one records its result.
      const set = await tx
        .updateTable('markets')
        .set({ result: JSON.stringify(result), resolved_at: new Date() })
        .where('id', '=', id)
        .where('resolved_at', 'is', null)
        .returning('id')
        .executeTakeFirst()
      if (!set) throw new MarketResolvedError(id)
      await this.onSettle(tx, id)
    })
    await this.onResolved(id)
  }
}
