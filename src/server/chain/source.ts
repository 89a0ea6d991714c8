/**
 * The chain source: where markets, side prices, positions and trades come from. The service reads the
 * stance from it when a post is written and freezes it on the post. The fixture implementation keeps
 * its state in the service's own tables so that every instance over one database sees the same chain.
 */
import type { Market, MarketResult, NodeRef, OutcomeLabel, Stance } from '../../contract/types.ts'

export interface HeldPosition {
  side: number
  /** Base units, decimal string. */
  size: string
}

/** What a post's stance is read from, in one read (posts.ts createPost). */
export interface StanceFacts {
  /** The market itself, or null when no market has this id (then nothing else is set). */
  market: Market | null
  /** The largest position any of the wallets holds on the market (ties: the lower side), or null. */
  position: HeldPosition | null
  /** The price of that position's side in basis points, or null when unknown or without a position. */
  priceBps: number | null
  /** The market has resolved (a post written now is a comment, whatever the wallets hold). */
  resolved: boolean
}

/**
 * The stance a post written now carries (§1.4): the largest position and that side's price. It is proof of a
 * position held while the market is still open: after resolution a post is a comment.
 */
export const provenStance = (f: StanceFacts): Stance | null =>
  !f.resolved && f.position ? { side: f.position.side, size: f.position.size, priceBps: f.priceBps } : null

export interface ChainSource {
  /** Markets by lowercased id; unknown ids are absent. */
  markets(ids: string[]): Promise<Map<string, Market>>
  /** The largest position any of these wallets holds on the market, or null. */
  positionOf(wallets: string[], marketId: string): Promise<HeldPosition | null>
  /** The market, the position, its side's price and the market's resolution together: one read on every post write. */
  stanceOf(wallets: string[], marketId: string): Promise<StanceFacts>
  /** Price of one side in basis points, or null when unknown. */
  priceOf(marketId: string, side: number): Promise<number | null>
}

export interface MarketInput {
  id: string
  title: string
  outcomes?: OutcomeLabel[]
  nodes?: NodeRef[]
  /** The node records are read at; defaults to the first category node, else the first node. */
  facet?: NodeRef | null
  series?: string | null
  clob?: boolean
  closesAt?: string | Date | null
  decimals?: number | null
}

/**
 * What a market may change once it is added: its title, its close time (null: none) and its outcomes' labels (the
 * same number of outcomes). Its nodes, facet, series, CLOB flag and decimals are fixed: posts are placed, and
 * records and amounts read, by them.
 */
export interface MarketPatch {
  title?: string
  closesAt?: string | Date | null
  outcomes?: OutcomeLabel[]
}

/** What tests and the demo drive (DESIGN.md: `svc.chain`). */
export interface ChainController {
  addMarket(m: MarketInput): Promise<Market>
  /** Changes a market's title, close time or outcome labels; its threads hear the change. */
  updateMarket(marketId: string, patch: MarketPatch): Promise<Market>
  setPrice(marketId: string, side: number, priceBps: number): Promise<void>
  setPosition(wallet: string, marketId: string, side: number, size: bigint | number | string): Promise<void>
  trade(t: { wallet: string; marketId: string; side: number; size: bigint | number | string; priceBps?: number; at?: Date }): Promise<void>
  resolve(marketId: string, outcome: number | 'void'): Promise<void>
}

export type { Market, MarketResult }
