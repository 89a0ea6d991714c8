/**
 * DEV ONLY: drives the fixture chain over HTTP (markets, positions, prices, trades, resolution) so a
 * local demo or a smoke test in another process can set up what a real chain would provide. Mounted
 * only when the service starts with `dev: true` (see `serviceApp`); never part of the public API.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { NODE_TYPES } from '../../contract/ids.ts'
import { MarketResolvedError } from '../chain/fixture.ts'
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
const zBps = z.number().int('must be whole basis points').min(0, 'must be from 0 to 10000').max(10_000, 'must be from 0 to 10000')
/** Base units: a decimal string or a safe non-negative integer. */
const zSize = z
  .union([z.string().regex(/^\d{1,78}$/, 'must be base units: a decimal string of digits'), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)], {
    message: 'must be base units: a decimal string of digits or a whole number',
  })
  .transform((v) => BigInt(v))

const zNewMarket = z.strictObject({
  id: zMarketId.optional(),
  title: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  outcomes: z
    .array(z.strictObject({ label: z.string().trim().min(1).max(80), displayLabel: z.string().trim().min(1).max(40).optional() }))
    .min(2, 'must list at least 2 outcomes')
    .max(16, 'must list at most 16 outcomes')
    .optional(),
  nodes: z.array(zNode).max(20, 'must list at most 20 nodes').optional(),
  facet: zNode.nullable().optional(),
  series: zNodeRef.nullable().optional(),
  clob: z.boolean().optional(),
  closesAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).nullable().optional(),
  decimals: z.number().int().min(0).max(36).nullable().optional(),
  /** Side prices in basis points, index = outcome. */
  prices: z.array(zBps).max(16).optional(),
})

const setPriceBody = z.strictObject({ marketId: zMarketId, side: zSide, priceBps: zBps })
const setPositionBody = z.strictObject({ wallet: zWallet, marketId: zMarketId, side: zSide, size: zSize })
const tradeBody = z.strictObject({ wallet: zWallet, marketId: zMarketId, side: zSide, size: zSize, priceBps: zBps.optional() })
const resolveBody = z.strictObject({ marketId: zMarketId, outcome: z.union([zSide, z.literal('void')], { message: "must be an outcome index or 'void'" }) })

export function devRoutes(ctx: ServiceContext, chain: ChainController) {
  const app = new Hono()

  async function marketOf(id: string) {
    const m = (await ctx.chain.markets([id])).get(id)
    if (!m) throw notFound('no market with this id', 'market-not-found')
    return m
  }
  async function checkSide(marketId: string, side: number) {
    const m = await marketOf(marketId)
    if (side >= m.outcomes.length) throw new ApiError(400, 'validation-failed', `'side' must be an outcome index below ${m.outcomes.length}`, { param: 'side' })
    return m
  }

  app.post(DEV_PATHS.markets, async (c) => {
    const b = await parseBody(c, zNewMarket)
    const id = b.id ?? `0x${randomHex(32)}`
    if ((await ctx.chain.markets([id])).has(id)) throw new ApiError(409, 'conflict', 'a market with this id already exists')
    const outcomes = b.outcomes ?? [{ label: 'Yes' }, { label: 'No' }]
    if (b.prices && b.prices.length > outcomes.length)
      throw new ApiError(400, 'validation-failed', `'prices' has more entries than the market has outcomes`, { param: 'prices' })
    const { prices, ...input } = b
    const market = await chain.addMarket({ ...input, id, outcomes })
    for (const [side, bps] of (prices ?? []).entries()) await chain.setPrice(id, side, bps)
    return c.json({ market }, 201)
  })

  app.post(DEV_PATHS.prices, async (c) => {
    const b = await parseBody(c, setPriceBody)
    await checkSide(b.marketId, b.side)
    await chain.setPrice(b.marketId, b.side, b.priceBps)
    return c.json({ marketId: b.marketId, side: b.side, priceBps: b.priceBps })
  })

  app.post(DEV_PATHS.positions, async (c) => {
    const b = await parseBody(c, setPositionBody)
    await checkSide(b.marketId, b.side)
    await chain.setPosition(b.wallet, b.marketId, b.side, b.size)
    return c.json({ wallet: b.wallet, marketId: b.marketId, side: b.side, size: b.size.toString() })
  })

  app.post(DEV_PATHS.trades, async (c) => {
    const b = await parseBody(c, tradeBody)
    if (b.size === 0n) throw new ApiError(400, 'validation-failed', "'size' must be above 0 for a trade", { param: 'size' })
    await checkSide(b.marketId, b.side)
    await chain.trade({ wallet: b.wallet, marketId: b.marketId, side: b.side, size: b.size, priceBps: b.priceBps })
    return c.json({ wallet: b.wallet, marketId: b.marketId, side: b.side, size: b.size.toString() }, 201)
  })

  app.post(DEV_PATHS.resolve, async (c) => {
    const b = await parseBody(c, resolveBody)
    const m = await marketOf(b.marketId)
    if (b.outcome !== 'void' && b.outcome >= m.outcomes.length)
      throw new ApiError(400, 'validation-failed', `'outcome' must be an outcome index below ${m.outcomes.length} or 'void'`, { param: 'outcome' })
    try {
      await chain.resolve(m.id, b.outcome)
    } catch (e) {
      if (e instanceof MarketResolvedError) throw new ApiError(409, 'conflict', 'this market is already resolved')
      throw e
    }
    return c.json({ market: (await ctx.chain.markets([m.id])).get(m.id) })
  })

  return app
}
