/** @jsxRuntime automatic */
/** @jsxImportSource react */
/**
 * A React 19 component reading venuekit stores with `@nanostores/react` (`useStore`): one market's
 * thread and its take count.
 */
import { useStore } from '@nanostores/react'
import type { Venuekit } from '../../src/stores/index.ts'

export function ReactComments({ vk, marketId }: { vk: Venuekit; marketId: string }) {
  const thread = useStore(vk.comments('event', marketId))
  const count = useStore(vk.takeCounts([marketId])).countOf(marketId)
  return (
    <section>
      {/* §4.5.4: print nothing (never '0 takes') while the count is unknown. */}
      {count && (
        <p>
          {count.takes} takes, {count.posts} posts
        </p>
      )}
      {thread.loading ? (
        <p aria-busy="true">Loading…</p>
      ) : (
        <ul>
          {thread.posts.map((p) => (
            <li key={p.id}>{p.body}</li>
          ))}
        </ul>
      )}
    </section>
  )
}
