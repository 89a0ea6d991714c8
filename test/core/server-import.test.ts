/**
 * §9.6 server rendering: `venuekit/sdk`, `venuekit/stores` and `venuekit/contract` import on a server
 * without touching the DOM. A fresh Node process makes every browser global throw when it is read (even by
 * `typeof`), then imports the three entries as the package ships them (dist/: `npm test` builds it first;
 * alone, run `bash scripts/build.sh`) and creates a client.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const BROWSER_GLOBALS = ['window', 'document', 'navigator', 'location', 'localStorage', 'sessionStorage', 'HTMLElement', 'customElements', 'CustomEvent', 'XMLHttpRequest', 'requestAnimationFrame', 'matchMedia']

/** Runs `body` (an ES module's text) in a new Node process with the browser globals trapped; returns its output. */
function trapped(body: string): string {
  const traps = `for (const name of ${JSON.stringify(BROWSER_GLOBALS)}) Object.defineProperty(globalThis, name, { configurable: true, get() { throw new Error('touched ' + name) } })\n`
  return execFileSync(process.execPath, ['--input-type=module', '-e', traps + body], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

describe('§9.6 the SDK, stores and contract import on a server', () => {
  it('the trap works: reading a trapped global throws, so the check below could fail', () => {
    assert.throws(() => trapped(`if (typeof document === 'undefined') console.log('never')`), /touched document/)
  })

  it('"import on the server without touching the DOM": venuekit/sdk, venuekit/stores and venuekit/contract load with every browser global trapped, and a client is created', () => {
    const out = trapped(`
      const sdk = await import('venuekit/sdk')
      const stores = await import('venuekit/stores')
      const contract = await import('venuekit/contract')
      const client = sdk.createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: null })
      console.log(JSON.stringify([typeof client.takeCounts, typeof stores.createVenuekit, typeof contract.PATHS]))
    `)
    assert.deepEqual(JSON.parse(out.trim().split('\n').pop()!), ['function', 'function', 'object'])
  })
})
