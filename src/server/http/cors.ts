/**
 * CORS headers for every answer. A preflight (OPTIONS) carries no key value, so it is answered for any
 * origin, allowing the headers and methods the API uses; the actual request is checked against its key's
 * venue's origins afterwards (origin-check.ts). Every other answer, refusals included (so a browser can
 * read the error), names the request's origin (`*` without one) and exposes `Retry-After`, `X-Venue-Key-Status` (a read
 * that went on without a refused key) and `X-Request-Id` (http/request-id.ts: a venue's support can ask a user for it).
 *
 * The headers are set before the route runs (`c.header` prepares them), never on the finished response:
 * touching a finished response's headers turns the Node adapter's lightweight response into a full one
 * whose body is then streamed, which cost more than the rest of a small read (docs/PERFORMANCE.md).
 */
import type { MiddlewareHandler } from 'hono'

const ALLOW_HEADERS = 'Authorization,Content-Type,X-Venue-Key'
const ALLOW_METHODS = 'GET,POST,PUT,PATCH,DELETE,OPTIONS'
const EXPOSE_HEADERS = 'Retry-After,X-Venue-Key-Status,X-Request-Id'
const MAX_AGE_SECONDS = '600'

export function corsHeaders(): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin') || '*'
    c.header('Access-Control-Allow-Origin', origin)
    c.header('Access-Control-Expose-Headers', EXPOSE_HEADERS)
    if (c.req.method === 'OPTIONS') {
      c.header('Access-Control-Allow-Methods', ALLOW_METHODS)
      c.header('Access-Control-Allow-Headers', ALLOW_HEADERS)
      c.header('Access-Control-Max-Age', MAX_AGE_SECONDS)
      c.header('Vary', 'Origin, Access-Control-Request-Headers')
      return c.body(null, 204)
    }
    c.header('Vary', 'Origin')
    await next()
  }
}
