/**
 * Fan-out of change events between service instances. Events carry no payload (§6.1): a message is only
 * a topic. In process by default; Postgres LISTEN/NOTIFY when the service runs on PostgreSQL.
 */
export interface PubSub {
  publish(topic: string): Promise<void>
  /**
   * Listens to every topic published by any instance (this one included). `onGap` is called when events may
   * have been lost (the bus's connection dropped and is back), so the listener can have its followers refetch.
   * Returns the unsubscribe.
   */
  subscribe(listener: (topic: string) => void, onGap?: () => void): () => void
  close(): Promise<void>
}

/** In process: nothing is ever lost, so `onGap` is never called. */
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
