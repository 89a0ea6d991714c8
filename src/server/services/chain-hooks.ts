/** What the service does when the chain moves: a resolution settles records and wakes the threads. */
import type { ServiceContext } from '../context.ts'
import type { FixtureChain } from '../chain/fixture.ts'
import { recomputeRecordsForMarket } from './records.ts'
import { publishThreads } from './thread-events.ts'

export function wireChainHooks(ctx: ServiceContext, chain: FixtureChain) {
  chain.onResolved = async (marketId) => {
    await recomputeRecordsForMarket(ctx, marketId)
    await publishThreads(ctx, [{ subject_type: 'event', subject_ref: marketId }])
  }
}
