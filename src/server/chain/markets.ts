/** Row ↔ wire mapping for markets. */
import type { Market, MarketResult, NodeRef } from '../../contract/types.ts'

export function parseJson<T>(v: unknown): T {
  return (typeof v === 'string' ? JSON.parse(v) : v) as T
}

export function marketFromRow(r: any): Market {
  const result = parseJson<MarketResult | null>(r.result)
  return {
    id: r.id,
    title: r.title,
    outcomes: parseJson(r.outcomes),
    nodes: parseJson<NodeRef[]>(r.nodes),
    facet: r.facet_type ? { type: r.facet_type, ref: r.facet_ref } : null,
    series: r.series ?? null,
    clob: !!r.clob,
    closesAt: r.closes_at ? new Date(r.closes_at).toISOString() : null,
    decimals: r.decimals ?? null,
    // A CLOB market has no results yet (§3.2): its takes stay open even after it resolves.
    result: r.clob ? null : result ?? null,
  }
}
