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
  it('§1.9 "an SDK (runtime-neutral, no DOM, no local storage)": a client\'s session, reads, writes, live subscription and sign-out touch no browser global either', () => {
    const out = trapped(`
      const sdk = await import('venuekit/sdk')
      const fetchImpl = async () => new Response(JSON.stringify({ post: { id: 'p1' }, posts: [], threads: {}, series: null, labels: {}, titles: {}, hasMore: false, nextCursor: null }), { headers: { 'content-type': 'application/json' } })
      class FakeSocket { readyState = 0; onopen = null; onmessage = null; onclose = null; onerror = null; send() {} close() {} }
      const client = sdk.createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: null, fetchImpl, WebSocketImpl: FakeSocket })
      client.setSession({ token: 'vks_' + 'a'.repeat(64), accountId: 'a', wallet: '0x' + '1'.repeat(40), wallets: [], venueId: null, operator: false, expiresAt: '2099-01-01T00:00:00Z' })
      await client.posts('category', 'weather')
      await client.takeCounts(['0x' + '1'.repeat(64)]).catch(() => {})
      await client.createPost('category', 'weather', 'hello')
      const off = client.onComments('category', 'weather', () => {})
      off()
      await client.auth.signOut()
      console.log(JSON.stringify([client.session]))
    `)
    assert.deepEqual(JSON.parse(out.trim().split('\n').pop()!), [null])
  })
})
