/** A venue's keys: listed and revoked by its owner or an operator (services/venue-keys.ts). */
import { Hono } from 'hono'
import { z } from 'zod'
import { requireCaller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { parseParam, parseQuery, zNoQuery, zVenueId } from '../http/validate.ts'
import { listVenueKeys, revokeVenueKey } from '../services/venue-keys.ts'

export const VENUE_KEYS_PATH = '/v1/venues/:venueId/keys'
const zKeyId = z.string().regex(/^k_[A-Za-z0-9_-]{1,64}$/, 'must be a key id (keyId, as minting answered it)')

export function venueKeyRoutes(ctx: ServiceContext) {
  const app = new Hono()

  app.get(VENUE_KEYS_PATH, async (c) => {
    parseQuery(c, [], zNoQuery)
    const venueId = parseParam(c, 'venueId', zVenueId)
    const caller = await requireCaller(ctx, c)
    return c.json(await listVenueKeys(ctx, caller, venueId))
  })

  app.delete(`${VENUE_KEYS_PATH}/:keyId`, async (c) => {
    const venueId = parseParam(c, 'venueId', zVenueId)
    const keyId = parseParam(c, 'keyId', zKeyId)
    const caller = await requireCaller(ctx, c)
    return c.json(await revokeVenueKey(ctx, caller, venueId, keyId))
  })

  return app
}
