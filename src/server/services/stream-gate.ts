/**
 * Who may follow a stream topic (realtime/hub.ts). Thread topics are public, as thread reads are. A room's
 * topics (`room:<roomId>:thread:…`) follow the room's read rules (§7): a public room's are open to anyone; a
 * private room's only to a session that may read it (an active member, the venue's owner, an operator).
 * Anything else, an unknown room included, is refused alike (with the same statements), so a refusal does not
 * confirm that a private room exists. The hub asks again before each delivery of a room topic, so a member who
 * leaves, is removed or signs out stops hearing the room at its next change.
 * A private room's change on the plain thread (`private:<roomId>:thread:…`, asked for the plain thread's
 * followers) passes only for the room's active members: the plain thread shows a private room's posts to its
 * members alone (visibility.ts), not to its venue's owner or an operator, who follow the room's own topic.
 */
import { privateRoomChangeOf, roomOfTopic } from '../../contract/paths.ts'
import { callersOfTokens } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { activeMembers, whoSeesPrivateRoom } from './rooms.ts'

/**
 * For one topic, whether each of these sessions (the tokens the subscribe messages carried, or null) may
 * follow it, in order. One call decides a delivery for every socket of the instance at once.
 */
export type TopicGate = (topic: string, tokens: (string | null)[]) => Promise<boolean[]>


export function streamGate(ctx: ServiceContext): TopicGate {
  return async (topic, tokens) => {
    const all = (ok: boolean) => tokens.map(() => ok)
    const change = privateRoomChangeOf(topic)
    if (change) {
      const callers = await callersOfTokens(ctx, new Set(tokens.filter((t): t is string => !!t)))
      const members = await activeMembers(
        ctx.db,
        change.roomId,
        [...callers.values()].map((c) => c.accountId),
      )
      return tokens.map((t) => !!t && members.has(callers.get(t)?.accountId ?? ''))
    }
    const roomId = roomOfTopic(topic)
    if (!roomId) return all(!topic.startsWith('room:'))
    const room = await ctx.db.selectFrom('rooms').select(['id', 'venue_id', 'visibility']).where('id', '=', roomId).executeTakeFirst()
    if (room && room.visibility !== 'private') return all(true)
    // An unknown room is looked at as a private one is (the same statements), so the time of the answer does
    // not tell the two apart either.
    const callers = await callersOfTokens(ctx, new Set(tokens.filter((t): t is string => !!t)))
    const sees = await whoSeesPrivateRoom(ctx, roomId, room?.venue_id ?? '', tokens.map((t) => (t && callers.get(t)) || null))
    return room ? sees : all(false)
  }
}
