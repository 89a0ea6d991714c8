/**
 * The venue a request speaks for: the venue of its `X-Venue-Key` when one is sent and valid, otherwise
 * the venue the session claimed at sign-in (keyless, §5.4), otherwise none.
 */
import type { Context } from 'hono'
import { VENUE_KEY_RE } from '../../contract/ids.ts'
import type { Caller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { sha256 } from '../auth/tokens.ts'
import { parseJson } from '../chain/markets.ts'

export interface RequestVenue {
  venueId: string | null
  /** True when a valid venue key named it. */
  keyed: boolean
  scopes: string[]
}

/** The live (unrevoked) key with this raw value, or null. Looked up by its SHA-256 hash only. */
export async function lookupVenueKey(ctx: ServiceContext, key: string): Promise<{ venueId: string; scopes: string[] } | null> {
  if (!VENUE_KEY_RE.test(key)) return null
  const row = await ctx.db
    .selectFrom('venue_keys')
    .select(['venue_id', 'scopes', 'revoked_at'])
    .where('key_hash', '=', sha256(key))
    .executeTakeFirst()
  if (!row || row.revoked_at) return null
  return { venueId: row.venue_id, scopes: parseJson<string[]>(row.scopes) }
}

/** The request's venue key: null when none is sent; 401 when one is sent but is not a live key. */
export async function venueKeyOf(ctx: ServiceContext, c: Context): Promise<RequestVenue | null> {
  const key = c.req.header('x-venue-key')
  if (!key) return null
  if (!VENUE_KEY_RE.test(key)) throw new ApiError(401, 'invalid-venue-key', "X-Venue-Key must be 'pck_' followed by 64 hex characters")
  const found = await lookupVenueKey(ctx, key)
  if (!found) throw new ApiError(401, 'invalid-venue-key', 'this venue key is not valid')
  return { venueId: found.venueId, keyed: true, scopes: found.scopes }
}

export async function venueOfRequest(ctx: ServiceContext, c: Context, caller: Caller | null): Promise<RequestVenue> {
  const keyed = await venueKeyOf(ctx, c)
  if (keyed) return keyed
  return { venueId: caller?.venueId ?? null, keyed: false, scopes: [] }
}
