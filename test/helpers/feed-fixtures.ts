/** Fixtures for the ranked feed and for-you tests: posts, rooms, venue keys, settled records. */
import assert from 'node:assert/strict'
import { randomHex } from '../../src/core/ids.ts'
import { sha256 } from '../../src/server/auth/tokens.ts'
import type { NodeRef, Post } from '../../src/contract/types.ts'
import { addMarket, call, signIn, type CallResult, type TestService, type TestUser } from './service.ts'

/** A node key no other test uses. */
export const uniqueRef = (prefix: string) => `${prefix}-${randomHex(4)}`

export async function accountOf(svc: TestService, wallet: string): Promise<string> {
  const r = await svc.ctx.db.selectFrom('wallets').select('account_id').where('address', '=', wallet.toLowerCase()).executeTakeFirstOrThrow()
  return r.account_id
}

export async function writePost(
  svc: TestService,
  user: TestUser,
  subjectType: string,
  subjectRef: string,
  body = 'a post',
  extra: { parentId?: string; room?: string; key?: string } = {},
): Promise<Post> {
  const { key, ...rest } = extra
  const r = await call(svc, 'POST', '/v1/social/posts', { token: user.token, key, body: { subjectType, subjectRef, body, ...rest } })
  assert.equal(r.status, 201, JSON.stringify(r.body))
  return r.body.post
}

export function feedPath(query: Record<string, string | number | undefined>, path = '/v1/social/posts/feed'): string {
  const qs = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, String(v))
  const s = qs.toString()
  return s ? `${path}?${s}` : path
}

export async function feed(svc: TestService, query: Record<string, string | number | undefined> = {}, opts: { token?: string; key?: string } = {}): Promise<CallResult> {
  return call(svc, 'GET', feedPath(query), opts)
}

/** Every page of a feed, following nextCursor. */
export async function allPages(svc: TestService, query: Record<string, string | number | undefined>, opts: { token?: string; key?: string } = {}) {
  const pages: any[] = []
  let cursor: string | undefined
  for (let i = 0; i < 200; i++) {
    const r = await feed(svc, { ...query, cursor }, opts)
    assert.equal(r.status, 200, JSON.stringify(r.body))
    pages.push(r.body)
    if (!r.body.nextCursor) return pages
    cursor = r.body.nextCursor
  }
  throw new Error('feed did not end')
}

export async function makeVenue(svc: TestService, ownerAccount: string | null = null): Promise<string> {
  const id = `venue-${randomHex(4)}`
  await svc.ctx.db.insertInto('venues').values({ id, owner_account_id: ownerAccount, sponsorship_grant: false }).execute()
  return id
}

export async function makeRoom(
  svc: TestService,
  o: { venueId?: string; subject: NodeRef; visibility?: 'public' | 'private'; members?: TestUser[]; isSelf?: boolean },
): Promise<{ roomId: string; venueId: string }> {
  const venueId = o.venueId ?? (await makeVenue(svc))
  const roomId = `r_${randomHex(6)}`
  await svc.ctx.db
    .insertInto('rooms')
    .values({
      id: roomId,
      venue_id: venueId,
      subject_type: o.subject.type,
      subject_ref: o.subject.ref,
      visibility: o.visibility ?? 'public',
      title: `Room on ${o.subject.ref}`,
      is_self: !!o.isSelf,
    })
    .execute()
  for (const m of o.members ?? []) await svc.ctx.db.insertInto('room_members').values({ room_id: roomId, account_id: await accountOf(svc, m.wallet) }).execute()
  return { roomId, venueId }
}

export async function makeVenueKey(svc: TestService, venueId: string): Promise<string> {
  const key = `pck_${randomHex(32)}`
  await svc.ctx.db
    .insertInto('venue_keys')
    .values({ id: `k_${randomHex(6)}`, venue_id: venueId, key_hash: sha256(key), scopes: JSON.stringify(['read', 'trade']), label: 'test' })
    .execute()
  return key
}

/**
 * Settles takes for a user at a category, through the real path: a market on that category, a
 * position, a take, then the resolution (records are recomputed on resolve).
 */
export async function settleTakes(svc: TestService, user: TestUser, category: string, o: { right: number; wrong: number }) {
  for (let i = 0; i < o.right + o.wrong; i++) {
    const m = await addMarket(svc, { title: `settled ${category} ${i}`, nodes: [{ type: 'category', ref: category }] })
    await svc.chain.setPosition(user.wallet, m.id, 0, 10n)
    await writePost(svc, user, 'event', m.id, 'my call')
    await svc.chain.resolve(m.id, i < o.right ? 0 : 1)
  }
}

export { signIn }
