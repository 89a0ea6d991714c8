/** A test client for the stream: a real `ws` WebSocket with a queue of parsed server messages. */
import WebSocket from 'ws'
import type { StreamServerMessage } from '../../src/contract/types.ts'

export class StreamClient {
  readonly messages: StreamServerMessage[] = []
  private waiters: ((m: StreamServerMessage) => void)[] = []
  closed: { code: number; reason: string } | null = null
  private closeWaiters: (() => void)[] = []

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as StreamServerMessage
      const w = this.waiters.shift()
      if (w) w(m)
      else this.messages.push(m)
    })
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: String(reason) }
      for (const w of this.closeWaiters.splice(0)) w()
    })
  }

  /** `options`: the `ws` client's, e.g. `{ autoPong: false }` for a peer that never answers a ping. */
  static open(url: string, options?: WebSocket.ClientOptions): Promise<StreamClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options)
      const c = new StreamClient(ws)
      ws.once('open', () => resolve(c))
      ws.once('error', reject)
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with ${res.statusCode}`)))
    })
  }

  send(msg: unknown) {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg))
  }

  /** The next server message, in order; fails after `timeoutMs`. */
  next(timeoutMs = 5000): Promise<StreamServerMessage> {
    const queued = this.messages.shift()
    if (queued) return Promise.resolve(queued)
    return new Promise((resolve, reject) => {
      const waiter = (m: StreamServerMessage) => {
        clearTimeout(timer)
        resolve(m)
      }
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter)
        reject(new Error(`no stream message within ${timeoutMs} ms`))
      }, timeoutMs)
      this.waiters.push(waiter)
    })
  }

  async subscribe(topic: string) {
    this.send({ type: 'subscribe', topic })
    const m = await this.next()
    if (m.type !== 'subscribed' || m.topic !== topic) throw new Error(`expected subscribed ${topic}, got ${JSON.stringify(m)}`)
  }

  /** Round trip: every message sent before it has been handled once the pong arrives. */
  async ping() {
    this.send({ type: 'ping' })
    const m = await this.next()
    if (m.type !== 'pong') throw new Error(`expected pong, got ${JSON.stringify(m)}`)
  }

  whenClosed(timeoutMs = 5000): Promise<{ code: number; reason: string }> {
    if (this.closed) return Promise.resolve(this.closed)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`socket still open after ${timeoutMs} ms`)), timeoutMs)
      this.closeWaiters.push(() => {
        clearTimeout(timer)
        resolve(this.closed!)
      })
    })
  }

  close() {
    this.ws.close()
  }
}
