/**
 * DEV ONLY: drives the fixture chain over HTTP (markets, positions, prices, trades, resolution) so a
 * local demo or a smoke test in another process can set up what a real chain would provide. Mounted
 * only when the service starts with `dev: true` (see `serviceApp`); never part of the public API.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { NODE_TYPES } from '../../contract/ids.ts'
import { MarketResolvedError } from '../chain/fixture.ts'
import { ChainInputError, DEFAULT_OUTCOMES, MARKET_LIMITS } from '../chain/input.ts'
import type { ChainController } from '../chain/source.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError, notFound } from '../http/errors.ts'
import { parseBody, zMarketId, zNodeRef, zWallet } from '../http/validate.ts'
import { randomHex } from '../../core/ids.ts'

export const DEV_PATHS = {
  markets: '/v1/dev/markets',
  positions: '/v1/dev/positions',
  prices: '/v1/dev/prices',
  trades: '/v1/dev/trades',
  resolve: '/v1/dev/resolve',
} as const

const zNode = z.strictObject({ type: z.enum(NODE_TYPES, { message: `must be one of ${NODE_TYPES.join(', ')}` }), ref: zNodeRef })
const zSide = z.number().int('must be an outcome index').min(0, 'must be an outcome index')
const L = MARKET_LIMITS
const zBps = z.number().int('must be whole basis points').min(0, 'must be from 0 to 10000').max(L.maxBps, 'must be from 0 to 10000')
/** Base units: a decimal string or a safe non-negative integer. */
const zSize = z
  .union([z.string().regex(/^\d{1,78}$/, 'must be base units: a decimal string of digits'), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)], {
    message: 'must be base units: a decimal string of digits or a whole number',
  })
  .transform((v) => BigInt(v))

/** The JSON shape of a new market; `svc.chain.addMarket` checks the values again (chain/input.ts), with the same limits. */
const zNewMarket = z.strictObject({
  id: zMarketId.optional(),
  title: z.string().trim().min(1, 'must not be empty').max(L.title, `must be at most ${L.title} characters`),
  outcomes: z
    .array(z.strictObject({ label: z.string().trim().min(1).max(L.label), displayLabel: z.string().trim().min(1).max(L.displayLabel).optional() }))
    .min(L.minOutcomes, `must list at least ${L.minOutcomes} outcomes`)
    .max(L.maxOutcomes, `must list at most ${L.maxOutcomes} outcomes`)
    .optional(),
  nodes: z.array(zNode).max(L.nodes, `must list at most ${L.nodes} nodes`).optional(),
  facet: zNode.nullable().optional(),
  series: zNodeRef.nullable().optional(),
  clob: z.boolean().optional(),
  closesAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).nullable().optional(),
  decimals: z.number().int().min(0).max(L.decimals).nullable().optional(),
  /** Side prices in basis points, index = outcome. */
  prices: z.array(zBps).max(L.maxOutcomes).optional(),
})

const setPriceBody = z.strictObject({ marketId: zMarketId, side: zSide, priceBps: zBps })
const setPositionBody = z.strictObject({ wallet: zWallet, marketId: zMarketId, side: zSide, size: zSize })
const tradeBody = z.strictObject({ wallet: zWallet, marketId: zMarketId, side: zSide, size: zSize, priceBps: zBps.optional() })
const resolveBody = z.strictObject({ marketId: zMarketId, outcome: z.union([zSide, z.literal('void')], { message: "must be an outcome index or 'void'" }) })

/** The chain's answer to bad input, as the service's errors: 400 naming the field, 404 for no market, 409 for one added twice. */
function asApiError(e: unknown): unknown {
  if (e instanceof MarketResolvedError) return new ApiError(409, 'conflict', 'this market is already resolved')
  if (!(e instanceof ChainInputError)) return e
  if (e.kind === 'not-found') return notFound('no market with this id', 'market-not-found')
  if (e.kind === 'exists') return new ApiError(409, 'conflict', 'a market with this id already exists')
  return new ApiError(400, 'validation-failed', `'${e.param}' ${e.detail}`, { param: e.param })
}

export function devRoutes(ctx: ServiceContext, chain: ChainController) {
  const app = new Hono()
  /** Runs the chain's calls; what they refuse is answered as the service's error. */
  const drive = <T>(run: () => Promise<T>) => run().catch((e: unknown) => Promise.reject(asApiError(e)))

  app.post(DEV_PATHS.markets, async (c) => {
    const b = await parseBody(c, zNewMarket)
    // Checked before the market is added: its prices are set after, and a market is never left half made.
    if (b.prices && b.prices.length > (b.outcomes ?? DEFAULT_OUTCOMES).length)
      throw new ApiError(400, 'validation-failed', `'prices' has more entries than the market has outcomes`, { param: 'prices' })
    const { prices, ...input } = b
    const market = await drive(async () => {
      const m = await chain.addMarket({ ...input, id: b.id ?? `0x${randomHex(32)}` })
      for (const [side, bps] of (prices ?? []).entries()) await chain.setPrice(m.id, side, bps)
      return (await ctx.chain.markets([m.id])).get(m.id)!
    })
    return c.json({ market }, 201)
  })

  app.post(DEV_PATHS.prices, async (c) => {
    const b = await parseBody(c, setPriceBody)
    await drive(() => chain.setPrice(b.marketId, b.side, b.priceBps))
    return c.json({ marketId: b.marketId, side: b.side, priceBps: b.priceBps })
  })

  app.post(DEV_PATHS.positions, async (c) => {
    const b = await parseBody(c, setPositionBody)
    await drive(() => chain.setPosition(b.wallet, b.marketId, b.side, b.size))
    return c.json({ wallet: b.wallet, marketId: b.marketId, side: b.side, size: b.size.toString() })
  })

  app.post(DEV_PATHS.trades, async (c) => {
    const b = await parseBody(c, tradeBody)
    await drive(() => chain.trade({ wallet: b.wallet, marketId: b.marketId, side: b.side, size: b.size, priceBps: b.priceBps }))
    return c.json({ wallet: b.wallet, marketId: b.marketId, side: b.side, size: b.size.toString() }, 201)
  })

  app.post(DEV_PATHS.resolve, async (c) => {
    const b = await parseBody(c, resolveBody)
    await drive(() => chain.resolve(b.marketId, b.outcome))
    return c.json({ market: (await ctx.chain.markets([b.marketId])).get(b.marketId) })
  })

  return app
}
