/**
 * Where a new post goes when it names a room (§3.3, §7): members post; a follower of the room's
 * subject becomes a member with the first post (org and brand nodes have no follow path); anyone who
 * left is refused with 'you left this room — rejoin to post'; any other non-member gets 403
 * 'join this room to post in it'.
 */
import { MSG } from '../../contract/errors.ts'
import { UNFOLLOWABLE_NODE_TYPES, type NodeType } from '../../contract/ids.ts'
import type { Caller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import type { RoomPlacement } from './posts.ts'
import type { RequestVenue } from './venue-of-request.ts'
import { resolveRoom } from './rooms.ts'

export async function placeInRoom(
  ctx: ServiceContext,
  caller: Caller,
  roomParam: string,
  venue: RequestVenue,
  subject: { subjectType: string; subjectRef: string },
): Promise<RoomPlacement> {
  const room = await resolveRoom(ctx, roomParam, venue, caller)
  void subject
  const m = await ctx.db
    .selectFrom('room_members')
    .select(['joined_at', 'left_at'])
    .where('room_id', '=', room.id)
    .where('account_id', '=', caller.accountId)
    .executeTakeFirst()
  const priv = room.visibility === 'private'
  if (m && !m.left_at) return { roomId: room.id, private: priv, joinOnPost: false }
  if (m?.left_at) throw new ApiError(403, 'room-left', MSG.LEFT_ROOM)
  const followable = !UNFOLLOWABLE_NODE_TYPES.includes(room.subject.type as NodeType)
  if (followable && !priv) {
    const follows = await ctx.db
      .selectFrom('follows')
      .select('account_id')
      .where('account_id', '=', caller.accountId)
      .where('subject_type', '=', room.subject.type)
      .where('subject_ref', '=', room.subject.ref)
      .executeTakeFirst()
    if (follows) return { roomId: room.id, private: priv, joinOnPost: true }
  }
  if (priv) throw new ApiError(404, 'room-not-found', 'no room with this id')
  throw new ApiError(403, 'room-join-required', MSG.JOIN_TO_POST)
}
