/** Venue key issuance (§4.1 `POST /admin/keys`, §5.5): signed in; claims an unheld venue id on the way. */
import { Hono } from 'hono'
import { z } from 'zod'
import { SERVICE_PATHS } from '../../contract/paths.ts'
import { requireCaller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { parseBody, zText, zWallet } from '../http/validate.ts'
import { issueKey } from '../services/venues.ts'

const zKeyRequest = z.strictObject({
  venueId: z.string(),
  scopes: z.array(z.string().max(40), { message: 'must be an array of read, trade' }).max(8, 'must name read and/or trade'),
  label: zText(80),
  /** Operators only: allocate the venue to this wallet's account (§5.5 operator-allocated ids). */
  owner: zWallet.optional(),
})

export function keyRoutes(ctx: ServiceContext) {
  const app = new Hono()

  app.post(SERVICE_PATHS.adminKeys, async (c) => {
    const caller = await requireCaller(ctx, c)
    const body = await parseBody(c, zKeyRequest)
    return c.json(await issueKey(ctx, caller, body), 201)
  })

  return app
}
