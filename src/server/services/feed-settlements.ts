/**
 * Settlement entries of a feed page (§2.2): one per resolved market on the page, attached to the page's
 * highest post about it. `right` / `wrong` count the market's takes (posts with a stance) whose side won /
 * lost, over what every reader is counted on, as take counts (§2.6, take-counts.ts): visible, not deleted,
 * outside private rooms, and a reply only while its parent is shown (`parent_shown`, migration 010). The
 * page's `venue` overlay applies as it does to take counts: takes hidden on the venue or by accounts it
 * banned, and replies under such posts, are not tallied. A voided market has no winner: both are zero,
 * nobody is counted wrong. CLOB markets have no results (§3.2), so they never settle here.
 */
import { sql } from 'kysely'
import type { MarketResult, Settlement } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { parseJson } from '../chain/markets.ts'
import type { PostRow } from './post-view.ts'
import { publiclyCounted } from './visibility.ts'

/** The venue's overlay on a take `t`: not hidden on the venue, nor its parent; neither's author banned on it. */
const overlay = (venue: string | null) =>
  venue
    ? sql`and not exists (select 1 from venue_hides vh where vh.venue_id = ${venue} and vh.post_id in (t.id, t.parent_id))
    and not exists (select 1 from bans b where b.scope = ${venue}
      and b.account_id in (t.account_id, (select pp.account_id from posts pp where pp.id = t.parent_id)))`
    : sql``

const takes = (cmp: '=' | '<>', venue: string | null) =>
  sql<number>`(select count(*)::int from posts t where t.market_id = m.id and t.stance_side is not null
    and ${publiclyCounted('t')} ${overlay(venue)}
    and t.stance_side ${sql.raw(cmp)} (m.result ->> 'winner')::int)`

/**
 * `resolved`: whether a market on the page has a result (CLOB markets never do); only those are tallied.
 * `venue`: the page's moderation overlay (§4.1 rule 5), null for none.
 */
export async function settlementsFor(
  ctx: ServiceContext,
  page: Pick<PostRow, 'id' | 'market_id'>[],
  resolved: (marketId: string) => boolean,
  venue: string | null = null,
): Promise<Settlement[]> {
  const first = new Map<string, string>()
  for (const r of page) if (r.market_id && resolved(r.market_id) && !first.has(r.market_id)) first.set(r.market_id, r.id)
  if (!first.size) return []
  const rows = await ctx.db
    .selectFrom('markets as m')
    .select(['m.id', 'm.result', 'm.resolved_at', takes('=', venue).as('right'), takes('<>', venue).as('wrong')])
    .where('m.id', 'in', [...first.keys()])
    .where('m.result', 'is not', null)
    .where('m.clob', '=', false)
    .execute()
  const order = [...first.keys()]
  return rows
    .map((r) => ({
      marketId: r.id,
      result: parseJson<MarketResult>(r.result),
      resolvedAt: r.resolved_at ? new Date(r.resolved_at).toISOString() : null,
      right: r.right,
      wrong: r.wrong,
      attachTo: first.get(r.id)!,
    }))
    .sort((a, b) => order.indexOf(a.marketId) - order.indexOf(b.marketId))
}
