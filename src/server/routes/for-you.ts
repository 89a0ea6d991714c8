/** `GET /v1/social/for-you`: the discovery rail (§2.3, §4.2 `forYou`). */
import { Hono } from 'hono'
import { z } from 'zod'
import type { NodeType } from '../../contract/ids.ts'
import { FOR_YOU_PARAMS } from '../../contract/params.ts'
import { PATHS } from '../../contract/paths.ts'
import type { NodeRef } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { resolveCaller } from '../auth/session.ts'
import { ApiError } from '../http/errors.ts'
import { checkSubject, parseQuery, zLimit, zRoom, zSubjectRef, zSubjectType } from '../http/validate.ts'
import { FOR_YOU_DEFAULT_LIMIT, forYouRail } from '../services/for-you.ts'
import { resolveRoom } from '../services/rooms.ts'
import { venueOfRead } from '../services/venue-of-request.ts'

const forYouQuery = z.object({
  room: zRoom.optional(),
  subjectType: zSubjectType.optional(),
  subjectRef: zSubjectRef.optional(),
  limit: zLimit.optional(),
})

export function forYouRoutes(ctx: ServiceContext) {
  const app = new Hono()

  app.get(PATHS.forYou, async (c) => {
    const q = parseQuery(c, FOR_YOU_PARAMS, forYouQuery)
    const nodes: NodeRef[] = []
    let except: string | undefined
    if ((q.subjectType === undefined) !== (q.subjectRef === undefined)) {
      const missing = q.subjectType === undefined ? 'subjectType' : 'subjectRef'
      throw new ApiError(400, 'validation-failed', `a subject needs both 'subjectType' and 'subjectRef'; '${missing}' is missing`, { param: missing })
    }
    if (q.subjectType === 'event') {
      // A market: the markets around it (its facet's), not itself. An unknown market narrows nothing (reads fail open).
      except = checkSubject(q.subjectType, q.subjectRef!)
      const facet = (await ctx.chain.markets([except])).get(except)?.facet
      if (facet) nodes.push(facet)
    } else if (q.subjectType !== undefined) nodes.push({ type: q.subjectType as NodeType, ref: checkSubject(q.subjectType, q.subjectRef!) })
    const caller = await resolveCaller(ctx, c, false)
    if (q.room) nodes.push((await resolveRoom(ctx, q.room, await venueOfRead(ctx, c), caller)).subject)
    return c.json(
      await forYouRail(ctx, {
        reader: caller ? { accountId: caller.accountId, wallets: caller.wallets } : null,
        nodes,
        except,
        limit: q.limit ?? FOR_YOU_DEFAULT_LIMIT,
      }),
    )
  })

  return app
}
