/**
 * Venues and their keys (§2.11, §5.5). `POST /admin/keys` either mints another key for a venue the
 * caller owns, or claims an unheld venue id and mints its first key in the same transaction. A claim is
 * permanent and gives the venue a sponsorship grant and its `self` room. Only the key's SHA-256 hash is
 * stored: the raw key is in the one answer that mints it and nowhere else.
 */
import { OPERATOR_ALLOCATED_MAX_LENGTH, VENUE_ID_RE, isReservedVenueId } from '../../contract/ids.ts'
import { ensureAccount } from './accounts.ts'
import { KEY_SCOPES } from '../../contract/params.ts'
import type { VenueKeyIssued } from '../../contract/types.ts'
import { randomHex, timeId } from '../../core/ids.ts'
import type { Caller } from '../auth/session.ts'
import { sha256 } from '../auth/tokens.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError, notFound } from '../http/errors.ts'

export type KeyScope = (typeof KEY_SCOPES)[number]

/** The node a venue's `self` room sits on: the venue's own brand node (no follow path, members join). */
export const selfRoomSubject = (venueId: string) => ({ type: 'brand' as const, ref: venueId })

export const newVenueKey = () => `pck_${randomHex(32)}`

/** Checks a venue id for a claim: reserved names first (so `demo` says reserved, not too short), then format. */
export function checkClaimableId(venueId: string): void {
  if (venueId.length <= 64 && /^[a-z0-9-]+$/.test(venueId) && isReservedVenueId(venueId)) {
    throw new ApiError(403, 'venue-id-reserved', `the venue id '${venueId}' is reserved for the platform and can't be claimed`, { param: 'venueId' })
  }
  if (!VENUE_ID_RE.test(venueId)) {
    throw new ApiError(400, 'venue-id-invalid', "'venueId' must be 6 to 64 lowercase letters, digits and hyphens, with at least one letter or digit", {
      param: 'venueId',
    })
  }
}

/** Only `read` and `trade` are minted here; keys with any other scope must live on a server (§5.3). */
export function checkScopes(scopes: string[]): KeyScope[] {
  if (!scopes.length) throw new ApiError(400, 'invalid-scope', "'scopes' must name at least one of read, trade", { param: 'scopes' })
  for (const s of scopes) {
    if (!(KEY_SCOPES as readonly string[]).includes(s)) {
      throw new ApiError(400, 'invalid-scope', `scope '${s}' is not minted here: this route issues browser keys with read and trade only; keys with any other scope stay on a server`, {
        param: 'scopes',
      })
    }
  }
  return KEY_SCOPES.filter((s) => scopes.includes(s))
}

/**
 * Mints a key. An id nobody holds is claimed by the same call (the caller becomes owner; the venue gets
 * a sponsorship grant and its self room). A venue that exists — any venues row: claimed venues always
 * hold a grant and a key — answers 409 unless the caller owns it. Two racing claims: the primary key
 * lets one insert win; the other finds the row and is refused.
 */
export async function issueKey(
  ctx: ServiceContext,
  caller: Caller,
  input: { venueId: string; scopes: string[]; label: string; owner?: string },
): Promise<VenueKeyIssued> {
  checkClaimableId(input.venueId)
  const scopes = checkScopes(input.scopes)
  if (input.owner !== undefined && !caller.operator) {
    throw new ApiError(403, 'forbidden', "only a platform operator allocates a venue to another owner ('owner')", { param: 'owner' })
  }
  const held = await ctx.db.selectFrom('venues').select('id').where('id', '=', input.venueId).executeTakeFirst()
  if (!held && input.venueId.length <= OPERATOR_ALLOCATED_MAX_LENGTH && !caller.operator) {
    throw new ApiError(
      403,
      'venue-id-reserved',
      `venue ids of ${OPERATOR_ALLOCATED_MAX_LENGTH} characters or fewer are allocated by the platform operator, not first-come; choose a longer id`,
      { param: 'venueId' },
    )
  }
  const key = newVenueKey()
  const keyId = timeId('k_')
  const now = ctx.now()
  const claimed = await ctx.db.transaction().execute(async (tx) => {
    // In the claim's transaction: a link of the owner's wallet waits for it (see `ensureAccount`).
    const ownerAccount = input.owner ? await ensureAccount(tx, input.owner, now) : caller.accountId
    const ins = await tx
      .insertInto('venues')
      .values({ id: input.venueId, owner_account_id: ownerAccount, created_at: now, sponsorship_grant: true })
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!ins) {
      const v = await tx.selectFrom('venues').select('owner_account_id').where('id', '=', input.venueId).executeTakeFirst()
      if (!v || (v.owner_account_id !== caller.accountId && !(input.owner && v.owner_account_id === ownerAccount))) {
        throw new ApiError(409, 'venue-exists', `the venue id '${input.venueId}' is already held; only its owner mints keys for it`, { param: 'venueId' })
      }
    } else {
      const roomId = timeId('r_')
      const subject = selfRoomSubject(input.venueId)
      await tx
        .insertInto('rooms')
        .values({ id: roomId, venue_id: input.venueId, subject_type: subject.type, subject_ref: subject.ref, visibility: 'public', title: input.venueId, is_self: true, created_at: now })
        .execute()
      await tx.insertInto('room_members').values({ room_id: roomId, account_id: ownerAccount, joined_at: now }).execute()
    }
    await tx
      .insertInto('venue_keys')
      .values({ id: keyId, venue_id: input.venueId, key_hash: sha256(key), scopes: JSON.stringify(scopes), label: input.label, created_by: caller.accountId, created_at: now })
      .execute()
    return !!ins
  })
  return { key, venueId: input.venueId, scopes, label: input.label, keyId, claimed, createdAt: now.toISOString() }
}

export async function venueOwner(ctx: ServiceContext, venueId: string): Promise<{ exists: boolean; owner: string | null }> {
  const v = await ctx.db.selectFrom('venues').select('owner_account_id').where('id', '=', venueId).executeTakeFirst()
  return { exists: !!v, owner: v?.owner_account_id ?? null }
}

export async function isVenueOwner(ctx: ServiceContext, caller: Caller | null, venueId: string): Promise<boolean> {
  if (!caller) return false
  return (await venueOwner(ctx, venueId)).owner === caller.accountId
}

/** The venue's owner or an operator; anyone else is 403 (unknown venue: 404 for operators, 403 otherwise). */
export async function requireVenueAdmin(ctx: ServiceContext, caller: Caller, venueId: string, message: string): Promise<void> {
  const v = await venueOwner(ctx, venueId)
  if (caller.operator) {
    if (!v.exists) throw notFound('no venue with this id', 'not-found')
    return
  }
  if (!v.exists || v.owner !== caller.accountId) throw new ApiError(403, 'forbidden', message)
}

/**
 * Sponsorship at the gateway (§5.3–5.4). A keyed request is attributed to the key's venue and is
 * sponsored when that venue holds a grant and the key carries the `trade` scope. A keyless request is
 * unattributed; its session is bound to the venue it claimed at sign-in, which is sponsored only while
 * key enforcement is off and that venue holds a grant.
 */
export async function sponsorshipOf(ctx: ServiceContext, venue: { venueId: string | null; keyed: boolean; scopes: string[] }) {
  const enforcement = ctx.config.keyEnforcement
  let grant = false
  if (venue.venueId) {
    const v = await ctx.db.selectFrom('venues').select('sponsorship_grant').where('id', '=', venue.venueId).executeTakeFirst()
    grant = !!v?.sponsorship_grant
  }
  const sponsored = venue.keyed ? grant && venue.scopes.includes('trade') : grant && !enforcement
  return { venueId: venue.venueId, attributed: venue.keyed, sponsored, enforcement }
}
