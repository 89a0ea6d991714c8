/**
 * Fan-out of change events between service instances. Events carry no payload (§6.1): a message is only
 * a topic. In process by default; Postgres LISTEN/NOTIFY when the service runs on PostgreSQL.
 */
export interface PubSub {
  publish(topic: string): Promise<void>
  /** Listens to every topic published by any instance (this one included). Returns the unsubscribe. */
  subscribe(listener: (topic: string) => void): () => void
  close(): Promise<void>
}

export class MemoryPubSub implements PubSub {
  private listeners = new Set<(topic: string) => void>()
  async publish(topic: string) {
    for (const l of [...this.listeners]) {
      try {
        l(topic)
      } catch {}
    }
  }
  subscribe(listener: (topic: string) => void) {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }
  async close() {
    this.listeners.clear()
  }
}
