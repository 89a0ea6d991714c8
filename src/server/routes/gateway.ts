/**
 * The gateway's part of the service (§5.3–5.4): usage metering of keyed requests, the owner's usage
 * read, and the sponsorship state a client reads before a sponsored trade.
 * Mounted first: its metering middleware wraps every route mounted after it.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { SERVICE_PATHS } from '../../contract/paths.ts'
import type { SponsorshipState } from '../../contract/types.ts'
import { requireCaller, resolveCaller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { parseParam, parseQuery, zNoQuery, zVenueId } from '../http/validate.ts'
import { meter, usageOf } from '../services/usage.ts'
import { liveKeyOf, venueOfRequest } from '../services/venue-of-request.ts'
import { requireVenueAdmin, sponsorshipOf } from '../services/venues.ts'

const zDays = z
  .string()
  .regex(/^\d{1,3}$/, 'must be a whole number')
  .transform(Number)
  .pipe(z.number().int().min(1, 'must be from 1 to 366').max(366, 'must be from 1 to 366'))
const usageQuery = z.object({ days: zDays.optional() })

export function gatewayRoutes(ctx: ServiceContext) {
  const app = new Hono()

  // Metering: after the route answered, a live key's venue is counted once for this request.
  app.use('*', async (c, next) => {
    await next()
    if (c.req.method === 'OPTIONS') return
    try {
      const found = await liveKeyOf(ctx, c)
      if (found) await meter(ctx, found.venueId, c.req.method === 'GET' || c.req.method === 'HEAD' ? 'reads' : 'writes')
    } catch (err) {
      console.error('[venuekit] usage metering failed', err)
    }
  })

  app.get(SERVICE_PATHS.sponsorship, async (c) => {
    parseQuery(c, [], zNoQuery)
    const caller = await resolveCaller(ctx, c, false)
    const state: SponsorshipState = await sponsorshipOf(ctx, await venueOfRequest(ctx, c, caller))
    return c.json(state)
  })

  app.get('/v1/venues/:venueId/usage', async (c) => {
    const q = parseQuery(c, ['days'], usageQuery)
    const venueId = parseParam(c, 'venueId', zVenueId)
    const caller = await requireCaller(ctx, c)
    await requireVenueAdmin(ctx, caller, venueId, "only the venue's owner reads its usage")
    return c.json(await usageOf(ctx, venueId, q.days ?? 30))
  })

  return app
}
