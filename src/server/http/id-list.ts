/**
 * Comma-separated id lists in a query string (`ids=a,b`, `wallets=a,b`): every entry is checked,
 * entries are lowercased and deduplicated (order of first appearance kept), and the distinct count is
 * capped. Failures are 400 naming the parameter and the offending entry.
 */
import { MARKET_ID_RE, WALLET_RE } from '../../contract/ids.ts'
import { LIMITS } from '../../contract/limits.ts'
import { ApiError } from './errors.ts'

export interface IdListRule {
  /** Query parameter name, for messages. */
  param: string
  /** What one entry must be, e.g. 'a market id (0x and 64 hex characters)'. */
  what: string
  re: RegExp
  max: number
  /** Plural noun for the cap message, e.g. 'market ids'. */
  noun: string
}

export function parseIdList(raw: string | undefined, rule: IdListRule): string[] {
  if (raw === undefined) throw new ApiError(400, 'validation-failed', `'${rule.param}' is required: a comma-separated list of ${rule.noun}`, { param: rule.param })
  const out = new Set<string>()
  for (const part of raw.split(',')) {
    const entry = part.trim()
    if (!entry) throw new ApiError(400, 'validation-failed', `'${rule.param}' has an empty entry; give a comma-separated list of ${rule.noun}`, { param: rule.param })
    if (!rule.re.test(entry)) {
      const shown = entry.length > 80 ? `${entry.slice(0, 80)}…` : entry
      throw new ApiError(400, 'validation-failed', `'${rule.param}' entry '${shown}' is not ${rule.what}`, { param: rule.param })
    }
    out.add(entry.toLowerCase())
    if (out.size > rule.max) {
      throw new ApiError(400, 'too-many-ids', `'${rule.param}' names more than ${rule.max} ${rule.noun}; split the request`, { param: rule.param, max: rule.max })
    }
  }
  return [...out]
}

/** `ids=`: market ids, at most `max` distinct per request. */
export const marketIds = (raw: string | undefined, max: number): string[] =>
  parseIdList(raw, { param: 'ids', what: 'a market id (0x and 64 hex characters)', re: MARKET_ID_RE, max, noun: 'market ids' })

/** `wallets=`: wallet addresses, at most LIMITS.walletsPerBatch distinct per request. */
export const walletList = (raw: string | undefined): string[] =>
  parseIdList(raw, { param: 'wallets', what: 'a wallet address (0x and 40 hex characters)', re: WALLET_RE, max: LIMITS.walletsPerBatch, noun: 'wallets' })
