/**
 * A write (POST, PUT, PATCH, DELETE) that carries an `X-Venue-Key` which is not live (malformed, unknown or
 * revoked) is 401 `invalid-venue-key`, whatever the route: "a key that is not live is 401, as on every write"
 * (ARCHITECTURE, The request's venue; README: "writes ... throw invalid-venue-key"). Reads fail open (§5.1) and
 * are left to their routes. Before, only the writes that ask for the request's venue (posts, edits, reports,
 * joins, sign-in) refused it, and an agree, a delete, a block, a follow, a moderation action, an origins change,
 * a mint or a sign-out went through, unattributed, with a key its venue had revoked. As in `noQueryOnWrites`,
 * only a path that serves the method is checked, so an unknown path stays 404 and another method 405. The key is
 * looked up once per request (`liveKeyOf`), so a route that reads it again costs nothing more.
 *
 * Not refused: a sign-out (it ends the caller's own session, which a dead key must not keep open) and the management
 * of keys (mint, list, revoke: a page whose key was revoked must still let its owner replace it). Neither is
 * attributed to a venue.
 */
import type { MiddlewareHandler } from 'hono'
import type { ServiceContext } from '../context.ts'
import { venueKeyOf } from '../services/venue-of-request.ts'
import { PATHS, SERVICE_PATHS } from '../../contract/paths.ts'

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Sign-out and key management (`/admin/keys`, `/v1/venues/:venueId/keys…`). */
const NOT_ATTRIBUTED = new RegExp(`^(${PATHS.authSignOut}|${SERVICE_PATHS.adminKeys}|/v1/venues/[^/]+/keys(/[^/]+)?)$`)

/** `methodsOf`: the methods the app's routes serve on a path (http/method-not-allowed.ts). */
export function deadKeyOnWrites(ctx: ServiceContext, methodsOf: (path: string) => string[]): MiddlewareHandler {
  return async (c, next) => {
    const path = new URL(c.req.url).pathname
    if (!READS.has(c.req.method) && c.req.header('x-venue-key') !== undefined && !NOT_ATTRIBUTED.test(path) && methodsOf(path).includes(c.req.method)) await venueKeyOf(ctx, c)
    await next()
  }
}
