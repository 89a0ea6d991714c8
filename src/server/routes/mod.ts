/**
 * Moderation routes (§2.10, §4.2 `mod.*`, §5.7): the queue, the eight actions and the audit log.
 * A venue owner moderates their venue (`venueId`); without `venueId` it is the platform, operators only.
 * A reader who cannot moderate gets 403 with "you can't moderate this venue" — never an empty queue.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { LIMITS } from '../../contract/limits.ts'
import { MOD_ACTIONS, MOD_STATES } from '../../contract/params.ts'
import { PATHS, SERVICE_PATHS } from '../../contract/paths.ts'
import type { ModAction } from '../../contract/types.ts'
import { requireCaller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { parseBody, parseParam, parseQuery, zCursor, zLimit, zPostId, zVenueId, zWallet } from '../http/validate.ts'
import { auditPage, moderate, queuePage, requireModerator } from '../services/moderation.ts'

const zAction = z.enum(MOD_ACTIONS, { message: `must be one of ${MOD_ACTIONS.join(', ')}` })
const zModBody = z.strictObject({
  venueId: zVenueId.nullish(),
  postId: zPostId.optional(),
  wallet: zWallet.optional(),
  pinned: z.boolean({ message: 'must be true or false' }).optional(),
})
const modQueueQuery = z.object({
  venueId: zVenueId.optional(),
  state: z.enum(MOD_STATES, { message: "must be 'open' or 'actioned'" }).optional(),
  limit: zLimit.optional(),
  cursor: zCursor.optional(),
})
const modAuditQuery = z.object({ venueId: zVenueId.optional(), limit: zLimit.optional(), cursor: zCursor.optional() })

export function modRoutes(ctx: ServiceContext) {
  const app = new Hono()

  app.get(PATHS.modQueue, async (c) => {
    const q = parseQuery(c, ['venueId', 'state', 'limit', 'cursor'], modQueueQuery)
    const caller = await requireCaller(ctx, c)
    const scope = await requireModerator(ctx, caller, q.venueId ?? null)
    return c.json(await queuePage(ctx, caller, scope, q.state ?? 'open', q.limit ?? LIMITS.pageDefault, q.cursor))
  })

  app.get(SERVICE_PATHS.modAudit, async (c) => {
    const q = parseQuery(c, ['venueId', 'limit', 'cursor'], modAuditQuery)
    const caller = await requireCaller(ctx, c)
    const scope = await requireModerator(ctx, caller, q.venueId ?? null)
    return c.json(await auditPage(ctx, scope, q.limit ?? LIMITS.pageDefault, q.cursor))
  })

  app.post('/v1/mod/:action', async (c) => {
    const action: ModAction = parseParam(c, 'action', zAction)
    const caller = await requireCaller(ctx, c)
    const b = await parseBody(c, zModBody)
    const scope = await requireModerator(ctx, caller, b.venueId ?? null)
    return c.json(await moderate(ctx, caller, scope, { action, venueId: b.venueId ?? null, postId: b.postId, wallet: b.wallet, pinned: b.pinned }))
  })

  return app
}
