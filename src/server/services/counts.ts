/**
 * Counts grouped by a taxonomy axis (`/v1/markets/counts?by=`, §4.1): market posts count under each of
 * their market's nodes of that axis (market_nodes), node-subject posts under their own subject. The same
 * public rule as take counts: visible posts, unroomed or in public rooms, replies included (while their
 * parent is shown: `parent_shown`, migration 010); identical for every reader. Groups are ordered by
 * posts, most first, then key.
 */
import { sql } from 'kysely'
import { COUNT_AXES, type CountAxis } from '../../contract/params.ts'
import type { CountsResult } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { countInt } from './post-view.ts'
import { publiclyCounted } from './visibility.ts'

export function checkAxis(by: string): CountAxis {
  if ((COUNT_AXES as readonly string[]).includes(by)) return by as CountAxis
  const shown = by.length > 40 ? `${by.slice(0, 40)}…` : by
  throw new ApiError(400, 'unsupported-axis', `counts cannot be grouped by '${shown}'; the axes that exist are ${COUNT_AXES.join(', ')}`, {
    param: 'by',
    axes: [...COUNT_AXES],
  })
}

export async function countsBy(ctx: ServiceContext, axis: CountAxis): Promise<CountsResult> {
  const publicRead = publiclyCounted('p')
  const takes = sql<number>`count(p.stance_side)::int`
  const viaMarkets = await ctx.db
    .selectFrom('posts as p')
    .innerJoin('market_nodes as mn', 'mn.market_id', 'p.market_id')
    .select(['mn.node_ref as key', countInt.as('posts'), takes.as('takes')])
    .where('mn.node_type', '=', axis)
    .where(publicRead)
    .groupBy('mn.node_ref')
    .execute()
  const direct = await ctx.db
    .selectFrom('posts as p')
    .select(['p.subject_ref as key', countInt.as('posts'), takes.as('takes')])
    .where('p.subject_type', '=', axis)
    .where(publicRead)
    .groupBy('p.subject_ref')
    .execute()
  const groups = new Map<string, { key: string; posts: number; takes: number }>()
  for (const r of [...viaMarkets, ...direct]) {
    const g = groups.get(r.key) ?? { key: r.key, posts: 0, takes: 0 }
    g.posts += Number(r.posts)
    g.takes += Number(r.takes)
    groups.set(r.key, g)
  }
  return { by: axis, groups: [...groups.values()].sort((a, b) => b.posts - a.posts || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) }
}
