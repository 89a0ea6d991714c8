/**
 * Collateral maths in bigint (§2.12). Balances round down, spent amounts round up. Every function
 * answers null when the decimals are unknown: never assume 18.
 */
import { cached } from './cached.ts'

export type Decimals = number | null | undefined

const known = (d: Decimals): d is number => typeof d === 'number' && Number.isInteger(d) && d >= 0 && d <= 36
const pow10 = (n: number) => 10n ** BigInt(n)

/** Whole units held, rounded down (a balance never shows more than is there). */
export function wholeUnits(units: bigint, decimals: Decimals): bigint | null {
  if (!known(decimals)) return null
  const base = pow10(decimals)
  const q = units / base
  return units < 0n && q * base !== units ? q - 1n : q
}

/** Whole units spent, rounded up (a cost never shows less than it is). */
export function wholeUnitsUp(units: bigint, decimals: Decimals): bigint | null {
  if (!known(decimals)) return null
  const base = pow10(decimals)
  const q = units / base
  return units > 0n && q * base !== units ? q + 1n : q
}

/** Parses a decimal amount ("12.5") into base units. Refuses more fraction digits than the token has. */
export function unitsToWei(amount: string, decimals: Decimals): bigint | null {
  if (!known(decimals)) return null
  const m = /^(-)?(\d+)(?:\.(\d+))?$/.exec(amount.trim())
  if (!m) throw new RangeError(`not a decimal amount: ${JSON.stringify(amount)}`)
  const frac = m[3] ?? ''
  if (frac.length > decimals) throw new RangeError(`${amount} has more than ${decimals} decimal places`)
  const v = BigInt(m[2]) * pow10(decimals) + BigInt((frac || '0').padEnd(decimals, '0'))
  return m[1] ? -v : v
}

/** Rounds base units to `digits` fraction digits as an exact decimal string, down or up. */
function toDecimalString(units: bigint, decimals: number, digits: number, round: 'down' | 'up'): string {
  const keep = Math.min(digits, decimals)
  const step = pow10(decimals - keep)
  let q = units / step
  const exact = q * step === units
  if (!exact) {
    if (round === 'down' && units < 0n) q -= 1n
    if (round === 'up' && units > 0n) q += 1n
  }
  const neg = q < 0n
  const s = (neg ? -q : q).toString().padStart(keep + 1, '0')
  const int = s.slice(0, s.length - keep)
  const frac = keep ? `.${s.slice(s.length - keep)}` : ''
  return `${neg ? '-' : ''}${int}${frac}`
}

export interface FormatOptions {
  /** Fraction digits shown (default 2). */
  digits?: number
  /** `down` for balances (default), `up` for spent amounts. */
  round?: 'down' | 'up'
  locale?: string
}

/** An amount for display, grouped with Intl for the locale; exact (no float conversion). */
export function formatAmount(units: bigint, decimals: Decimals, o: FormatOptions = {}): string | null {
  if (!known(decimals)) return null
  const digits = o.digits ?? 2
  const s = toDecimalString(units, decimals, digits, o.round ?? 'down')
  // The integer part is grouped by Intl (exactly, from a string); the already-rounded fraction is
  // appended after the locale's decimal separator, so any precision stays exact.
  const [int, frac] = s.split('.')
  const { grouping, decimal } = amountFormat(o.locale)
  const grouped = grouping.format(int as unknown as number)
  return frac ? `${grouped}${decimal}${frac}` : grouped
}

/**
 * The integer grouping formatter and the decimal separator of a locale, built once per locale: building
 * an Intl formatter costs far more than using one, and a page formats an amount per take card.
 */
const amountFormats = new Map<string, { grouping: Intl.NumberFormat; decimal: string }>()
const amountFormat = (locale: string | undefined) =>
  cached(amountFormats, locale ?? '', () => ({
    grouping: new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }),
    decimal: new Intl.NumberFormat(locale, { minimumFractionDigits: 1 }).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.',
  }))

/** Currency formatters by locale, currency and digits. */
const moneyFormats = new Map<string, Intl.NumberFormat>()

/** A money label such as "$1,234.50" for collateral in base units; null when decimals are unknown. */
export function moneyLabel(units: bigint, decimals: Decimals, o: FormatOptions & { currency?: string } = {}): string | null {
  if (!known(decimals)) return null
  const digits = Math.min(o.digits ?? 2, decimals, 20)
  const s = toDecimalString(units, decimals, digits, o.round ?? 'down')
  const currency = o.currency ?? 'USD'
  const nf = cached(moneyFormats, `${o.locale ?? ''}|${currency}|${digits}`, () =>
    new Intl.NumberFormat(o.locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }),
  )
  return nf.format(s as unknown as number)
}
