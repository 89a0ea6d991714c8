/**
 * Stream keep-alive, the same on both runtimes: the service pings every socket every `streamPingSeconds`
 * (a WebSocket ping frame, which a browser, Deno or `ws` answers on its own), and closes one that sent
 * nothing (no pong, no message) since its previous ping. A peer that vanished without closing (a laptop
 * put to sleep, a phone that changed network) thus frees its subscriptions within two periods instead of
 * holding them until TCP gives up, and a proxy that drops idle connections sees traffic on a quiet thread.
 * Node: `watchSockets` below, over `ws`. Deno: `Deno.upgradeWebSocket`'s own `idleTimeout`, in seconds.
 */
import { wholeOption } from './option-bounds.ts'

export const DEFAULT_STREAM_PING_SECONDS = 30

/** `undefined` is the default; 0 turns pings off; otherwise a whole number of seconds, 1 to 3600. */
export const resolveStreamPingSeconds = (v: number | undefined): number => wholeOption('streamPingSeconds', v, DEFAULT_STREAM_PING_SECONDS, 3600)

/** What `watchSockets` needs of a socket (a `ws` WebSocket has it). */
export interface PingableSocket {
  ping(): void
  terminate(): void
  on(event: 'pong' | 'message' | 'close', fn: () => void): unknown
}

/**
 * Pings each watched socket every `seconds`, and terminates one that sent nothing since the previous ping.
 * Returns `watch` (for each new socket) and `stop`. With 0 seconds nothing is pinged.
 */
export function watchSockets(seconds: number) {
  const sockets = new Set<PingableSocket>()
  /** Pinged and not heard from since. */
  const quiet = new Set<PingableSocket>()
  const timer = seconds
    ? setInterval(() => {
        for (const s of sockets) {
          if (quiet.has(s)) {
            s.terminate()
            continue
          }
          quiet.add(s)
          try {
            s.ping()
          } catch {
            s.terminate() // not open any more
          }
        }
      }, seconds * 1000)
    : null
  // A quiet service must not be kept alive by its pings (the entry's close stops them anyway).
  ;(timer as { unref?: () => void } | null)?.unref?.()
  return {
    watch(s: PingableSocket) {
      sockets.add(s)
      const heard = () => quiet.delete(s)
      s.on('pong', heard)
      s.on('message', heard)
      s.on('close', () => {
        sockets.delete(s)
        quiet.delete(s)
      })
    },
    stop() {
      if (timer) clearInterval(timer)
    },
  }
}
