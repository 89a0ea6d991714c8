/** Id helpers shared by the service and the clients. */
import { isMarketId, isWallet } from '../contract/ids.ts'

/** Lowercases a market id; returns null when it is not a condition id. */
export function normalizeMarketId(id: unknown): string | null {
  return isMarketId(id) ? id.toLowerCase() : null
}

/** Lowercases a wallet address; returns null when it is not one. */
export function normalizeWallet(w: unknown): string | null {
  return isWallet(w) ? w.toLowerCase() : null
}

/** Lowercased, deduplicated, sorted: the cache key of a set of ids. */
export function idSetKey(ids: readonly string[]): string[] {
  return [...new Set(ids.map((i) => i.toLowerCase()))].sort()
}

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'
let lastMs = 0
let seq = 0

/**
 * A time-ordered id: 9 base-36 characters of milliseconds, 3 of a per-process
 * sequence, then random characters. Ids sort by creation time as strings.
 */
export function timeId(prefix: string, now = Date.now()): string {
  if (now <= lastMs) {
    seq++
    now = lastMs
  } else {
    lastMs = now
    seq = 0
  }
  const t = now.toString(36).padStart(9, '0')
  const s = (seq % 46656).toString(36).padStart(3, '0')
  const bytes = new Uint8Array(8)
  crypto.getRandomValues(bytes)
  let r = ''
  for (const b of bytes) r += ALPHABET[b % 36]
  return `${prefix}${t}${s}${r}`
}

/** Random hex of `bytes` bytes. */
export function randomHex(bytes: number): string {
  const a = new Uint8Array(bytes)
  crypto.getRandomValues(a)
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('')
}
