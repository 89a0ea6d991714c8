/** Postgres LISTEN/NOTIFY on a dedicated connection. The payload is only the topic (§6.1). */
import pg from 'pg'
import type { PubSub } from './pubsub.ts'

const CHANNEL = 'venuekit_events'

export class PgPubSub implements PubSub {
  private listeners = new Set<(topic: string) => void>()
  private closed = false
  private constructor(
    private readonly listen: pg.Client,
    private readonly pool: pg.Pool,
  ) {}

  static async connect(connectionString: string): Promise<PgPubSub> {
    const listen = new pg.Client({ connectionString })
    await listen.connect()
    const pool = new pg.Pool({ connectionString, max: 2 })
    const bus = new PgPubSub(listen, pool)
    listen.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return
      for (const l of [...bus.listeners]) {
        try {
          l(n.payload)
        } catch {}
      }
    })
    listen.on('error', (e) => {
      if (!bus.closed) console.error('[venuekit] LISTEN connection error', e.message)
    })
    await listen.query(`LISTEN ${CHANNEL}`)
    return bus
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
    this.listeners.clear()
    await this.listen.end().catch(() => {})
    await this.pool.end().catch(() => {})
  }
}
