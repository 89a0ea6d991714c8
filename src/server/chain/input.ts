/**
 * What the chain controller (`svc.chain`, and the dev routes that drive it over HTTP) accepts. Every call checks
 * its input before it writes anything, and answers bad input with a `ChainInputError` naming the field, so a
 * venue's indexer that feeds the service gets a clear error, never a database's.
 */
import { isNodeType, NODE_REF_RE } from '../../contract/ids.ts'
import type { NodeRef, OutcomeLabel } from '../../contract/types.ts'
import { normalizeMarketId, normalizeWallet } from '../../core/ids.ts'
import type { MarketInput, MarketPatch } from './source.ts'

/** The outcomes of a market added without any. */
export const DEFAULT_OUTCOMES: readonly OutcomeLabel[] = [{ label: 'Yes' }, { label: 'No' }]

export const MARKET_LIMITS = { title: 200, minOutcomes: 2, maxOutcomes: 16, label: 80, displayLabel: 40, nodes: 20, decimals: 36, maxBps: 10_000 } as const

/**
 * Bad input to the chain controller. `kind`: `invalid` (a field's value), `not-found` (no market with this id),
 * `exists` (a market with this id was already added). Nothing was written.
 */
export class ChainInputError extends Error {
  override name = 'ChainInputError'
  constructor(
    readonly kind: 'invalid' | 'not-found' | 'exists',
    /** The field at fault. */
    readonly param: string,
    /** What is wrong with it, after its name. */
    readonly detail: string,
  ) {
    super(`${param} ${detail}`)
  }
}

const invalid = (param: string, detail: string): never => {
  throw new ChainInputError('invalid', param, detail)
}

function text(v: unknown, param: string, max: number): string {
  const t = typeof v === 'string' ? v.trim() : ''
  if (!t) invalid(param, 'must be a non-empty string')
  if (t.length > max) invalid(param, `must be at most ${max} characters`)
  return t
}

function node(v: unknown, param: string): NodeRef {
  const n = v as Partial<NodeRef> | null
  if (!n || typeof n !== 'object' || !isNodeType(n.type) || typeof n.ref !== 'string' || !NODE_REF_RE.test(n.ref))
    invalid(param, 'must be a node { type, ref } (lowercase key: letters, digits, . _ : -)')
  return { type: n!.type!, ref: n!.ref! }
}

export function marketIdOf(v: unknown, param = 'marketId'): string {
  return normalizeMarketId(v) ?? invalid(param, 'must be a market id (0x and 64 hex characters)')
}

export function walletOf(v: unknown): string {
  return normalizeWallet(v) ?? invalid('wallet', 'must be a wallet address (0x and 40 hex characters)')
}

/** An outcome index of a market with `count` outcomes. */
export function sideOf(v: unknown, count: number, param = 'side'): number {
  if (!Number.isInteger(v) || (v as number) < 0 || (v as number) >= count) invalid(param, `must be an outcome index below ${count}`)
  return v as number
}

export function bpsOf(v: unknown, param = 'priceBps'): number {
  if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > MARKET_LIMITS.maxBps) invalid(param, 'must be whole basis points from 0 to 10000')
  return v as number
}

/** Base units: a bigint, a safe whole number or a decimal string of digits, at least `min`. */
export function sizeOf(v: unknown, min: bigint): bigint {
  const ok =
    typeof v === 'bigint' || (typeof v === 'number' && Number.isSafeInteger(v)) || (typeof v === 'string' && /^\d{1,78}$/.test(v))
  const n = ok ? BigInt(v as bigint | number | string) : -1n
  if (n < min) invalid('size', min > 0n ? 'must be base units above 0' : 'must be base units: a whole number from 0')
  return n
}

function outcomesOf(given: unknown): OutcomeLabel[] {
  if (!Array.isArray(given) || given.length < MARKET_LIMITS.minOutcomes || given.length > MARKET_LIMITS.maxOutcomes)
    invalid('outcomes', `must list ${MARKET_LIMITS.minOutcomes} to ${MARKET_LIMITS.maxOutcomes} outcomes`)
  return (given as Partial<OutcomeLabel>[]).map((o, i): OutcomeLabel => {
    const label = text(o?.label, `outcomes[${i}].label`, MARKET_LIMITS.label)
    return o.displayLabel === undefined ? { label } : { label, displayLabel: text(o.displayLabel, `outcomes[${i}].displayLabel`, MARKET_LIMITS.displayLabel) }
  })
}

function closesAtOf(v: string | Date | null | undefined): Date | null {
  const at = v == null ? null : new Date(v)
  if (at && Number.isNaN(at.getTime())) invalid('closesAt', 'must be a date')
  return at
}

/** The fields of a market patch, checked against the market (`count`: its outcomes); fields it may not change are named. */
export function patchOf(p: MarketPatch, count: number) {
  if (!p || typeof p !== 'object') invalid('patch', 'must be an object of title, closesAt and outcomes')
  for (const k of Object.keys(p)) if (!['title', 'closesAt', 'outcomes'].includes(k)) invalid(k, 'cannot change once the market is added')
  const outcomes = p.outcomes === undefined ? undefined : outcomesOf(p.outcomes)
  if (outcomes && outcomes.length !== count) invalid('outcomes', `must keep the market's ${count} outcomes (only their labels change)`)
  return {
    title: p.title === undefined ? undefined : text(p.title, 'title', MARKET_LIMITS.title),
    closesAt: p.closesAt === undefined ? undefined : closesAtOf(p.closesAt),
    outcomes,
  }
}

/** A market to add, checked and filled in: the row the fixture writes, and its nodes (series included, no repeats). */
export function marketOf(m: MarketInput) {
  const id = marketIdOf(m?.id, 'id')
  const title = text(m.title, 'title', MARKET_LIMITS.title)
  const outcomes = outcomesOf(m.outcomes ?? DEFAULT_OUTCOMES)
  const listed = m.nodes ?? []
  if (!Array.isArray(listed) || listed.length > MARKET_LIMITS.nodes) invalid('nodes', `must list at most ${MARKET_LIMITS.nodes} nodes`)
  const nodes = listed.map((n, i) => node(n, `nodes[${i}]`))
  const series = m.series == null ? null : node({ type: 'series', ref: m.series }, 'series').ref
  if (series) nodes.push({ type: 'series', ref: series })
  const uniq = [...new Map(nodes.map((n) => [`${n.type}:${n.ref}`, n])).values()]
  const facet = m.facet === undefined ? (uniq.find((n) => n.type === 'category') ?? uniq[0] ?? null) : m.facet === null ? null : node(m.facet, 'facet')
  const closesAt = closesAtOf(m.closesAt)
  const decimals = m.decimals === undefined ? 6 : m.decimals
  if (decimals !== null && (!Number.isInteger(decimals) || decimals < 0 || decimals > MARKET_LIMITS.decimals))
    invalid('decimals', `must be a whole number from 0 to ${MARKET_LIMITS.decimals}`)
  return { id, title, outcomes, nodes: uniq, facet, series, clob: !!m.clob, closesAt, decimals }
}
