/** `vk.roomMembership` (§2.8, §3.3) and `vk.roomBoard` (§2.9) against the reference service. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { MSG } from '../../src/contract/errors.ts'
import { HttpError } from '../../src/sdk/errors.ts'
import { freshRef } from '../sdk/harness.ts'
import { mount, page, signInOn, spyFetch, startEnv, tick, until, type Env } from './helpers.ts'

let env: Env
before(async () => {
  env = await startEnv()
})
after(() => env.svc.close())

describe('roomMembership (§2.8, §3.3)', () => {
  it('§4.5.3 "do not draw Join when member === null": member is null while loading and signed out, false for a signed-in non-member, true after join', async (t) => {
    const venue = await env.h.venue()
    const vk = page(env, { config: { apiKey: venue.key } })
    t.after(() => vk.dispose())
    const s = vk.roomMembership()
    assert.equal(s, vk.roomMembership('self'), "room defaults to 'self'")
    const off = mount(s)
    assert.equal(s.get().member, null, 'null while loading')
    let v = await until(s, (v) => !v.loading && !!v.room)
    assert.equal(v.member, null, 'null signed out (unknown)')
    await signInOn(vk, env)
    v = await until(s, (v) => v.member === false, 5000, 'member false once signed in')
    assert.equal(v.room!.venueId, venue.venueId)
    const members = v.members!
    const r = await v.join()
    assert.equal(r.member, true)
    v = await until(s, (v) => v.member === true)
    assert.equal(v.members, members + 1)
    assert.equal(v.refused, false)
    assert.equal(v.error, null)
    await v.leave()
    await until(s, (v) => v.member === false && v.left)
    off()
  })

  it('§4.5 rule 3 (a reader change): a Leave answered after a logout and another login is the previous member\'s; the new reader is never shown as having left', async (t) => {
    const spy = spyFetch()
    const venue = await env.h.venue()
    const vk = page(env, { fetch: spy.fetch, config: { apiKey: venue.key } })
    t.after(() => vk.dispose())
    const s = vk.roomMembership()
    t.after(mount(s))
    await signInOn(vk, env)
    let v = await until(s, (v) => v.member === false)
    await v.join()
    v = await until(s, (v) => v.member === true)
    spy.hold((u, method) => method === 'POST' && u.pathname.endsWith('/leave'))
    const leaving = v.leave()
    await spy.reached()
    await vk.signOut()
    await signInOn(vk, env)
    await until(s, (v) => v.member === false, 5000, "the new reader's own membership")
    spy.release()
    assert.equal((await leaving).left, true, 'the first reader left')
    assert.equal(s.get().left, false, 'not even for a moment')
    await tick(100)
    v = s.get()
    assert.deepEqual([v.member, v.left, v.pending, v.refused, v.error], [false, false, false, false, null], 'the new reader never joined, so never left')
  })

  it('§2.8 "Null means unknown and also means the read failed": member is null on a failed read, the failure in readError (injected failing fetch)', async (t) => {
    const spy = spyFetch()
    const venue = await env.h.venue()
    const vk = page(env, { fetch: spy.fetch, config: { apiKey: venue.key } })
    t.after(() => vk.dispose())
    await signInOn(vk, env)
    const s = vk.roomMembership()
    const off = mount(s)
    let v = await until(s, (v) => v.member === false)
    // A re-read that fails after a good one: the stale answer is not shown as the member state.
    spy.fail((u) => u.pathname.endsWith('/membership'))
    v.refresh()
    v = await until(s, (v) => !!v.readError)
    assert.equal(v.member, null)
    assert.equal(v.members, null)
    assert.equal(v.refused, false, 'a failed read is never "refused"')
    assert.equal(v.error, null, 'read failures are readError, not error')
    off()
  })

  it('§3.3 "Join a private room: refused set: \'this room is not open to join\'" — refused is set only by that answer, and join does not throw', async (t) => {
    const venue = await env.h.venue()
    const roomId = await env.h.room(venue, { type: 'category', ref: freshRef('priv') }, 'private')
    const vk = page(env, { config: { apiKey: venue.key } })
    t.after(() => vk.dispose())
    await signInOn(vk, env)
    const s = vk.roomMembership(roomId)
    const off = mount(s)
    let v = await until(s, (v) => v.member === false)
    assert.equal(v.members, null, 'headcount null (never 0) for an outsider of a private room')
    const r = await v.join()
    assert.equal(r.message, MSG.ROOM_NOT_OPEN)
    v = s.get()
    assert.equal(v.refused, true)
    assert.equal(v.error, null)
    assert.equal(v.member, false)
    off()
  })

  it('§3.3 "Join another venue\'s room: Error (not reported as invite-only)": error is set, refused stays false, join throws', async (t) => {
    const mine = await env.h.venue()
    const theirs = await env.h.venue()
    const roomId = await env.h.room(theirs, { type: 'category', ref: freshRef('other') })
    const vk = page(env, { config: { apiKey: mine.key } })
    t.after(() => vk.dispose())
    await signInOn(vk, env)
    const s = vk.roomMembership(roomId)
    const off = mount(s)
    const v = await until(s, (v) => v.member === false)
    await assert.rejects(v.join(), (e: unknown) => e instanceof HttpError && e.code === 'room-other-venue')
    assert.equal(s.get().refused, false)
    assert.ok(s.get().error instanceof HttpError)
    assert.equal(s.get().pending, false)
    off()
  })

  it('§5.2 "Writes (join, leave) require a client session": join signed out throws', async (t) => {
    const venue = await env.h.venue()
    const vk = page(env, { config: { apiKey: venue.key } })
    t.after(() => vk.dispose())
    const s = vk.roomMembership()
    await assert.rejects(s.get().join(), /sign in/)
    assert.equal(s.get().refused, false)
  })
})

describe('roomBoard (§2.9)', () => {
  it('§2.9 "notFound is true when a private board is requested by an outsider"', async (t) => {
    const venue = await env.h.venue()
    const roomId = await env.h.room(venue, { type: 'category', ref: freshRef('pb') }, 'private')
    const vk = page(env)
    t.after(() => vk.dispose())
    const s = vk.roomBoard(roomId)
    const v = await until(s, (v) => v.notFound)
    assert.equal(v.error, null)
    assert.deepEqual(v.board, [])
  })

  it('§7 notFound is the private room\'s answer only (404 room-not-found): a 404 of another kind (a base address that serves no such route) is an error, never "not found"', async (t) => {
    const vk = page(env, { config: { baseUrl: `${env.svc.url}/nowhere` } })
    t.after(() => vk.dispose())
    const s = vk.roomBoard('r_0000000000000000000000')
    const v = await until(s, (v) => v.error != null, 5000, 'the error')
    assert.equal(v.notFound, false)
    assert.equal((v.error as HttpError).code, 'not-found')
  })

  it('a public board: members ranked at the room\'s node, with the population', async (t) => {
    const venue = await env.h.venue()
    const vk = page(env, { config: { apiKey: venue.key } })
    t.after(() => vk.dispose())
    const s = vk.roomBoard()
    const v = await until(s, (v) => !v.loading && v.population !== null)
    assert.equal(v.notFound, false)
    assert.equal(v.facet!.type, v.room!.subject.type)
    assert.ok(Array.isArray(v.board))
  })
})
