/** §9.5 client configuration: networks, derived and explicit addresses, the one-time warnings. */
import { afterEach, beforeEach, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { NETWORKS } from '../../src/contract/networks.ts'
import { createClient, ValidationError } from '../../src/sdk/index.ts'

let warnings: string[] = []
const realWarn = console.warn
beforeEach(() => {
  warnings = []
  console.warn = (...a: unknown[]) => void warnings.push(a.join(' '))
})
afterEach(() => {
  console.warn = realWarn
})
const KEY = `pck_${'a'.repeat(64)}`

describe('client configuration', () => {
  it('§9.5 "naming network as mainnet or testnet derives the API address, gateway address, chain, and contract addresses together": 5031 / 50312', () => {
    for (const name of ['mainnet', 'testnet'] as const) {
      const c = createClient({ network: name, apiKey: KEY }).config
      const n = NETWORKS[name]
      assert.deepEqual(
        { baseUrl: c.baseUrl, gatewayUrl: c.gatewayUrl, streamUrl: c.streamUrl, chainId: c.chainId, contracts: c.contracts, network: c.network },
        { baseUrl: n.baseUrl, gatewayUrl: n.gatewayUrl, streamUrl: n.baseUrl.replace('https://', 'wss://') + '/v1/stream', chainId: n.chainId, contracts: n.contracts, network: name },
      )
    }
    assert.equal(createClient({ network: 'mainnet', apiKey: KEY }).config.streamUrl, 'wss://api.venuekit.xyz/v1/stream')
    assert.equal(createClient({ network: 'testnet', apiKey: KEY }).config.streamUrl, 'wss://api.testnet.venuekit.xyz/v1/stream')
    assert.equal(createClient({ network: 'mainnet', apiKey: KEY }).config.chainId, 5031)
    assert.equal(createClient({ network: 'testnet', apiKey: KEY }).config.chainId, 50312)
  })

  it('§9.5 "baseUrl (required for reads)" unless network is named: neither throws a ValidationError naming baseUrl', () => {
    assert.throws(() => createClient({ apiKey: KEY }), (e: unknown) => e instanceof ValidationError && e.argument === 'baseUrl')
    assert.throws(() => createClient({ network: 'devnet' as never, apiKey: KEY }), (e: unknown) => e instanceof ValidationError && e.argument === 'network')
    assert.throws(() => createClient({ baseUrl: 'localhost:8787', apiKey: KEY }), (e: unknown) => e instanceof ValidationError && e.argument === 'baseUrl')
    assert.throws(() => createClient({ baseUrl: 'http://x', apiKey: 'pck_short' }), (e: unknown) => e instanceof ValidationError && e.argument === 'apiKey')
    assert.throws(() => createClient({ baseUrl: 'http://x', apiKey: KEY, timeoutMs: -1 }), (e: unknown) => e instanceof ValidationError && e.argument === 'timeoutMs')
    // A network name is one of the two, never a key every object has.
    for (const name of ['constructor', 'toString', '__proto__'])
      assert.throws(() => createClient({ network: name as never, apiKey: KEY }), (e: unknown) => e instanceof ValidationError && e.argument === 'network', name)
    // An address that only looks absolute is refused as one, with or without a named network.
    assert.throws(() => createClient({ baseUrl: 'http://exa mple.com', apiKey: KEY }), (e: unknown) => e instanceof ValidationError && e.argument === 'baseUrl')
    assert.throws(() => createClient({ network: 'mainnet', baseUrl: 'http://exa mple.com', apiKey: KEY }), (e: unknown) => e instanceof ValidationError && e.argument === 'baseUrl')
  })

  it('§6.2 "a socket at a stream address derived from the base address" (http→ws); "override only when the socket lives elsewhere"', () => {
    assert.equal(createClient({ baseUrl: 'http://127.0.0.1:8787/', apiKey: KEY }).config.streamUrl, 'ws://127.0.0.1:8787/v1/stream')
    assert.equal(createClient({ baseUrl: 'https://feeds.example.com', apiKey: KEY }).config.streamUrl, 'wss://feeds.example.com/v1/stream')
    assert.equal(createClient({ baseUrl: 'https://a.example.com', streamUrl: 'wss://live.example.com/s', apiKey: KEY }).config.streamUrl, 'wss://live.example.com/s')
    // Local work: the gateway follows an explicit base address unless given too.
    assert.equal(createClient({ baseUrl: 'http://127.0.0.1:8787', apiKey: KEY }).config.gatewayUrl, 'http://127.0.0.1:8787')
  })

  it('§9.5 explicit hosts override the derived ones; "a development build warns when an explicit host contradicts the named network" (once)', () => {
    const c = createClient({ network: 'mainnet', baseUrl: 'http://127.0.0.1:8787', apiKey: KEY })
    assert.equal(c.config.baseUrl, 'http://127.0.0.1:8787')
    assert.equal(c.config.streamUrl, 'ws://127.0.0.1:8787/v1/stream')
    assert.equal(c.config.chainId, 5031)
    assert.equal(c.config.gatewayUrl, 'http://127.0.0.1:8787')
    assert.equal(warnings.length, 1)
    assert.match(warnings[0], /baseUrl http:\/\/127\.0\.0\.1:8787 contradicts network 'mainnet'/)
    createClient({ network: 'mainnet', baseUrl: 'http://127.0.0.1:8787', apiKey: KEY })
    assert.equal(warnings.length, 1, 'once')
    // An explicit host that agrees with the network is no contradiction.
    createClient({ network: 'testnet', baseUrl: NETWORKS.testnet.baseUrl, apiKey: KEY })
    assert.equal(warnings.length, 1)
  })

  it('§9.5 "a development build warns when an explicit host contradicts the named network": an explicit streamUrl on another host than the network\'s warns too (once); one on the network\'s own host does not', () => {
    const c = createClient({ network: 'mainnet', streamUrl: 'wss://live.staging.example.com/v1/stream', apiKey: KEY })
    assert.equal(c.config.streamUrl, 'wss://live.staging.example.com/v1/stream', 'the explicit address is used')
    assert.equal(warnings.length, 1)
    assert.match(warnings[0], /streamUrl wss:\/\/live\.staging\.example\.com\/v1\/stream contradicts network 'mainnet'/)
    createClient({ network: 'mainnet', streamUrl: 'wss://live.staging.example.com/v1/stream', apiKey: KEY })
    createClient({ network: 'mainnet', streamUrl: 'wss://api.venuekit.xyz/v1/stream', apiKey: KEY })
    assert.equal(warnings.length, 1, 'once, and none for the network\'s own stream host')
  })

  it('§9.5 the contradiction warning is a development-build warning: none with NODE_ENV=production', () => {
    const prev = process.env.NODE_ENV
    process.env.NODE_ENV = 'production'
    try {
      createClient({ network: 'testnet', gatewayUrl: 'https://gw.staging.example.com', apiKey: KEY })
      assert.deepEqual(warnings, [])
    } finally {
      process.env.NODE_ENV = prev
    }
    createClient({ network: 'testnet', gatewayUrl: 'https://gw.staging.example.com', apiKey: KEY })
    assert.equal(warnings.length, 1)
    assert.match(warnings[0], /gatewayUrl .* contradicts network 'testnet'/)
  })

  it('§5.4 "Passing apiKey: null states keyless is deliberate and silences the one-time warning"; omitting it warns once', () => {
    createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: null })
    assert.deepEqual(warnings, [])
    createClient({ baseUrl: 'http://127.0.0.1:1' })
    createClient({ baseUrl: 'http://127.0.0.1:2' })
    assert.equal(warnings.length, 1)
    assert.match(warnings[0], /no apiKey/)
    assert.match(warnings[0], /apiKey: null/)
  })

  it('§8 "venueId: 6 to 64 characters, lowercase alphanumeric with hyphens": createClient refuses anything else with a ValidationError naming venueId, before any request', () => {
    const base = { baseUrl: 'http://127.0.0.1:9', apiKey: null }
    for (const bad of ['abc12', 'a'.repeat(65), 'Venue-one', 'venue_one', 'venue one', '------']) {
      assert.throws(() => createClient({ ...base, venueId: bad }), (e: unknown) => e instanceof ValidationError && e.argument === 'venueId', bad)
    }
    for (const ok of ['abc123', 'z'.repeat(64), 'harbor-markets']) assert.doesNotThrow(() => createClient({ ...base, venueId: ok }), ok)
    // The message names every rule, the service's own among them: hyphens alone are not an id.
    assert.throws(() => createClient({ ...base, venueId: '------' }), {
      message: 'venueId must be 6 to 64 lowercase letters, digits and hyphens, with at least one letter or digit',
    })
  })

  it('§8 "Request deadline (timeoutMs): Optional": a deadline given is a positive number of ms a timer can hold — 0, negative, NaN, infinite, 2^31 ms or more and anything not a number (a string from plain JavaScript) (a timer fires at once beyond 2^31 − 1) are refused by createClient with the ValidationError "timeoutMs must be a positive number of milliseconds"; 1 to 2^31 − 1 are kept, and unset is no deadline', () => {
    const base = { baseUrl: 'http://127.0.0.1:9', apiKey: null }
    for (const bad of [0, -0, -1, -150, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 2 ** 31, 2 ** 31 + 1, Number.MAX_SAFE_INTEGER, '100', true, [150], {}]) {
      assert.throws(
        () => createClient({ ...base, timeoutMs: bad as number }),
        (e: unknown) => e instanceof ValidationError && e.code === 'validation' && e.argument === 'timeoutMs' && e.message === 'timeoutMs must be a positive number of milliseconds',
        String(bad),
      )
    }
    for (const ok of [1, 150, 2 ** 31 - 1]) assert.equal(createClient({ ...base, timeoutMs: ok }).config.timeoutMs, ok, String(ok))
    assert.equal(createClient(base).config.timeoutMs, null, 'unset: no deadline')
  })

  it('§6.2 "Plain HTTP reads do not need a socket": creating a client, signing it in and reading opens none', async () => {
    let sockets = 0
    class CountingSocket {
      constructor() {
        sockets++
        throw new Error('no socket expected')
      }
    }
    const c = createClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: null,
      WebSocketImpl: CountingSocket as never,
      fetchImpl: (async () => new Response('{"posts":[],"threads":{},"series":null,"labels":{},"titles":{},"hasMore":false,"nextCursor":null}')) as typeof fetch,
    })
    c.setSession({ token: `vks_${'a'.repeat(64)}`, accountId: 'a', wallet: `0x${'1'.repeat(40)}`, wallets: [], venueId: null, operator: false, expiresAt: '2099-01-01T00:00:00Z' })
    await c.posts('category', 'weather')
    await c.takeCounts([`0x${'1'.repeat(64)}`]).catch(() => {})
    assert.equal(sockets, 0)
  })

  it('session is held in the client: setSession / onSessionChange / session', () => {
    const c = createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: null })
    const seen: unknown[] = []
    const off = c.onSessionChange((s) => seen.push(s?.token ?? null))
    const s = { token: 'vks_x', expiresAt: '', accountId: 'a', wallet: '0x', wallets: [], venueId: null, operator: false }
    c.setSession(s)
    assert.equal(c.session, s)
    c.setSession(null)
    off()
    c.setSession(s)
    assert.deepEqual(seen, ['vks_x', null])
    assert.throws(() => c.setSession({} as never), ValidationError)
  })
})
