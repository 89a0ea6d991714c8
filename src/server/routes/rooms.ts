/**
 * Rooms (§2.8, §2.9, §3.3, §5.6): creation by a venue's owner, the venue's room list, one room,
 * membership read, join, leave, the owner's member management, and the board.
 * `:room` is a room id or `self` (the room of the key's venue; needs `X-Venue-Key`).
 */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { NODE_TYPES } from '../../contract/ids.ts'
import { LIMITS } from '../../contract/limits.ts'
import { SERVICE_PATHS } from '../../contract/paths.ts'
import type { Board, NodeRef, RoomList } from '../../contract/types.ts'
import { requireCaller, resolveCaller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { checkSubject, parseBody, parseParam, parseQuery, zCursor, zLimit, zNoQuery, zRoom, zText, zVenueId, zWallet } from '../http/validate.ts'
import { boardPage } from '../services/leaderboard.ts'
import { addMember, headcount, joinRoom, leaveRoom, membershipOf, removeMember } from '../services/membership.ts'
import { createRoom, findRoom, listRooms, requireRoomAdmin, resolveRoom, roomFromRow } from '../services/rooms.ts'
import { venueOfRead, venueOfRequest } from '../services/venue-of-request.ts'

const zNewRoom = z.strictObject({
  venueId: zVenueId.optional(),
  subjectType: z.enum(NODE_TYPES, { message: `must be a taxonomy node type: ${NODE_TYPES.join(', ')}` }),
  subjectRef: z.string().max(200),
  visibility: z.enum(['public', 'private'], { message: "must be 'public' or 'private'" }),
  title: zText(80),
  self: z.boolean({ message: 'must be true or false' }).optional(),
})
const roomListQuery = z.object({ venueId: zVenueId.optional() })
const boardQuery = z.object({ limit: zLimit.optional(), cursor: zCursor.optional() })

/** No query parameters; the room from the path. */
function roomParam(c: Context) {
  parseQuery(c, [], zNoQuery)
  return parseParam(c, 'room', zRoom)
}

export function roomRoutes(ctx: ServiceContext) {
  const app = new Hono()

  app.post(SERVICE_PATHS.rooms, async (c) => {
    const caller = await requireCaller(ctx, c)
    const b = await parseBody(c, zNewRoom)
    const subjectRef = checkSubject(b.subjectType, b.subjectRef)
    const venueId = b.venueId ?? (await venueOfRequest(ctx, c, caller)).venueId
    if (!venueId) throw new ApiError(400, 'validation-failed', "name the room's venue: 'venueId', a venue key, or a session signed in on the venue", { param: 'venueId' })
    const room = await createRoom(ctx, caller, { venueId, subjectType: b.subjectType, subjectRef, visibility: b.visibility, title: b.title, self: b.self ?? false })
    return c.json({ room }, 201)
  })

  app.get(SERVICE_PATHS.rooms, async (c) => {
    const q = parseQuery(c, ['venueId'], roomListQuery)
    const caller = await resolveCaller(ctx, c, false)
    // A read fails open (§5.1): a key that is not live is noted on the answer and ignored (`venueOfRead`),
    // and the list falls back to the venue the session claimed, as a keyless write would name it.
    const read = await venueOfRead(ctx, c)
    const venueId = q.venueId ?? read.venueId ?? caller?.venueId ?? null
    if (!venueId) throw new ApiError(400, 'validation-failed', "name the venue: 'venueId' or a venue key", { param: 'venueId' })
    const body: RoomList = { rooms: await listRooms(ctx, venueId, caller) }
    return c.json(body)
  })

  app.get('/v1/rooms/:room', async (c) => {
    const room = roomParam(c)
    const caller = await resolveCaller(ctx, c, false)
    return c.json({ room: await resolveRoom(ctx, room, await venueOfRead(ctx, c), caller) })
  })

  app.get('/v1/rooms/:room/membership', async (c) => {
    const param = roomParam(c)
    const caller = await resolveCaller(ctx, c, false)
    const room = await findRoom(ctx, param, await venueOfRead(ctx, c))
    return c.json(await membershipOf(ctx, room, caller))
  })

  app.post('/v1/rooms/:room/join', async (c) => {
    const param = roomParam(c)
    const caller = await requireCaller(ctx, c)
    const venue = await venueOfRequest(ctx, c, caller)
    return c.json(await joinRoom(ctx, caller, await findRoom(ctx, param, venue), venue))
  })

  app.post('/v1/rooms/:room/leave', async (c) => {
    const param = roomParam(c)
    const caller = await requireCaller(ctx, c)
    const venue = await venueOfRequest(ctx, c, caller)
    return c.json(await leaveRoom(ctx, caller, await findRoom(ctx, param, venue), venue))
  })

  const memberPath = '/v1/rooms/:room/members/:wallet'
  const memberWrite = (add: boolean) => async (c: Context) => {
    const param = roomParam(c)
    const wallet = parseParam(c, 'wallet', zWallet)
    const caller = await requireCaller(ctx, c)
    const room = await findRoom(ctx, param, await venueOfRequest(ctx, c, caller))
    await requireRoomAdmin(ctx, caller, room)
    if (add) await addMember(ctx, room, wallet)
    else await removeMember(ctx, room, wallet)
    return c.json({ room: roomFromRow(room), wallet, member: add, members: await headcount(ctx, room.id) })
  }
  app.put(memberPath, memberWrite(true))
  app.delete(memberPath, memberWrite(false))

  app.get('/v1/rooms/:room/board', async (c) => {
    const q = parseQuery(c, ['limit', 'cursor'], boardQuery)
    const param = parseParam(c, 'room', zRoom)
    const caller = await resolveCaller(ctx, c, false)
    // A private board read by an outsider is 404 (§7: `notFound`), never 403.
    const room = await resolveRoom(ctx, param, await venueOfRead(ctx, c), caller)
    const facet: NodeRef = room.subject
    const page = await boardPage(ctx, facet, { limit: q.limit ?? LIMITS.pageDefault, cursor: q.cursor, roomId: room.id })
    const body: Board = { room, facet, population: page.population, board: page.entries, members: await headcount(ctx, room.id), nextCursor: page.nextCursor }
    return c.json(body)
  })

  return app
}
