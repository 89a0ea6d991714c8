/**
 * Market verdict tallies (§2.12 `<MarketVerdict>`): among the market's holders — accounts (or bare
 * wallets) with a position above zero; wallets linked to one account are one holder — how many were
 * right, wrong or undecided.
 * - A holder's side is the side of their largest position (the stance's rule, except for ties): a holder whose
 *   largest positions tie across sides has no side and is undecided.
 * - Unresolved (and CLOB, which has no results, §3.2): every holder is undecided.
 * - Voided: no winner; every holder's verdict is null — undecided, never wrong — and `void` is true.
 * - A market nobody held (or an unknown market) has no tally: null.
 */
import type { Verdict } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'

export async function verdictsFor(ctx: ServiceContext, marketIds: string[]): Promise<Record<string, Verdict | null>> {
  const ids = [...new Set(marketIds.map((i) => i.toLowerCase()))]
  const out: Record<string, Verdict | null> = {}
  for (const id of ids) out[id] = null
  if (!ids.length) return out
  const markets = await ctx.chain.markets(ids)
  const rows = await ctx.db
    .selectFrom('positions as p')
    .leftJoin('wallets as w', 'w.address', 'p.wallet')
    .select(['p.market_id', 'p.wallet', 'w.account_id', 'p.side', 'p.size'])
    .where('p.market_id', 'in', ids)
    .where('p.size', '>', '0')
    .execute()
  // market -> holder -> side -> size
  const held = new Map<string, Map<string, Map<number, bigint>>>()
  for (const r of rows) {
    const holder = r.account_id ?? `w:${r.wallet}`
    const byHolder = held.get(r.market_id) ?? new Map<string, Map<number, bigint>>()
    held.set(r.market_id, byHolder)
    const sides = byHolder.get(holder) ?? new Map<number, bigint>()
    byHolder.set(holder, sides)
    sides.set(r.side, (sides.get(r.side) ?? 0n) + BigInt(String(r.size).split('.')[0]))
  }
  for (const id of ids) {
    const m = markets.get(id)
    const byHolder = held.get(id)
    if (!m || !byHolder || !byHolder.size) continue
    const result = m.result
    const v: Verdict = { marketId: id, right: 0, wrong: 0, undecided: 0, void: !!result && 'void' in result, holders: byHolder.size, settled: !!result }
    for (const sides of byHolder.values()) {
      const sorted = [...sides.entries()].sort((a, b) => (b[1] > a[1] ? 1 : b[1] < a[1] ? -1 : a[0] - b[0]))
      const tied = sorted.length > 1 && sorted[0][1] === sorted[1][1]
      if (!result || 'void' in result || tied) v.undecided++
      else if (sorted[0][0] === result.winner) v.right++
      else v.wrong++
    }
    out[id] = v
  }
  return out
}
