/**
 * Sign-in rows that can matter no more are deleted, so the tables hold only what is live (docs/RELIABILITY.md
 * "Bounded growth"). Every `POST /v1/auth/nonce` adds a nonce row, used or not, and every sign-in a session row;
 * nothing else ever took them away, so a venue's tables grew by every sign-in for as long as it ran (and anyone,
 * signed in or not, may ask for nonces: 60 a minute from each address, each /64 of IPv6).
 *
 * - A nonce is deleted NONCE_KEPT_MS after its expiry: until then a late verify is still told "expired" (after it,
 *   "not a sign-in message this service issued": the same 400 `invalid-nonce`). So the table holds the nonces of
 *   the last 10 + 60 minutes (plus one sweep period).
 * - A session is deleted once expired or signed out: its token then reads as an unknown one, which answers the
 *   same (401 `session-expired` on a write, signed out on a read, refused by the stream's gate). That an account
 *   was ever signed into stays on the account (`accounts.signed_in_at`, `linkWallet`).
 *
 * Swept when a nonce is asked for (a session needs one first), at most once per SWEEP_MS per instance on the
 * service's clock. Rows another instance's sweep holds are skipped (`skip locked`), so sweeps never wait on each
 * other. A sweep that fails is logged; the sign-in goes on, and the next sweep deletes the rows.
 */
import { sql } from 'kysely'
import type { ServiceContext } from '../context.ts'

/** How long an expired nonce's row stays. */
export const NONCE_KEPT_MS = 60 * 60_000
/** At most one sweep per instance in this much of the service's clock. */
export const SWEEP_MS = 60_000

const lastSweep = new WeakMap<ServiceContext, number>()

export async function sweepSignIns(ctx: ServiceContext): Promise<void> {
  const now = ctx.now()
  const last = lastSweep.get(ctx)
  // A clock set back (tests) sweeps again.
  if (last !== undefined && now.getTime() >= last && now.getTime() - last < SWEEP_MS) return
  lastSweep.set(ctx, now.getTime())
  try {
    const nonceGone = new Date(now.getTime() - NONCE_KEPT_MS)
    await sql`delete from auth_nonces where nonce in (select nonce from auth_nonces where expires_at < ${nonceGone} for update skip locked)`.execute(ctx.db)
    await sql`delete from sessions where token_hash in (
        select token_hash from sessions where expires_at <= ${now} or revoked_at is not null for update skip locked)`.execute(ctx.db)
  } catch (err) {
    console.error('[venuekit] expired sign-in rows not swept (the next sweep deletes them)', err)
  }
}
