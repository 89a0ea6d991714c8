/**
 * Postgres LISTEN/NOTIFY on a dedicated connection. The payload is only the topic (§6.1).
 * When the listening connection drops (server restart, failover, idle kill), it is reopened with
 * backoff; events published while it was down are lost, which clients survive because they refetch.
 */
import pg from 'pg'
import type { PubSub } from './pubsub.ts'

const CHANNEL = 'venuekit_events'
const RECONNECT_MAX_MS = 30_000

export class PgPubSub implements PubSub {
  private listeners = new Set<(topic: string) => void>()
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
      for (const l of [...this.listeners]) {
        try {
          l(n.payload)
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
        this.reconnects++
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

  async publish(topic: string) {
    await this.pool.query('select pg_notify($1, $2)', [CHANNEL, topic])
  }
  subscribe(listener: (topic: string) => void) {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }
  async close() {
    this.closed = true
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer)
    this.listeners.clear()
    await this.listen?.end().catch(() => {})
    await this.pool.end().catch(() => {})
  }
}
