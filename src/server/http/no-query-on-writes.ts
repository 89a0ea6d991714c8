/**
 * A write (POST, PUT, PATCH, DELETE) takes its input from its path and its body, never from the query: a query
 * parameter on one is 400 `unsupported-param`, as on every read that does not declare it (`parseQuery`).
 * Before, a misplaced parameter was dropped without a word: `POST /v1/mod/hide?venueId=v {postId}` read as no
 * venue, so an operator's venue hide became a removal everywhere, and `POST /v1/social/posts?room=r` posted
 * outside the room. Only a path that serves the method is checked, so an unknown path stays 404 and a method
 * the path does not take stays 405.
 */
import type { MiddlewareHandler } from 'hono'
import { parseQuery, zNoQuery } from './validate.ts'

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** `methodsOf`: the methods the app's routes serve on a path (http/method-not-allowed.ts). */
export function noQueryOnWrites(methodsOf: (path: string) => string[]): MiddlewareHandler {
  return async (c, next) => {
    if (!READS.has(c.req.method) && c.req.url.includes('?') && methodsOf(new URL(c.req.url).pathname).includes(c.req.method)) parseQuery(c, [], zNoQuery)
    await next()
  }
}
