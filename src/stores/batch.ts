/**
 * Tick batching: every id asked for by any store within one tick (a `setTimeout(0)` window) goes out in
 * one read. A read in flight is not shared with a later tick: that ask may be the re-read after a change (a
 * live thread's take counts, a resolution's markets), which an answer from before it must not stand for.
 * `max` splits a batch into requests of at most that many ids (Infinity when the SDK operation splits by
 * itself, as `takeCounts` does).
 */
export type BatchLoad<V> = (ids: string[]) => Promise<Record<string, V>>

export function tickBatcher<V>(load: BatchLoad<V>, max = Infinity) {
  let pending: Set<string> | null = null
  let next: Promise<Record<string, V>> | null = null

  const flush = async (ids: string[]) => {
    const parts: Promise<Record<string, V>>[] = []
    for (let i = 0; i < ids.length; i += max) parts.push(load(ids.slice(i, i + max)))
    return Object.assign({}, ...(await Promise.all(parts))) as Record<string, V>
  }

  /** Resolves with the answers for `ids` (lowercased by the caller), from the batch that carried them. */
  return function get(ids: readonly string[]): Promise<Record<string, V>> {
    if (!pending) {
      const batch = (pending = new Set())
      next = new Promise<string[]>((r) => setTimeout(() => r([...batch]))).then((all) => {
        pending = null
        return flush(all)
      })
    }
    for (const id of ids) pending.add(id)
    return next!.then((all) => {
      const out: Record<string, V> = {}
      for (const id of ids) if (id in all) out[id] = all[id]
      return out
    })
  }
}
