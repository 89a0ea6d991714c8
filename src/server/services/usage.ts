/**
 * Usage per venue per day (§5.3): every request that carries a live venue key counts once, as a read
 * (GET, HEAD) or a write (any other method). Keyless traffic is unattributed and unmetered (§5.4).
 * Days are UTC.
 */
import { sql } from 'kysely'
import type { VenueUsage } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'

export const utcDay = (d: Date) => d.toISOString().slice(0, 10)

export async function meter(ctx: ServiceContext, venueId: string, kind: 'reads' | 'writes'): Promise<void> {
  const day = utcDay(ctx.now())
  await ctx.db
    .insertInto('venue_usage')
    .values({ venue_id: venueId, day, reads: kind === 'reads' ? 1 : 0, writes: kind === 'writes' ? 1 : 0 })
    .onConflict((oc) =>
      oc.columns(['venue_id', 'day']).doUpdateSet(kind === 'reads' ? { reads: sql`venue_usage.reads + 1` } : { writes: sql`venue_usage.writes + 1` }),
    )
    .execute()
}

/** The last `days` UTC days that saw traffic, newest first. */
export async function usageOf(ctx: ServiceContext, venueId: string, days: number): Promise<VenueUsage> {
  const since = utcDay(new Date(ctx.now().getTime() - (days - 1) * 86_400_000))
  const rows = await ctx.db
    .selectFrom('venue_usage')
    .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'reads', 'writes'])
    .where('venue_id', '=', venueId)
    .where('day', '>=', since)
    .orderBy('day', 'desc')
    .execute()
  return { venueId, days: rows.map((r) => ({ day: r.day, reads: r.reads, writes: r.writes })) }
}
