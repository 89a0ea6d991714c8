/** What the service does when the chain moves: a resolution settles records (in its transaction), then wakes the threads; so does a market's update. */
import type { ServiceContext } from '../context.ts'
import type { FixtureChain } from '../chain/fixture.ts'
import { recomputeRecordsForMarket } from './records.ts'
import { publishThreads } from './thread-events.ts'

export function wireChainHooks(ctx: ServiceContext, chain: FixtureChain) {
  chain.onSettle = (tx, marketId) => recomputeRecordsForMarket(ctx, marketId, tx)
  // A resolution settles receipts, and a new title, close time or labels changes what they show, in every thread
  // on the market: the public one and each room's.
  chain.onResolved = chain.onUpdated = async (marketId) => {
    const rooms = await ctx.db
      .selectFrom('posts')
      .select(['room_id', 'room_private'])
      .distinct()
      .where('subject_type', '=', 'event')
      .where('subject_ref', '=', marketId.toLowerCase())
      .where('room_id', 'is not', null)
      .execute()
    await publishThreads(ctx, [{ subject_type: 'event', subject_ref: marketId }, ...rooms.map((r) => ({ subject_type: 'event', subject_ref: marketId, ...r }))])
  }
}
