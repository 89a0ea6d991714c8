/**
 * CORS per venue, enforced on the actual request. A preflight carries no key value (only the header
 * name in `Access-Control-Request-Headers`), so preflights are answered for any origin; the request that
 * follows carries `X-Venue-Key`, and when that key's venue has origins configured and the request's
 * `Origin` is not one of them, it is refused: 403 `origin-not-allowed`, before any work is done.
 * A venue with no origins configured accepts every origin. Requests without `Origin` are not checked.
 */
import type { MiddlewareHandler } from 'hono'
import { VENUE_KEY_RE } from '../../contract/ids.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError } from './errors.ts'
import { originAllowed } from '../services/venue-origins.ts'
import { liveKeyOf } from '../services/venue-of-request.ts'

export function venueOriginCheck(ctx: ServiceContext): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin')
    const key = c.req.header('x-venue-key')
    if (c.req.method === 'OPTIONS' || !origin || !key || !VENUE_KEY_RE.test(key)) return next()
    // An unknown or revoked key is the route's to refuse (401 invalid-venue-key).
    const live = await liveKeyOf(ctx, c)
    if (live && !originAllowed(live.origins, origin)) {
      throw new ApiError(403, 'origin-not-allowed', `this venue's key is not accepted from ${origin.slice(0, 200)}; the venue's owner lists its origins`)
    }
    return next()
  }
}
