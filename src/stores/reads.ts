/**
 * Batched reads keyed on a set of ids: take counts (§2.6, §4.5.4), records at one facet (§2.12),
 * market verdicts, markets; and the leaderboard. Every id asked for by any store within one tick goes
 * out in one batched read (tickBatcher); each store is a query keyed on its own set of ids.
 */
import { computed, map, type ReadableAtom } from 'nanostores'
import { LIMITS } from '../contract/limits.ts'
import type { BoardEntry, LeaderboardResult, Market, MarketResult, NodeRef, SettledRecord, TakeCount, Verdict } from '../contract/types.ts'
import { isMarketId, isWallet } from '../contract/ids.ts'
import { ValidationError } from '../sdk/errors.ts'
import { tickBatcher } from './batch.ts'
import { idsOf, keyOf, readState, type Ctx, type QueryOptions } from './ctx.ts'
import { paged, type PagedTail } from './paged.ts'

export interface TakeCountsValue {
  /** Counts of a market; null while loading, after a failed read, and for an id this store was not asked for. */
  countOf(id: string): TakeCount | null
  loading: boolean
  error: unknown
  /** Reads again (the Retry of an error state). */
  refresh(): void
}
export interface RecordsValue {
  /** Keyed by lowercased wallet. */
  records: Record<string, SettledRecord>
  loading: boolean
  error: unknown
  /** Reads again (the Retry of an error state). */
  refresh(): void
}
export interface VerdictsValue {
  /** undefined while loading or after a failed read; null when nobody held the market (render nothing). */
  verdictOf(id: string): Verdict | null | undefined
  loading: boolean
  error: unknown
  /** Reads again (the Retry of an error state). */
  refresh(): void
}
export interface MarketsValue {
  /** Keyed by lowercased market id; an unknown id is absent. */
  markets: Record<string, Market>
  loading: boolean
  error: unknown
  /** Reads again (the Retry of an error state). */
  refresh(): void
}
export interface MarketValue {
  market: Market | null
  loading: boolean
  error: unknown
  /** Reads again (the Retry of an error state). */
  refresh(): void
}
/** A failed later page leaves the board with what it has (`loadMoreError`). */
export interface LeaderboardValue extends PagedTail {
  entries: BoardEntry[]
  population: number | null
  loading: boolean
}

/** A set read's key (`setQuery`): the read's name, then its ids. */
const setKey = (name: string, ids: readonly string[]) => `${name}|${ids.join(',')}|`
/**
 * Whether a cached read's key is the set read `name` over ids that include `id` (for `ctx.revalidate`). Market
 * ids all have one length (0x and 64 hex digits, lowercased), so one appears in a key only as a whole id.
 */
export const setReadOf = (name: 'counts' | 'markets', id: string) => (key: string) => key.startsWith(`${name}|`) && key.includes(id)

/** Markets known to the page (from market reads and For-you rails); null: asked for and unknown. */
export function createMarketCache(ctx: Ctx) {
  const $markets = map<Record<string, Market | null>>({})
  const put = (ms: Record<string, Market>) => {
    for (const id in ms) $markets.setKey(id.toLowerCase(), ms[id])
  }
  const batch = tickBatcher<Market>(async (ids) => {
    const r = await ctx.client.markets(ids)
    for (const id of ids) $markets.setKey(id, r.markets[id] ?? null)
    return r.markets
  }, LIMITS.marketIdsPerRequest)
  const failed = new Map<string, number>()
  /** Starts a read of a market not known yet (not again within 30 s of a failed one). */
  const ensure = (id: string) => {
    id = id.toLowerCase()
    if (id in $markets.get() || Date.now() - (failed.get(id) ?? 0) < 30_000) return
    failed.set(id, Date.now())
    batch([id]).then(
      () => failed.delete(id),
      () => {},
    )
  }
  /**
   * How markets ended, as another read reports it (an author's `results`, §2.4; a feed's settlements): a
   * market the page holds as ended otherwise (or not at all) is read again, so a take's receipt moves from
   * open to right, wrong or void where it is drawn (§3.2) without a reload.
   */
  const settle = (results: Record<string, MarketResult>) => {
    const stale = Object.keys(results)
      .map((id) => id.toLowerCase())
      .filter((id) => {
        const m = $markets.get()[id]
        return m && JSON.stringify(m.result) !== JSON.stringify(results[id])
      })
    if (stale.length) ctx.revalidate(...stale.map((id) => setReadOf('markets', id)))
  }
  return { $markets, put, batch, ensure, settle }
}
export type MarketCache = ReturnType<typeof createMarketCache>

export function reads(ctx: Ctx, marketCache: MarketCache) {
  const counts = tickBatcher<TakeCount>(async (ids) => (await ctx.client.takeCounts(ids)).counts)
  const verdictBatch = tickBatcher<Verdict | null>(async (ids) => (await ctx.client.verdicts(ids)).verdicts, LIMITS.takeCountIdsPerRequest)
  const recordBatches = new Map<string, (ids: readonly string[]) => Promise<Record<string, SettledRecord>>>()
  const facetKey = (f: NodeRef | null) => (f ? `${f.type}:${f.ref}` : 'global')

  /** A query over a set of ids, answered by a tick batcher (not per reader). */
  const setQuery = <V>(name: string, ids: string[], get: (ids: string[]) => Promise<Record<string, V>>, o: QueryOptions = {}) =>
    ctx.query(setKey(name, ids), () => get(ids), { viewer: false, ...o })

  const takeCounts = (ids: readonly string[]): ReadableAtom<TakeCountsValue> => {
    const set = idsOf(ids, isMarketId)
    return ctx.keep(`counts:${set}`, () => {
      const q = setQuery('counts', set, counts)
      return computed(q, (f) => {
        const data = f.error ? undefined : f.data?.v
        return {
          countOf: (id: string) => data?.[String(id).toLowerCase()] ?? null,
          ...readState(f, q),
        }
      })
    })
  }

  const records = (wallets: readonly string[], facet: NodeRef | null): ReadableAtom<RecordsValue> => {
    if (facet === undefined) throw new ValidationError('facet', 'is required: the market\'s node (nodeFacetOf), or null for the overall record')
    const set = idsOf(wallets, isWallet)
    const fk = facetKey(facet)
    return ctx.keep(`records:${fk}:${set}`, () => {
      let batch = recordBatches.get(fk)
      if (!batch) recordBatches.set(fk, (batch = tickBatcher(async (ids) => (await ctx.client.records(ids, facet)).records, LIMITS.walletsPerBatch)))
      // A failed batch is read again when a list read succeeds (its Retry, a later page): see `recover`.
      const q = setQuery(`records|${fk}`, set, batch, { recover: true })
      return computed(q, (f) => ({
        records: f.error ? {} : (f.data?.v ?? {}),
        ...readState(f, q),
      }))
    })
  }

  const verdicts = (ids: readonly string[]): ReadableAtom<VerdictsValue> => {
    const set = idsOf(ids, isMarketId)
    return ctx.keep(`verdicts:${set}`, () => {
      const q = setQuery('verdicts', set, verdictBatch)
      return computed(q, (f) => {
        const data = f.error ? undefined : f.data?.v
        return {
          verdictOf: (id: string) => {
            const k = String(id).toLowerCase()
            return data && k in data ? data[k] : data && set.includes(k) ? null : undefined
          },
          ...readState(f, q),
        }
      })
    })
  }

  const markets = (ids: readonly string[]): ReadableAtom<MarketsValue> => {
    const set = idsOf(ids, isMarketId)
    return ctx.keep(`markets:${set}`, () => {
      const q = setQuery('markets', set, marketCache.batch, { recover: true })
      return computed(q, (f) => ({
        markets: f.error ? {} : ((f.data?.v ?? {}) as Record<string, Market>),
        ...readState(f, q),
      }))
    })
  }
  const market = (id: string): ReadableAtom<MarketValue> => {
    const k = String(id).toLowerCase()
    return ctx.keep(`market:${k}`, () => computed(markets([k]), (v) => ({ market: v.markets[k] ?? null, loading: v.loading, error: v.error, refresh: v.refresh })))
  }

  const leaderboard = (scope: NodeRef | null): ReadableAtom<LeaderboardValue> => {
    if (scope === undefined) throw new ValidationError('scope', 'is required: a taxonomy node, or null for the global board')
    return ctx.keep(`leaderboard:${keyOf({ ...scope })}`, () => {
      const p = paged<LeaderboardResult>(ctx, `leaderboard|${facetKey(scope)}|`, (cursor) => ctx.client.leaderboard(scope, { cursor }), { viewer: false })
      return computed([p.first, p.$more], (f, m) => {
        const pages = p.pagesOf(f, m)
        const st = p.status(f, m)
        return {
          entries: pages.flatMap((x) => x.v.entries),
          population: pages[0]?.v.population ?? null,
          loading: st.loading,
          loadingMore: st.loadingMore,
          error: st.error,
          loadMoreError: st.loadMoreError,
          hasMore: st.hasMore,
          loadMore: p.loadMore,
          refresh: p.refresh,
        }
      })
    })
  }

  return { takeCounts, records, verdicts, markets, market, leaderboard }
}
