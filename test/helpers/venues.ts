/** Test helpers for venues, keys, rooms and moderation (issue 3). */
import assert from 'node:assert/strict'
import { randomHex } from '../../src/core/ids.ts'
import { call, signIn, type TestUser } from './service.ts'

/** A fresh, claimable venue id. */
export const newVenueId = (prefix = 'v') => `${prefix}-${randomHex(5)}`

export interface Venue {
  venueId: string
  key: string
  owner: TestUser
  selfRoomId: string
}

/** Signs in an owner on a new venue id and claims it with a read + trade key. */
export async function claimVenue(svc: { url: string }, venueId = newVenueId(), owner?: TestUser): Promise<Venue> {
  const o = owner ?? (await signIn(svc, undefined, venueId))
  const r = await call(svc, 'POST', '/admin/keys', { token: o.token, body: { venueId, scopes: ['read', 'trade'], label: 'web' } })
  assert.equal(r.status, 201, JSON.stringify(r.body))
  const self = await call(svc, 'GET', '/v1/rooms/self', { key: r.body.key })
  assert.equal(self.status, 200, JSON.stringify(self.body))
  return { venueId, key: r.body.key, owner: o, selfRoomId: self.body.room.id }
}

export async function createRoom(
  svc: { url: string },
  v: Venue,
  over: { subjectType?: string; subjectRef?: string; visibility?: 'public' | 'private'; title?: string } = {},
): Promise<string> {
  const r = await call(svc, 'POST', '/v1/rooms', {
    token: v.owner.token,
    body: { venueId: v.venueId, subjectType: over.subjectType ?? 'category', subjectRef: over.subjectRef ?? `node-${randomHex(4)}`, visibility: over.visibility ?? 'public', title: over.title ?? 'A room' },
  })
  assert.equal(r.status, 201, JSON.stringify(r.body))
  return r.body.room.id
}

export async function post(svc: { url: string }, u: TestUser, body: Record<string, unknown>) {
  return call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'topic', subjectRef: 'chatter', body: 'hello', ...body } })
}
