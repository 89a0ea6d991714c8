/** The one Hono app. Runtime entries (Node, Deno) wrap it and attach the stream. */
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ServiceContext } from './context.ts'
import { ApiError } from './http/errors.ts'
import { authRoutes } from './routes/auth.ts'
import { postRoutes } from './routes/posts.ts'
import { threadRoutes } from './routes/threads.ts'
import { profileRoutes } from './routes/profile.ts'
import { countRoutes } from './routes/counts.ts'
import { followRoutes } from './routes/follows.ts'
import { marketRoutes } from './routes/markets.ts'
import { feedRoutes } from './routes/feed.ts'
import { forYouRoutes } from './routes/for-you.ts'
import { gatewayRoutes } from './routes/gateway.ts'
import { keyRoutes } from './routes/keys.ts'
import { roomRoutes } from './routes/rooms.ts'
import { modRoutes } from './routes/mod.ts'
import { recordRoutes } from './routes/records.ts'
import { venueOriginRoutes } from './routes/venue-origins.ts'
import { venueKeyRoutes } from './routes/venue-keys.ts'
import { corsHeaders } from './http/cors.ts'
import { methodsServing } from './http/method-not-allowed.ts'
import { noQueryOnWrites } from './http/no-query-on-writes.ts'
import { deadKeyOnWrites } from './http/dead-key-on-writes.ts'
import { venueOriginCheck } from './http/origin-check.ts'
import { rateLimit } from './http/rate-limit.ts'
import { requestId } from './http/request-id.ts'
import { accessLog } from './http/access-log.ts'
import { SERVICE_PATHS } from '../contract/paths.ts'

export type RouteModule = (ctx: ServiceContext) => Hono

/** Route modules, in mount order. Each lives in `routes/` and owns its paths. */
const modules: RouteModule[] = [gatewayRoutes, authRoutes, postRoutes, feedRoutes, threadRoutes, profileRoutes, countRoutes, followRoutes, marketRoutes, forYouRoutes, keyRoutes, roomRoutes, modRoutes, recordRoutes, venueOriginRoutes, venueKeyRoutes]

export function createApp(ctx: ServiceContext, extra: (app: Hono) => void = () => {}) {
  const app = new Hono()
  // The route table's methods per path, once every route is mounted (below).
  let methodsOf: (path: string) => string[] = () => []
  // The request's id first, so every answer carries it; then the access log (when on), which sees every answer.
  app.use('*', requestId)
  if (ctx.config.accessLog) app.use('*', accessLog(ctx.config.accessLog))
  // CORS: preflights carry no key value, so they are answered for any origin; the actual request is
  // checked against its key's venue's origins (http/origin-check.ts). Then a write's query (none is taken),
  // then write rate limits, then a write's key (a key that is not live refuses it).
  app.use('*', corsHeaders())
  app.use('*', venueOriginCheck(ctx))
  app.use('*', noQueryOnWrites((path) => methodsOf(path)))
  app.use('*', rateLimit(ctx))
  // A write with a key that is not live is refused whatever the route (after the rate limits, which count it).
  app.use('*', deadKeyOnWrites(ctx, (path) => methodsOf(path)))
  app.get(SERVICE_PATHS.health, (c) => c.json({ ok: true, store: ctx.store.kind }))
  extra(app)
  for (const m of modules) app.route('/', m(ctx))

  methodsOf = methodsServing(app)
  app.notFound((c) => {
    const path = new URL(c.req.url).pathname
    const allow = methodsOf(path)
    // A path whose routes take this very method but did not match it (a parameter's pattern) is not found.
    if (allow.length && !allow.includes(c.req.method)) {
      c.header('Allow', allow.join(', '))
      return c.json({ error: { code: 'method-not-allowed', message: `${c.req.method} is not allowed on ${path}; it takes ${allow.join(', ')}` } }, 405)
    }
    return c.json({ error: { code: 'not-found', message: `no route for ${c.req.method} ${path}` } }, 404)
  })
  app.onError((err, c) => {
    if (err instanceof ApiError) return c.json(err.toBody(), err.status)
    if (err instanceof HTTPException) {
      const status = err.status
      return c.json({ error: { code: status === 413 ? 'payload-too-large' : 'bad-request', message: err.message || 'bad request' } }, status)
    }
    // The id the answer carries (X-Request-Id and the body) is in the log line: a user's report finds it.
    const id = c.get('requestId')
    console.error('[venuekit] unhandled error', `request ${id}`, err)
    return c.json({ error: { code: 'internal', message: 'the service failed to answer; try again', requestId: id } }, 500)
  })
  return app
}
