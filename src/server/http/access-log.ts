/**
 * The access log: one line per request once it is answered, `{ t, id, method, path, status, ms, venue? }` (the
 * request's start as an ISO time, its id (http/request-id.ts), its path without the query, the answer's status,
 * the time to answer in ms, and the venue it spoke for when one was known). Never a query string, a header, a body,
 * a venue key or a session token: a path holds wallet addresses and post ids, which are public.
 *
 * Off by default (`log` of `ServiceOptions`; `--log json` or `VK_LOG=json` for `venuekit serve`): the middleware is
 * then not mounted at all. `'json'` writes each line as JSON to stdout; a function receives the lines itself. The
 * runtime entries log the stream's upgrade with `accessLine` when they answer it (node.ts, deno.ts).
 */
import type { MiddlewareHandler } from 'hono'

export interface AccessLine {
  t: string
  id: string
  method: string
  path: string
  status: number
  ms: number
  venue?: string
}

export type AccessLogSink = (line: AccessLine) => void
export type AccessLogOption = 'json' | 'off' | AccessLogSink

export const ACCESS_LOG_VALUES = ['json', 'off'] as const

/** One JSON line per request on stdout. */
const jsonLines: AccessLogSink = (line) => console.log(JSON.stringify(line))

/** The sink an option names; null when the log is off. */
export function accessLogSink(option: AccessLogOption | undefined): AccessLogSink | null {
  if (typeof option === 'function') return option
  if (option === undefined || option === 'off') return null
  if (option === 'json') return jsonLines
  throw new TypeError(`log must be 'json', 'off' or a function (got ${JSON.stringify(option)})`)
}

/**
 * The line of a request that began at `startedAt` (Date.now()) and `started` (performance.now()), told to `sink`.
 * A sink that throws never changes the answer (nor reaches the client).
 */
export function logAccess(sink: AccessLogSink, id: string, method: string, path: string, status: number, startedAt: number, started: number, venue?: string) {
  const line: AccessLine = { t: new Date(startedAt).toISOString(), id, method, path, status, ms: Math.round((performance.now() - started) * 10) / 10 }
  if (venue) line.venue = venue
  try {
    sink(line)
  } catch (e) {
    console.error('[venuekit] the access log failed', e)
  }
}

/** Mounted right after the request id (app.ts): it sees every answer, the refusals, 404s and 500s included. */
export function accessLog(sink: AccessLogSink): MiddlewareHandler {
  return async (c, next) => {
    const startedAt = Date.now()
    const started = performance.now()
    await next()
    logAccess(sink, c.get('requestId'), c.req.method, c.req.path, c.res.status, startedAt, started, c.get('venue'))
  }
}
