/** Everything a request handler may use: the store, the chain source, the realtime bus, configuration. */
import type { Kysely } from 'kysely'
import type { Database } from './db/schema.ts'
import type { Store } from './db/open.ts'
import type { ChainSource } from './chain/source.ts'
import type { PubSub } from './realtime/pubsub.ts'
import type { RateLimits } from './services/rate-limits.ts'
import type { AccessLogSink } from './http/access-log.ts'

export interface ServiceConfig {
  /** Wallets (lowercased) that are platform operators. */
  operators: Set<string>
  /** Distinct reporters that auto-hide a post pending review. */
  reportThreshold: number
  /** When on, keyless sessions get no sponsorship (§5.4). */
  keyEnforcement: boolean
  /** Domain and URI written into sign-in messages. */
  siweDomain: string
  siweUri: string
  chainId: number
  /** Write rate limits; null when off (tests, benchmarks). */
  rateLimits: RateLimits | null
  /** Where the access log's lines go (http/access-log.ts); null or absent when it is off. */
  accessLog?: AccessLogSink | null
}

export interface ServiceContext {
  store: Store
  db: Kysely<Database>
  chain: ChainSource
  bus: PubSub
  config: ServiceConfig
  now(): Date
}
