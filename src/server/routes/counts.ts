/** Take counts per market (§2.6, §4.1, public) and counts grouped by a taxonomy axis (§4.1). */
import { Hono } from 'hono'
import { z } from 'zod'
import { LIMITS } from '../../contract/limits.ts'
import { COUNT_AXES, COUNTS_PARAMS, TAKE_COUNT_PARAMS } from '../../contract/params.ts'
import { PATHS } from '../../contract/paths.ts'
import type { TakeCountsResult } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { marketIds } from '../http/id-list.ts'
import { parseQuery, zVenueId } from '../http/validate.ts'
import { checkAxis, countsBy } from '../services/counts.ts'
import { takeCounts } from '../services/take-counts.ts'
import { readOverlay, venueOfRead } from '../services/venue-of-request.ts'

const takeCountsQuery = z.object({ ids: z.string().optional(), venue: zVenueId.optional() })
const countsQuery = z.object({ by: z.string().optional() })

export function countRoutes(ctx: ServiceContext) {
  const app = new Hono()

  // Public: no session is read, so every reader gets the same answer (§2.6); a venue key's venue hides what
  // that venue hid, as `venue` does (§5.3).
  app.get(PATHS.takeCounts, async (c) => {
    const q = parseQuery(c, TAKE_COUNT_PARAMS, takeCountsQuery)
    const ids = marketIds(q.ids, LIMITS.takeCountIdsPerRequest)
    const result: TakeCountsResult = { counts: await takeCounts(ctx, ids, readOverlay(q.venue, await venueOfRead(ctx, c))) }
    return c.json(result)
  })

  app.get(PATHS.counts, async (c) => {
    const q = parseQuery(c, COUNTS_PARAMS, countsQuery)
    if (q.by === undefined) {
      throw new ApiError(400, 'validation-failed', `'by' is required: one of ${COUNT_AXES.join(', ')}`, { param: 'by', axes: [...COUNT_AXES] })
    }
    return c.json(await countsBy(ctx, checkAxis(q.by)))
  })

  return app
}
