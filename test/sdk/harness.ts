/**
 * Runtime-neutral test harness for the SDK (Node, Deno, Chromium): everything goes over HTTP to a
 * running fixture service (test/helpers/sdk-fixture.ts): clients, fresh wallets that sign with viem,
 * markets, positions and resolutions through the dev routes, venues, keys and rooms through the public API.
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createClient, type ClientConfig, type SocketConstructor, type WalletSigner } from '../../src/sdk/index.ts'
import type { Market } from '../../src/contract/types.ts'

/** The operator wallet the fixture service is configured with (a fixed test key, never a real one). */
export const OPERATOR_KEY = `0x${'5e'.repeat(32)}` as const

export interface FixtureEnv {
  url: string
  streamUrl: string
  WebSocketImpl?: SocketConstructor
  /** The clients' fetch (the global one when unset). */
  fetchImpl?: typeof fetch
}

export interface TestWallet extends WalletSigner {
  /** Lowercased address. */
  wallet: string
}

const signer = (key: `0x${string}`): TestWallet => {
  const a = privateKeyToAccount(key)
  return { address: a.address, wallet: a.address.toLowerCase(), signMessage: (message: string) => a.signMessage({ message }) }
}

let seq = 0
/** A fresh taxonomy node key, so tests never see each other's data. */
export const freshRef = (prefix = 'n') => `${prefix}-${Date.now().toString(36)}-${(seq++).toString(36)}`

export function harness(env: FixtureEnv) {
  const post = async <T>(path: string, body: unknown, token?: string): Promise<T> => {
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }
    const r = await fetch(env.url + path, { method: 'POST', headers, body: JSON.stringify(body) })
    const j = await r.json()
    if (!r.ok) throw new Error(`${path} ${r.status} ${JSON.stringify(j)}`)
    return j as T
  }
  const client = (over: ClientConfig = {}) => createClient({ baseUrl: env.url, apiKey: null, WebSocketImpl: env.WebSocketImpl, fetchImpl: env.fetchImpl, ...over })
  const wallet = () => signer(generatePrivateKey())
  /** A client signed in with a fresh wallet (or the one given). */
  const signedIn = async (over: ClientConfig = {}, w: TestWallet = wallet()) => {
    const c = client(over)
    await c.auth.signIn(w)
    return Object.assign(c, { w })
  }
  return {
    env,
    client,
    wallet,
    signedIn,
    operator: () => signer(OPERATOR_KEY),
    addMarket: (over: Record<string, unknown> = {}) =>
      post<{ market: Market }>('/v1/dev/markets', {
        title: 'Will it rain tomorrow?',
        nodes: [{ type: 'category', ref: 'weather' }],
        prices: [4000, 6000],
        closesAt: new Date(Date.now() + 86_400_000).toISOString(),
        ...over,
      }).then((r) => r.market),
    setPosition: (wallet: string, marketId: string, side: number, size: string | number) =>
      post('/v1/dev/positions', { wallet, marketId, side, size }),
    resolve: (marketId: string, outcome: number | 'void') => post('/v1/dev/resolve', { marketId, outcome }),
    /**
     * A venue claimed by `owner` (a fresh wallet by default) through `POST /admin/keys`: its read+trade
     * key and its own public room (`self`, on the venue's brand node), and the owner's signed-in client.
     */
    async venue(o: { owner?: TestWallet } = {}) {
      const owner = await signedIn({}, o.owner)
      const venueId = freshRef('venue')
      const { key } = await post<{ key: string }>('/admin/keys', { venueId, scopes: ['read', 'trade'], label: 'sdk tests' }, owner.session!.token)
      return { venueId, key, owner }
    },
    /** Another key of a venue, minted by its owner through `POST /admin/keys` with these scopes (e.g. trade-only). */
    async key(v: { venueId: string; owner: { session: { token: string } | null } }, scopes: string[]) {
      return (await post<{ key: string }>('/admin/keys', { venueId: v.venueId, scopes, label: 'sdk tests' }, v.owner.session!.token)).key
    },
    /** Another room of a venue on a taxonomy node, made by its owner through `POST /v1/rooms`. */
    async room(v: { venueId: string; owner: { session: { token: string } | null } }, subject: { type: string; ref: string }, visibility: 'public' | 'private' = 'public') {
      const body = { venueId: v.venueId, subjectType: subject.type, subjectRef: subject.ref, visibility, title: `${subject.ref} room` }
      return (await post<{ room: { id: string } }>('/v1/rooms', body, v.owner.session!.token)).room.id
    },
  }
}
export type Harness = ReturnType<typeof harness>
