/**
 * `hidden: true` on the reader's own posts that others do not see (§3.1 "Rules while hidden").
 * `toPost` already marks posts hidden by reports or removed by the operator; this adds the posts that
 * are hidden only under the venue overlay being read (a venue hide, or a ban of the author at that
 * venue), which the author still sees on the thread and on their profile. One query per page.
 */
import { sql } from 'kysely'
import type { Post } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'

export async function markVenueHidden(ctx: ServiceContext, posts: Post[], reader: string | null, venue: string | null): Promise<void> {
  if (!reader || !venue || !posts.length) return
  const rows = await ctx.db
    .selectFrom('posts as p')
    .select('p.id')
    .where('p.id', 'in', posts.map((p) => p.id))
    .where('p.account_id', '=', reader)
    .where((eb) =>
      eb.or([
        eb.exists(eb.selectFrom('venue_hides as vh').select(sql.lit(1).as('x')).whereRef('vh.post_id', '=', 'p.id').where('vh.venue_id', '=', venue)),
        eb.exists(eb.selectFrom('bans as b').select(sql.lit(1).as('x')).whereRef('b.account_id', '=', 'p.account_id').where('b.scope', '=', venue)),
      ]),
    )
    .execute()
  const hidden = new Set(rows.map((r) => r.id))
  for (const p of posts) if (hidden.has(p.id)) p.hidden = true
}
