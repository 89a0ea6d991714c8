/**
 * Collateral maths in bigint (§2.12). Balances round down, spent amounts round up. Every function
 * answers null when the decimals are unknown: never assume 18.
 */
import { cached } from './cached.ts'

export type Decimals = number | null | undefined

const known = (d: Decimals): d is number => typeof d === 'number' && Number.isInteger(d) && d >= 0 && d <= 36
const pow10 = (n: number) => 10n ** BigInt(n)

/** Base units as given: a bigint, or the wire's integer string (a stance's `size`). Anything else is a TypeError. */
export type Units = bigint | string
function toUnits(units: Units): bigint {
  if (typeof units === 'bigint' || /^-?\d+$/.test(units)) return BigInt(units)
  throw new TypeError(`units must be a bigint or an integer string, not ${String(units).slice(0, 40)}`)
}

/** Fraction digits to show: a whole number from 0 (default 2). Anything else is a RangeError. */
function fractionDigits(digits: number | undefined): number {
  const d = digits ?? 2
  if (!Number.isInteger(d) || d < 0) throw new RangeError(`digits must be a whole number from 0, not ${digits}`)
  return d
}

/** Whole units held, rounded down (a balance never shows more than is there). */
export function wholeUnits(amount: Units, decimals: Decimals): bigint | null {
  if (!known(decimals)) return null
  const units = toUnits(amount)
  const base = pow10(decimals)
  const q = units / base
  return units < 0n && q * base !== units ? q - 1n : q
}

/** Whole units spent, rounded up (a cost never shows less than it is). */
export function wholeUnitsUp(amount: Units, decimals: Decimals): bigint | null {
  if (!known(decimals)) return null
  const units = toUnits(amount)
  const base = pow10(decimals)
  const q = units / base
  return units > 0n && q * base !== units ? q + 1n : q
}

/**
 * Parses a decimal amount ("12.5") into base units. Refuses more fraction digits than the token has (trailing
 * zeros aside: "1.50" is 1.5).
 */
export function unitsToWei(amount: string, decimals: Decimals): bigint | null {
  if (!known(decimals)) return null
  const m = typeof amount === 'string' ? /^(-)?(\d+)(?:\.(\d+))?$/.exec(amount.trim()) : null
  if (!m) throw new RangeError(`not a decimal amount: ${JSON.stringify(amount)}`)
  const frac = (m[3] ?? '').replace(/0+$/, '')
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

/**
 * Rounds `units` to the fraction digits asked for (at most the token's, and at most 20: what Intl formats
 * everywhere), and formats that exact decimal string (never a float) with the formatter `make` gives for them.
 */
function formatUnits(units: Units, decimals: number, o: FormatOptions, key: string, make: (digits: number) => Intl.NumberFormat): string {
  const digits = Math.min(fractionDigits(o.digits), decimals, 20)
  const s = toDecimalString(toUnits(units), decimals, digits, o.round ?? 'down')
  return cached(formats, `${o.locale ?? ''}|${key}|${digits}`, () => make(digits)).format(s as unknown as number)
}
/** Formatters by locale, kind and digits: building one costs far more than using one, and a page formats an amount per take card. */
const formats = new Map<string, Intl.NumberFormat>()

/**
 * An amount for display, formatted with Intl for the locale: its grouping, separator and digits (Arabic-Indic in
 * `ar-EG`); exact, from the decimal string.
 */
export function formatAmount(units: Units, decimals: Decimals, o: FormatOptions = {}): string | null {
  if (!known(decimals)) return null
  return formatUnits(units, decimals, o, '', (digits) => new Intl.NumberFormat(o.locale, { minimumFractionDigits: digits, maximumFractionDigits: digits }))
}

/** A money label such as "$1,234.50" for collateral in base units; null when decimals are unknown. */
export function moneyLabel(units: Units, decimals: Decimals, o: FormatOptions & { currency?: string } = {}): string | null {
  if (!known(decimals)) return null
  const currency = o.currency ?? 'USD'
  return formatUnits(units, decimals, o, currency, (digits) => new Intl.NumberFormat(o.locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits }))
}
