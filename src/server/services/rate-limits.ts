/**
 * Write rate limits, counted in the database so every instance over one PostgreSQL shares them.
 * Fixed windows: one counter row per bucket and window (`rate_counters`), bumped by one upsert per write
 * that counts every bucket of the request at once. A request over any of its limits is refused with 429
 * `rate-limited` and `Retry-After` (seconds until the window ends). Refused attempts count too.
 *
 * Buckets: `acct:<account id>` (the bearer session's account), `key:<sha256 of X-Venue-Key>`,
 * `ip:<client address>` (IPv6 by /64), and `signin:<client address>` for the sign-in routes, which
 * count nothing else. No raw secret is ever written: a key is counted under its hash.
 *
 * A key's bucket counts only writes sent with a live session. A venue's key is public (it sits in the venue's
 * pages), so a request with no session, or a made-up or expired token, must not spend the budget that every
 * signed-in user of the venue shares; such a request counts against its address only.
 */
import { sql } from 'kysely'
import type { ServiceContext } from '../context.ts'
import { PLAN_CACHED } from '../db/plan-cache.ts'

export interface RateLimits {
  /** Writes per signed-in account per window. */
  perAccount: number
  /**
   * Writes per venue key (`X-Venue-Key`) per window: every user of a venue's pages shares it. Only writes
   * sent with a live session count.
   */
  perKey: number
  /** Writes per client address per window. */
  perIp: number
  /** Sign-in requests (`/v1/auth/nonce` and `/v1/auth/verify`) per client address per window. */
  signInPerIp: number
  /** Stream sockets open at once per client address (realtime/sockets-per-address.ts); not a window count. */
  streamSocketsPerIp: number
  /** Window length in seconds. */
  windowSeconds: number
  /**
   * Behind one reverse proxy: take the client address from the last `X-Forwarded-For` entry (the one the
   * proxy appended) instead of the socket. Off by default: a client could otherwise pick its own address.
   */
  trustProxy: boolean
}

/** Production defaults, on for the CLI, `startReferenceService` and the Deno entry. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  perAccount: 60,
  perKey: 6000,
  perIp: 600,
  signInPerIp: 60,
  streamSocketsPerIp: 200,
  windowSeconds: 60,
  trustProxy: false,
}

/** `undefined` means the defaults, `false` means off; a partial object overrides the defaults it names. */
export function resolveRateLimits(opt: Partial<RateLimits> | false | undefined): RateLimits | null {
  if (opt === false) return null
  const r = { ...DEFAULT_RATE_LIMITS, ...(opt ?? {}) }
  for (const k of ['perAccount', 'perKey', 'perIp', 'signInPerIp', 'streamSocketsPerIp', 'windowSeconds'] as const) {
    if (!Number.isInteger(r[k]) || r[k] < 1) throw new Error(`rateLimits.${k} must be a whole number of at least 1 (got ${r[k]})`)
  }
  return r
}

export type BucketKind = 'account' | 'key' | 'ip' | 'sign-in'
const PREFIX: Record<BucketKind, string> = { account: 'acct:', key: 'key:', ip: 'ip:', 'sign-in': 'signin:' }

export interface HitRequest {
  /** Hash of the bearer token, when one is sent: its live session's account is counted. */
  tokenHash: string | null
  /** Hash of the venue key, when one is sent. */
  keyHash: string | null
  ip: string | null
  signIn: boolean
}

export interface Refusal {
  kind: BucketKind
  limit: number
  windowSeconds: number
  retryAfterSeconds: number
}

function limitOf(l: RateLimits, kind: BucketKind): number {
  return kind === 'account' ? l.perAccount : kind === 'key' ? l.perKey : kind === 'ip' ? l.perIp : l.signInPerIp
}

function kindOf(bucket: string): BucketKind {
  return (Object.keys(PREFIX) as BucketKind[]).find((k) => bucket.startsWith(PREFIX[k]))!
}

const lastSweep = new WeakMap<ServiceContext, number>()

/**
 * Counts one request in each of its buckets and answers the first limit it exceeds, or null. One
 * statement: the account (and the key's bucket) come from the session row in the same insert, and rows are locked in bucket
 * order, so concurrent requests sharing buckets never deadlock.
 */
export async function countWrite(ctx: ServiceContext, limits: RateLimits, req: HitRequest): Promise<Refusal | null> {
  const now = ctx.now()
  const windowMs = limits.windowSeconds * 1000
  const start = new Date(Math.floor(now.getTime() / windowMs) * windowMs)
  const direct: string[] = []
  if (req.signIn) {
    if (req.ip) direct.push(PREFIX['sign-in'] + req.ip)
  } else {
    if (req.ip) direct.push(PREFIX.ip + req.ip)
  }
  const token = req.signIn ? null : req.tokenHash
  if (!direct.length && !token) return null
  await sweep(ctx, start, windowMs)
  // The session's account, and the key's bucket, only when the session is live.
  const key = req.keyHash ? PREFIX.key + req.keyHash : null
  const attributed = token
    ? sql`union all select v.b from sessions s cross join unnest(array[${PREFIX.account} || s.account_id, ${key}::text]) as v(b)
        where s.token_hash = ${token} and s.revoked_at is null and s.expires_at > ${now} and v.b is not null`
    : sql``
  // synchronous_commit off for this statement's own transaction: a counter row is hot (every write from
  // one address or key bumps it) and its lock is held until commit; not waiting for the WAL flush lets the
  // next writer in at once. A crash may forget the last counts, never a post.
  const { rows } = await sql<{ bucket: string; hits: number }>`${sql.raw(PLAN_CACHED)}
    insert into rate_counters (bucket, window_start, hits)
    select b, ${start}, 1 from (
      select b from unnest(${direct}::text[]) as b
      ${attributed}
    ) x cross join (select set_config('synchronous_commit', 'off', true)) c order by b
    on conflict (bucket, window_start) do update set hits = rate_counters.hits + 1
    returning bucket, hits`.execute(ctx.db)
  let worst: Refusal | null = null
  const retryAfterSeconds = Math.max(1, Math.ceil((start.getTime() + windowMs - now.getTime()) / 1000))
  for (const r of rows) {
    const kind = kindOf(r.bucket)
    const limit = limitOf(limits, kind)
    if (Number(r.hits) > limit && !worst) worst = { kind, limit, windowSeconds: limits.windowSeconds, retryAfterSeconds }
  }
  return worst
}

/** Drops counters of windows that ended, at most once per window per instance. */
async function sweep(ctx: ServiceContext, start: Date, windowMs: number) {
  if ((lastSweep.get(ctx) ?? 0) >= start.getTime()) return
  lastSweep.set(ctx, start.getTime())
  await ctx.db.deleteFrom('rate_counters').where('window_start', '<', new Date(start.getTime() - windowMs)).execute()
}

/** The refusal's sentence. */
export function refusalMessage(r: Refusal): string {
  const what = {
    account: 'writes from this account',
    key: 'writes with this venue key',
    ip: 'writes from this address',
    'sign-in': 'sign-in attempts from this address',
  }[r.kind]
  return `too many ${what}: at most ${r.limit} every ${r.windowSeconds} seconds; try again in ${r.retryAfterSeconds} second${r.retryAfterSeconds === 1 ? '' : 's'}`
}
