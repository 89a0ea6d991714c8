/**
 * Postgres LISTEN/NOTIFY on a dedicated connection. The payload is the topic, never event data (§6.1),
 * followed by ` <n>` when the topic was published n > 1 times in one coalesced batch (`busPayload`,
 * see `publish`); the listener turns that back into n events.
 * When the listening connection drops (server restart, failover, idle kill), it is reopened with
 * backoff. Events published while it was down are lost, so once it is back every `onGap` listener is
 * called: the hub then tells every followed topic that it changed, and its clients refetch.
 */
import pg from 'pg'
import type { PubSub } from './pubsub.ts'

const CHANNEL = 'venuekit_events'
const RECONNECT_MAX_MS = 30_000

/** A notification's payload: the topic, and ` <n>` when it was published n > 1 times in one batch (topics hold no spaces). */
export function busPayload(topic: string, count: number): string {
  return count > 1 ? `${topic} ${count}` : topic
}

export function readBusPayload(payload: string): { topic: string; count: number } {
  const m = / (\d{1,6})$/.exec(payload)
  return m ? { topic: payload.slice(0, m.index), count: Number(m[1]) } : { topic: payload, count: 1 }
}

export class PgPubSub implements PubSub {
  private listeners = new Set<(topic: string) => void>()
  private gapListeners = new Set<() => void>()
  private closed = false
  private listen: pg.Client | null = null
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null
  /** Times the listening connection was reopened after a drop (observability, tests). */
  reconnects = 0

  private constructor(
    private readonly connectionString: string,
    private readonly pool: pg.Pool,
  ) {}

  static async connect(connectionString: string): Promise<PgPubSub> {
    const pool = new pg.Pool({ connectionString, max: 2 })
    const bus = new PgPubSub(connectionString, pool)
    try {
      await bus.openListener()
    } catch (e) {
      await pool.end().catch(() => {})
      throw e
    }
    return bus
  }

  private async openListener() {
    const client = new pg.Client({ connectionString: this.connectionString })
    client.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return
      const { topic, count } = readBusPayload(n.payload)
      for (let i = 0; i < count; i++)
        for (const l of [...this.listeners]) {
          try {
            l(topic)
          } catch {}
        }
    })
    client.on('error', (e) => {
      if (!this.closed) console.error('[venuekit] LISTEN connection error:', e.message)
    })
    client.on('end', () => {
      if (this.listen === client) this.listen = null
      if (!this.closed) this.scheduleReconnect(0)
    })
    try {
      await client.connect()
      await client.query(`LISTEN ${CHANNEL}`)
    } catch (e) {
      await client.end().catch(() => {})
      throw e
    }
    if (this.closed) {
      await client.end().catch(() => {})
      return
    }
    this.listen = client
  }

  private scheduleReconnect(attempt: number) {
    if (this.closed || this.reconnectTimer) return
    const delay = Math.min(RECONNECT_MAX_MS, 100 * 2 ** attempt)
    this.reconnectTimer = setTimeout(async () => {
      this.reconnectTimer = null
      if (this.closed || this.listen) return
      try {
        await this.openListener()
        if (!this.listen) return // closed meanwhile
        this.reconnects++
        for (const g of [...this.gapListeners]) {
          try {
            g()
          } catch {}
        }
      } catch (e) {
        if (!this.closed) console.error('[venuekit] LISTEN reconnect failed:', (e as Error).message)
        this.scheduleReconnect(attempt + 1)
      }
    }, delay)
  }

  /** Whether the listening connection is up. */
  get listening() {
    return this.listen !== null
  }

  /**
   * Publishes are coalesced: while one NOTIFY statement is on its way, the topics published meanwhile
   * wait and go together in the next one. Under concurrent writes that is one statement for many posts
   * instead of one each. Every publish is still one event for the subscribers (§6.1: every change fires):
   * a topic published n times in a batch travels once with its count (`busPayload`), because PostgreSQL
   * folds identical notifications of one transaction into one. The promise settles when the statement
   * carrying the topic has run.
   */
  publish(topic: string): Promise<void> {
    let batch = this.queued
    if (!batch) {
      let settle!: (e?: unknown) => void
      const done = new Promise<void>((resolve, reject) => (settle = (e) => (e === undefined ? resolve() : reject(e))))
      batch = this.queued = { topics: new Map(), done, settle }
      if (!this.sending) queueMicrotask(() => void this.sendQueued())
    }
    batch.topics.set(topic, (batch.topics.get(topic) ?? 0) + 1)
    return batch.done
  }

  private queued: { topics: Map<string, number>; done: Promise<void>; settle: (e?: unknown) => void } | null = null
  private sending = false

  private async sendQueued() {
    const batch = this.queued
    if (!batch || this.sending) return
    this.queued = null
    this.sending = true
    try {
      const payloads = [...batch.topics].map(([topic, n]) => busPayload(topic, n))
      await this.pool.query('select pg_notify($1, p) from unnest($2::text[]) p', [CHANNEL, payloads])
      batch.settle()
    } catch (e) {
      batch.settle(e ?? new Error('NOTIFY failed'))
    } finally {
      this.sending = false
      if (this.queued) void this.sendQueued()
    }
  }
  subscribe(listener: (topic: string) => void, onGap?: () => void) {
    this.listeners.add(listener)
    if (onGap) this.gapListeners.add(onGap)
    return () => {
      this.listeners.delete(listener)
      if (onGap) this.gapListeners.delete(onGap)
    }
  }
  async close() {
    this.closed = true
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    this.listeners.clear()
    this.gapListeners.clear()
    await this.listen?.end().catch(() => {})
    await this.pool.end().catch(() => {})
  }
}
