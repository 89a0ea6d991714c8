/** Rooms: a venue's rooms sit on taxonomy nodes, public or private; `self` is the venue's own room. */
import type { NodeRef, RoomInfo } from '../../contract/types.ts'
import type { Caller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import type { RequestVenue } from './venue-of-request.ts'

export function roomFromRow(r: { id: string; venue_id: string; subject_type: string; subject_ref: string; visibility: 'public' | 'private'; title: string }): RoomInfo {
  return { id: r.id, venueId: r.venue_id, subject: { type: r.subject_type, ref: r.subject_ref } as NodeRef, visibility: r.visibility, title: r.title }
}

/**
 * Resolves a room parameter. `self` needs a venue key (§4.1 rule 7, §5.6) and names that venue's room.
 * A private room an outsider cannot see answers 404, so its existence is not confirmed (§7).
 */
export async function resolveRoom(ctx: ServiceContext, roomParam: string, venue: RequestVenue, caller: Caller | null): Promise<RoomInfo> {
  let row
  if (roomParam === 'self') {
    if (!venue.keyed || !venue.venueId) throw new ApiError(401, 'venue-key-required', "room=self needs a venue key (X-Venue-Key) naming the venue whose room it is")
    row = await ctx.db.selectFrom('rooms').selectAll().where('venue_id', '=', venue.venueId).where('is_self', '=', true).executeTakeFirst()
  } else {
    row = await ctx.db.selectFrom('rooms').selectAll().where('id', '=', roomParam).executeTakeFirst()
  }
  if (!row) throw new ApiError(404, 'room-not-found', 'no room with this id')
  if (row.visibility === 'private' && !(await canSeePrivateRoom(ctx, row.id, row.venue_id, caller))) {
    throw new ApiError(404, 'room-not-found', 'no room with this id')
  }
  return roomFromRow(row)
}

/** Members, the venue's owner and operators see a private room. */
export async function canSeePrivateRoom(ctx: ServiceContext, roomId: string, venueId: string, caller: Caller | null): Promise<boolean> {
  if (!caller) return false
  if (caller.operator) return true
  const owner = await ctx.db.selectFrom('venues').select('owner_account_id').where('id', '=', venueId).executeTakeFirst()
  if (owner?.owner_account_id === caller.accountId) return true
  const m = await ctx.db
    .selectFrom('room_members')
    .select('account_id')
    .where('room_id', '=', roomId)
    .where('account_id', '=', caller.accountId)
    .where('left_at', 'is', null)
    .executeTakeFirst()
  return !!m
}
