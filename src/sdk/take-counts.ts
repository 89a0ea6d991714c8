/**
 * Take counts (§4.1 rules for take counts): one request covers up to 100 market ids and larger sets are
 * split and merged; the same set of ids in any order or casing shares one in-flight and recently cached read.
 */
import { LIMITS } from '../contract/limits.ts'
import { PATHS } from '../contract/paths.ts'
import type { TakeCountsResult } from '../contract/types.ts'
import type { Request } from './transport.ts'
import { idSet, marketId } from './validate.ts'

/** How long a settled read is reused, in ms. Any write through the client clears it. */
export const TAKE_COUNTS_TTL_MS = 5000

/** `venueOf`: the overlay a read asks for (the client's default when it names none). */
export function takeCountsReader(request: Request, venueOf: (o: { venue?: string }) => string | undefined) {
  const cache = new Map<string, { at: number; p: Promise<TakeCountsResult> }>()
  const read = async (marketIds: readonly string[], o: { venue?: string } = {}): Promise<TakeCountsResult> => {
    const ids = idSet(marketIds, marketId, 'marketIds')
    const venue = venueOf(o)
    // 'id,id,venue', or 'id,id,' with no venue: a venue id (≤ 64 characters) is never a market id (66).
    const key = String([ids, venue])
    // Expired reads leave on every call, so a long-lived client reading many sets keeps only the recent ones.
    cache.forEach((e, k) => e.at > Date.now() - TAKE_COUNTS_TTL_MS || cache.delete(k))
    const hit = cache.get(key)
    if (hit) return hit.p
    const parts: Promise<TakeCountsResult>[] = []
    for (let i = 0; i < ids.length; i += LIMITS.takeCountIdsPerRequest)
      parts.push(request('GET', PATHS.takeCounts, { query: { ids: ids.slice(i, i + LIMITS.takeCountIdsPerRequest), venue } }))
    const entry: { at: number; p: Promise<TakeCountsResult> } = {
      at: Infinity,
      p: Promise.all(parts).then(
        (rs) => ((entry.at = Date.now()), { counts: Object.assign({}, ...rs.map((r) => r.counts)) }),
        (e) => {
          if (cache.get(key) == entry) cache.delete(key)
          throw e
        },
      ),
    }
    cache.set(key, entry)
    return entry.p
  }
  return Object.assign(read, { clear: () => cache.clear() })
}
