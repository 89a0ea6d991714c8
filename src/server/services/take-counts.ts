/**
 * Take counts per market (§2.6, §4.1 take counts): `{ posts, takes, bySide }` for every asked id. Counts
 * are identical for every reader: visible posts (not deleted, not hidden or removed) that are unroomed or
 * in public rooms; private-room posts never count. No reader-specific filter (blocks, own hidden posts)
 * applies. Top-level posts and replies both count as posts; `takes` are the posts with a stance, `bySide`
 * counts them per outcome index. A reply is visible only with its parent (it is read only folded under
 * it): a reply whose parent is deleted, hidden by reports or removed does not count (`parent_shown`).
 *
 * The counts come from `market_take_counts`, counters a trigger keeps in step with every post change
 * (migrations 004, 010): one key lookup per market, whatever the number of posts. `venue` applies that
 * venue's hides and bans, the overlay every read takes (§4.1 rule 5): the posts it takes away are counted
 * from the venue's side (its hides, its banned accounts' posts on these markets, and the replies under
 * either) and subtracted.
 */
import { sql } from 'kysely'
import type { TakeCount } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { publiclyCounted } from './visibility.ts'

type SideRow = { market_id: string; side: number; n: number }

/** `ids` are lowercased market ids. Unknown markets and markets with no posts answer zeros. */
export async function takeCounts(ctx: ServiceContext, ids: string[], venue: string | null): Promise<Record<string, TakeCount>> {
  const counts: Record<string, TakeCount> = {}
  for (const id of ids) counts[id] = { posts: 0, takes: 0, bySide: {} }
  if (!ids.length) return counts
  const base = (await ctx.db.selectFrom('market_take_counts').select(['market_id', 'side', 'n']).where('market_id', 'in', ids).execute()) as SideRow[]
  const net = new Map<string, SideRow>()
  for (const r of base) net.set(`${r.market_id} ${r.side}`, { ...r, n: Number(r.n) })
  if (venue) {
    // Public-visible posts of these markets that the venue's overlay hides: hidden on the venue, or by an
    // account banned on it, or a reply under such a post (its parent is gone on the venue, so it is too).
    // Read from the venue's side, so a big market is never scanned.
    const { rows } = await sql<SideRow>`
      select p.market_id, coalesce(p.stance_side, -1) as side, count(*)::int as n from posts p
      where p.id in (
          select vh.post_id from venue_hides vh where vh.venue_id = ${venue}
          union
          select r.id from venue_hides vh join posts r on r.parent_id = vh.post_id
            where vh.venue_id = ${venue} and r.market_id in (${sql.join(ids)})
          union
          select bp.id from bans b join posts bp on bp.account_id = b.account_id
            where b.scope = ${venue} and bp.market_id in (${sql.join(ids)})
          union
          select r.id from bans b join posts bp on bp.account_id = b.account_id join posts r on r.parent_id = bp.id
            where b.scope = ${venue} and bp.market_id in (${sql.join(ids)})
        )
        and p.market_id in (${sql.join(ids)})
        and ${publiclyCounted('p')}
      group by 1, 2`.execute(ctx.db)
    for (const r of rows) {
      const k = `${r.market_id} ${r.side}`
      const e = net.get(k)
      if (e) e.n -= Number(r.n)
    }
  }
  for (const r of net.values()) {
    const c = counts[r.market_id]
    if (!c || r.n <= 0) continue
    c.posts += r.n
    if (r.side >= 0) {
      c.takes += r.n
      c.bySide[String(r.side)] = (c.bySide[String(r.side)] ?? 0) + r.n
    }
  }
  return counts
}
