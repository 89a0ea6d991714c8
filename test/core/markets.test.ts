/** §2.12 market helpers, §7 other rules 2–4, notification defaults. */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { displayLabel, isTradeable, nodeFacetOf, sellGate, sideLabel } from '../../src/core/markets.ts'
import { PREPARE_ERROR_CLASS, prepareErrorClass } from '../../src/core/prepare-errors.ts'
import { CHANNEL_DEFAULT_MODE, effectiveMode } from '../../src/core/notifications.ts'
import { takeReceipt } from '../../src/core/receipt.ts'

const M = '0x' + 'a'.repeat(64)

describe('core helpers', () => {
  it('§2.12 "Tap targets render displayLabel ?? label"; label is unchanged', () => {
    assert.equal(displayLabel({ label: 'Yes', displayLabel: 'Above' }), 'Above')
    assert.equal(displayLabel({ label: 'Yes' }), 'Yes')
    assert.equal(sideLabel([{ label: 'Yes', displayLabel: 'Above' }, { label: 'No', displayLabel: 'Below' }], 1), 'Below')
    assert.equal(sideLabel([{ label: 'Yes' }], 3), null)
  })

  it('§2.12 nodeFacetOf "the node to read a record at: the market\'s node, never the venue\'s"', () => {
    assert.deepEqual(nodeFacetOf({ facet: { type: 'category', ref: 'crypto' } }), { type: 'category', ref: 'crypto' })
    assert.equal(nodeFacetOf({ facet: null }), null)
  })

  it('§7 rule 2 "un-resolved does not mean tradeable; gate on isTradeable()"', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    assert.equal(isTradeable({ result: null, closesAt: '2026-01-02T00:00:00Z' }, now), true)
    assert.equal(isTradeable({ result: null, closesAt: '2025-12-31T00:00:00Z' }, now), false, 'closed but unresolved')
    assert.equal(isTradeable({ result: null, closesAt: null }, now), false, 'unknown closing time')
    assert.equal(isTradeable({ result: { winner: 0 }, closesAt: '2026-01-02T00:00:00Z' }, now), false)
    assert.equal(isTradeable({ result: null, resolvedAt: '2025-12-31T00:00:00Z', closesAt: '2026-01-02T00:00:00Z' }, now), false)
  })

  it('§7 rule 3 "The sell gate refuses when neither the adapter nor the platform can answer; it never fails open"', async () => {
    assert.deepEqual(await sellGate({}), { allowed: false, reason: 'unknown' })
    assert.deepEqual(await sellGate({ adapter: () => null, platform: () => undefined }), { allowed: false, reason: 'unknown' })
    assert.deepEqual(await sellGate({ adapter: () => { throw new Error('down') }, platform: async () => { throw new Error('down') } }), { allowed: false, reason: 'unknown' })
    assert.deepEqual(await sellGate({ adapter: () => null, platform: () => true }), { allowed: true, by: 'platform' })
    assert.deepEqual(await sellGate({ adapter: () => false, platform: () => true }), { allowed: false, reason: 'refused' })
    assert.deepEqual(await sellGate({ adapter: async () => true }), { allowed: true, by: 'adapter' })
  })

  it('§2.12 PREPARE_ERROR_CLASS "Both daily caps are retryable: false"; unknown reasons are ours and retryable', () => {
    assert.deepEqual(PREPARE_ERROR_CLASS['daily-cap-user'], { retryable: false, ours: false })
    assert.deepEqual(PREPARE_ERROR_CLASS['daily-cap-venue'], { retryable: false, ours: false })
    assert.deepEqual(prepareErrorClass('never-heard-of-it'), { retryable: true, ours: true })
    for (const inherited of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      assert.deepEqual(prepareErrorClass(inherited), { retryable: true, ours: true }, `'${inherited}' is an unknown reason`)
    }
    for (const [k, v] of Object.entries(PREPARE_ERROR_CLASS)) assert.equal(typeof v.retryable, 'boolean', k)
  })

  it('§2.12 "A missing notification preference row is not off: in-app defaults to realtime; every external channel is opt-in"', () => {
    assert.equal(effectiveMode([], 'inApp', 'reply'), 'realtime')
    assert.equal(effectiveMode(undefined, 'inApp', 'reply'), 'realtime')
    for (const ch of ['email', 'push', 'telegram'] as const) assert.equal(effectiveMode([], ch, 'reply'), 'off')
    assert.equal(effectiveMode([{ channel: 'email', kind: 'reply', mode: 'digest' }], 'email', 'reply'), 'digest')
    assert.equal(effectiveMode([{ channel: 'inApp', kind: '*', mode: 'off' }], 'inApp', 'reply'), 'off')
    assert.equal(effectiveMode([{ channel: 'inApp', kind: '*', mode: 'off' }, { channel: 'inApp', kind: 'reply', mode: 'digest' }], 'inApp', 'reply'), 'digest')
    assert.equal(CHANNEL_DEFAULT_MODE.inApp, 'realtime')
    // A channel outside the list (a caller without types) is off, even one named like an object's member.
    for (const ch of ['toString', '__proto__', 'sms']) assert.equal(effectiveMode([], ch as never, 'reply'), 'off', ch)
  })
})

describe('take receipts (§2.5, §3.2)', () => {
  const take = (side: number, priceBps: number | null) => ({ subjectType: 'event' as const, subjectRef: M, stance: { side, size: '1', priceBps } })
  it('§2.5 "null: Post has no stance"', () => {
    assert.equal(takeReceipt({ subjectType: 'event', subjectRef: M }, {}), null)
  })
  it('§2.5 "open: Market unresolved"', () => {
    assert.deepEqual(takeReceipt(take(0, 4000), {}), { state: 'open', clob: false })
  })
  it('§3.2 "a CLOB take stays open even after its market resolves; it must not be shown as a confident still open"', () => {
    assert.deepEqual(takeReceipt(take(0, 4000), {}, { clob: true }), { state: 'open', clob: true })
  })
  it('§2.5 "void: Market voided (no winner)"', () => {
    assert.deepEqual(takeReceipt(take(0, 4000), { [M]: { void: true } }), { state: 'void' })
  })
  it('§2.5 "wrong: Stance side lost. Carries no oddsBeatenBps"', () => {
    const r = takeReceipt(take(0, 4000), { [M]: { winner: 1 } })
    assert.deepEqual(r, { state: 'wrong' })
    assert.equal('oddsBeatenBps' in (r as object), false)
  })
  it('§2.5 "right: Stance side won. Carries oddsBeatenBps = 10000 minus the side\'s price; null when unknown"', () => {
    assert.deepEqual(takeReceipt(take(1, 6000), { [M]: { winner: 1 } }), { state: 'right', oddsBeatenBps: 4000 })
    assert.deepEqual(takeReceipt(take(1, null), { [M]: { winner: 1 } }), { state: 'right', oddsBeatenBps: null })
  })
  it('results are keyed by lowercased market id', () => {
    const upper = { ...take(0, 4000), subjectRef: M.toUpperCase().replace('0X', '0x') }
    assert.deepEqual(takeReceipt(upper, { [M]: { winner: 0 } }), { state: 'right', oddsBeatenBps: 6000 })
  })
})
