/**
 * The venue a request speaks for: the venue of its `X-Venue-Key` when one is sent and valid, otherwise
 * the venue the session claimed at sign-in (keyless, §5.4), otherwise none.
 *
 * Writes and the gateway refuse a key that is sent but not live (401 `invalid-venue-key`). Reads fail open
 * (§5.1): `venueOfRead` goes on without such a key (or a live one without the `read` scope, 403 `venue-key-scope`), marks the answer `X-Venue-Key-Status: refused` so the
 * venue's developer learns of it (the SDK warns once), and keeps the refusal for the reads that need the
 * key's venue (`room=self`). A read's moderation overlay is the `venue` it names, else its key's venue
 * (§5.3 "scopes reads to the venue", §4.1 rule 5): `readOverlay`.
 */
import type { Context } from 'hono'
import { VENUE_KEY_RE } from '../../contract/ids.ts'
import { HEADERS } from '../../contract/paths.ts'
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
  /** Reads only: the refusal of a key that was sent but is not live; a read that needs the key's venue throws it. */
  refusedKey?: ApiError
}

/** A live (unrevoked) venue key: its venue, scopes, and the venue's configured browser origins. */
export interface LiveKey {
  venueId: string
  scopes: string[]
  origins: string[]
}

/** Per request: the origin check, the route and the metering share one lookup of the key. */
const keysOfRequests = new WeakMap<Request, Promise<LiveKey | null>>()

/**
 * The live key the request sends in `X-Venue-Key`, or null (none sent, malformed, unknown or revoked).
 * Looked up by its SHA-256 hash only, once per request.
 */
export function liveKeyOf(ctx: ServiceContext, c: Context): Promise<LiveKey | null> {
  const key = c.req.header('x-venue-key')
  if (!key || !VENUE_KEY_RE.test(key)) return Promise.resolve(null)
  let found = keysOfRequests.get(c.req.raw)
  if (!found) {
    found = ctx.db
      .selectFrom('venue_keys as k')
      .innerJoin('venues as v', 'v.id', 'k.venue_id')
      .select(['k.venue_id', 'k.scopes', 'k.revoked_at', 'v.origins'])
      .where('k.key_hash', '=', sha256(key))
      .executeTakeFirst()
      .then((row) => (row && !row.revoked_at ? { venueId: row.venue_id, scopes: parseJson<string[]>(row.scopes), origins: parseJson<string[]>(row.origins) } : null))
    keysOfRequests.set(c.req.raw, found)
    // A failed lookup is not kept: the next caller asks again.
    found.catch(() => keysOfRequests.delete(c.req.raw))
  }
  return found
}

/** The request's venue key: null when none is sent; its refusal (401) when one is sent but is not a live key. */
async function checkKey(ctx: ServiceContext, c: Context): Promise<RequestVenue | ApiError | null> {
  const key = c.req.header('x-venue-key')
  if (!key) return null
  if (!VENUE_KEY_RE.test(key)) return new ApiError(401, 'invalid-venue-key', "X-Venue-Key must be 'pck_' followed by 64 hex characters")
  const found = await liveKeyOf(ctx, c)
  if (!found) return new ApiError(401, 'invalid-venue-key', 'this venue key is not valid')
  return { venueId: found.venueId, keyed: true, scopes: found.scopes }
}

/** The venue a request spoke for, for the access log (http/access-log.ts). */
function noted(c: Context, v: RequestVenue): RequestVenue {
  if (v.venueId) c.set('venue', v.venueId)
  return v
}

/** The request's venue key: null when none is sent; 401 when one is sent but is not a live key. */
export async function venueKeyOf(ctx: ServiceContext, c: Context): Promise<RequestVenue | null> {
  const key = await checkKey(ctx, c)
  if (key instanceof ApiError) throw key
  return key && noted(c, key)
}

export async function venueOfRequest(ctx: ServiceContext, c: Context, caller: Caller | null): Promise<RequestVenue> {
  const keyed = await venueKeyOf(ctx, c)
  if (keyed) return keyed
  return noted(c, { venueId: caller?.venueId ?? null, keyed: false, scopes: [] })
}

/**
 * A read's venue: its key's venue when the key is live and carries the `read` scope (§2.11: scopes read +
 * trade; a trade-only key binds the gateway, it does not scope reads). A key that is not live, or lacks
 * `read`, is noted on the answer and ignored.
 */
export async function venueOfRead(ctx: ServiceContext, c: Context): Promise<RequestVenue> {
  let key = await checkKey(ctx, c)
  if (key && !(key instanceof ApiError) && !key.scopes.includes('read'))
    key = new ApiError(403, 'venue-key-scope', "this venue key does not carry the 'read' scope")
  if (!(key instanceof ApiError)) return key ? noted(c, key) : { venueId: null, keyed: false, scopes: [] }
  c.header(HEADERS.venueKeyStatus, 'refused')
  return { venueId: null, keyed: false, scopes: [], refusedKey: key }
}

/** The moderation overlay of a read of posts: the `venue` it names, else its live key's venue, else none. */
export function readOverlay(named: string | undefined, venue: RequestVenue): string | null {
  return named ?? (venue.keyed ? venue.venueId : null)
}
