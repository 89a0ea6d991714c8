/** A person's posts (§2.4, §4.2 `postsByAuthor`) and batched profiles (§1.7, §2.12 `useProfiles`). */
import { Hono } from 'hono'
import { z } from 'zod'
import { LIMITS } from '../../contract/limits.ts'
import { PROFILE_POSTS_PARAMS, PROFILES_PARAMS } from '../../contract/params.ts'
import { PATHS } from '../../contract/paths.ts'
import type { ProfilesResult } from '../../contract/types.ts'
import { resolveCaller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import { walletList } from '../http/id-list.ts'
import { decodePostIdCursor } from '../http/id-cursor.ts'
import { parseParam, parseQuery, zBoolParam, zCursor, zLimit, zVenueId, zWallet } from '../http/validate.ts'
import { readAuthorPosts } from '../services/author-posts.ts'
import { profilesFor } from '../services/profiles.ts'
import { readOverlay, venueOfRead } from '../services/venue-of-request.ts'

const zAuthorQuery = z.object({
  /** Default true: takes only (§4.1). `false` gives every post (the Discussion tab). */
  takes: zBoolParam.optional(),
  /** Default false: replies are left out (§2.4). */
  includeReplies: zBoolParam.optional(),
  venue: zVenueId.optional(),
  limit: zLimit.optional(),
  cursor: zCursor.optional(),
})
const profilesQuery = z.object({ wallets: z.string().optional() })

export function profileRoutes(ctx: ServiceContext) {
  const app = new Hono()

  app.get('/v1/social/profile/:wallet/posts', async (c) => {
    const wallet = parseParam(c, 'wallet', zWallet)
    const q = parseQuery(c, PROFILE_POSTS_PARAMS, zAuthorQuery)
    const after = decodePostIdCursor(q.cursor)
    const caller = await resolveCaller(ctx, c, false)
    const result = await readAuthorPosts(ctx, caller?.accountId ?? null, wallet, {
      takes: q.takes ?? true,
      includeReplies: q.includeReplies ?? false,
      venue: readOverlay(q.venue, await venueOfRead(ctx, c)),
      limit: q.limit ?? LIMITS.pageDefault,
      after,
    })
    return c.json(result)
  })

  app.get(PATHS.profiles, async (c) => {
    const q = parseQuery(c, PROFILES_PARAMS, profilesQuery)
    const wallets = walletList(q.wallets)
    const result: ProfilesResult = { profiles: await profilesFor(ctx, wallets) }
    return c.json(result)
  })

  return app
}
