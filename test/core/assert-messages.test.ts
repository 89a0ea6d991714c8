/** test/helpers/assert-messages.ts: a failing `assert.ok` without a message fails at once, saying what it got. */
import { describe, it } from 'node:test'
import assert, { AssertionError } from 'node:assert/strict'
import loose from 'node:assert'
import '../helpers/assert-messages.ts'

const failure = (fn: () => void): AssertionError => {
  try {
    fn()
  } catch (e) {
    assert.ok(e instanceof AssertionError, 'an AssertionError')
    return e
  }
  throw new Error('it passed')
}

describe('test helpers: assert.ok messages', () => {
  it('a falsy value without a message fails with one that shows the value, for node:assert/strict and node:assert', () => {
    const strict = failure(() => assert.ok(0))
    assert.equal(strict.message, 'expected a truthy value, got 0')
    assert.equal(strict.actual, 0)
    assert.equal(strict.generatedMessage, false)
    assert.equal(failure(() => loose.ok(null)).message, 'expected a truthy value, got null')
    // The stack starts at the failing call, not inside the wrapper.
    assert.match(failure(() => assert.ok('')).stack ?? '', /assert-messages\.test\.ts/)
  })

  it("a given message, a truthy value and a call without arguments behave as Node's own", () => {
    assert.equal(failure(() => assert.ok(false, 'the feed holds the post')).message, 'the feed holds the post')
    assert.ok(1)
    assert.equal(failure(() => (assert.ok as () => void)()).message, 'No value argument passed to `assert.ok()`')
  })
})
