/**
 * The browser origins a venue's keys are accepted from. A venue with origins configured accepts a keyed
 * request only from those origins (its `Origin` header); a venue with none accepts any origin. Requests
 * without an `Origin` header (servers, scripts) are not browser requests and are not checked.
 * Origins are scheme, host and optional port (`https://example.com`, `http://localhost:5173`), stored in
 * the form browsers send them: lowercase host, no default port, no path.
 */
import type { VenueOrigins } from '../../contract/types.ts'
import type { Caller } from '../auth/session.ts'
import { parseJson } from '../chain/markets.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError, notFound } from '../http/errors.ts'

export const MAX_ORIGINS = 50

/** One origin in canonical form, or a 400 naming it. */
export function canonicalOrigin(raw: string, index: number): string {
  const bad = (why: string) => new ApiError(400, 'validation-failed', `'origins.${index}' ${why}`, { param: `origins.${index}` })
  if (!/^https?:\/\/[^/?#@\s\\]+$/i.test(raw)) throw bad("must be an origin: http:// or https://, a host and an optional port, and no path (e.g. 'https://example.com')")
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw bad('is not a valid origin')
  }
  if (!u.hostname || u.username || u.password) throw bad('is not a valid origin')
  return u.origin
}

/** Validates and canonicalizes a list (deduplicated, in the order given). */
export function canonicalOrigins(list: string[]): string[] {
  return [...new Set(list.map((o, i) => canonicalOrigin(o, i)))]
}

/** The venue's row when the caller owns it: unknown venue 404, anyone else 403. */
async function ownedVenue(ctx: ServiceContext, caller: Caller, venueId: string) {
  const v = await ctx.db.selectFrom('venues').select(['owner_account_id', 'origins']).where('id', '=', venueId).executeTakeFirst()
  if (!v) throw notFound('no venue with this id')
  if (v.owner_account_id !== caller.accountId) throw new ApiError(403, 'forbidden', "only the venue's owner manages its origins")
  return v
}

export async function originsOfVenue(ctx: ServiceContext, caller: Caller, venueId: string): Promise<VenueOrigins> {
  const v = await ownedVenue(ctx, caller, venueId)
  return { venueId, origins: parseJson<string[]>(v.origins) }
}

/** Replaces a venue's origins (an empty list allows any origin). Only the venue's owner may. */
export async function setVenueOrigins(ctx: ServiceContext, caller: Caller, venueId: string, origins: string[]): Promise<VenueOrigins> {
  const list = canonicalOrigins(origins)
  await ownedVenue(ctx, caller, venueId)
  await ctx.db.updateTable('venues').set({ origins: JSON.stringify(list) }).where('id', '=', venueId).execute()
  return { venueId, origins: list }
}

/** Whether a browser request from `origin` may use the key of a venue with these origins. */
export const originAllowed = (configured: string[], origin: string) => configured.length === 0 || configured.includes(origin)
