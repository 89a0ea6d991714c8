/**
 * Loaded on every browser test page before the test framework (web-test-runner.config.mjs, `testRunnerHtml`).
 *
 * A failed chai assertion carries its `actual` and `expected` values to the test runner. When one of them is a DOM
 * node (`expect(deep(el, 'button')).to.equal(null)`), the runner tries to copy the node's whole object graph and the
 * page never reports: the run stops after `testsFinishTimeout` with "Browser tests did not finish", no test name and
 * no message. So a failing assertion's nodes are replaced by their markup (as chai prints them in the message)
 * before the error leaves the assertion.
 */
// chai itself, the instance `@open-wc/testing` re-exports. Not `@open-wc/testing`: this runs before mocha is set up,
// and its fixtures register their clean-up with mocha's `afterEach` when first imported (without it, every test's
// fixtures stay on the page and the next tests see their requests).
import { Assertion } from '@esm-bundle/chai'

/** A node as text: an element's opening tag and some of its content, a text node's text. */
const describeNode = (n: Node): string =>
  n instanceof Element ? n.outerHTML.slice(0, 300) : `${n.nodeName} ${JSON.stringify((n.textContent ?? '').slice(0, 200))}`

/** The value with any DOM node in it (itself, or an array's items) replaced by its text. */
const readable = (v: unknown): unknown =>
  v instanceof Node ? describeNode(v) : Array.isArray(v) && v.some((x) => x instanceof Node) ? v.map(readable) : v

type Assert = (this: unknown, ...args: unknown[]) => void
const proto = Assertion.prototype as unknown as { assert: Assert }
const assert = proto.assert
proto.assert = function (...args: unknown[]) {
  try {
    assert.apply(this, args)
  } catch (e) {
    if (e && typeof e === 'object' && 'actual' in e) {
      const err = e as { actual?: unknown; expected?: unknown }
      err.actual = readable(err.actual)
      err.expected = readable(err.expected)
    }
    throw e
  }
}
