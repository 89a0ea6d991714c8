/**
 * A venue's keys after their one showing (`issueKey`, §2.11 "The raw key is returned once and cannot be read
 * again"): the owner, or a platform operator, lists them (never a key or its hash) and revokes one. A revoked key
 * stops at once: its writes are 401 `invalid-venue-key` and its reads go on unattributed (`venueKeyOf`). Revoking is
 * final (mint another key to replace it) and idempotent: a second revoke answers the first's time.
 */
import type { VenueKeyInfo, VenueKeys } from '../../contract/types.ts'
import type { Caller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { notFound } from '../http/errors.ts'
import { parseJson } from '../chain/markets.ts'
import { requireVenueAdmin } from './venues.ts'

const ADMIN = "only the venue's owner or a platform operator manages its keys"

type KeyRow = { id: string; label: string; scopes: unknown; created_at: Date | string; revoked_at: Date | string | null }

const info = (r: KeyRow): VenueKeyInfo => ({
  keyId: r.id,
  label: r.label,
  scopes: parseJson<VenueKeyInfo['scopes']>(r.scopes),
  createdAt: new Date(r.created_at).toISOString(),
  revokedAt: r.revoked_at == null ? null : new Date(r.revoked_at).toISOString(),
})

/** Every key of the venue, newest first, revoked ones included. */
export async function listVenueKeys(ctx: ServiceContext, caller: Caller, venueId: string): Promise<VenueKeys> {
  await requireVenueAdmin(ctx, caller, venueId, ADMIN)
  const rows = await ctx.db
    .selectFrom('venue_keys')
    .select(['id', 'label', 'scopes', 'created_at', 'revoked_at'])
    .where('venue_id', '=', venueId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  return { venueId, keys: rows.map(info) }
}

/** Revokes one of the venue's keys (a key of another venue, or none, is 404). */
export async function revokeVenueKey(ctx: ServiceContext, caller: Caller, venueId: string, keyId: string): Promise<VenueKeyInfo> {
  await requireVenueAdmin(ctx, caller, venueId, ADMIN)
  // One statement: of two revokes at once, the first time stands.
  const row = await ctx.db
    .updateTable('venue_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(ctx.now())) }))
    .where('venue_id', '=', venueId)
    .where('id', '=', keyId)
    .returning(['id', 'label', 'scopes', 'created_at', 'revoked_at'])
    .executeTakeFirst()
  if (!row) throw notFound('no key with this id on this venue')
  return info(row)
}
