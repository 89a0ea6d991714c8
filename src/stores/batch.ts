/**
 * Tick batching: every id asked for by any store within one tick (a `setTimeout(0)` window) goes out in
 * one read; ids already in flight share that read. `max` splits a batch into requests of at most that
 * many ids (Infinity when the SDK operation splits by itself, as `takeCounts` does).
 */
export type BatchLoad<V> = (ids: string[]) => Promise<Record<string, V>>

export function tickBatcher<V>(load: BatchLoad<V>, max = Infinity) {
  let pending: Set<string> | null = null
  let next: Promise<Record<string, V>> | null = null
  const inflight = new Map<string, Promise<Record<string, V>>>()

  const flush = async (ids: string[]) => {
    const parts: Promise<Record<string, V>>[] = []
    for (let i = 0; i < ids.length; i += max) parts.push(load(ids.slice(i, i + max)))
    return Object.assign({}, ...(await Promise.all(parts))) as Record<string, V>
  }

  /** Resolves with the answers for `ids` (lowercased by the caller), from the batch that carried them. */
  return function get(ids: readonly string[]): Promise<Record<string, V>> {
    const parts = new Set<Promise<Record<string, V>>>()
    for (const id of ids) {
      const p = inflight.get(id)
      if (p) {
        parts.add(p)
        continue
      }
      if (!pending) {
        const batch = (pending = new Set())
        next = new Promise<string[]>((r) => setTimeout(() => r([...batch]))).then((all) => {
          pending = null
          const p = flush(all)
          for (const id of all) inflight.set(id, p)
          const done = () => all.forEach((id) => inflight.get(id) == p && inflight.delete(id))
          p.then(done, done)
          return p
        })
      }
      pending.add(id)
      parts.add(next!)
    }
    return Promise.all(parts).then((rs) => {
      const all = Object.assign({}, ...rs) as Record<string, V>
      const out: Record<string, V> = {}
      for (const id of ids) if (id in all) out[id] = all[id]
      return out
    })
  }
}
