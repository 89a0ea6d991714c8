/**
 * Thread read (§4.2 `posts`, §2.7): one subject's posts, newest first, cursor-paged; and a post's earlier
 * replies, past the newest 50 a thread page folds in (services/replies.ts).
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { LIMITS } from '../../contract/limits.ts'
import { REPLIES_PARAMS, THREAD_PARAMS } from '../../contract/params.ts'
import { PATHS } from '../../contract/paths.ts'
import { resolveCaller } from '../auth/session.ts'
import type { RepliesPage, ThreadPage } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { decodePostIdCursor } from '../http/id-cursor.ts'
import { checkSubject, parseParam, parseQuery, zBoolParam, zCursor, zLimit, zPostId, zRoom, zSubjectRef, zSubjectType, zVenueId } from '../http/validate.ts'
import { readReplies } from '../services/replies.ts'
import { resolveRoom } from '../services/rooms.ts'
import { readThread } from '../services/threads.ts'
import { readOverlay, venueOfRead } from '../services/venue-of-request.ts'

const zThreadQuery = z.object({
  subjectType: zSubjectType,
  subjectRef: zSubjectRef,
  /** Default true: a thread shows its replies folded under their parents. */
  includeReplies: zBoolParam.optional(),
  /** Default false: a recurring market's series thread is merged in only on request. */
  includeSeries: zBoolParam.optional(),
  limit: zLimit.optional(),
  cursor: zCursor.optional(),
  venue: zVenueId.optional(),
  room: zRoom.optional(),
})

const zRepliesQuery = z.object({
  /** A reply id: the replies older than it. */
  before: zPostId.optional(),
  limit: zLimit.optional(),
  venue: zVenueId.optional(),
  /** The parent is folded on a ranked feed: its replies as the feed folds them (no own hidden ones). */
  feed: zBoolParam.optional(),
})

export function threadRoutes(ctx: ServiceContext) {
  const app = new Hono()

  app.get(PATHS.posts, async (c) => {
    const q = parseQuery(c, THREAD_PARAMS, zThreadQuery)
    const subjectRef = checkSubject(q.subjectType, q.subjectRef)
    const after = decodePostIdCursor(q.cursor)
    const caller = await resolveCaller(ctx, c, false)
    // `room` is containment: a private room an outsider cannot see is 404 room-not-found (§7).
    const requestVenue = await venueOfRead(ctx, c)
    const room = q.room ? await resolveRoom(ctx, q.room, requestVenue, caller) : null
    const page = await readThread(ctx, caller?.accountId ?? null, {
      subjectType: q.subjectType,
      subjectRef,
      includeReplies: q.includeReplies ?? true,
      includeSeries: q.includeSeries ?? false,
      limit: q.limit ?? LIMITS.pageDefault,
      after,
      // `venue` is a moderation overlay (§4.1 rule 5); a venue key's own venue applies when none is named (§5.3).
      venue: readOverlay(q.venue, requestVenue),
      roomId: room?.id ?? null,
    })
    return c.json({ ...page, roomId: room?.id ?? null } satisfies ThreadPage)
  })

  app.get('/v1/social/posts/:id/replies', async (c) => {
    const id = parseParam(c, 'id', zPostId)
    const q = parseQuery(c, REPLIES_PARAMS, zRepliesQuery)
    const caller = await resolveCaller(ctx, c, false)
    const page = await readReplies(ctx, caller, id, {
      before: q.before ?? null,
      limit: q.limit ?? LIMITS.repliesPerParent,
      venue: readOverlay(q.venue, await venueOfRead(ctx, c)),
      feed: q.feed ?? false,
    })
    return c.json(page satisfies RepliesPage)
  })

  return app
}
