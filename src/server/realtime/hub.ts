/**
 * The stream hub of one instance: sockets subscribe to thread topics; every change published on the
 * bus (by this instance or another) is sent to that topic's subscribers as `{type:'changed', topic}`.
 * Runtime-neutral: the Node and Deno entries hand it a minimal socket.
 */
import type { StreamClientMessage, StreamServerMessage } from '../../contract/types.ts'
import { SUBJECT_TYPES } from '../../contract/ids.ts'
import type { PubSub } from './pubsub.ts'

export interface HubSocket {
  send(text: string): void
  close(code?: number, reason?: string): void
}

const TOPIC_RE = new RegExp(`^thread:(${SUBJECT_TYPES.join('|')}):[a-z0-9._:-]{1,128}$`)
export const MAX_TOPICS_PER_SOCKET = 256
/** A client message longer than this is answered with an error (the socket stays open). */
export const MAX_MESSAGE_CHARS = 4096

export class Hub {
  private topics = new Map<string, Set<HubSocket>>()
  private sockets = new Map<HubSocket, Set<string>>()
  private unlisten: () => void

  constructor(bus: PubSub) {
    this.unlisten = bus.subscribe((topic) => this.deliver(topic))
  }

  get socketCount() {
    return this.sockets.size
  }

  /** Registers a socket; returns the handlers its runtime calls on message and close. */
  attach(socket: HubSocket) {
    this.sockets.set(socket, new Set())
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
    const subs = this.sockets.get(socket)
    if (!subs) return
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
      return this.send(socket, { type: 'error', code: 'validation-failed', message: "topic must be 'thread:<subjectType>:<subjectRef>'" })
    if (msg.type === 'unsubscribe') {
      subs.delete(topic)
      this.topics.get(topic)?.delete(socket)
      return
    }
    if (!subs.has(topic) && subs.size >= MAX_TOPICS_PER_SOCKET)
      return this.send(socket, { type: 'error', code: 'rate-limited', message: `at most ${MAX_TOPICS_PER_SOCKET} topics per socket` })
    subs.add(topic)
    let set = this.topics.get(topic)
    if (!set) this.topics.set(topic, (set = new Set()))
    set.add(socket)
    this.send(socket, { type: 'subscribed', topic })
  }

  private detach(socket: HubSocket) {
    const subs = this.sockets.get(socket)
    if (!subs) return
    this.sockets.delete(socket)
    for (const t of subs) {
      const set = this.topics.get(t)
      set?.delete(socket)
      if (set && !set.size) this.topics.delete(t)
    }
  }

  private deliver(topic: string) {
    const set = this.topics.get(topic)
    if (!set) return
    const text = JSON.stringify({ type: 'changed', topic } satisfies StreamServerMessage)
    for (const s of [...set]) {
      try {
        s.send(text)
      } catch {
        this.detach(s)
      }
    }
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
