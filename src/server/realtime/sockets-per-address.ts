/**
 * Stream sockets per client address (issue 9 abuse limits): each open socket holds up to
 * MAX_TOPICS_PER_SOCKET subscriptions and its buffers, so one address may hold at most
 * `rateLimits.streamSocketsPerIp` at once. An upgrade over it is refused with 429 `rate-limited` before the
 * socket opens; a socket's place is freed when it closes. Off with the rate limits (`rateLimits: false`).
 */
import type { ServiceContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { addressOf } from '../http/rate-limit.ts'

export interface StreamAdmission {
  /** The refusal (429 `rate-limited`), or null when the socket may open (then `release` once it closes). */
  refusal: ApiError | null
  release: () => void
}

export function socketsPerAddress(ctx: ServiceContext) {
  const open = new Map<string, number>()
  return {
    /** Asked at the upgrade, with the peer's address and the request's `X-Forwarded-For`. */
    admit(peer: string | undefined, forwardedFor: string | undefined): StreamAdmission {
      const limits = ctx.config.rateLimits
      const addr = limits && addressOf(peer, forwardedFor, limits.trustProxy)
      if (!limits || !addr) return { refusal: null, release: () => {} }
      const n = open.get(addr) ?? 0
      if (n >= limits.streamSocketsPerIp) {
        const message = `too many stream sockets from this address: at most ${limits.streamSocketsPerIp} open at once; close one first`
        return { refusal: new ApiError(429, 'rate-limited', message, { limit: 'stream-sockets' }), release: () => {} }
      }
      open.set(addr, n + 1)
      let released = false
      return {
        refusal: null,
        release: () => {
          if (released) return
          released = true
          const left = (open.get(addr) ?? 1) - 1
          if (left > 0) open.set(addr, left)
          else open.delete(addr)
        },
      }
    },
  }
}
