/** `GET /v1/social/posts/feed`: the ranked feed (§2.2, §4.1 and its seven rules). */
import { Hono } from 'hono'
import { z } from 'zod'
import { LIMITS } from '../../contract/limits.ts'
import { FEED_PARAMS, FEED_SCOPES, FEED_SORTS } from '../../contract/params.ts'
import { PATHS } from '../../contract/paths.ts'
import type { ServiceContext } from '../context.ts'
import { resolveCaller } from '../auth/session.ts'
import { decodeCursor } from '../http/cursor.ts'
import { ApiError, unauthenticated } from '../http/errors.ts'
import { checkSubject, parseQuery, parseValues, zCursor, zLimit, zRoom, zSubjectRef, zSubjectType, zVenueId } from '../http/validate.ts'
import { CURSOR_SHAPE, readFeed } from '../services/feed.ts'
import { resolveRoom } from '../services/rooms.ts'
import { readOverlay, venueOfRead } from '../services/venue-of-request.ts'

const feedSubject = z.object({ subjectType: zSubjectType, subjectRef: zSubjectRef })
const feedQuery = z.object({
  scope: z.enum(FEED_SCOPES, { message: `must be one of ${FEED_SCOPES.join(', ')}` }).optional(),
  // Checked only when the scope is `subject`: with `global` or `following` they are ignored (rule 3).
  subjectType: z.string().optional(),
  subjectRef: z.string().optional(),
  venue: zVenueId.optional(),
  room: zRoom.optional(),
  sort: z.enum(FEED_SORTS, { message: `must be one of ${FEED_SORTS.join(', ')}` }).optional(),
  limit: zLimit.optional(),
  cursor: zCursor.optional(),
})

export function feedRoutes(ctx: ServiceContext) {
  const app = new Hono()

  app.get(PATHS.feed, async (c) => {
    // Rule 1: any parameter outside FEED_PARAMS (`author` among them) is 400 unsupported-param.
    const q = parseQuery(c, FEED_PARAMS, feedQuery)
    // Rule 2: `subject` when both subjectType and subjectRef are given, otherwise `global`.
    const bothGiven = q.subjectType !== undefined && q.subjectRef !== undefined
    const scope = q.scope ?? (bothGiven ? 'subject' : 'global')
    // Rule 3: a subject with `global` or `following` is ignored.
    let subject: { type: z.output<typeof zSubjectType>; ref: string } | null = null
    if (scope === 'subject') {
      if (!bothGiven) {
        const missing = q.subjectType === undefined ? 'subjectType' : 'subjectRef'
        throw new ApiError(400, 'validation-failed', `scope 'subject' needs both 'subjectType' and 'subjectRef'; '${missing}' is missing`, { param: missing })
      }
      const given = parseValues(feedSubject, { subjectType: q.subjectType, subjectRef: q.subjectRef })
      subject = { type: given.subjectType, ref: checkSubject(given.subjectType, given.subjectRef) }
    }
    // Rule 6: `live` unless `record` is asked for; never implied by `room`.
    const sort = q.sort ?? 'live'
    const cursor = decodeCursor(q.cursor, CURSOR_SHAPE[sort])

    const caller = await resolveCaller(ctx, c, false)
    // Rule 4: following needs a session.
    if (scope === 'following' && !caller) throw unauthenticated("scope 'following' needs a session: sign in to read what you follow")
    const requestVenue = await venueOfRead(ctx, c)
    // Rule 7: room=self is the room of the key's venue (resolveRoom refuses it without a key). Rule 5: room is
    // containment; a private room an outsider cannot see is 404.
    const room = q.room ? await resolveRoom(ctx, q.room, requestVenue, caller) : null
    // Rule 5: `venue` is a moderation overlay; a venue key's own venue applies when no `venue` is named.
    const venue = readOverlay(q.venue, requestVenue)

    return c.json(
      await readFeed(ctx, {
        scope,
        subject,
        room,
        sort,
        limit: q.limit ?? LIMITS.pageDefault,
        cursor,
        reader: caller?.accountId ?? null,
        venue,
      }),
    )
  })

  return app
}
