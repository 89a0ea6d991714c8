/**
 * Client configuration (§9.5). A named network derives the API, gateway and stream addresses, the chain
 * id and the contract addresses together from one table (contract NETWORKS). Explicit hosts override the
 * derived ones; the stream address follows the base address (http→ws) unless given.
 */
import { VENUE_ID_RE, VENUE_KEY_RE } from '../contract/ids.ts'
import { NETWORKS, type NetworkConfig, type NetworkName } from '../contract/networks.ts'
import { PATHS } from '../contract/paths.ts'
import { ValidationError } from './errors.ts'

/** The part of a WebSocket the client uses; the global `WebSocket` and the `ws` package both fit. */
export interface SocketLike {
  readonly readyState: number
  onopen: ((ev: any) => unknown) | null
  onmessage: ((ev: { data: unknown }) => unknown) | null
  onclose: ((ev: any) => unknown) | null
  onerror: ((ev: any) => unknown) | null
  send(data: string): void
  close(code?: number, reason?: string): void
}
export type SocketConstructor = new (url: string) => SocketLike

export interface ClientConfig {
  /** Data-plane address. Required unless `network` is named. */
  baseUrl?: string
  /** `mainnet` (chain 5031) or `testnet` (chain 50312): derives every address together. */
  network?: NetworkName
  /** Login and sponsorship gate. Defaults to the network's gateway, else to the base address. */
  gatewayUrl?: string
  /** Stream address. Defaults to the base address with http→ws and `/v1/stream`. */
  streamUrl?: string
  /** Venue key (`pck_…`). Omitted: a one-time warning. `null`: keyless on purpose, no warning. */
  apiKey?: string | null
  /** Deadline per request, in ms. Unset means unbounded. */
  timeoutMs?: number
  /** The venue this client speaks for (claimed at sign-in when keyless). */
  venueId?: string
  fetchImpl?: typeof fetch
  WebSocketImpl?: SocketConstructor
}

export interface ResolvedConfig {
  baseUrl: string
  gatewayUrl: string
  streamUrl: string
  network: NetworkName | null
  chainId: number | null
  contracts: NetworkConfig['contracts'] | null
  apiKey: string | null
  venueId: string | null
  timeoutMs: number | null
}

const warned = new Set<string>()
/** Prints each warning once per process. */
export function warnOnce(message: string) {
  if (warned.has(message)) return
  warned.add(message)
  console.warn(`[venuekit] ${message}`)
}

/** Set by the script bundle's build (vite.config.ts `define`): `false` there, so its minifier drops the dev-only code. */
declare const __VENUEKIT_DEV__: boolean | undefined
/**
 * Development build: anything but NODE_ENV=production. Bundlers replace the exact text `process.env.NODE_ENV`,
 * so it is read as written: a production bundle holds `"production" !== …` and no reference to `process`.
 * Unbundled in a browser, `process` is missing: that is a development build.
 */
const isDev = () => {
  if (typeof __VENUEKIT_DEV__ == 'boolean') return __VENUEKIT_DEV__
  try {
    return process.env.NODE_ENV !== 'production'
  } catch {
    return true
  }
}

/** An absolute address with a host, and no query or fragment (the paths are appended to it). */
const httpUrl = (v: unknown, name: string, re = /^https?:\/\/[^/?#][^?#]*$/) => {
  const bad = () => new ValidationError(name, 'must be an absolute address')
  if (typeof v != 'string' || !re.test(v)) throw bad()
  try {
    new URL(v)
  } catch {
    throw bad()
  }
  return v.replace(/\/+$/, '')
}
const hostOf = (u: string) => new URL(u).host
/** The stream address of a base address (§6.2): the same host over ws(s), at PATHS.stream. */
const streamOf = (base: string) => base.replace(/^http/, 'ws') + PATHS.stream

export function resolveConfig(c: ClientConfig): ResolvedConfig {
  // No config at all (`createClient()`, or null from JavaScript) is refused as a missing baseUrl, not a TypeError.
  c = Object(c)
  const net = c.network == null ? null : Object.hasOwn(NETWORKS, c.network) ? NETWORKS[c.network] : null
  if (c.network != null && !net) throw new ValidationError('network', "must be 'mainnet' or 'testnet'")
  if (c.baseUrl == null && !net) throw new ValidationError('baseUrl', 'is required unless network is named')
  if (c.apiKey != null && !VENUE_KEY_RE.test(c.apiKey)) throw new ValidationError('apiKey', "must be 'pck_' followed by 64 hex characters")
  if (c.venueId != null && !VENUE_ID_RE.test(c.venueId)) throw new ValidationError('venueId', 'must be 6 to 64 lowercase letters, digits and hyphens, with at least one letter or digit')
  if (c.timeoutMs != null && !(typeof c.timeoutMs == 'number' && c.timeoutMs > 0 && c.timeoutMs < 2 ** 31)) throw new ValidationError('timeoutMs', 'must be a positive number of milliseconds')
  const baseUrl = c.baseUrl != null ? httpUrl(c.baseUrl, 'baseUrl') : net!.baseUrl
  const gatewayUrl = c.gatewayUrl != null ? httpUrl(c.gatewayUrl, 'gatewayUrl') : c.baseUrl == null ? net!.gatewayUrl : baseUrl
  const streamUrl = c.streamUrl != null ? httpUrl(c.streamUrl, 'streamUrl', /^wss?:\/\/[^/?#][^?#]*$/) : streamOf(baseUrl)
  if (net && isDev()) {
    for (const [name, given, derived] of [
      ['baseUrl', c.baseUrl, net.baseUrl],
      ['gatewayUrl', c.gatewayUrl, net.gatewayUrl],
      ['streamUrl', c.streamUrl, streamOf(net.baseUrl)],
    ] as const) {
      if (given != null && hostOf(given) != hostOf(derived))
        warnOnce(`${name} ${given} contradicts network '${c.network}' (${derived}); the explicit address is used`)
    }
  }
  if (c.apiKey === undefined)
    warnOnce('no apiKey: reads are unattributed, and sponsored trading stops once keys are enforced. Pass apiKey: null if keyless is deliberate.')
  return {
    baseUrl,
    gatewayUrl,
    streamUrl,
    network: net ? c.network! : null,
    chainId: net?.chainId ?? null,
    contracts: net?.contracts ?? null,
    apiKey: c.apiKey ?? null,
    venueId: c.venueId ?? null,
    timeoutMs: c.timeoutMs ?? null,
  }
}
