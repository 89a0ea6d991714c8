/** Market helpers shared by the service and the clients (§2.12, §7 other rules). */
import type { Market, NodeRef, OutcomeLabel } from '../contract/types.ts'

/** What a tap target shows: `displayLabel` (Above / Below on binary price-threshold markets) over `label`. */
export const displayLabel = (o: OutcomeLabel): string => o.displayLabel ?? o.label

/** Label of one side of a market, or null when the market or side is unknown. */
export function sideLabel(outcomes: OutcomeLabel[] | undefined, side: number): string | null {
  const o = outcomes?.[side]
  return o ? displayLabel(o) : null
}

/** The node to read a record at: the market's own node, never the venue's. */
export function nodeFacetOf(market: Pick<Market, 'facet'>): NodeRef | null {
  return market.facet ?? null
}

/**
 * Whether a trade can go through now. Un-resolved does not mean tradeable: a market past its closing
 * time, or with no known closing time, is not tradeable either.
 */
export function isTradeable(market: Pick<Market, 'result' | 'closesAt'> & { resolvedAt?: string | null }, now = Date.now()): boolean {
  if (market.result || market.resolvedAt) return false
  if (!market.closesAt) return false
  return new Date(market.closesAt).getTime() > now
}

export type SellAnswer = boolean | null | undefined
export type SellGateResult = { allowed: true; by: 'adapter' | 'platform' } | { allowed: false; reason: 'refused' | 'unknown' }

/**
 * The sell gate: asks the checkout adapter, then the platform. A definite answer from either decides.
 * When neither can answer (null, undefined, or a throw), it refuses: it never fails open.
 */
export async function sellGate(ask: { adapter?: () => SellAnswer | Promise<SellAnswer>; platform?: () => SellAnswer | Promise<SellAnswer> }): Promise<SellGateResult> {
  for (const by of ['adapter', 'platform'] as const) {
    const fn = ask[by]
    if (!fn) continue
    let a: SellAnswer
    try {
      a = await fn()
    } catch {
      a = null
    }
    if (a === true) return { allowed: true, by }
    if (a === false) return { allowed: false, reason: 'refused' }
  }
  return { allowed: false, reason: 'unknown' }
}
