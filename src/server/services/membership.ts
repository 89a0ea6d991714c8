/**
 * Room membership (§2.8, §3.3): the read, join, leave, and the owner's member management.
 * - `member` is true or false for a signed-in reader, null when the reader is unknown (signed out).
 * - `members` is the headcount of active members; null (never 0) for a private room seen by an outsider.
 * - join and leave work only for a room of the request's own venue (key venue, else session venue);
 *   another venue's room is 403 `room-other-venue` (an error, not the invite-only answer).
 * - joining a private room is answered `refused: true` with 'this room is not open to join', except for
 *   its venue's owner or an operator who left it: they rejoin (they could add themselves as members anyway).
 * - leaving is sticky (`left_at`): follower auto-join on post no longer applies; join clears it.
 */
import { sql } from 'kysely'
import { MSG } from '../../contract/errors.ts'
import type { JoinResult, Membership } from '../../contract/types.ts'
import type { Caller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { walletOwner, withWalletAccount } from './accounts.ts'
import { canSeePrivateRoom, isRoomAdmin, roomFromRow, type RoomRow } from './rooms.ts'
import { publishThreads, threadsWithPostsOf } from './thread-events.ts'
import type { RequestVenue } from './venue-of-request.ts'

const iso = (d: Date | string | null | undefined) => (d == null ? null : new Date(d).toISOString())

async function memberRow(ctx: ServiceContext, roomId: string, accountId: string) {
  return ctx.db.selectFrom('room_members').select(['joined_at', 'left_at']).where('room_id', '=', roomId).where('account_id', '=', accountId).executeTakeFirst()
}

export async function headcount(ctx: ServiceContext, roomId: string): Promise<number> {
  const r = await ctx.db
    .selectFrom('room_members')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('room_id', '=', roomId)
    .where('left_at', 'is', null)
    .executeTakeFirstOrThrow()
  return r.n
}

export async function membershipOf(ctx: ServiceContext, room: RoomRow, caller: Caller | null): Promise<Membership> {
  const m = caller ? await memberRow(ctx, room.id, caller.accountId) : undefined
  const active = !!m && !m.left_at
  const insider = room.visibility === 'public' || active || (await canSeePrivateRoom(ctx, room.id, room.venue_id, caller))
  const info = roomFromRow(room)
  return {
    // An outsider of a private room learns that it exists (members: null, §2.8), not what its venue calls it.
    room: insider ? info : { ...info, title: null },
    member: caller ? active : null,
    members: insider ? await headcount(ctx, room.id) : null,
    joinedAt: active ? iso(m!.joined_at) : null,
    left: !!m?.left_at,
  }
}

/** Whether the request's venue owns the room: joining (and joining with a post) and leaving need it (§3.3, §5.6). */
export const isOwnVenueRoom = (room: Pick<RoomRow, 'venue_id'>, venueId: string | null) => venueId === room.venue_id

function assertOwnVenue(room: RoomRow, venue: RequestVenue, verb: 'join' | 'leave') {
  if (isOwnVenueRoom(room, venue.venueId)) return
  throw new ApiError(
    403,
    'room-other-venue',
    // Name what decided the request's venue: its venue key (the page's venue) or the session's.
    venue.keyed
      ? `this room belongs to another venue; with this venue key you can only ${verb} rooms of the key's venue`
      : venue.venueId
        ? `this room belongs to another venue; you can only ${verb} rooms of the venue you are signed in on`
        : `this session names no venue; sign in on the room's venue to ${verb} it`,
  )
}

export async function joinRoom(ctx: ServiceContext, caller: Caller, room: RoomRow, venue: RequestVenue): Promise<JoinResult> {
  assertOwnVenue(room, venue, 'join')
  const m = await memberRow(ctx, room.id, caller.accountId)
  if (m && !m.left_at) return { member: true, refused: false, joinedAt: iso(m.joined_at) }
  // A private room is not open to join (§3.3). Who administers it (`isRoomAdmin`: its venue's owner, an operator)
  // and left it may come back, as they could add themselves as members: otherwise the Rejoin they are offered would fail.
  if (room.visibility === 'private' && !(m?.left_at && (await isRoomAdmin(ctx, caller, room))))
    return { member: false, refused: true, message: MSG.ROOM_NOT_OPEN, joinedAt: null }
  const now = ctx.now()
  await ctx.db
    .insertInto('room_members')
    .values({ room_id: room.id, account_id: caller.accountId, joined_at: now, left_at: null })
    .onConflict((oc) => oc.columns(['room_id', 'account_id']).doUpdateSet({ joined_at: now, left_at: null }).where('room_members.left_at', 'is not', null))
    .execute()
  const after = await memberRow(ctx, room.id, caller.accountId)
  return { member: true, refused: false, joinedAt: iso(after!.joined_at) }
}

export async function leaveRoom(ctx: ServiceContext, caller: Caller, room: RoomRow, venue: RequestVenue): Promise<Membership> {
  assertOwnVenue(room, venue, 'leave')
  await ctx.db
    .updateTable('room_members')
    .set({ left_at: ctx.now() })
    .where('room_id', '=', room.id)
    .where('account_id', '=', caller.accountId)
    .where('left_at', 'is', null)
    .execute()
  return membershipOf(ctx, room, caller)
}

/**
 * The owner (or an operator) adds a member: the way into a private room. Clears a sticky leave. A wallet
 * never seen gets its account here, in the write's transaction (`withWalletAccount`).
 */
export async function addMember(ctx: ServiceContext, room: RoomRow, wallet: string): Promise<void> {
  const now = ctx.now()
  const added = await withWalletAccount(ctx.db, wallet, now, (tx, accountId) =>
    tx
      .insertInto('room_members')
      .values({ room_id: room.id, account_id: accountId, joined_at: now, left_at: null })
      .onConflict((oc) => oc.columns(['room_id', 'account_id']).doUpdateSet({ joined_at: now, left_at: null }).where('room_members.left_at', 'is not', null))
      .returning('room_id')
      .execute(),
  )
  // A new member of a private room now reads its posts on the plain threads it holds (§6.1): those threads
  // change for them. Published as the room's own change (thread-events.ts), so only its members hear it.
  if (added.length && room.visibility === 'private') await publishThreads(ctx, await threadsWithPostsOf(ctx.db, 'room_id', room.id))
}

/**
 * The owner (or an operator) removes a member: the membership row goes, so they are back to a
 * non-member (not 'left'). To keep someone from posting into a venue's rooms, ban them on the venue.
 */
export async function removeMember(ctx: ServiceContext, room: RoomRow, wallet: string): Promise<void> {
  await ctx.db.transaction().execute(async (tx) => {
    const accountId = await walletOwner(tx, wallet)
    if (accountId) await tx.deleteFrom('room_members').where('room_id', '=', room.id).where('account_id', '=', accountId).execute()
  })
}
