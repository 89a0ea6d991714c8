/**
 * Thread events after a committed write (§6.1 "fires when the thread changes"). Two rules:
 * - The write has already committed when its event goes out, so a failed publish (a NOTIFY whose pool
 *   connection dropped) must not fail the request: a 500 for a post that exists invites a retry, which
 *   posts it twice. Events are best-effort by design (clients refetch; the SDK fires every callback after a
 *   reconnect), so the failure is logged and the write answers success.
 * - Anyone, signed out included, may subscribe to any `thread:<subjectType>:<ref>` (realtime/hub.ts). A
 *   post in a private room shares its subject's thread with the public one, so publishing its activity there
 *   would tell an outsider when a private room is active on that subject (§7 keeps a private room's existence
 *   unconfirmed to outsiders). A change in a room therefore also goes out on the room's own topic
 *   (`room:<roomId>:thread:…`), and a private room's change never on the public topic for everyone: it is
 *   published as `private:<roomId>:thread:…`, which the hub hands to the room topic's followers with a
 *   session that may read the room, and to the plain thread's followers whose session is a member (the plain
 *   thread shows members the room's posts, so it changed for them: §6.1). Both are asked of the gate
 *   (services/stream-gate.ts) before each delivery.
 */
import type { Kysely } from 'kysely'
import { privateRoomChangeTopic, roomThreadTopic, threadTopic } from '../../contract/paths.ts'
import type { ServiceContext } from '../context.ts'
import type { Database } from '../db/schema.ts'

/** A thread a write changed: its subject, and whether the change is inside a private room. */
export interface ChangedThread {
  subject_type: string
  subject_ref: string
  room_private?: boolean | null
  /** The room the change is in, if any: its room topic goes out too. */
  room_id?: string | null
}

/**
 * The threads holding live posts of an account (a ban changes how they read) or of a room (a new member now
 * reads them), each with its room, for `publishThreads`.
 */
export function threadsWithPostsOf(db: Kysely<Database>, by: 'account_id' | 'room_id', id: string): Promise<ChangedThread[]> {
  return db.selectFrom('posts').select(['subject_type', 'subject_ref', 'room_id', 'room_private']).distinct().where(by, '=', id).where('deleted_at', 'is', null).execute()
}

/** Each market's series (null: none), per service: a market's series never changes, so it is read once. */
const seriesCache = new WeakMap<ServiceContext, Map<string, string | null>>()
/** Markets whose series is kept; past it the cache starts again. */
export const SERIES_CACHE_MAX = 10_000

/** The series of these markets (lowercased ids; an unknown market is absent), from the cache or the chain. */
async function seriesOf(ctx: ServiceContext, marketIds: string[]): Promise<Map<string, string | null>> {
  let cache = seriesCache.get(ctx)
  if (!cache) seriesCache.set(ctx, (cache = new Map()))
  const missing = marketIds.filter((id) => !cache.has(id))
  if (missing.length) {
    const markets = await ctx.chain.markets(missing)
    if (cache.size + missing.length > SERIES_CACHE_MAX) cache.clear()
    for (const id of missing) {
      const m = markets.get(id)
      if (m) cache.set(id, m.series ?? null)
    }
  }
  return cache
}

/**
 * Publishes each changed thread's topics once (a private room's only as its `private:` topic); never throws.
 * A change on a recurring market's thread also goes out on its series thread's topics (`thread:series:<ref>`, in
 * the same room): a round's thread read with `includeSeries` shows every round's posts, and follows that topic.
 */
export async function publishThreads(ctx: ServiceContext, changed: Iterable<ChangedThread>): Promise<void> {
  const threads = [...changed]
  const markets = [...new Set(threads.filter((t) => t.subject_type === 'event').map((t) => t.subject_ref.toLowerCase()))]
  let series = new Map<string, string | null>()
  try {
    if (markets.length) series = await seriesOf(ctx, markets)
  } catch (err) {
    console.error('[venuekit] series of a changed thread not read: its series topic is not published', err)
  }
  const topics = new Set<string>()
  const add = (t: ChangedThread) => {
    if (t.room_private && t.room_id) topics.add(privateRoomChangeTopic(t.room_id, t.subject_type, t.subject_ref))
    else {
      topics.add(threadTopic(t.subject_type, t.subject_ref))
      if (t.room_id) topics.add(roomThreadTopic(t.room_id, t.subject_type, t.subject_ref))
    }
  }
  for (const t of threads) {
    add(t)
    const s = t.subject_type === 'event' ? series.get(t.subject_ref.toLowerCase()) : null
    if (s) add({ ...t, subject_type: 'series', subject_ref: s })
  }
  for (const topic of topics) {
    try {
      await ctx.bus.publish(topic)
    } catch (err) {
      console.error(`[venuekit] thread event not published (the write is committed): ${topic}`, err)
    }
  }
}
