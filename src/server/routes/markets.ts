/** Markets as the chain source serves them: a batch by ids, and one by id. */
import { Hono } from 'hono'
import { z } from 'zod'
import { LIMITS } from '../../contract/limits.ts'
import { MARKETS_PARAMS } from '../../contract/params.ts'
import { PATHS } from '../../contract/paths.ts'
import type { MarketsResult } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { notFound } from '../http/errors.ts'
import { marketIds } from '../http/id-list.ts'
import { parseParam, parseQuery, zMarketId, zNoQuery } from '../http/validate.ts'

const marketsQuery = z.object({ ids: z.string().optional() })

export function marketRoutes(ctx: ServiceContext) {
  const app = new Hono()

  /** Unknown ids are absent from `markets`. */
  app.get(PATHS.markets, async (c) => {
    const q = parseQuery(c, MARKETS_PARAMS, marketsQuery)
    const ids = marketIds(q.ids, LIMITS.marketIdsPerRequest)
    const result: MarketsResult = { markets: {} }
    for (const [id, m] of await ctx.chain.markets(ids)) result.markets[id] = m
    return c.json(result)
  })

  // Only `0x…` segments: named sub-resources (`/v1/markets/counts`, `/v1/markets/verdicts`) belong to other modules.
  app.get('/v1/markets/:id{0x[^/]*}', async (c) => {
    parseQuery(c, [], zNoQuery)
    const id = parseParam(c, 'id', zMarketId)
    const market = (await ctx.chain.markets([id])).get(id)
    if (!market) throw notFound('no market with this id', 'market-not-found')
    return c.json(market)
  })

  return app
}
