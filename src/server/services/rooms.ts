/** Rooms: a venue's rooms sit on taxonomy nodes, public or private; `self` is the venue's own room. */
import { type Kysely, type Selectable, sql } from 'kysely'
import type { NodeType } from '../../contract/ids.ts'
import type { NodeRef, RoomInfo } from '../../contract/types.ts'
import { timeId } from '../../core/ids.ts'
import type { Caller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import type { Database } from '../db/schema.ts'
import { ApiError } from '../http/errors.ts'
import type { RequestVenue } from './venue-of-request.ts'
import { isVenueOwner, requireVenueAdmin } from './venues.ts'

const ROOM_COLUMNS = ['id', 'venue_id', 'subject_type', 'subject_ref', 'visibility', 'title', 'is_self'] as const

export type RoomRow = Pick<Selectable<Database['rooms']>, (typeof ROOM_COLUMNS)[number]>

export function roomFromRow(r: Omit<RoomRow, 'is_self'>): RoomInfo {
  return { id: r.id, venueId: r.venue_id, subject: { type: r.subject_type, ref: r.subject_ref } as NodeRef, visibility: r.visibility, title: r.title }
}

const noRoom = () => new ApiError(404, 'room-not-found', 'no room with this id')

/**
 * Finds a room without the privacy check (callers that answer outsiders of a private room decide).
 * `self` names the room of the request's venue. A read's venue comes only from a venue key (§4.1 rule 7,
 * §5.6 "room=self on a read needs a venue key"); a write's is its key's, else the venue the session
 * claimed at sign-in (§5.4 keyless, §5.6 "Join and leave work only for the session's own venue's room").
 */
export async function findRoom(ctx: ServiceContext, roomParam: string, venue: RequestVenue): Promise<RoomRow> {
  let row: RoomRow | undefined
  if (roomParam === 'self') {
    if (venue.refusedKey) throw venue.refusedKey
    if (!venue.venueId)
      throw new ApiError(401, 'venue-key-required', 'room=self needs a venue key (X-Venue-Key) naming the venue whose room it is; a write may instead come from a session signed in for that venue')
    row = await ctx.db.selectFrom('rooms').select(ROOM_COLUMNS).where('venue_id', '=', venue.venueId).where('is_self', '=', true).executeTakeFirst()
  } else {
    row = await roomById(ctx, roomParam)
  }
  if (!row) throw noRoom()
  return row
}

/** A room by its id, as stored (no privacy check); undefined when there is none. */
export const roomById = (ctx: ServiceContext, id: string): Promise<RoomRow | undefined> =>
  ctx.db.selectFrom('rooms').select(ROOM_COLUMNS).where('id', '=', id).executeTakeFirst()

/**
 * Resolves a room parameter for a read of its content. A private room an outsider cannot see answers
 * 404, so its existence is not confirmed (§7); an unknown room is looked at with the same statements, so
 * the time of the answer does not tell the two apart either.
 */
export async function resolveRoom(ctx: ServiceContext, roomParam: string, venue: RequestVenue, caller: Caller | null): Promise<RoomInfo> {
  const row = await findRoom(ctx, roomParam, venue).catch(async (err) => {
    if (err instanceof ApiError && err.code === 'room-not-found') await canSeePrivateRoom(ctx, roomParam, '', caller)
    throw err
  })
  if (row.visibility === 'private' && !(await canSeePrivateRoom(ctx, row.id, row.venue_id, caller))) throw noRoom()
  return roomFromRow(row)
}

/**
 * Members, the venue's owner and operators see a private room. `db`: the transaction to read in, when the
 * caller holds one (PGlite serves one connection: a read on `ctx.db` would wait for the transaction's end).
 */
export async function canSeePrivateRoom(ctx: ServiceContext, roomId: string, venueId: string, caller: Caller | null, db: Kysely<Database> = ctx.db): Promise<boolean> {
  return (await whoSeesPrivateRoom(ctx, roomId, venueId, [caller], db))[0]
}

/** `canSeePrivateRoom` for many callers at once (the stream's gate decides a delivery for every socket), in order. */
export async function whoSeesPrivateRoom(ctx: ServiceContext, roomId: string, venueId: string, callers: (Caller | null)[], db: Kysely<Database> = ctx.db): Promise<boolean[]> {
  const asking = callers.filter((c): c is Caller => !!c && !c.operator)
  if (!asking.length) return callers.map((c) => !!c?.operator)
  const owner = (await db.selectFrom('venues').select('owner_account_id').where('id', '=', venueId).executeTakeFirst())?.owner_account_id
  const members = await activeMembers(
    db,
    roomId,
    asking.map((c) => c.accountId).filter((a) => a !== owner),
  )
  return callers.map((c) => !!c && (c.operator || c.accountId === owner || members.has(c.accountId)))
}

/** Which of these accounts are the room's active members (joined, not left). */
export async function activeMembers(db: Kysely<Database>, roomId: string, accounts: string[]): Promise<Set<string>> {
  const ids = [...new Set(accounts)]
  if (!ids.length) return new Set()
  const rows = await db.selectFrom('room_members').select('account_id').where('room_id', '=', roomId).where('left_at', 'is', null).where('account_id', 'in', ids).execute()
  return new Set(rows.map((r) => r.account_id))
}

export interface NewRoom {
  venueId: string
  subjectType: NodeType
  subjectRef: string
  visibility: 'public' | 'private'
  title: string
  self: boolean
}

/**
 * Creates a room for a venue. Only the venue's owner does (operators moderate, they don't run venues).
 * The owner is its first member, so a private room has someone who can post and add members.
 * A venue has one `self` room (created with the claim); asking for a second is 409.
 */
export async function createRoom(ctx: ServiceContext, caller: Caller, input: NewRoom): Promise<RoomInfo> {
  const v = await ctx.db.selectFrom('venues').select('owner_account_id').where('id', '=', input.venueId).executeTakeFirst()
  if (!v || v.owner_account_id !== caller.accountId) throw new ApiError(403, 'forbidden', "only the venue's owner creates its rooms")
  const id = timeId('r_')
  const now = ctx.now()
  await ctx.db.transaction().execute(async (tx) => {
    const ins = await tx
      .insertInto('rooms')
      .values({
        id,
        venue_id: input.venueId,
        subject_type: input.subjectType,
        subject_ref: input.subjectRef,
        visibility: input.visibility,
        title: input.title,
        is_self: input.self,
        created_at: now,
      })
      .onConflict((oc) => oc.column('venue_id').where(sql<boolean>`is_self`).doNothing())
      .returning('id')
      .executeTakeFirst()
    if (!ins) throw new ApiError(409, 'conflict', 'this venue already has its self room')
    await tx.insertInto('room_members').values({ room_id: id, account_id: caller.accountId, joined_at: now }).execute()
  })
  return roomFromRow({ id, venue_id: input.venueId, subject_type: input.subjectType, subject_ref: input.subjectRef, visibility: input.visibility, title: input.title })
}

/** A venue's rooms: public ones for everyone, private ones only for those who may see them. */
export async function listRooms(ctx: ServiceContext, venueId: string, caller: Caller | null): Promise<RoomInfo[]> {
  const rows = await ctx.db.selectFrom('rooms').select(ROOM_COLUMNS).where('venue_id', '=', venueId).orderBy('created_at').orderBy('id').execute()
  const out: RoomInfo[] = []
  for (const r of rows) {
    if (r.visibility === 'private' && !(await canSeePrivateRoom(ctx, r.id, r.venue_id, caller))) continue
    out.push(roomFromRow(r))
  }
  return out
}

/** Whether the caller administers the room (`requireRoomAdmin`'s rule, without the error): its venue's owner or an operator. */
export async function isRoomAdmin(ctx: ServiceContext, caller: Caller, room: RoomRow): Promise<boolean> {
  return caller.operator || (await isVenueOwner(ctx, caller, room.venue_id))
}

/** For room-admin writes (adding or removing members): the room's venue owner or an operator. */
export async function requireRoomAdmin(ctx: ServiceContext, caller: Caller, room: RoomRow): Promise<void> {
  await requireVenueAdmin(ctx, caller, room.venue_id, "only the venue's owner manages this room's members")
}
