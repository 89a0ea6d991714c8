/**
 * Settlement entries of a feed page (§2.2): one per resolved market on the page, attached to the page's
 * highest post about it. `right` / `wrong` count the market's takes (posts with a stance) whose side won /
 * lost, over what every reader is counted on: visible, not deleted, outside private rooms (as take counts,
 * §2.6). A voided market has no winner: both are zero, nobody is counted wrong. CLOB markets have no
 * results (§3.2), so they never settle here.
 */
import { sql } from 'kysely'
import type { MarketResult, Settlement } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { parseJson } from '../chain/markets.ts'
import type { PostRow } from './post-view.ts'

const takes = (cmp: '=' | '<>') =>
  sql<number>`(select count(*)::int from posts t where t.market_id = m.id and t.stance_side is not null
    and t.deleted_at is null and t.state = 'visible' and not t.room_private
    and t.stance_side ${sql.raw(cmp)} (m.result ->> 'winner')::int)`

/** `resolved`: whether a market on the page has a result (CLOB markets never do); only those are tallied. */
export async function settlementsFor(ctx: ServiceContext, page: Pick<PostRow, 'id' | 'market_id'>[], resolved: (marketId: string) => boolean): Promise<Settlement[]> {
  const first = new Map<string, string>()
  for (const r of page) if (r.market_id && resolved(r.market_id) && !first.has(r.market_id)) first.set(r.market_id, r.id)
  if (!first.size) return []
  const rows = await ctx.db
    .selectFrom('markets as m')
    .select(['m.id', 'm.result', 'm.resolved_at', takes('=').as('right'), takes('<>').as('wrong')])
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
