/** The fixture chain: driven by tests and the demo, stored in the service's tables. */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { Market } from '../../contract/types.ts'
import { timeId } from '../../core/ids.ts'
import type { ChainController, ChainSource, HeldPosition, MarketInput, MarketPatch, StanceFacts } from './source.ts'
import { marketFromRow } from './markets.ts'
import { bpsOf, ChainInputError, marketIdOf, marketOf, patchOf, sideOf, sizeOf, walletOf } from './input.ts'
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
  /** Called after a market's title, close time or labels changed (realtime). */
  onUpdated: (marketId: string) => Promise<void> = async () => {}
  /** Called after a trade is recorded. */
  onTrade: (marketId: string) => Promise<void> = async () => {}

  /** `now`: the service's clock (ServiceContext.now): a trade recorded without a time and a resolution happen at its now. */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date = () => new Date(),
  ) {}

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

  /** Adds a market (`ChainInputError` `exists` when its id was added before: a market is added once). */
  async addMarket(input: MarketInput): Promise<Market> {
    const m = marketOf(input)
    await this.db.transaction().execute(async (tx) => {
      const added = await tx
        .insertInto('markets')
        .values({
          id: m.id,
          title: m.title,
          outcomes: JSON.stringify(m.outcomes),
          nodes: JSON.stringify(m.nodes),
          facet_type: m.facet?.type ?? null,
          facet_ref: m.facet?.ref ?? null,
          series: m.series,
          clob: m.clob,
          closes_at: m.closesAt,
          decimals: m.decimals,
          result: null,
          created_at: new Date(),
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst()
      if (!added) throw new ChainInputError('exists', 'id', `names a market that was already added (${m.id})`)
      if (m.nodes.length)
        await tx
          .insertInto('market_nodes')
          .values(m.nodes.map((n) => ({ market_id: m.id, node_type: n.type, node_ref: n.ref })))
          .execute()
    })
    return (await this.markets([m.id])).get(m.id)!
  }

  /**
   * Changes a market's title, close time or outcome labels (`MarketPatch`). Its threads hear the change
   * (`onUpdated`): the title and labels they show are read from here.
   */
  async updateMarket(marketId: string, patch: MarketPatch): Promise<Market> {
    const m = await this.#market(marketId)
    const p = patchOf(patch, m.outcomes.length)
    const set = {
      ...(p.title === undefined ? {} : { title: p.title }),
      ...(p.closesAt === undefined ? {} : { closes_at: p.closesAt }),
      ...(p.outcomes === undefined ? {} : { outcomes: JSON.stringify(p.outcomes) }),
    }
    if (!Object.keys(set).length) return m
    await this.db.updateTable('markets').set(set).where('id', '=', m.id).execute()
    await this.onUpdated(m.id)
    return (await this.markets([m.id])).get(m.id)!
  }

  /** The market a call names, or `ChainInputError` `not-found`. */
  async #market(marketId: unknown): Promise<Market> {
    const id = marketIdOf(marketId)
    const m = (await this.markets([id])).get(id)
    if (!m) throw new ChainInputError('not-found', 'marketId', `names no market (${id})`)
    return m
  }

  async setPrice(marketId: string, side: number, priceBps: number): Promise<void> {
    const m = await this.#market(marketId)
    const s = sideOf(side, m.outcomes.length)
    const bps = bpsOf(priceBps)
    await this.db
      .insertInto('prices')
      .values({ market_id: m.id, side: s, price_bps: bps, updated_at: new Date() })
      .onConflict((oc) => oc.columns(['market_id', 'side']).doUpdateSet({ price_bps: bps, updated_at: new Date() }))
      .execute()
  }

  async setPosition(wallet: string, marketId: string, side: number, size: bigint | number | string): Promise<void> {
    const w = walletOf(wallet)
    const m = await this.#market(marketId)
    const sd = sideOf(side, m.outcomes.length)
    const s = sizeOf(size, 0n).toString()
    await this.db
      .insertInto('positions')
      .values({ wallet: w, market_id: m.id, side: sd, size: s, updated_at: new Date() })
      .onConflict((oc) => oc.columns(['wallet', 'market_id', 'side']).doUpdateSet({ size: s, updated_at: new Date() }))
      .execute()
  }

  /** A buy: adds `size` (above 0) to the wallet's position on that side, at `priceBps` or the side's price now. */
  async trade(t: { wallet: string; marketId: string; side: number; size: bigint | number | string; priceBps?: number; at?: Date }): Promise<void> {
    const w = walletOf(t?.wallet)
    const m = await this.#market(t.marketId)
    const side = sideOf(t.side, m.outcomes.length)
    const size = sizeOf(t.size, 1n)
    if (t.priceBps !== undefined) bpsOf(t.priceBps)
    if (t.at !== undefined && !(t.at instanceof Date && !Number.isNaN(t.at.getTime()))) throw new ChainInputError('invalid', 'at', 'must be a date')
    const id = m.id
    const price = t.priceBps ?? (await this.priceOf(id, side))
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('trades')
        .values({ id: timeId('t_'), wallet: w, market_id: id, side, size: size.toString(), price_bps: price, at: t.at ?? this.now() })
        .execute()
      await tx
        .insertInto('positions')
        .values({ wallet: w, market_id: id, side, size: size.toString(), updated_at: new Date() })
        .onConflict((oc) =>
          oc.columns(['wallet', 'market_id', 'side']).doUpdateSet({ size: sql`positions.size + ${size.toString()}::numeric`, updated_at: new Date() }),
        )
        .execute()
      await tx.updateTable('markets').set({ volume: sql`volume + 1` }).where('id', '=', id).execute()
    })
    await this.onTrade(id)
  }

  async resolve(marketId: string, outcome: number | 'void'): Promise<void> {
    const m = await this.#market(marketId)
    const id = m.id
    if (outcome !== 'void' && !(Number.isInteger(outcome) && outcome >= 0 && outcome < m.outcomes.length))
      throw new ChainInputError('invalid', 'outcome', `must be an outcome index below ${m.outcomes.length} or 'void'`)
    const result = outcome === 'void' ? { void: true as const } : { winner: outcome }
    await this.db.transaction().execute(async (tx) => {
      // Check and set in one statement: of two resolutions at once, one records its result.
      const set = await tx
        .updateTable('markets')
        .set({ result: JSON.stringify(result), resolved_at: this.now() })
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
