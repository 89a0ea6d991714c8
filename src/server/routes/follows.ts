/** Follow state of a subject (§2.12 `useFollow`): read signed out (following: false), write with a session. */
import { Hono, type Context } from 'hono'
import { requireCaller, resolveCaller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { checkSubject, parseParam, parseQuery, zNoQuery, zSubjectType } from '../http/validate.ts'
import { follow, followState, unfollow } from '../services/follows.ts'

/** PATHS.follow(subjectType, subjectRef) */
const PATH = '/v1/social/follows/:subjectType/:subjectRef'

/** The subject named by the path; no query parameters are accepted. */
function subjectOf(c: Context) {
  parseQuery(c, [], zNoQuery)
  const subjectType = parseParam(c, 'subjectType', zSubjectType)
  const subjectRef = checkSubject(subjectType, c.req.param('subjectRef') ?? '')
  return { subjectType, subjectRef }
}

export function followRoutes(ctx: ServiceContext) {
  const app = new Hono()

  app.get(PATH, async (c) => {
    const { subjectType, subjectRef } = subjectOf(c)
    const caller = await resolveCaller(ctx, c, false)
    return c.json(await followState(ctx, caller?.accountId ?? null, subjectType, subjectRef))
  })

  app.put(PATH, async (c) => {
    const { subjectType, subjectRef } = subjectOf(c)
    const caller = await requireCaller(ctx, c)
    return c.json(await follow(ctx, caller.accountId, subjectType, subjectRef))
  })

  app.delete(PATH, async (c) => {
    const { subjectType, subjectRef } = subjectOf(c)
    const caller = await requireCaller(ctx, c)
    return c.json(await unfollow(ctx, caller.accountId, subjectType, subjectRef))
  })

  return app
}
