/**
 * What the Node CLI (`venuekit serve`) and the Deno entry share: flag parsing, seeding an empty store,
 * the start-up banner, and serving until a signal. Runtime-neutral: no Node or Deno APIs here.
 */
import { sql } from 'kysely'
import { WALLET_RE } from '../contract/ids.ts'
import type { ServiceContext } from './context.ts'
import type { ChainController } from './chain/source.ts'
import { DataDirLockedError } from './db/open.ts'
import { DEMO_WALLETS } from './demo-wallets.ts'
import { isStoreEmpty, seedDemo } from './seed.ts'
import { DEFAULT_STREAM_PING_SECONDS } from './realtime/keepalive.ts'
import type { ListenOptions, RunningService } from './service.ts'
import { ACCESS_LOG_VALUES } from './http/access-log.ts'

export interface ServeFlags {
  port: number
  host: string
  dataDir: string | null
  databaseUrl: string | null
  seed: boolean
  dev: boolean
  operators: string[]
  /** Seconds between the stream's pings (realtime/keepalive.ts). */
  streamPingSeconds: number
  /** The access log (http/access-log.ts): JSON lines on stdout, or none. */
  log: (typeof ACCESS_LOG_VALUES)[number]
  help: boolean
}

export class UsageError extends Error {}

export const SERVE_USAGE = `usage: venuekit serve [options]

  --port N          port to listen on (default 8787; 0 picks a free port)
  --host HOST       interface to bind (default 127.0.0.1)
  --data-dir DIR    keep the embedded database (PGlite) in DIR; restarts keep the data
                    (default: in memory, lost on exit)
  --seed            seed demo data into an empty store
  --no-seed         do not seed demo data
  --operator 0x…    a platform operator wallet (repeatable)
  --dev             mount the dev-only fixture-chain routes /v1/dev/* (local demos and tests only)
  --stream-ping S   ping each stream socket every S seconds and close one that answered nothing
                    since its last ping (default 30; 0: never)
  --log json|off    the access log: one JSON line per request on stdout (time, request id, method,
                    path, status, ms, venue; never a query, header or body); default off
  --help            this text

environment:
  DATABASE_URL      run on PostgreSQL instead of the embedded database
  VK_LOG            the access log, as --log (the flag wins)`

/** What the entries read from the environment. */
export interface ServeEnv {
  DATABASE_URL?: string
  VK_LOG?: string
}

function logValue(name: string, v: string): ServeFlags['log'] {
  const found = ACCESS_LOG_VALUES.find((x) => x === v)
  if (!found) throw new UsageError(`${name} must be json or off (got '${v}')`)
  return found
}

/**
 * Parses `serve` flags. `seedByDefault` differs per entry: the Node CLI seeds unless `--no-seed`,
 * the Deno entry only with `--seed`.
 */
export function parseServeFlags(argv: readonly string[], env: ServeEnv, seedByDefault: boolean): ServeFlags {
  const f: ServeFlags = { port: 8787, host: '127.0.0.1', dataDir: null, databaseUrl: env.DATABASE_URL || null, seed: seedByDefault, dev: false, operators: [], streamPingSeconds: DEFAULT_STREAM_PING_SECONDS, log: 'off', help: false }
  let logGiven = false
  const args = [...argv]
  while (args.length) {
    const raw = args.shift()!
    const eq = raw.indexOf('=')
    const name = raw.startsWith('--') && eq > 0 ? raw.slice(0, eq) : raw
    const value = () => {
      if (raw.startsWith('--') && eq > 0) return raw.slice(eq + 1)
      const v = args.shift()
      if (v === undefined || v.startsWith('--')) throw new UsageError(`${name} needs a value`)
      return v
    }
    switch (name) {
      case '--port': {
        const v = value()
        if (!/^\d{1,5}$/.test(v) || Number(v) > 65535) throw new UsageError(`--port must be a whole number from 0 to 65535 (got '${v}')`)
        f.port = Number(v)
        break
      }
      case '--host':
        f.host = value()
        break
      case '--data-dir':
        f.dataDir = value()
        break
      case '--seed':
        f.seed = true
        break
      case '--no-seed':
        f.seed = false
        break
      case '--dev':
        f.dev = true
        break
      case '--operator': {
        const v = value()
        if (!WALLET_RE.test(v)) throw new UsageError(`--operator must be a wallet address, 0x and 40 hex characters (got '${v}')`)
        f.operators.push(v.toLowerCase())
        break
      }
      case '--stream-ping': {
        const v = value()
        if (!/^\d{1,4}$/.test(v) || Number(v) > 3600) throw new UsageError(`--stream-ping must be a whole number of seconds from 0 (never) to 3600 (got '${v}')`)
        f.streamPingSeconds = Number(v)
        break
      }
      case '--log':
        f.log = logValue('--log', value())
        logGiven = true
        break
      case '--help':
      case '-h':
        f.help = true
        break
      default:
        throw new UsageError(`unknown option '${raw}'`)
    }
  }
  if (!logGiven && env.VK_LOG) f.log = logValue('VK_LOG', env.VK_LOG)
  if (f.dataDir && f.databaseUrl) throw new UsageError('--data-dir and DATABASE_URL both name a store; give one of them')
  return f
}

export type SeedOutcome = 'seeded' | 'kept' | 'off'

/**
 * Seeds the demo data when asked and the store is empty (a data directory or database with data is kept as is).
 * On PostgreSQL, instances started at once over one empty database would each find it empty and seed: the second's
 * first market is refused as added already and its start fails. So the check and the seed hold one advisory lock
 * (on a connection of their own): one instance seeds, the others wait for it and find the data kept. PGlite has one
 * process per store (the data directory's lock file).
 */
export async function seedIfEmpty(svc: { ctx: ServiceContext; chain: ChainController }, wanted: boolean): Promise<SeedOutcome> {
  if (!wanted) return 'off'
  const seed = async (): Promise<SeedOutcome> => {
    if (!(await isStoreEmpty(svc.ctx))) return 'kept'
    await seedDemo(svc)
    return 'seeded'
  }
  if (svc.ctx.store.kind !== 'postgres') return seed()
  return svc.ctx.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(hashtextextended('vk-seed', 0))`.execute(conn)
    try {
      return await seed()
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended('vk-seed', 0))`.execute(conn)
    }
  })
}

/** The start-up banner: where the service is, what it stores in, and who to sign in as. */
export function banner(s: { url: string; streamUrl: string; storeKind: string; flags: ServeFlags; seed: SeedOutcome; runtime: string }): string {
  const store =
    s.storeKind === 'postgres' ? 'postgres (DATABASE_URL)' : s.flags.dataDir ? `pglite, data directory ${s.flags.dataDir}` : 'pglite, in memory (data is lost on exit)'
  const seed = { seeded: 'demo data seeded', kept: 'store already has data; not seeded', off: 'off' }[s.seed]
  const lines = [
    `venuekit reference service (${s.runtime})`,
    `  url:     ${s.url}`,
    `  stream:  ${s.streamUrl}`,
    `  store:   ${store}`,
    `  seed:    ${seed}`,
  ]
  if (s.flags.dev) lines.push('  dev:     /v1/dev/* fixture-chain routes are ON (never expose this service)')
  if (s.flags.operators.length) lines.push(`  operators: ${s.flags.operators.join(', ')}`)
  if (s.seed !== 'off') {
    lines.push('  demo wallets (local test keys only: DEMO_KEYS in venuekit/server; never fund them):')
    for (const w of DEMO_WALLETS) lines.push(`    ${w.handle.padEnd(7)} ${w.name.padEnd(14)} ${w.address}`)
  }
  lines.push('press Ctrl+C to stop')
  return lines.join('\n')
}

/** One sentence for a start-up failure the operator can act on. */
export function explainStartError(e: unknown, flags: Pick<ServeFlags, 'port' | 'host' | 'dataDir'>): string {
  if (e instanceof DataDirLockedError) return `${e.message}. Stop that process, or pass another --data-dir.`
  const err = e as { code?: string; name?: string; message?: string } | null
  // Node sets `code`; Deno throws Deno.errors.AddrInUse (name 'AddrInUse').
  if (err?.code === 'EADDRINUSE' || err?.name === 'AddrInUse')
    return `port ${flags.port} on ${flags.host} is already in use. Stop what holds it, or pass --port <another port> (--port 0 picks a free one).`
  if (err?.code === 'EACCES' || err?.name === 'PermissionDenied') return `no permission to listen on ${flags.host}:${flags.port}. Pick a port above 1023.`
  if (err?.code === 'EADDRNOTAVAIL' || err?.name === 'AddrNotAvailable') return `cannot listen on ${flags.host}: no such address on this machine.`
  if (err?.code === 'ECONNREFUSED' || err?.code === 'ENOTFOUND' || err?.code === '3D000' || err?.code === '28P01')
    return `cannot use the PostgreSQL database in DATABASE_URL: ${err.message}`
  return err?.message ?? String(e)
}

/**
 * The entry's flags, or the exit code once usage or help is printed (2 for a usage error, 0 for help).
 * `usage` is the entry's own text (the Node CLI names its command).
 */
export function flagsOrExit(argv: readonly string[], env: ServeEnv, seedByDefault: boolean, usage: string): ServeFlags | number {
  let flags: ServeFlags
  try {
    flags = parseServeFlags(argv, env, seedByDefault)
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    console.error(`venuekit: ${e.message}\n\n${usage}`)
    return 2
  }
  if (!flags.help) return flags
  console.log(usage)
  return 0
}

/** What an entry gives `serveUntilStopped`: its runtime's name, server, signals and exit. */
export interface ServeRuntime {
  name: string
  start(o: ListenOptions): Promise<RunningService>
  onSignal(signal: 'SIGINT' | 'SIGTERM', fn: () => void): void
  exit(code: number): never
}

/**
 * Starts the service, seeds it when asked, prints the banner, and stops cleanly on SIGINT or SIGTERM (a
 * second signal exits at once). Resolves with the process's exit code: 1 when it cannot start or seed.
 */
export async function serveUntilStopped(flags: ServeFlags, rt: ServeRuntime): Promise<number> {
  let svc: RunningService
  try {
    svc = await rt.start({ port: flags.port, host: flags.host, dataDir: flags.dataDir, databaseUrl: flags.databaseUrl, operators: flags.operators, dev: flags.dev, streamPingSeconds: flags.streamPingSeconds, log: flags.log })
  } catch (e) {
    console.error(`venuekit: cannot start: ${explainStartError(e, flags)}`)
    return 1
  }
  const stopped = new Promise<string>((resolve) => {
    let stopping = false
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      rt.onSignal(signal, () => {
        if (stopping) {
          console.error(`venuekit: ${signal} again; exiting without a clean stop`)
          rt.exit(130)
        }
        stopping = true
        resolve(signal)
      })
    }
  })
  try {
    const seed = await seedIfEmpty(svc, flags.seed)
    console.log(banner({ url: svc.url, streamUrl: svc.streamUrl, storeKind: svc.ctx.store.kind, flags, seed, runtime: rt.name }))
  } catch (e) {
    console.error(`venuekit: seeding the demo data failed: ${(e as Error).message}`)
    await svc.close()
    return 1
  }
  const signal = await stopped
  console.log(`venuekit: ${signal} received, stopping…`)
  await svc.close()
  console.log('venuekit: stopped')
  return 0
}
