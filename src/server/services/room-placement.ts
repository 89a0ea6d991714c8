/**
 * Where a new post goes when it names a room (§3.3, §7):
 * - a member posts;
 * - anyone who left is refused with 'you left this room — rejoin to post', even when they follow (§7):
 *   in a private room that is only its venue's owner or an operator, whom a join lets back in (membership.ts;
 *   anyone else who left is an outsider);
 * - a non-member who follows the room's subject becomes a member with the first post (public rooms on
 *   followable nodes only: org and brand nodes have no follow path, private rooms are not open), when the
 *   request's venue owns the room: joining is for the session's own venue's rooms only (§3.3, §5.6), so a
 *   post from another venue's session does not make a member who could not leave. Such a follower gets
 *   403 `room-other-venue` (the answer join itself gives them), not 'join this room to post in it': that
 *   would send them to a join that can only fail;
 * - any other non-member gets 403 'join this room to post in it' (§7);
 * - an outsider of a private room (not an active member, not its owner, not an operator) gets 404, so the
 *   room's existence is not confirmed. A member who left or was removed is such an outsider, as in every
 *   read and in post-access.ts: 'rejoin to post' would confirm the room and suggest a join that a private
 *   room refuses;
 * - a wallet banned on the room's venue may not post into its rooms (a ban blocks posting only).
 * A reply goes into its parent's room under the same rules. The post's subject is not constrained by the
 * room's node: a room's discussion covers markets and nodes alike.
 */
import { MSG } from '../../contract/errors.ts'
import { UNFOLLOWABLE_NODE_TYPES, type NodeType } from '../../contract/ids.ts'
import type { Caller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import type { RoomPlacement } from './posts.ts'
import type { RequestVenue } from './venue-of-request.ts'
import { isOwnVenueRoom } from './membership.ts'
import { canSeePrivateRoom, findRoom, roomById, type RoomRow } from './rooms.ts'

/** A follower posting into another venue's room: join works only from a session on the room's venue (§3.3, §5.6). */
const otherVenueMessage = (venueId: string | null) =>
  venueId
    ? "this room belongs to another venue; join it from a session on the room's venue to post in it"
    : "this session names no venue; sign in on the room's venue and join the room to post in it"

/** `venue`: the request's venue (`venueOfRequest`). */
export async function placeInRoom(
  ctx: ServiceContext,
  caller: Caller,
  roomParam: string,
  venue: RequestVenue,
  _subject: { subjectType: string; subjectRef: string },
): Promise<RoomPlacement> {
  return placeInRoomRow(ctx, caller, await findRoom(ctx, roomParam, venue), venue.venueId)
}

/**
 * A reply's place: its parent's room (`roomId`, the parent already reached: post-access.ts), under the same
 * rules. `venueId`: the request's venue.
 */
export async function placeReply(ctx: ServiceContext, caller: Caller, roomId: string, venueId: string | null): Promise<RoomPlacement> {
  try {
    return await placeInRoomRow(ctx, caller, await roomRow(ctx, roomId), venueId)
  } catch (err) {
    // An outsider of a private room learns nothing about the post either.
    if (err instanceof ApiError && err.code === 'room-not-found') throw new ApiError(404, 'post-not-found', 'the post you reply to does not exist')
    throw err
  }
}

/**
 * The place of a post again, after the membership it was placed by changed before its write (a leave or a
 * removal that committed in between, see `createPost`): the refusal the post gets now, or its new place.
 */
export function placeAgain(ctx: ServiceContext, caller: Caller, roomId: string, venueId: string | null, reply: boolean): Promise<RoomPlacement> {
  return reply ? placeReply(ctx, caller, roomId, venueId) : roomRow(ctx, roomId).then((room) => placeInRoomRow(ctx, caller, room, venueId))
}

/** A room named by a stored row (a parent post's room, a placement): it exists. */
async function roomRow(ctx: ServiceContext, roomId: string): Promise<RoomRow> {
  const room = await roomById(ctx, roomId)
  if (!room) throw new Error(`room ${roomId}, named by a stored row, is missing`)
  return room
}

export async function placeInRoomRow(ctx: ServiceContext, caller: Caller, room: RoomRow, venueId: string | null): Promise<RoomPlacement> {
  const priv = room.visibility === 'private'
  const m = await ctx.db
    .selectFrom('room_members')
    .select(['joined_at', 'left_at'])
    .where('room_id', '=', room.id)
    .where('account_id', '=', caller.accountId)
    .executeTakeFirst()
  const active = !!m && !m.left_at
  if (priv && !active && !(await canSeePrivateRoom(ctx, room.id, room.venue_id, caller))) throw new ApiError(404, 'room-not-found', 'no room with this id')
  const ban = await ctx.db
    .selectFrom('bans')
    .select('scope')
    .where('account_id', '=', caller.accountId)
    .where('scope', 'in', ['*', room.venue_id])
    .executeTakeFirst()
  if (ban) throw new ApiError(403, 'banned', ban.scope === '*' ? 'you are banned from posting' : 'you are banned from posting on this venue')
  if (active) return { roomId: room.id, private: priv, joinOnPost: false }
  if (m?.left_at) throw new ApiError(403, 'room-left', MSG.LEFT_ROOM)
  const followable = !UNFOLLOWABLE_NODE_TYPES.includes(room.subject_type as NodeType)
  if (followable && !priv) {
    const follows = await ctx.db
      .selectFrom('follows')
      .select('account_id')
      .where('account_id', '=', caller.accountId)
      .where('subject_type', '=', room.subject_type)
      .where('subject_ref', '=', room.subject_ref)
      .executeTakeFirst()
    if (follows && isOwnVenueRoom(room, venueId)) return { roomId: room.id, private: priv, joinOnPost: true }
    if (follows) throw new ApiError(403, 'room-other-venue', otherVenueMessage(venueId))
  }
  throw new ApiError(403, 'room-join-required', MSG.JOIN_TO_POST)
}
