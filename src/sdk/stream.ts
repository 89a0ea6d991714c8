/**
 * Live thread changes (§6): one socket per client, shared by every subscription, opened with the first
 * and closed with the last. After a drop it reconnects with backoff, resubscribes every topic, and calls
 * every callback once (changes may have been missed while it was down). Callbacks get no payload.
 * Every topic is subscribed with the session's token (a private room's topic needs one that may read it; on a
 * plain thread it lets a private room's members hear the room's posts, which that thread shows them), and
 * again whenever the session changes (`resubscribe`). A room topic the service could not check then
 * (`stream-unavailable`: its database away) is asked again after RETRY_MS while it has callbacks, which are
 * then called once (changes may have been missed meanwhile).
 */
import type { StreamClientMessage, StreamServerMessage } from '../contract/types.ts'
import type { SocketConstructor, SocketLike } from './config.ts'
import { VenuekitError } from './errors.ts'

/** Keep-alive: a ping this often; a socket that heard nothing since the last ping is closed and reopened. */
export const PING_MS = 25_000
/** A topic the service could not check now is asked again this much later (the service has retried its check already). */
export const RETRY_MS = 3_000
/** Reconnect delay: 500 ms doubling up to 30 s, with jitter. */
const backoff = (n: number) => Math.min(30_000, 500 * 2 ** n) * (0.5 + Math.random() / 2)

export function createStream(url: string, Impl: SocketConstructor | undefined, token: () => string | undefined) {
  const topics = new Map<string, Set<() => void>>()
  let ws: SocketLike | null = null
  let retries = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  let beat: ReturnType<typeof setInterval> | undefined
  /** The retries of topics the service could not check (RETRY_MS): `stop` clears them with the rest. */
  const retrying = new Set<ReturnType<typeof setTimeout>>()
  const send = (m: StreamClientMessage) => ws?.readyState == 1 && ws.send(JSON.stringify(m))
  const subscribe = (topic: string) => send({ type: 'subscribe', topic, token: token() })
  const fire = (t: string) => topics.get(t)?.forEach((cb) => cb())

  const open = () => {
    timer = undefined
    const W = Impl ?? (globalThis.WebSocket as unknown as SocketConstructor | undefined)
    if (typeof W != 'function') throw new VenuekitError('no-websocket', 'realtime needs a global WebSocket or the WebSocketImpl option')
    const s = (ws = new W(url))
    let heard = true
    /** This socket is done (closed, or gone stale): reconnect, if it is still the client's. */
    const lost = () => {
      if (ws != s) return
      clearInterval(beat)
      ws = null
      if (topics.size) timer = setTimeout(open, backoff(retries++))
    }
    s.onopen = () => {
      for (const t of topics.keys()) subscribe(t)
      if (retries) for (const t of topics.keys()) fire(t)
      retries = 0
      // A stale socket is left at once: closing it may wait long on a dead connection.
      beat = setInterval(() => (heard ? ((heard = false), send({ type: 'ping' })) : (lost(), s.close())), PING_MS)
    }
    s.onmessage = (e) => {
      heard = true
      let m: StreamServerMessage
      try {
        m = JSON.parse(String(e.data))
      } catch {
        return
      }
      if (m.type == 'changed') fire(m.topic)
      else if (m.type == 'error' && m.code == 'stream-unavailable') {
        const t = m.topic!
        const r = setTimeout(() => retrying.delete(r) && ws == s && topics.has(t) && (subscribe(t), fire(t)), RETRY_MS)
        retrying.add(r)
      }
    }
    s.onerror = () => {}
    // A socket the client already left (stale, or closed by `stop`) ends quietly, whenever its close lands:
    // the heartbeat is the newer socket's by then.
    s.onclose = lost
  }

  const stop = () => {
    clearTimeout(timer)
    clearInterval(beat)
    retrying.forEach(clearTimeout)
    retrying.clear()
    timer = undefined
    // The next socket is a first one: no backoff carried over, and no callback called when it opens.
    retries = 0
    const s = ws
    ws = null
    s?.close(1000)
  }

  return {
    /** Subscribes one callback to a topic; returns its unsubscribe. */
    on(topic: string, cb: () => void): () => void {
      if (!ws && !timer) open()
      const entry = () => cb()
      let set = topics.get(topic)
      if (!set) {
        topics.set(topic, (set = new Set()))
        subscribe(topic)
      }
      set.add(entry)
      return () => {
        // Only this subscription's own set: after `close()` the topic may have a newer one.
        if (!set.delete(entry) || set.size || topics.get(topic) !== set) return
        topics.delete(topic)
        send({ type: 'unsubscribe', topic })
        if (!topics.size) stop()
      }
    },
    /** Subscribes every topic again with the session now held (after a sign-in or sign-out). */
    resubscribe() {
      for (const t of topics.keys()) subscribe(t)
    },
    /** Ends every subscription and closes the socket. */
    close() {
      topics.clear()
      stop()
    },
  }
}
