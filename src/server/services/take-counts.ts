/**
 * Take counts per market (§2.6, §4.1 take counts): `{ posts, takes, bySide }` for every asked id, in one
 * grouped query (index posts_market). Counts are identical for every reader: visible posts (not deleted,
 * not hidden or removed) that are unroomed or in public rooms; private-room posts never count. No
 * reader-specific filter (blocks, own hidden posts) applies. `venue` applies that venue's hides and bans,
 * the same overlay every read takes (§4.1 rule 5). Top-level posts and replies both count as posts;
 * `takes` are the posts with a stance, `bySide` counts them per outcome index.
 */
import type { TakeCount } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { countInt } from './post-view.ts'
import { visibleTo } from './visibility.ts'

/** `ids` are lowercased market ids. Unknown markets and markets with no posts answer zeros. */
export async function takeCounts(ctx: ServiceContext, ids: string[], venue: string | null): Promise<Record<string, TakeCount>> {
  const counts: Record<string, TakeCount> = {}
  for (const id of ids) counts[id] = { posts: 0, takes: 0, bySide: {} }
  if (!ids.length) return counts
  const rows = await ctx.db
    .selectFrom('posts as p')
    .select(['p.market_id', 'p.stance_side', countInt.as('n')])
    .where('p.market_id', 'in', ids)
    // A public reader: no reader, so no blocks, no own hidden posts, no private rooms.
    .where(visibleTo({ reader: null, venue, ownHidden: false }))
    .groupBy(['p.market_id', 'p.stance_side'])
    .execute()
  for (const r of rows) {
    const c = counts[r.market_id!]
    if (!c) continue
    const n = Number(r.n)
    c.posts += n
    if (r.stance_side != null) {
      c.takes += n
      c.bySide[String(r.stance_side)] = (c.bySide[String(r.stance_side)] ?? 0) + n
    }
  }
  return counts
}
