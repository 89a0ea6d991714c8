/** A venue's allowed browser origins: read and replaced by the venue's owner (docs/RELIABILITY.md, CORS). */
import { Hono } from 'hono'
import { z } from 'zod'
import { requireCaller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { parseBody, parseParam, parseQuery, zNoQuery, zVenueId } from '../http/validate.ts'
import { MAX_ORIGINS, originsOfVenue, setVenueOrigins } from '../services/venue-origins.ts'

const PATH = '/v1/venues/:venueId/origins'
const zOrigins = z.strictObject({
  origins: z
    .array(z.string({ message: 'must be strings' }).max(300, 'must be at most 300 characters'), { message: 'must be an array of origins' })
    .max(MAX_ORIGINS, `must list at most ${MAX_ORIGINS} origins`),
})

export function venueOriginRoutes(ctx: ServiceContext) {
  const app = new Hono()

  app.get(PATH, async (c) => {
    parseQuery(c, [], zNoQuery)
    const venueId = parseParam(c, 'venueId', zVenueId)
    const caller = await requireCaller(ctx, c)
    return c.json(await originsOfVenue(ctx, caller, venueId))
  })

  app.put(PATH, async (c) => {
    const venueId = parseParam(c, 'venueId', zVenueId)
    const caller = await requireCaller(ctx, c)
    const body = await parseBody(c, zOrigins)
    return c.json(await setVenueOrigins(ctx, caller, venueId, body.origins))
  })

  return app
}
