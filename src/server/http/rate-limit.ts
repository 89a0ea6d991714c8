/**
 * The write rate-limit middleware: every POST, PUT, PATCH and DELETE is counted per account, per venue
 * key and per client address (services/rate-limits.ts); the sign-in routes count per address only,
 * against their own limit. Over a limit: 429 `rate-limited`, `Retry-After` in seconds, and a sentence.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { VENUE_KEY_RE } from '../../contract/ids.ts'
import { PATHS } from '../../contract/paths.ts'
import { sha256 } from '../auth/tokens.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError } from './errors.ts'
import { countWrite, refusalMessage } from '../services/rate-limits.ts'

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
const SIGN_IN: ReadonlySet<string> = new Set([PATHS.authNonce, PATHS.authVerify])

/**
 * Expands an IPv6 address to its eight groups; null when it is not one. Handles `::` and a trailing
 * dotted IPv4 part.
 */
function ipv6Groups(a: string): number[] | null {
  let s = a.split('%')[0]
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s)
  if (v4) {
    const [b0, b1, b2, b3] = v4.slice(1).map(Number)
    s = s.slice(0, v4.index) + `${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`
  }
  const halves = s.split('::')
  if (halves.length > 2) return null
  const part = (h: string) => (h ? h.split(':') : [])
  const head = part(halves[0])
  const tail = halves.length === 2 ? part(halves[1]) : []
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return null
  const groups = [...head, ...Array(fill).fill('0'), ...tail]
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null
  return groups.map((g) => parseInt(g, 16))
}

/**
 * The bucket name of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64, since one
 * subscriber usually holds a whole /64.
 */
export function addressBucket(raw: string): string | null {
  const a = raw.trim().toLowerCase()
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(a)) return a
  const g = ipv6Groups(a)
  if (!g) return null
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`
}

/**
 * The client address of a peer and its `X-Forwarded-For`: the proxy's entry (the last) when the proxy is
 * trusted and that entry is an address, else the peer's. An entry that is no address (a client's own text
 * through a proxy that does not append, `host:port`) falls back to the peer, so it never escapes the limit.
 */
export function addressOf(peer: string | undefined, forwardedFor: string | undefined, trustProxy: boolean): string | null {
  const last = trustProxy ? forwardedFor?.split(',').pop()?.trim() : undefined
  return (last && addressBucket(last)) || (peer ? addressBucket(peer) : null)
}

/** The client address: the socket's peer (Node: `env.incoming`; Deno: `env.remoteAddr`), or the proxy's entry. */
export function clientAddress(c: Context, trustProxy: boolean): string | null {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } }; remoteAddr?: { hostname?: string } } | undefined
  return addressOf(env?.incoming?.socket?.remoteAddress ?? env?.remoteAddr?.hostname, c.req.header('x-forwarded-for'), trustProxy)
}

export function rateLimit(ctx: ServiceContext): MiddlewareHandler {
  return async (c, next) => {
    const limits = ctx.config.rateLimits
    if (!limits || !WRITES.has(c.req.method)) return next()
    const signIn = SIGN_IN.has(c.req.path)
    const bearer = /^Bearer\s+(vks_[0-9a-f]{64})$/.exec(c.req.header('authorization')?.trim() ?? '')
    const key = c.req.header('x-venue-key')
    const refusal = await countWrite(ctx, limits, {
      signIn,
      tokenHash: bearer ? sha256(bearer[1]) : null,
      keyHash: key && VENUE_KEY_RE.test(key) ? sha256(key) : null,
      ip: clientAddress(c, limits.trustProxy),
    })
    if (!refusal) return next()
    c.header('Retry-After', String(refusal.retryAfterSeconds))
    throw new ApiError(429, 'rate-limited', refusalMessage(refusal), { limit: refusal.kind })
  }
}
