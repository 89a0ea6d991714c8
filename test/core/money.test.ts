/** §2.12 collateral maths: "balances round down, spent amounts round up; moneyLabel returns null when decimals are unknown (never assume 18)". */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { formatAmount, moneyLabel, unitsToWei, wholeUnits, wholeUnitsUp } from '../../src/core/money.ts'

const units = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n })
const decimals = fc.integer({ min: 0, max: 24 })

describe('money', () => {
  it('"balances round down": wholeUnits(u) * 10^d <= u < (wholeUnits(u) + 1) * 10^d', () => {
    fc.assert(
      fc.property(units, decimals, (u, d) => {
        const w = wholeUnits(u, d)!
        const b = 10n ** BigInt(d)
        return w * b <= u && u < (w + 1n) * b
      }),
      { numRuns: 2000 },
    )
  })

  it('"spent amounts round up": (wholeUnitsUp(u) - 1) * 10^d < u <= wholeUnitsUp(u) * 10^d', () => {
    fc.assert(
      fc.property(units, decimals, (u, d) => {
        const w = wholeUnitsUp(u, d)!
        const b = 10n ** BigInt(d)
        return (w - 1n) * b < u && u <= w * b
      }),
      { numRuns: 2000 },
    )
  })

  it('"moneyLabel returns null when decimals are unknown (never assume 18)"', () => {
    for (const d of [null, undefined, NaN, -1, 1.5, 99]) {
      assert.equal(moneyLabel(10n ** 18n, d as any), null)
      assert.equal(wholeUnits(1n, d as any), null)
      assert.equal(wholeUnitsUp(1n, d as any), null)
      assert.equal(formatAmount(1n, d as any), null)
      assert.equal(unitsToWei('1', d as any), null)
    }
    assert.equal(moneyLabel(1_500_000n, 6, { locale: 'en-US' }), '$1.50')
  })

  it('unitsToWei and formatAmount round-trip exactly at full precision (no float loss), up to 20 fraction digits (what Intl formats; more are rounded to 20 the same way)', () => {
    assert.equal(formatAmount(10n ** 24n - 1n, 24, { digits: 24, locale: 'en-US' }), '0.99999999999999999999')
    assert.equal(formatAmount(1n, 24, { digits: 24, round: 'up', locale: 'en-US' }), '0.00000000000000000001')
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 20 }), (u, d) => {
        const s = formatAmount(u, d, { digits: d, locale: 'en-US' })!.replaceAll(',', '')
        return unitsToWei(s, d) === u
      }),
      { numRuns: 1000 },
    )
  })

  it('formatAmount and moneyLabel keep each locale\'s own grouping, separator and currency, whichever formatted first (formatters are kept per locale)', () => {
    const amount = 1_234_567_890_000n
    const expected: Record<string, string> = { 'en-US': '1,234,567.89', 'de-DE': '1.234.567,89', 'fr-FR': '1\u202f234\u202f567,89', 'hi-IN': '12,34,567.89' }
    for (const order of [Object.keys(expected), Object.keys(expected).reverse()])
      for (const locale of order) assert.equal(formatAmount(amount, 6, { locale }), expected[locale], locale)
    // moneyLabel keeps each locale, currency and precision apart the same way.
    assert.equal(moneyLabel(1_234_500_000n, 6, { locale: 'en-US' }), '$1,234.50')
    assert.equal(moneyLabel(1_234_500_000n, 6, { locale: 'de-DE', currency: 'EUR' }), '1.234,50\u00a0€')
    assert.equal(moneyLabel(1_234_500_000n, 6, { locale: 'en-US', digits: 0 }), '$1,234')
    assert.equal(moneyLabel(1_234_500_000n, 6, { locale: 'en-US', currency: 'EUR' }), '€1,234.50')
    // The page's default locale (none given) is its own entry, not whichever locale came last.
    assert.equal(formatAmount(amount, 6), formatAmount(amount, 6, { locale: new Intl.NumberFormat().resolvedOptions().locale }))
  })

  it('formatAmount rounds a balance down and a spent amount up, and groups with Intl for the locale', () => {
    assert.equal(formatAmount(1_999_999n, 6, { locale: 'en-US' }), '1.99')
    assert.equal(formatAmount(1_000_001n, 6, { round: 'up', locale: 'en-US' }), '1.01')
    assert.equal(formatAmount(1_234_567_000_000n, 6, { locale: 'en-US' }), '1,234,567.00')
    assert.equal(formatAmount(1_234_567_000_000n, 6, { locale: 'de-DE' }), '1.234.567,00')
    assert.equal(moneyLabel(1_999_999n, 6, { locale: 'en-US' }), '$1.99')
    assert.equal(moneyLabel(1_000_001n, 6, { locale: 'en-US', round: 'up' }), '$1.01')
  })

  it('formatAmount writes the whole amount in the locale\'s own digits (one numbering system, as moneyLabel)', () => {
    assert.equal(formatAmount(1_234_567_891n, 6, { locale: 'ar-EG' }), '١٬٢٣٤٫٥٦')
    assert.equal(formatAmount(1_234_567_891n, 6, { locale: 'hi-IN-u-nu-deva' }), '१,२३४.५६')
    for (const locale of ['ar-EG', 'fa', 'hi-IN-u-nu-deva', 'th-TH-u-nu-thai']) {
      const shown = formatAmount(1_234_567_891n, 6, { locale })!
      assert.doesNotMatch(shown, /[0-9]/, `${locale}: ${shown} mixes in ASCII digits`)
    }
  })

  it('bad input is a clear error, never a wrong number: digits a whole number from 0; units a bigint or an integer string (the wire\'s stance size)', () => {
    for (const digits of [-1, 1.5, Number.NaN]) {
      assert.throws(() => formatAmount(5_000_000n, 6, { digits }), { name: 'RangeError', message: `digits must be a whole number from 0, not ${digits}` })
      assert.throws(() => moneyLabel(5_000_000n, 6, { digits }), { name: 'RangeError', message: `digits must be a whole number from 0, not ${digits}` })
    }
    assert.equal(wholeUnits('1000000', 6), 1n)
    assert.equal(wholeUnitsUp('1000001', 6), 2n)
    assert.equal(formatAmount('2500000', 6, { locale: 'en-US' }), '2.50')
    for (const bad of ['1.5', 'abc', '', ' 1', {} as never]) assert.throws(() => wholeUnits(bad, 6), TypeError, String(bad))
  })

  it('"balances round down, spent amounts round up" holds for negative amounts too: formatAmount shows, with its sign, the nearest amount at or below (down) or at or above (up) at the digits asked for — read back exactly by unitsToWei — and at 0 digits it agrees with wholeUnits / wholeUnitsUp', () => {
    const shown = (u: bigint, d: number, o: { digits: number; round?: 'down' | 'up' }) => formatAmount(u, d, { ...o, locale: 'en-US' })!.replaceAll(',', '')
    fc.assert(
      fc.property(units, fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 20 }), (u, d, k) => {
        const step = 10n ** BigInt(d - Math.min(k, d))
        const down = unitsToWei(shown(u, d, { digits: k }), d)!
        const up = unitsToWei(shown(u, d, { digits: k, round: 'up' }), d)!
        return (
          down <= u &&
          u < down + step &&
          up - step < u &&
          u <= up &&
          shown(u, d, { digits: 0 }) === String(wholeUnits(u, d)) &&
          shown(u, d, { digits: 0, round: 'up' }) === String(wholeUnitsUp(u, d))
        )
      }),
      { numRuns: 2000 },
    )
  })

  it('negative amounts keep their sign: unitsToWei reads a leading "-" (and refuses any other place or form of it); formatAmount and moneyLabel write it, a balance rounded down (-1.000001 shows -1.01), a spent amount up (-1.00), never "-0.00"', () => {
    assert.equal(unitsToWei('-1.5', 6), -1_500_000n)
    assert.equal(unitsToWei('-0.000001', 6), -1n)
    assert.equal(unitsToWei(' -12.50 ', 2), -1250n)
    assert.equal(unitsToWei('-0', 6), 0n)
    assert.throws(() => unitsToWei('-1.0000001', 6), RangeError)
    for (const bad of ['--1', '- 1', '-', '-.5', '+1', '1-', '\u22121']) assert.throws(() => unitsToWei(bad, 6), RangeError, bad)
    assert.equal(formatAmount(-1_500_000n, 6, { locale: 'en-US' }), '-1.50')
    assert.equal(formatAmount('-2500000', 6, { locale: 'en-US' }), '-2.50')
    assert.equal(formatAmount(-1_000_001n, 6, { locale: 'en-US' }), '-1.01')
    assert.equal(formatAmount(-1_000_001n, 6, { round: 'up', locale: 'en-US' }), '-1.00')
    assert.equal(formatAmount(-1n, 6, { locale: 'en-US' }), '-0.01')
    assert.equal(formatAmount(-1n, 6, { round: 'up', locale: 'en-US' }), '0.00')
    assert.equal(formatAmount(-1_234_567_890_000n, 6, { locale: 'de-DE' }), '-1.234.567,89')
    assert.equal(moneyLabel(-1_500_000n, 6, { locale: 'en-US' }), '-$1.50')
    assert.equal(moneyLabel(-1_000_001n, 6, { locale: 'en-US', round: 'up' }), '-$1.00')
    assert.equal(unitsToWei(formatAmount(-123_456_789n, 6, { digits: 6, locale: 'en-US' })!, 6), -123_456_789n)
  })

  it('unitsToWei refuses more fraction digits than the token has and non-numbers', () => {
    assert.equal(unitsToWei('1.5', 6), 1_500_000n)
    // Trailing zeros are not more precision: "1.50" at one decimal is 1.5.
    assert.equal(unitsToWei('1.50', 1), 15n)
    assert.equal(unitsToWei('1.0', 0), 1n)
    assert.throws(() => unitsToWei('1.05', 1), RangeError)
    assert.throws(() => unitsToWei(5 as never, 6), RangeError)
    assert.throws(() => unitsToWei('1.1234567', 6), RangeError)
    assert.throws(() => unitsToWei('1e5', 6), RangeError)
    assert.throws(() => unitsToWei('', 6), RangeError)
  })
})
