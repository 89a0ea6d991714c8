/**
 * The stream hub of one instance: sockets subscribe to thread topics; every change published on the
 * bus (by this instance or another) is sent to that topic's subscribers as `{type:'changed', topic}`.
 * A room's topics (`room:<roomId>:thread:…`) pass the gate (services/stream-gate.ts) with the session token
 * their subscribe message carried: when subscribed (a refusal is answered with an error naming the topic),
 * and again before each delivery (a refusal then skips that socket without a word, and keeps the subscription,
 * so a member who rejoins hears the room again at its next change).
 * A plain thread topic is open to anyone; its subscribe keeps the token it carried (if any), because a change
 * inside a private room (`private:<roomId>:thread:…` on the bus, thread-events.ts) reaches the plain thread's
 * followers whose session is a member of that room, each asked of the gate before the delivery.
 * A new subscriber also hears a change made in the REPLAY_MS before it subscribed (`replay`): a client reads the
 * thread and subscribes at the same time, so a change committed after its read was answered and before its
 * subscription was made would otherwise reach it only with the thread's next change.
 * Runtime-neutral: the Node and Deno entries hand it a minimal socket.
 */
import type { StreamClientMessage, StreamServerMessage } from '../../contract/types.ts'
import { ROOM_ID_PATTERN, SUBJECT_TYPES } from '../../contract/ids.ts'
import { privateRoomChangeOf } from '../../contract/paths.ts'
import type { TopicGate } from '../services/stream-gate.ts'
import type { PubSub } from './pubsub.ts'
import { wholeOption } from './option-bounds.ts'

export interface HubSocket {
  send(text: string): void
  close(code?: number, reason?: string): void
  /** Bytes sent and not yet taken by the network (the runtime's `bufferedAmount`), when the runtime tells. */
  unread?(): number
}

const TOPIC_RE = new RegExp(`^(room:${ROOM_ID_PATTERN}:)?thread:(${SUBJECT_TYPES.join('|')}):[a-z0-9._:-]{1,128}$`)
const gated = (topic: string) => topic.startsWith('room:')
const changed = (topic: string) => JSON.stringify({ type: 'changed', topic } satisfies StreamServerMessage)
/** The answer to a room topic the session may not follow (an unknown room reads the same: §7). */
const refused = (topic: string): StreamServerMessage => ({ type: 'error', code: 'room-not-found', message: 'no room with this id, or this session may not follow it', topic })
export const MAX_TOPICS_PER_SOCKET = 256
/** A gate that fails (the database away) is asked again this long after, this many times at the most. */
export const GATE_RETRY_MS = [1000, 2000, 4000]
/**
 * A change this recent is told to a new subscriber at once (§6.1). It bounds the time between a client's read
 * and its subscription (the socket's opening included; a reconnect refetches everything anyway). A subscriber
 * whose read came after the change refetches once more, which is the whole cost.
 */
export const REPLAY_MS = 10_000

/** `streamReplayMs`: `undefined` is REPLAY_MS; 0 turns the replay off; otherwise whole milliseconds up to 60,000. */
export const resolveStreamReplayMs = (v: number | undefined): number => wholeOption('streamReplayMs', v, REPLAY_MS, 60_000, ' of milliseconds')
/**
 * A socket whose unsent answers pass this many bytes is closed with 1008: a client that sends and never reads
 * (or cannot keep up) would otherwise have every answer and change buffered in the service without end.
 */
export const MAX_UNREAD_BYTES = 1024 * 1024
/** A client message longer than this is answered with an error (the socket stays open). */
export const MAX_MESSAGE_CHARS = 4096
/** A frame larger than this (bytes) closes its socket with 1009 (message too big) instead of reaching the hub. */
export const MAX_FRAME_BYTES = MAX_MESSAGE_CHARS * 4

interface SocketState {
  /** Followed topics, each with the token it was subscribed with, or null. */
  topics: Map<string, string | null>
  /**
   * Each room topic's latest subscribe (waiting on the gate, or followed), so a gate answer that comes after a
   * newer subscribe or an unsubscribe is dropped.
   */
  asks: Map<string, number>
  /** A socket's room subscribes pass the gate one after another. */
  queue: Promise<void>
}

export class Hub {
  private topics = new Map<string, Set<HubSocket>>()
  private sockets = new Map<HubSocket, SocketState>()
  private unlisten: () => void
  private asked = 0
  /**
   * Recent changes (`replay`), by the topic that was told of them: when, under each gate topic that a new
   * subscriber must pass to hear it (null: none beyond its subscribe's own).
   */
  private recent = new Map<string, Map<string | null, number>>()
  /** Sweeps `recent` once a window has passed, while it holds anything: busy or quiet, it holds one window's topics. */
  private sweepTimer: ReturnType<typeof setTimeout> | undefined

  /** `gate`: who may follow a room topic (without one, room topics are refused). `replayMs`: see REPLAY_MS. */
  constructor(
    bus: PubSub,
    private readonly gate: TopicGate = async (_t, tokens) => tokens.map(() => false),
    private readonly replayMs = REPLAY_MS,
  ) {
    this.unlisten = bus.subscribe(
      (topic) => this.deliver(topic),
      () => this.resync(),
    )
  }

  /**
   * The bus may have lost events (its connection dropped): every followed topic hears one change, a room's
   * topic through the gate, so every client refetches what it shows. It names no room and no activity.
   */
  private resync() {
    for (const topic of [...this.topics.keys()]) this.deliver(topic)
  }

  get socketCount() {
    return this.sockets.size
  }

  /** Registers a socket; returns the handlers its runtime calls on message and close. */
  attach(socket: HubSocket) {
    this.sockets.set(socket, { topics: new Map(), asks: new Map(), queue: Promise.resolve() })
    return {
      onMessage: (data: string) => this.onMessage(socket, data),
      onClose: () => this.detach(socket),
    }
  }

  private send(socket: HubSocket, msg: StreamServerMessage) {
    this.sendText(socket, JSON.stringify(msg))
  }

  private onMessage(socket: HubSocket, data: string) {
    const state = this.sockets.get(socket)
    if (!state) return
    const subs = state.topics
    if (data.length > MAX_MESSAGE_CHARS)
      return this.send(socket, { type: 'error', code: 'payload-too-large', message: `stream messages are at most ${MAX_MESSAGE_CHARS} characters` })
    let msg: StreamClientMessage
    try {
      msg = JSON.parse(data)
    } catch {
      return this.send(socket, { type: 'error', code: 'invalid-json', message: 'stream messages are JSON' })
    }
    if (!msg || typeof msg !== 'object' || Array.isArray(msg))
      return this.send(socket, { type: 'error', code: 'invalid-json', message: 'a stream message is a JSON object with a type' })
    if (msg.type === 'ping') return this.send(socket, { type: 'pong' })
    if (msg.type !== 'subscribe' && msg.type !== 'unsubscribe')
      return this.send(socket, { type: 'error', code: 'validation-failed', message: "type must be 'subscribe', 'unsubscribe' or 'ping'" })
    const topic = typeof msg.topic === 'string' ? msg.topic : ''
    if (!TOPIC_RE.test(topic))
      return this.send(socket, { type: 'error', code: 'validation-failed', message: "topic must be 'thread:<subjectType>:<subjectRef>' or 'room:<roomId>:thread:<subjectType>:<subjectRef>'" })
    if (msg.type === 'unsubscribe') return this.drop(socket, topic)
    const waiting = state.asks.size - [...state.asks.keys()].filter((t) => subs.has(t)).length
    if (!subs.has(topic) && !state.asks.has(topic) && subs.size + waiting >= MAX_TOPICS_PER_SOCKET)
      return this.send(socket, { type: 'error', code: 'rate-limited', message: `at most ${MAX_TOPICS_PER_SOCKET} topics per socket` })
    const token = typeof msg.token === 'string' && msg.token.length <= 128 ? msg.token : null
    if (!gated(topic)) return this.add(socket, topic, token)
    const ask = ++this.asked
    state.asks.set(topic, ask)
    // Asked with another session (an account switch, a sign-out): the old one stops hearing it at once.
    if (subs.has(topic) && subs.get(topic) !== token) this.unfollow(socket, topic)
    this.admit(socket, state, topic, token, ask)
  }

  /** Queues a room subscribe behind the socket's others; a failing gate is asked again (GATE_RETRY_MS). */
  private admit(socket: HubSocket, state: SocketState, topic: string, token: string | null, ask: number, attempt = 0) {
    // Closed, or asked again (or unsubscribed) meanwhile: the newer ask decides.
    const stale = () => this.sockets.get(socket) !== state || state.asks.get(topic) !== ask
    state.queue = state.queue.then(async () => {
      if (stale()) return
      const oks = await this.pass(topic, [token])
      if (stale()) return
      if (oks?.[0]) return this.add(socket, topic, token)
      if (!oks && attempt < GATE_RETRY_MS.length) return void setTimeout(() => this.admit(socket, state, topic, token, ask, attempt + 1), GATE_RETRY_MS[attempt])
      this.drop(socket, topic)
      this.send(socket, oks ? refused(topic) : { type: 'error', code: 'stream-unavailable', message: 'this room could not be checked now; subscribe again later', topic })
    })
  }

  /** The gate's answers, or null when it failed (the database away). */
  private async pass(topic: string, tokens: (string | null)[]): Promise<boolean[] | null> {
    try {
      return await this.gate(topic, tokens)
    } catch (err) {
      console.error(`[venuekit] stream gate failed for ${topic}`, err)
      return null
    }
  }

  private add(socket: HubSocket, topic: string, token: string | null) {
    const state = this.sockets.get(socket)
    const fresh = !state?.topics.has(topic)
    state?.topics.set(topic, token)
    let set = this.topics.get(topic)
    if (!set) this.topics.set(topic, (set = new Set()))
    set.add(socket)
    this.send(socket, { type: 'subscribed', topic })
    if (fresh) this.replay(socket, topic, token)
  }

  /** Notes that `topic`'s followers were told of a change (through `gateTopic`'s gate, if any). */
  private remember(topic: string, gateTopic: string | null) {
    if (!this.replayMs) return
    const now = Date.now()
    let at = this.recent.get(topic)
    if (!at) this.recent.set(topic, (at = new Map()))
    at.set(gateTopic, now)
    this.sweepLater()
  }

  /** Forgets the changes older than the window. */
  private sweep(now: number) {
    for (const [t, at] of this.recent) {
      for (const [g, when] of at) if (when < now - this.replayMs) at.delete(g)
      if (!at.size) this.recent.delete(t)
    }
  }

  /** One timer at a time, while anything is remembered; it never keeps a quiet process alive. */
  private sweepLater() {
    if (this.sweepTimer || !this.recent.size) return
    this.sweepTimer = setTimeout(() => {
      this.sweepTimer = undefined
      this.sweep(Date.now())
      this.sweepLater()
    }, this.replayMs + 1)
    ;(this.sweepTimer as { unref?: () => void }).unref?.()
  }

  /**
   * A new subscriber hears one change if its topic changed in the last `replayMs`: at once, or, for a private
   * room's change on the plain thread, once the gate admits its session to that room (an outsider hears nothing).
   */
  private replay(socket: HubSocket, topic: string, token: string | null) {
    const since = Date.now() - this.replayMs
    const gates: string[] = []
    for (const [gateTopic, at] of this.recent.get(topic) ?? []) {
      if (at < since) continue
      if (gateTopic === null) return this.sendText(socket, changed(topic))
      if (token) gates.push(gateTopic)
    }
    if (!gates.length) return
    const state = this.sockets.get(socket)
    void Promise.all(gates.map((g) => this.pass(g, [token]))).then((oks) => {
      // Still following it with the same session.
      if (oks.some((ok) => ok?.[0]) && this.sockets.get(socket) === state && state?.topics.get(topic) === token) this.sendText(socket, changed(topic))
    })
  }

  /** Unsubscribes (and forgets the topic's pending ask). */
  private drop(socket: HubSocket, topic: string) {
    this.sockets.get(socket)?.asks.delete(topic)
    this.unfollow(socket, topic)
  }

  /** Stops delivering the topic to the socket (a pending ask stays). */
  private unfollow(socket: HubSocket, topic: string) {
    this.sockets.get(socket)?.topics.delete(topic)
    const set = this.topics.get(topic)
    set?.delete(socket)
    if (set && !set.size) this.topics.delete(topic)
  }

  private detach(socket: HubSocket) {
    const state = this.sockets.get(socket)
    if (!state) return
    this.sockets.delete(socket)
    for (const t of state.topics.keys()) {
      const set = this.topics.get(t)
      set?.delete(socket)
      if (set && !set.size) this.topics.delete(t)
    }
  }

  private deliver(topic: string) {
    const inRoom = privateRoomChangeOf(topic)
    if (inRoom) {
      // A private room's change: its room topic's followers, and the room's members on the plain thread.
      this.remember(inRoom.roomTopic, null)
      this.remember(inRoom.thread, topic)
      this.deliverGated(inRoom.roomTopic)
      return this.deliverGated(inRoom.thread, topic)
    }
    this.remember(topic, null)
    if (gated(topic)) return this.deliverGated(topic)
    const text = changed(topic)
    for (const s of [...(this.topics.get(topic) ?? [])]) this.sendText(s, text)
  }

  private sendText(s: HubSocket, text: string) {
    try {
      if ((s.unread?.() ?? 0) > MAX_UNREAD_BYTES) {
        this.detach(s)
        return s.close(1008, 'too many unread messages: this client does not read its socket')
      }
      s.send(text)
    } catch {
      this.detach(s)
    }
  }

  /**
   * A gated change of `topic`: every subscriber passes the gate again, in one call, for `gateTopic` (the room
   * topic itself, or a private room's change for the plain thread's followers, of whom only those with a
   * session are asked). One who may no longer follow it (left, removed, signed out) is skipped without a word:
   * an answer now would tell them the room was active. Their subscription stays (within
   * MAX_TOPICS_PER_SOCKET), so one who rejoins hears the next change without subscribing again; a new
   * session's subscribe replaces the old token. A failing gate is asked again once a second later; then the
   * change is skipped, and the subscriptions kept.
   */
  private deliverGated(topic: string, gateTopic = topic, retry = true) {
    const subs = [...(this.topics.get(topic) ?? [])]
      .map((s) => {
        const state = this.sockets.get(s)
        return { s, state, ask: state?.asks.get(topic), token: state?.topics.get(topic) ?? null }
      })
      .filter((x) => x.token || gateTopic === topic)
    if (!subs.length) return
    this.pass(
      gateTopic,
      subs.map((x) => x.token),
    ).then((oks) => {
      if (!oks) return void (retry && setTimeout(() => this.deliverGated(topic, gateTopic, false), GATE_RETRY_MS[0]))
      const text = changed(topic)
      subs.forEach(({ s, state, ask, token }, i) => {
        // Closed, unsubscribed, or subscribed again (another session) while the gate was asked: skipped.
        if (this.sockets.get(s) !== state || state?.asks.get(topic) !== ask || state?.topics.get(topic) !== token || !this.topics.get(topic)?.has(s)) return
        if (oks[i]) this.sendText(s, text)
      })
    })
  }

  close() {
    this.unlisten()
    clearTimeout(this.sweepTimer)
    this.recent.clear()
    for (const s of [...this.sockets.keys()]) {
      try {
        s.close(1001, 'service stopping')
      } catch {}
    }
    this.sockets.clear()
    this.topics.clear()
  }
}
