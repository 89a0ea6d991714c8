/**
 * Fixtures for read tests: posts written through the real write path, and venues, rooms, members,
 * keys, hides and bans stored directly (their own routes are tested elsewhere).
 */
import { randomHex } from '../../src/core/ids.ts'
import { sha256 } from '../../src/server/auth/tokens.ts'
import { call, type TestService, type TestUser } from './service.ts'

export async function writePost(
  svc: TestService,
  u: TestUser,
  subjectType: string,
  subjectRef: string,
  body: string,
  extra: { parentId?: string; room?: string; key?: string } = {},
) {
  const { key, ...rest } = extra
  const r = await call(svc, 'POST', '/v1/social/posts', { token: u.token, key, body: { subjectType, subjectRef, body, ...rest } })
  if (r.status !== 201) throw new Error(`post failed ${r.status} ${JSON.stringify(r.body)}`)
  return r.body.post as { id: string; stance?: { side: number }; author: string; marketId?: string }
}

export async function accountOf(svc: TestService, wallet: string): Promise<string> {
  const r = await svc.ctx.db.selectFrom('wallets').select('account_id').where('address', '=', wallet.toLowerCase()).executeTakeFirstOrThrow()
  return r.account_id
}

export const newVenueId = () => `venue-${randomHex(4)}`

export async function makeVenue(svc: TestService, id = newVenueId(), owner: string | null = null) {
  await svc.ctx.db.insertInto('venues').values({ id, owner_account_id: owner, created_at: new Date(), sponsorship_grant: false, policy: null }).execute()
  return id
}

export async function makeRoom(
  svc: TestService,
  o: { venueId: string; visibility?: 'public' | 'private'; subjectType?: string; subjectRef?: string; isSelf?: boolean },
) {
  const id = `r_${randomHex(6)}`
  await svc.ctx.db
    .insertInto('rooms')
    .values({
      id,
      venue_id: o.venueId,
      subject_type: o.subjectType ?? 'category',
      subject_ref: o.subjectRef ?? 'weather',
      visibility: o.visibility ?? 'public',
      title: 'Room',
      is_self: o.isSelf ?? false,
      created_at: new Date(),
    })
    .execute()
  return id
}

export async function addMember(svc: TestService, roomId: string, u: TestUser) {
  await svc.ctx.db.insertInto('room_members').values({ room_id: roomId, account_id: await accountOf(svc, u.wallet), joined_at: new Date() }).execute()
}

/** A raw venue key for the venue, stored as its hash. */
export async function issueKey(svc: TestService, venueId: string) {
  const key = `pck_${randomHex(32)}`
  await svc.ctx.db
    .insertInto('venue_keys')
    .values({ id: `k_${randomHex(6)}`, venue_id: venueId, key_hash: sha256(key), scopes: JSON.stringify(['read', 'trade']), label: 'test', created_at: new Date() })
    .execute()
  return key
}

export async function setState(svc: TestService, postId: string, state: 'visible' | 'hidden' | 'removed') {
  await svc.ctx.db.updateTable('posts').set({ state }).where('id', '=', postId).execute()
}

export async function venueHide(svc: TestService, venueId: string, postId: string) {
  await svc.ctx.db.insertInto('venue_hides').values({ venue_id: venueId, post_id: postId, by_account: 'op', at: new Date() }).execute()
}

export async function ban(svc: TestService, scope: string, u: TestUser) {
  await svc.ctx.db.insertInto('bans').values({ scope, account_id: await accountOf(svc, u.wallet), by_account: 'op', at: new Date() }).execute()
}

export async function block(svc: TestService, reader: TestUser, author: TestUser) {
  const r = await call(svc, 'POST', '/v1/social/blocks', { token: reader.token, body: { wallet: author.wallet } })
  if (r.status !== 200) throw new Error(`block failed ${r.status}`)
}

/** Links a fresh wallet to the user's account through the real SIWE link flow. */
export async function linkWallet(svc: TestService, u: TestUser, account: { address: string; signMessage(a: { message: string }): Promise<string> }) {
  const n = await call(svc, 'POST', '/v1/auth/nonce', { body: { address: account.address } })
  const signature = await account.signMessage({ message: n.body.message })
  const l = await call(svc, 'POST', '/v1/auth/link', { token: u.token, body: { message: n.body.message, signature } })
  if (l.status !== 200) throw new Error(`link failed ${l.status}`)
  return account.address.toLowerCase()
}
