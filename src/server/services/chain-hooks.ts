/** What the service does when the chain moves: a resolution settles records and wakes the threads. */
import type { ServiceContext } from '../context.ts'
import type { FixtureChain } from '../chain/fixture.ts'
import { threadTopic } from '../../contract/paths.ts'
import { recomputeRecordsForMarket } from './records.ts'

export function wireChainHooks(ctx: ServiceContext, chain: FixtureChain) {
  chain.onResolved = async (marketId) => {
    await recomputeRecordsForMarket(ctx, marketId)
    await ctx.bus.publish(threadTopic('event', marketId))
  }
}
