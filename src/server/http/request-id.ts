/**
 * Every answer carries `X-Request-Id`, so a user's report and the service's log meet: a sane id sent by the client
 * or a proxy in front (1–128 characters of `[A-Za-z0-9._:-]`) is kept, anything else is replaced by a fresh random
 * one (`crypto.randomUUID`, on Node and Deno). Browsers may read it (http/cors.ts exposes it); a 500's body and the
 * log line of its failure name it (app.ts); the access log names it (http/access-log.ts). The runtime entries use
 * `requestIdOf` for the answers they give themselves (node.ts, deno.ts: the stream's upgrade and their refusals).
 *
 * Not Hono's `requestId` middleware: it keeps ids of `[A-Za-z0-9_=-]` only (a proxy's `a.b:c` id would be
 * replaced, a `=` kept) up to 255 characters, and it takes a closure per app for its options.
 */
import type { MiddlewareHandler } from 'hono'
import { HEADERS } from '../../contract/paths.ts'

declare module 'hono' {
  interface ContextVariableMap {
    /** This request's id (http/request-id.ts). */
    requestId: string
    /** The venue the request speaks for, once known (services/venue-of-request.ts); the access log names it. */
    venue: string
  }
}

export const REQUEST_ID_HEADER = HEADERS.requestId
const SANE = /^[A-Za-z0-9._:-]{1,128}$/

/** The id of a request that sent `sent` as its `X-Request-Id` (null or undefined: none sent). */
export function requestIdOf(sent: string | null | undefined): string {
  return sent && SANE.test(sent) ? sent : crypto.randomUUID()
}

/** The first middleware: the id is set before anything can answer (a preflight, a refusal, a 500). */
export const requestId: MiddlewareHandler = (c, next) => {
  const id = requestIdOf(c.req.header('x-request-id'))
  c.set('requestId', id)
  c.header(REQUEST_ID_HEADER, id)
  return next()
}
