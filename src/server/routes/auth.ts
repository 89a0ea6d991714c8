/** Sign-in, wallet linking, sign-out and the caller's own identity. */
import { Hono } from 'hono'
import { z } from 'zod'
import { PATHS, SERVICE_PATHS } from '../../contract/paths.ts'
import type { MeResult } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { parseBody, zText, zVenueId, zWallet } from '../http/validate.ts'
import { checkSignedMessage, consumeNonce, createSession, issueNonce, requireCaller } from '../auth/session.ts'
import { profilesFor } from '../services/profiles.ts'
import { linkWallet } from '../services/accounts.ts'
import { venueKeyOf } from '../services/venue-of-request.ts'

const zSignature = z.string().regex(/^0x[0-9a-fA-F]{130,}$/, 'must be a hex signature')
const nonceBody = z.strictObject({ address: zWallet })
const verifyBody = z.strictObject({ message: z.string().min(1).max(4000), signature: zSignature, venueId: zVenueId.nullish() })
const linkBody = z.strictObject({ message: z.string().min(1).max(4000), signature: zSignature })
const profileBody = z.strictObject({
  name: zText(40).nullable().optional(),
  avatarUrl: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters')
    .nullable()
    .optional(),
})

export function authRoutes(ctx: ServiceContext) {
  const app = new Hono()

  app.post(PATHS.authNonce, async (c) => {
    const body = await parseBody(c, nonceBody)
    return c.json(await issueNonce(ctx, body.address))
  })

  app.post(PATHS.authVerify, async (c) => {
    const body = await parseBody(c, verifyBody)
    // §5.3 a live key "binds the venue at the gateway": a keyed sign-in's session is the key's venue's, and a
    // claim of another venue is refused (§5.4: the client's claim binds only without a key).
    const keyed = await venueKeyOf(ctx, c)
    if (keyed && body.venueId && body.venueId !== keyed.venueId)
      throw new ApiError(400, 'validation-failed', `'venueId' must be the venue key's own venue ('${keyed.venueId}'), or left out`, { param: 'venueId' })
    // The nonce is consumed with the session (one transaction): a sign-in that fails leaves the signed message usable.
    const signed = await checkSignedMessage(ctx, body.message, body.signature)
    return c.json(await createSession(ctx, signed.wallet, keyed?.venueId ?? body.venueId ?? null, signed.nonce))
  })

  app.post(PATHS.authLink, async (c) => {
    const caller = await requireCaller(ctx, c)
    const body = await parseBody(c, linkBody)
    // The nonce is consumed in the link's transaction: a link that fails leaves the signed message usable.
    const { wallet, nonce } = await checkSignedMessage(ctx, body.message, body.signature)
    if (!(await linkWallet(ctx.db, wallet, caller.accountId, ctx.now(), (tx) => consumeNonce(ctx, tx, nonce)))) {
      throw new ApiError(409, 'wallet-linked', 'this wallet already belongs to another account')
    }
    const wallets = await ctx.db.selectFrom('wallets').select('address').where('account_id', '=', caller.accountId).orderBy('linked_at').execute()
    return c.json({ accountId: caller.accountId, wallets: wallets.map((w) => w.address) })
  })

  app.post(PATHS.authSignOut, async (c) => {
    const caller = await requireCaller(ctx, c)
    await ctx.db.updateTable('sessions').set({ revoked_at: ctx.now() }).where('token_hash', '=', caller.tokenHash).execute()
    return c.json({ signedOut: true })
  })

  app.get(PATHS.me, async (c) => {
    const caller = await requireCaller(ctx, c)
    const profiles = await profilesFor(ctx, [caller.wallet])
    const me: MeResult = {
      accountId: caller.accountId,
      wallet: caller.wallet,
      wallets: caller.wallets,
      venueId: caller.venueId,
      operator: caller.operator,
      profile: profiles[caller.wallet],
    }
    return c.json(me)
  })

  app.put(SERVICE_PATHS.myProfile, async (c) => {
    const caller = await requireCaller(ctx, c)
    const body = await parseBody(c, profileBody)
    await ctx.db
      .insertInto('profiles')
      .values({ account_id: caller.accountId, name: body.name ?? null, avatar_url: body.avatarUrl ?? null, updated_at: ctx.now() })
      .onConflict((oc) =>
        oc.column('account_id').doUpdateSet({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.avatarUrl !== undefined ? { avatar_url: body.avatarUrl } : {}),
          updated_at: ctx.now(),
        }),
      )
      .execute()
    return c.json((await profilesFor(ctx, [caller.wallet]))[caller.wallet])
  })

  return app
}
