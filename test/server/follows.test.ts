/** §2.12 `useFollow`, §3.3: follow state of a subject. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { addMarket, call, expectError, newMarketId, signIn, startTestService, type TestService } from '../helpers/service.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

const path = (t: string, r: string) => `/v1/social/follows/${t}/${r}`

describe('follows', () => {
  it('§5.1 "Reads need no credential and work signed out": a follow read without a session answers following: false', async () => {
    const r = await call(svc, 'GET', path('category', 'weather'))
    assert.equal(r.status, 200)
    assert.deepEqual(r.body, { subjectType: 'category', subjectRef: 'weather', following: false })
    const bad = await call(svc, 'GET', path('category', 'weather'), { token: 'vks_' + '0'.repeat(64) })
    assert.deepEqual(bad.body, { subjectType: 'category', subjectRef: 'weather', following: false })
  })

  it('§2.12 useFollow: PUT follows and DELETE unfollows, both idempotent; the state is per account', async () => {
    const u = await signIn(svc)
    const other = await signIn(svc)
    const p = path('topic', 'elections')
    for (let i = 0; i < 2; i++) assert.deepEqual((await call(svc, 'PUT', p, { token: u.token })).body, { subjectType: 'topic', subjectRef: 'elections', following: true })
    assert.equal((await call(svc, 'GET', p, { token: u.token })).body.following, true)
    assert.equal((await call(svc, 'GET', p, { token: other.token })).body.following, false)
    assert.equal((await call(svc, 'GET', p)).body.following, false)
    const rows = await svc.ctx.db.selectFrom('follows').select('account_id').where('subject_type', '=', 'topic').where('subject_ref', '=', 'elections').execute()
    assert.equal(rows.length, 1)
    for (let i = 0; i < 2; i++) assert.deepEqual((await call(svc, 'DELETE', p, { token: u.token })).body, { subjectType: 'topic', subjectRef: 'elections', following: false })
    assert.equal((await call(svc, 'GET', p, { token: u.token })).body.following, false)
  })

  it('§5.2 "Writes require a client session": PUT and DELETE without one are 401 and nothing is written', async () => {
    expectError(await call(svc, 'PUT', path('category', 'nosession')), 401, 'unauthenticated')
    expectError(await call(svc, 'DELETE', path('category', 'nosession')), 401, 'unauthenticated')
    expectError(await call(svc, 'PUT', path('category', 'nosession'), { token: 'vks_' + '1'.repeat(64) }), 401, 'session-expired')
    const rows = await svc.ctx.db.selectFrom('follows').select('account_id').where('subject_ref', '=', 'nosession').execute()
    assert.equal(rows.length, 0)
  })

  it('§3.3 "A room whose subject is an org: or brand: node has no follow path": following one is 400 not-followable', async () => {
    const u = await signIn(svc)
    for (const t of ['org', 'brand']) {
      expectError(await call(svc, 'PUT', path(t, 'acme'), { token: u.token }), 400, 'not-followable', `${t} nodes have no follow path; join the room on this ${t} instead`)
      assert.equal((await call(svc, 'GET', path(t, 'acme'), { token: u.token })).body.following, false)
      assert.equal((await call(svc, 'DELETE', path(t, 'acme'), { token: u.token })).body.following, false)
    }
    const rows = await svc.ctx.db.selectFrom('follows').select('account_id').where('subject_ref', '=', 'acme').execute()
    assert.equal(rows.length, 0)
  })

  it('an event follow must name a known market (404 market-not-found); its ref is keyed lowercased', async () => {
    const u = await signIn(svc)
    expectError(await call(svc, 'PUT', path('event', newMarketId()), { token: u.token }), 404, 'market-not-found')
    const m = await addMarket(svc)
    const upper = '0x' + m.id.slice(2).toUpperCase()
    const r = await call(svc, 'PUT', path('event', upper), { token: u.token })
    assert.deepEqual(r.body, { subjectType: 'event', subjectRef: m.id, following: true })
    assert.equal((await call(svc, 'GET', path('event', m.id), { token: u.token })).body.following, true)
  })

  it('every followable node type can be followed', async () => {
    const u = await signIn(svc)
    for (const t of ['category', 'topic', 'series', 'country']) {
      assert.equal((await call(svc, 'PUT', path(t, 'node-x'), { token: u.token })).body.following, true, t)
    }
  })

  it('bad input: unknown subject types, malformed refs and query params are 400 with a code and a sentence', async () => {
    const u = await signIn(svc)
    expectError(await call(svc, 'GET', path('planet', 'mars')), 400, 'validation-failed', "'subjectType' must be one of event, category, topic, series, country, org, brand")
    expectError(await call(svc, 'PUT', path('planet', 'mars'), { token: u.token }), 400, 'validation-failed', /'subjectType'/)
    expectError(await call(svc, 'GET', path('event', '0x12')), 400, 'validation-failed', "'subjectRef' must be a market id (0x and 64 hex characters) for subject type event")
    expectError(await call(svc, 'PUT', path('category', 'Has%20Spaces'), { token: u.token }), 400, 'validation-failed', /'subjectRef' must be a node key/)
    expectError(await call(svc, 'GET', `${path('category', 'weather')}?follow=true`), 400, 'unsupported-param', /'follow'/)
    expectError(await call(svc, 'PUT', `${path('category', 'weather')}?x=1`, { token: u.token }), 400, 'unsupported-param')
  })
})
