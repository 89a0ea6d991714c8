/**
 * The test pages' own set-up (test/browser/setup/readable-failures.ts): a failed assertion on a DOM node must reach
 * the runner as text, or the run stops at `testsFinishTimeout` with no test name and no message.
 */
import { expect, fixture, html } from '@open-wc/testing'

const failureOf = (fn: () => void): { actual?: unknown; expected?: unknown; message: string } => {
  try {
    fn()
  } catch (e) {
    return e as { actual?: unknown; expected?: unknown; message: string }
  }
  throw new Error('the assertion passed')
}

describe('test pages: failed assertions on DOM nodes', () => {
  it('a failed assertion carries a node as its markup, so the runner reports it (test name and message) instead of timing out', async () => {
    const box = await fixture(html`<div><button part="agree">Agree</button></div>`)
    const button = box.querySelector('button')!
    const e = failureOf(() => expect(button).to.equal(null))
    expect(e.message).to.contain('<button')
    // Checked as a type first: were it still the node, this check's own failure would carry no node.
    expect(typeof e.actual).to.equal('string')
    expect(e.actual).to.equal('<button part="agree">Agree</button>')
    const list = failureOf(() => expect([button, box.firstChild]).to.deep.equal([]))
    expect(list.actual).to.deep.equal(['<button part="agree">Agree</button>', '<button part="agree">Agree</button>'])
    const text = failureOf(() => expect(box.ownerDocument.createTextNode('two words')).to.equal(null))
    expect(text.actual).to.equal('#text "two words"')
  })

  it('values that are not nodes are left as they are (mocha still diffs them)', () => {
    const e = failureOf(() => expect({ a: 1 }).to.deep.equal({ a: 2 }))
    expect(e.actual).to.deep.equal({ a: 1 })
    expect(e.expected).to.deep.equal({ a: 2 })
  })
})
