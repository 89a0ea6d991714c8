/**
 * Sessions: Sign-In with Ethereum (EIP-4361). The service writes the message with its own nonce, the
 * wallet signs it, the service checks the message is the one it issued, unused and unexpired, and
 * verifies the signature with viem. A bearer token is issued; only its hash is stored.
 */
import type { Context } from 'hono'
import { sql, type Transaction } from 'kysely'
import { verifyMessage, getAddress } from 'viem'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import { LIMITS } from '../../contract/limits.ts'
import type { NonceResult, SessionInfo } from '../../contract/types.ts'
import { randomHex } from '../../core/ids.ts'
import type { ServiceContext } from '../context.ts'
import type { Database } from '../db/schema.ts'
import { executeCached } from '../db/plan-cache.ts'
import { ApiError, unauthenticated } from '../http/errors.ts'
import { newSessionToken, sha256 } from './tokens.ts'
import { ensureAccount, withWalletAccount } from '../services/accounts.ts'
import { sweepSignIns } from '../services/sign-in-sweep.ts'

export interface Caller {
  accountId: string
  wallet: string
  wallets: string[]
  venueId: string | null
  operator: boolean
  tokenHash: string
  /** The account's ban scopes ('*' or a venue id), read with the session (posts.ts assertNotBanned). */
  bans: string[]
}

export async function issueNonce(ctx: ServiceContext, address: string, statement = 'Sign in to venuekit'): Promise<NonceResult> {
  const nonce = randomHex(16)
  const now = ctx.now()
  const expiresAt = new Date(now.getTime() + LIMITS.nonceTtlMs)
  const message = createSiweMessage({
    domain: ctx.config.siweDomain,
    address: getAddress(address),
    statement,
    uri: ctx.config.siweUri,
    version: '1',
    chainId: ctx.config.chainId,
    nonce,
    issuedAt: now,
    expirationTime: expiresAt,
  })
  // Nonces and sessions that can matter no more go (at most once a minute): a session needs a nonce first.
  await sweepSignIns(ctx)
  await ctx.db.insertInto('auth_nonces').values({ nonce, address: address.toLowerCase(), message, expires_at: expiresAt }).execute()
  return { nonce, message, expiresAt: expiresAt.toISOString() }
}

/** A signed sign-in message that checks out: its signer (lowercased) and its nonce, not consumed yet (`consumeNonce`). */
export interface SignedMessage {
  wallet: string
  nonce: string
}

/**
 * Checks a signed message against the nonce it carries, without consuming it: the write it signs in for consumes it
 * in its own transaction (`consumeNonce`), so a write that fails leaves the signed message usable for a retry.
 */
export async function checkSignedMessage(ctx: ServiceContext, message: string, signature: string): Promise<SignedMessage> {
  let parsed: ReturnType<typeof parseSiweMessage>
  try {
    parsed = parseSiweMessage(message)
  } catch {
    throw new ApiError(400, 'invalid-nonce', 'message is not a sign-in message this service issued')
  }
  if (!parsed.nonce || !parsed.address) throw new ApiError(400, 'invalid-nonce', 'message is not a sign-in message this service issued')
  const row = await ctx.db.selectFrom('auth_nonces').selectAll().where('nonce', '=', parsed.nonce).executeTakeFirst()
  if (!row || row.message !== message) throw new ApiError(400, 'invalid-nonce', 'message is not a sign-in message this service issued')
  if (row.used_at) throw new ApiError(400, 'invalid-nonce', USED)
  if (new Date(row.expires_at).getTime() <= ctx.now().getTime()) throw new ApiError(400, 'invalid-nonce', 'this sign-in message has expired; ask for a new nonce')
  const ok = await verifyMessage({ address: parsed.address, message, signature: signature as `0x${string}` }).catch(() => false)
  if (!ok) throw new ApiError(401, 'invalid-signature', 'the signature does not match the wallet in the message')
  return { wallet: row.address, nonce: parsed.nonce }
}

const USED = 'this sign-in message was already used; ask for a new nonce'

/**
 * Consumes a checked nonce, in the transaction of the write it signs in for (the session, the link): a replay
 * racing it finds `used_at` set (or waits for the row, then finds it), and a write that rolls back leaves it unused.
 */
export async function consumeNonce(ctx: ServiceContext, tx: Transaction<Database>, nonce: string): Promise<void> {
  const used = await tx.updateTable('auth_nonces').set({ used_at: ctx.now() }).where('nonce', '=', nonce).where('used_at', 'is', null).returning('nonce').executeTakeFirst()
  if (!used) throw new ApiError(400, 'invalid-nonce', USED)
}

/** The account that owns a wallet, created on first sign-in. */
export async function accountForWallet(ctx: ServiceContext, wallet: string): Promise<string> {
  return ctx.db.transaction().execute((tx) => ensureAccount(tx, wallet, ctx.now()))
}

export async function walletsOf(ctx: ServiceContext, accountId: string): Promise<string[]> {
  const rows = await ctx.db.selectFrom('wallets').select('address').where('account_id', '=', accountId).orderBy('linked_at').execute()
  return rows.map((r) => r.address)
}

/** `nonce`: the signed message's (`checkSignedMessage`), consumed in the session's transaction. */
export async function createSession(ctx: ServiceContext, wallet: string, venueId: string | null, nonce?: string): Promise<SessionInfo> {
  const token = newSessionToken()
  const expiresAt = new Date(ctx.now().getTime() + LIMITS.sessionTtlMs)
  const accountId = await withWalletAccount(ctx.db, wallet, ctx.now(), async (tx, accountId) => {
    if (nonce) await consumeNonce(ctx, tx, nonce)
    // The account was signed into: it stays its own when its sessions are gone (accounts.ts `linkWallet`).
    await tx.updateTable('accounts').set({ signed_in_at: ctx.now() }).where('id', '=', accountId).where('signed_in_at', 'is', null).execute()
    await tx
      .insertInto('sessions')
      .values({ token_hash: sha256(token), account_id: accountId, wallet, venue_id: venueId, created_at: ctx.now(), expires_at: expiresAt })
      .execute()
    return accountId
  })
  const wallets = await walletsOf(ctx, accountId)
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    accountId,
    wallet,
    wallets,
    venueId,
    operator: wallets.some((w) => ctx.config.operators.has(w)),
  }
}

const TOKEN_RE = /^vks_[0-9a-f]{64}$/

/**
 * Resolves the bearer token. Returns null when absent. `strict` (writes) turns an unknown, expired or
 * revoked token into 401; reads fail open and treat it as signed out.
 */
export async function resolveCaller(ctx: ServiceContext, c: Context, strict: boolean): Promise<Caller | null> {
  const h = c.req.header('authorization')
  if (!h) return null
  const m = /^Bearer\s+(\S+)$/.exec(h.trim())
  if (!m || !TOKEN_RE.test(m[1])) {
    if (strict) throw new ApiError(401, 'unauthenticated', "Authorization must be 'Bearer <session token>'")
    return null
  }
  return callerOfToken(ctx, m[1], strict)
}

/** Sessions with their account's wallets and bans, in one statement (every signed-in request pays for it). */
const sessionsWithAccount = (ctx: ServiceContext) =>
  ctx.db
    .selectFrom('sessions as s')
    .selectAll('s')
    .select(sql<string[]>`array(select w.address from wallets w where w.account_id = s.account_id order by w.linked_at)`.as('wallets'))
    .select(sql<string[]>`array(select b.scope from bans b where b.account_id = s.account_id)`.as('bans'))
type SessionRow = Awaited<ReturnType<ReturnType<typeof sessionsWithAccount>['executeTakeFirstOrThrow']>>

/** The caller of a session row, or null when the session is revoked or expired. */
function callerOf(ctx: ServiceContext, s: SessionRow | undefined): Caller | null {
  if (!s || s.revoked_at || new Date(s.expires_at).getTime() <= ctx.now().getTime()) return null
  return {
    accountId: s.account_id,
    wallet: s.wallet,
    wallets: s.wallets,
    venueId: s.venue_id,
    operator: s.wallets.some((w) => ctx.config.operators.has(w)),
    tokenHash: s.token_hash,
    bans: s.bans,
  }
}

/** The caller a session token names, or null: as `resolveCaller`. */
export async function callerOfToken(ctx: ServiceContext, token: string, strict = false): Promise<Caller | null> {
  // A write checks the bans read here without another round trip.
  const [s] = TOKEN_RE.test(token) ? await executeCached(ctx.db, sessionsWithAccount(ctx).where('s.token_hash', '=', sha256(token))) : []
  const caller = callerOf(ctx, s)
  if (!caller && strict) throw new ApiError(401, 'session-expired', 'your session has ended; sign in again')
  return caller
}

/** The callers of many session tokens in one statement (the stream's room topics carry them), by token. */
export async function callersOfTokens(ctx: ServiceContext, tokens: Iterable<string>): Promise<Map<string, Caller>> {
  const byHash = new Map([...tokens].filter((t) => TOKEN_RE.test(t)).map((t) => [sha256(t), t]))
  const out = new Map<string, Caller>()
  const hashes = [...byHash.keys()]
  // In chunks: a statement carries at most 65,535 parameters on PostgreSQL.
  for (let i = 0; i < hashes.length; i += 5000)
    for (const s of await sessionsWithAccount(ctx).where('s.token_hash', 'in', hashes.slice(i, i + 5000)).execute()) {
      const caller = callerOf(ctx, s)
      if (caller) out.set(byHash.get(s.token_hash)!, caller)
    }
  return out
}

export async function requireCaller(ctx: ServiceContext, c: Context): Promise<Caller> {
  const caller = await resolveCaller(ctx, c, true)
  if (!caller) throw unauthenticated()
  return caller
}
