/**
 * The stream hub of one instance: sockets subscribe to thread topics; every change published on the
 * bus (by this instance or another) is sent to that topic's subscribers as `{type:'changed', topic}`.
 * A room's topics (`room:<roomId>:thread:…`) pass the gate (services/stream-gate.ts) with the session token
 * their subscribe message carried, when subscribed and again before each delivery; a refusal ends that
 * subscription with an error naming the topic.
 * Runtime-neutral: the Node and Deno entries hand it a minimal socket.
 */
import type { StreamClientMessage, StreamServerMessage } from '../../contract/types.ts'
import { SUBJECT_TYPES } from '../../contract/ids.ts'
import type { TopicGate } from '../services/stream-gate.ts'
import type { PubSub } from './pubsub.ts'

export interface HubSocket {
  send(text: string): void
  close(code?: number, reason?: string): void
}

const TOPIC_RE = new RegExp(`^(room:r_[0-9a-z-]{1,64}:)?thread:(${SUBJECT_TYPES.join('|')}):[a-z0-9._:-]{1,128}$`)
const gated = (topic: string) => topic.startsWith('room:')
/** The answer to a room topic the session may not follow (an unknown room reads the same: §7). */
const refused = (topic: string): StreamServerMessage => ({ type: 'error', code: 'room-not-found', message: 'no room with this id, or this session may not follow it', topic })
export const MAX_TOPICS_PER_SOCKET = 256
/** Room-topic subscriptions a socket may have waiting on the gate at once. */
export const MAX_PENDING_GATES = 16
/** A client message longer than this is answered with an error (the socket stays open). */
export const MAX_MESSAGE_CHARS = 4096

interface SocketState {
  /** Followed topics, each with the token it was subscribed with (room topics) or null. */
  topics: Map<string, string | null>
  /**
   * Each room topic's latest subscribe (waiting on the gate, or followed), so a gate answer that comes after a
   * newer subscribe or an unsubscribe is dropped.
   */
  asks: Map<string, number>
  /** Gate answers awaited for subscribes. */
  pending: number
}

export class Hub {
  private topics = new Map<string, Set<HubSocket>>()
  private sockets = new Map<HubSocket, SocketState>()
  private unlisten: () => void
  private asked = 0

  /** `gate`: who may follow a room topic (without one, room topics are refused). */
  constructor(
    bus: PubSub,
    private readonly gate: TopicGate = async (_t, tokens) => tokens.map(() => false),
  ) {
    this.unlisten = bus.subscribe((topic) => this.deliver(topic))
  }

  get socketCount() {
    return this.sockets.size
  }

  /** Registers a socket; returns the handlers its runtime calls on message and close. */
  attach(socket: HubSocket) {
    this.sockets.set(socket, { topics: new Map(), asks: new Map(), pending: 0 })
    return {
      onMessage: (data: string) => this.onMessage(socket, data),
      onClose: () => this.detach(socket),
    }
  }

  private send(socket: HubSocket, msg: StreamServerMessage) {
    try {
      socket.send(JSON.stringify(msg))
    } catch {
      this.detach(socket)
    }
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
    if (!gated(topic)) return this.add(socket, topic, null)
    if (state.pending >= MAX_PENDING_GATES)
      return this.send(socket, { type: 'error', code: 'rate-limited', message: `at most ${MAX_PENDING_GATES} room subscriptions waiting at once`, topic })
    const ask = ++this.asked
    const token = typeof msg.token === 'string' && msg.token.length <= 128 ? msg.token : null
    state.asks.set(topic, ask)
    state.pending++
    this.pass(topic, [token]).then(([ok]) => {
      state.pending--
      // Closed, or asked again, while the gate was answering: the newer ask decides.
      if (this.sockets.get(socket) !== state || state.asks.get(topic) !== ask) return
      if (ok) return this.add(socket, topic, token)
      this.drop(socket, topic)
      this.send(socket, refused(topic))
    })
  }

  /** The gate's answers; a failing gate (the database away) refuses. */
  private async pass(topic: string, tokens: (string | null)[]): Promise<boolean[]> {
    try {
      return await this.gate(topic, tokens)
    } catch (err) {
      console.error(`[venuekit] stream gate failed for ${topic}`, err)
      return tokens.map(() => false)
    }
  }

  private add(socket: HubSocket, topic: string, token: string | null) {
    this.sockets.get(socket)?.topics.set(topic, token)
    let set = this.topics.get(topic)
    if (!set) this.topics.set(topic, (set = new Set()))
    set.add(socket)
    this.send(socket, { type: 'subscribed', topic })
  }

  private drop(socket: HubSocket, topic: string) {
    const state = this.sockets.get(socket)
    state?.topics.delete(topic)
    state?.asks.delete(topic)
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
    const set = this.topics.get(topic)
    if (!set) return
    const text = JSON.stringify({ type: 'changed', topic } satisfies StreamServerMessage)
    const sendTo = (s: HubSocket) => {
      try {
        s.send(text)
      } catch {
        this.detach(s)
      }
    }
    if (!gated(topic)) return void [...set].forEach(sendTo)
    // A room topic: every subscriber passes the gate again, in one call (a member who left, was removed or
    // signed out hears no more).
    const subs = [...set].map((s) => {
      const state = this.sockets.get(s)
      return { s, state, ask: state?.asks.get(topic) }
    })
    this.pass(
      topic,
      subs.map((x) => x.state?.topics.get(topic) ?? null),
    ).then((oks) =>
      subs.forEach(({ s, state, ask }, i) => {
        if (this.sockets.get(s) !== state || state?.asks.get(topic) !== ask || !this.topics.get(topic)?.has(s)) return
        if (oks[i]) return sendTo(s)
        this.drop(s, topic)
        this.send(s, refused(topic))
      }),
    )
  }

  close() {
    this.unlisten()
    for (const s of [...this.sockets.keys()]) {
      try {
        s.close(1001, 'service stopping')
      } catch {}
    }
    this.sockets.clear()
    this.topics.clear()
  }
}
