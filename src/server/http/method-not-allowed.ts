/**
 * 405 for a path the service serves with other methods: `PUT /v1/social/posts/feed` is told which methods
 * the path takes (`Allow`), not that the resource does not exist. Built from the app's own route table
 * the first time it is needed, so it always matches the routes as mounted.
 */
import type { Hono } from 'hono'

/** A route path's segments: split on the slashes outside a parameter's `{pattern}` (which may hold slashes). */
function segmentsOf(path: string): string[] {
  const out = ['']
  let depth = 0
  for (const ch of path) {
    if (ch === '{') depth++
    else if (ch === '}') depth--
    if (ch === '/' && depth === 0) out.push('')
    else out[out.length - 1] += ch
  }
  return out
}

/**
 * A route path (`/v1/rooms/:room`, `/v1/markets/:id{0x[^/]*}`) as an anchored pattern, matching exactly what
 * the router matches: no trailing slash (the router serves none, so `/v1/rooms/` is 404, not 405).
 */
function patternOf(path: string): RegExp {
  const parts = segmentsOf(path).map((seg) => {
    if (seg === '*') return '.*'
    const param = /^:[A-Za-z0-9_]+(?:\{(.+)\})?$/.exec(seg)
    if (param) return param[1] ? `(?:${param[1]})` : '[^/]+'
    return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  })
  return new RegExp(`^${parts.join('/')}$`)
}

/** The methods other routes of the app answer on a path (empty: no route serves it). */
export function methodsServing(app: Hono): (path: string) => string[] {
  let table: { method: string; path: string; re: RegExp }[] | null = null
  return (path) => {
    // Middleware (`ALL`) and catch-all pages (`*`) say nothing about a path's methods.
    table ??= app.routes.filter((r) => r.method !== 'ALL' && r.path !== '*' && r.path !== '/*').map((r) => ({ method: r.method, path: r.path, re: patternOf(r.path) }))
    const matching = table.filter((t) => t.re.test(path))
    // A path served by a route of its own (`/v1/social/posts/feed`) is that resource, not an id of `/:id`.
    const own = matching.filter((t) => t.path === path)
    const methods = new Set((own.length ? own : matching).map((t) => t.method))
    if (methods.has('GET')) methods.add('HEAD')
    return [...methods]
  }
}
