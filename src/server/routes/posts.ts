/** Post writes: create, edit, delete, react, report; and block / unblock. Reads live in their own modules. */
import { Hono, type Context } from 'hono'
import { z } from 'zod'
import { LIMITS, hasVisibleText } from '../../contract/limits.ts'
import { PATHS } from '../../contract/paths.ts'
import type { ServiceContext } from '../context.ts'
import { requireCaller } from '../auth/session.ts'
import { walletOwner, withWalletAccount } from '../services/accounts.ts'
import { ApiError, notFound } from '../http/errors.ts'
import { checkSubject, parseParam, parseQuery, parseValues, readJson, zMarketId, zNoQuery, zPostId, zRoom, zSubjectType, zText, zWallet, noNul, wellFormed, WELL_FORMED } from '../http/validate.ts'
import type { MyStanceResult } from '../../contract/types.ts'
import { provenStance } from '../chain/source.ts'
import { createPost, deletePost, editPost, reactPost, reportPost } from '../services/posts.ts'
import { placeInRoom } from '../services/room-placement.ts'
import { venueOfRequest } from '../services/venue-of-request.ts'

export const zBody = z
  .string({ message: 'must be a string' })
  .transform((s) => s.trim())
  .pipe(
    z
      .string()
      .refine(hasVisibleText, 'must not be empty')
      .max(LIMITS.bodyMaxChars, `must be at most ${LIMITS.bodyMaxChars} characters`)
      .refine(noNul, 'must not contain NUL characters')
      .refine(wellFormed, WELL_FORMED),
  )
const zReason = zText(LIMITS.reasonMaxChars)
const createPostBody = z.strictObject({
  subjectType: zSubjectType,
  subjectRef: z.string({ message: 'must be a string' }).max(200),
  body: zBody,
  parentId: zPostId.nullish(),
  room: zRoom.nullish(),
})
const editPostBody = z.strictObject({ body: zBody })
const reactionBody = z.strictObject({ kind: z.literal('agree', { message: "must be 'agree'" }), active: z.boolean({ message: 'must be true or false' }) })
const reportBody = z.strictObject({ reason: zReason })
const blockBody = z.strictObject({ wallet: zWallet })

/** The server proves the stance: a request that carries one is refused (§1.4, §4.5.2). */
async function bodyWithoutStance(c: Context) {
  const raw = (await readJson(c)) as Record<string, unknown>
  if ('stance' in raw) throw new ApiError(400, 'stance-not-accepted', 'the server proves the stance from your position; a request must not carry one')
  return raw
}

export function postRoutes(ctx: ServiceContext) {
  const app = new Hono()

  // What a post written now would carry (the take prompt says so when it is not the side just bought).
  app.get('/v1/me/stance/:id', async (c) => {
    parseQuery(c, [], zNoQuery)
    const caller = await requireCaller(ctx, c)
    const id = parseParam(c, 'id', zMarketId)
    const facts = await ctx.chain.stanceOf(caller.wallets, id)
    if (!facts.market) throw notFound('no market with this id', 'market-not-found')
    return c.json({ marketId: facts.market.id, stance: provenStance(facts) } satisfies MyStanceResult)
  })

  app.post(PATHS.posts, async (c) => {
    const caller = await requireCaller(ctx, c)
    const raw = await bodyWithoutStance(c)
    const b = parseValues(createPostBody, raw)
    const subjectRef = checkSubject(b.subjectType, b.subjectRef)
    const venue = await venueOfRequest(ctx, c, caller)
    const room = b.room ? await placeInRoom(ctx, caller, b.room, venue, { subjectType: b.subjectType, subjectRef }) : null
    const post = await createPost(ctx, caller, { subjectType: b.subjectType, subjectRef, body: b.body, parentId: b.parentId ?? null }, room, venue.venueId)
    return c.json({ post }, 201)
  })

  app.patch('/v1/social/posts/:id', async (c) => {
    const caller = await requireCaller(ctx, c)
    const id = parseParam(c, 'id', zPostId)
    const raw = await bodyWithoutStance(c)
    const b = parseValues(editPostBody, raw)
    return c.json({ post: await editPost(ctx, caller, id, b.body, (await venueOfRequest(ctx, c, caller)).venueId) })
  })

  app.delete('/v1/social/posts/:id', async (c) => {
    const caller = await requireCaller(ctx, c)
    const id = parseParam(c, 'id', zPostId)
    await deletePost(ctx, caller, id)
    return c.json({ deleted: true, postId: id })
  })

  app.post('/v1/social/posts/:id/reactions', async (c) => {
    const caller = await requireCaller(ctx, c)
    const id = parseParam(c, 'id', zPostId)
    const b = parseValues(reactionBody, await readJson(c))
    return c.json(await reactPost(ctx, caller, id, b.kind, b.active))
  })

  app.post('/v1/social/posts/:id/reports', async (c) => {
    const caller = await requireCaller(ctx, c)
    const id = parseParam(c, 'id', zPostId)
    const b = parseValues(reportBody, await readJson(c))
    return c.json(await reportPost(ctx, caller, id, b.reason, (await venueOfRequest(ctx, c, caller)).venueId))
  })

  app.post(PATHS.blocks, async (c) => {
    const caller = await requireCaller(ctx, c)
    const b = parseValues(blockBody, await readJson(c))
    if (caller.wallets.includes(b.wallet)) throw new ApiError(400, 'validation-failed', "you can't block yourself")
    await withWalletAccount(ctx.db, b.wallet, ctx.now(), (tx, target) =>
      tx
        .insertInto('blocks')
        .values({ account_id: caller.accountId, blocked_account_id: target, created_at: ctx.now() })
        .onConflict((oc) => oc.columns(['account_id', 'blocked_account_id']).doNothing())
        .execute(),
    )
    return c.json({ blocked: true, wallet: b.wallet })
  })

  app.delete('/v1/social/blocks/:wallet', async (c) => {
    const caller = await requireCaller(ctx, c)
    const wallet = parseParam(c, 'wallet', zWallet)
    await ctx.db.transaction().execute(async (tx) => {
      const target = await walletOwner(tx, wallet)
      if (target) await tx.deleteFrom('blocks').where('account_id', '=', caller.accountId).where('blocked_account_id', '=', target).execute()
    })
    return c.json({ blocked: false, wallet })
  })

  return app
}
