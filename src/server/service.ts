/**
 * Builds one service instance, independent of the runtime: store, chain, bus, context and app.
 * The Node and Deno entries serve its app and attach the stream.
 */
import type { Hono } from 'hono'
import { createApp } from './app.ts'
import { devRoutes } from './routes/dev.ts'
import { Hub, resolveStreamReplayMs } from './realtime/hub.ts'
import { resolveStreamPingSeconds } from './realtime/keepalive.ts'
import { streamGate } from './services/stream-gate.ts'
import { openStore } from './db/open.ts'
import { FixtureChain } from './chain/fixture.ts'
import { MemoryPubSub, type PubSub } from './realtime/pubsub.ts'
import type { ServiceConfig, ServiceContext } from './context.ts'
import { LIMITS } from '../contract/limits.ts'
import { PATHS } from '../contract/paths.ts'
import { NETWORKS } from '../contract/networks.ts'
import { resolveRateLimits, type RateLimits } from './services/rate-limits.ts'
import { type AccessLogOption, accessLogSink } from './http/access-log.ts'

export interface ServiceOptions {
  /** PGlite data directory; omitted means in memory. Ignored when `databaseUrl` is set. */
  dataDir?: string | null
  /** PostgreSQL connection string; switches the store to PostgreSQL. */
  databaseUrl?: string | null
  /**
   * In memory only (no `dataDir`, no `databaseUrl`): the embedded database starts from this dump of a data
   * directory (PGlite's `dumpDataDir()`), e.g. an already migrated one, instead of creating a new cluster,
   * which is most of an in-memory start. The migrations still run, so an older dump is brought up to date.
   */
  initialData?: Blob
  /** Operator wallets. */
  operators?: string[]
  reportThreshold?: number
  keyEnforcement?: boolean
  siweDomain?: string
  siweUri?: string
  chainId?: number
  /** Clock, for tests. */
  now?: () => Date
  /**
   * Mounts the dev-only fixture-chain routes (`/v1/dev/*`: markets, positions, prices, trades, resolve).
   * For local demos and smoke tests only; never on by default.
   */
  dev?: boolean
  /**
   * Write rate limits per account, venue key and client address (docs/RELIABILITY.md). Omitted: the
   * production defaults (`DEFAULT_RATE_LIMITS`); a partial object overrides the values it names; `false`: off.
   */
  rateLimits?: Partial<RateLimits> | false
  /**
   * The access log, one line per answered request (http/access-log.ts): `'json'` writes JSON lines to stdout, a
   * function receives each line (an embedder's own sink), `'off'` (the default) mounts nothing.
   */
  log?: AccessLogOption
}

export interface Service {
  ctx: ServiceContext
  chain: FixtureChain
  /** Whether the dev-only routes are mounted. */
  dev: boolean
  close(): Promise<void>
}

/** The service's Hono app: the API, plus `mount` (demo pages) and the dev routes when `dev` is on. */
export function serviceApp(svc: Service, mount?: (app: Hono) => void): Hono {
  return createApp(svc.ctx, (app) => {
    mount?.(app)
    if (svc.dev) app.route('/', devRoutes(svc.ctx, svc.chain))
  })
}

export async function createService(opts: ServiceOptions = {}): Promise<Service> {
  const rateLimits = resolveRateLimits(opts.rateLimits)
  const accessLog = accessLogSink(opts.log)
  const store = await openStore({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl, initialData: opts.initialData })
  let bus: PubSub = new MemoryPubSub()
  if (store.databaseUrl) {
    const { PgPubSub } = await import('./realtime/pg-pubsub.ts')
    bus = await PgPubSub.connect(store.databaseUrl)
  }
  const now = opts.now ?? (() => new Date())
  const chain = new FixtureChain(store.db, now)
  const config: ServiceConfig = {
    operators: new Set((opts.operators ?? []).map((w) => w.toLowerCase())),
    reportThreshold: opts.reportThreshold ?? LIMITS.reportThreshold,
    keyEnforcement: opts.keyEnforcement ?? false,
    siweDomain: opts.siweDomain ?? 'localhost',
    siweUri: opts.siweUri ?? 'http://localhost',
    chainId: opts.chainId ?? NETWORKS.testnet.chainId,
    rateLimits,
    accessLog,
  }
  const ctx: ServiceContext = { store, db: store.db, chain, bus, config, now }
  const { wireChainHooks } = await import('./services/chain-hooks.ts')
  wireChainHooks(ctx, chain)
  return {
    ctx,
    chain,
    dev: opts.dev === true,
    async close() {
      await bus.close()
      await store.close()
    },
  }
}

/** A service that listens (the Node and Deno entries): where, and the routes mounted before the API. */
export interface ListenOptions extends ServiceOptions {
  /** Port; 0 picks any free port. Default 8787. */
  port?: number
  host?: string
  /** Extra routes (the demo pages) mounted before the API. */
  mount?: Parameters<typeof serviceApp>[1]
  /**
   * The stream pings every socket this often, in seconds (default 30; 0: never), and closes one that
   * answered nothing since its previous ping (realtime/keepalive.ts).
   */
  streamPingSeconds?: number
  /**
   * A new subscriber to a thread that changed this recently hears one change at once (ms; default 10,000, 0: off;
   * realtime/hub.ts REPLAY_MS): its read and its subscription race, and a change between them is not missed.
   */
  streamReplayMs?: number
}

/**
 * What both entries start from: the stream's options checked (before anything starts), then the service, its app
 * and its stream hub. The entry serves the app, upgrades sockets into the hub, and on a failed bind closes both.
 */
export async function listeningParts(opts: ListenOptions) {
  const pingSeconds = resolveStreamPingSeconds(opts.streamPingSeconds)
  const replayMs = resolveStreamReplayMs(opts.streamReplayMs)
  const svc = await createService(opts)
  return { svc, app: serviceApp(svc, opts.mount), hub: new Hub(svc.ctx.bus, streamGate(svc.ctx), replayMs), pingSeconds }
}

/** A service listening on a port, whatever the runtime (Node: node.ts, Deno: deno.ts). */
export interface RunningService {
  url: string
  streamUrl: string
  port: number
  chain: FixtureChain
  ctx: ServiceContext
  hub: Hub
  close(): Promise<void>
}

/**
 * What an entry returns once its server listens on `port`: the addresses (a wildcard host is shown as
 * 127.0.0.1), and a `close` that ends the stream's sockets, then the server (`stopServer`), then the store.
 */
export function runningService(svc: Service, hub: Hub, host: string, port: number, stopServer: () => Promise<void>): RunningService {
  const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host
  return {
    url: `http://${shownHost}:${port}`,
    streamUrl: `ws://${shownHost}:${port}${PATHS.stream}`,
    port,
    chain: svc.chain,
    ctx: svc.ctx,
    hub,
    async close() {
      hub.close()
      await stopServer()
      await svc.close()
    },
  }
}
