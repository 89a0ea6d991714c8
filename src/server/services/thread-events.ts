/**
 * Thread events after a committed write (§6.1 "fires when the thread changes"). Two rules:
 * - The write has already committed when its event goes out, so a failed publish (a NOTIFY whose pool
 *   connection dropped) must not fail the request: a 500 for a post that exists invites a retry, which
 *   posts it twice. Events are best-effort by design (clients refetch; the SDK fires every callback after a
 *   reconnect), so the failure is logged and the write answers success.
 * - The stream authorises no topic: anyone, signed out included, may subscribe to any
 *   `thread:<subjectType>:<ref>` (realtime/hub.ts). A post in a private room shares its subject's topic
 *   with the public thread, so publishing its activity there would tell an outsider when a private room
 *   is active on that subject (§7 keeps a private room's existence unconfirmed to outsiders). Private-room
 *   activity therefore publishes nothing; a private room's readers see it on their next read.
 */
import { threadTopic } from '../../contract/paths.ts'
import type { ServiceContext } from '../context.ts'

/** A thread a write changed: its subject, and whether the change is inside a private room. */
export interface ChangedThread {
  subject_type: string
  subject_ref: string
  room_private?: boolean | null
}

/** Publishes each changed thread's topic once (private-room changes excepted); never throws. */
export async function publishThreads(ctx: ServiceContext, threads: Iterable<ChangedThread>): Promise<void> {
  const topics = new Set<string>()
  for (const t of threads) if (!t.room_private) topics.add(threadTopic(t.subject_type, t.subject_ref))
  for (const topic of topics) {
    try {
      await ctx.bus.publish(topic)
    } catch (err) {
      console.error(`[venuekit] thread event not published (the write is committed): ${topic}`, err)
    }
  }
}
