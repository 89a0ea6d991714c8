/** Take receipts (§2.5, §3.2), derived from a post and the results of its market. */
import type { MarketResult, Post } from '../contract/types.ts'

export type TakeReceipt =
  | null
  | { state: 'open'; clob: boolean }
  | { state: 'void' }
  | { state: 'wrong' }
  | { state: 'right'; oddsBeatenBps: number | null }

/**
 * `null` for a post without a stance; `open` while unresolved (`clob: true` marks a CLOB take, which has
 * no results yet and must not read as a confident 'still open'); `void`; `wrong`; `right` with odds beaten.
 */
export function takeReceipt(
  post: Pick<Post, 'stance' | 'subjectType' | 'subjectRef'>,
  results: Record<string, MarketResult | undefined>,
  opts: { clob?: boolean } = {},
): TakeReceipt {
  if (!post.stance) return null
  const result = post.subjectType === 'event' ? results[post.subjectRef.toLowerCase()] : undefined
  if (!result) return { state: 'open', clob: !!opts.clob }
  if ('void' in result) return { state: 'void' }
  if (result.winner !== post.stance.side) return { state: 'wrong' }
  const price = post.stance.priceBps
  return { state: 'right', oddsBeatenBps: price == null ? null : 10_000 - price }
}
