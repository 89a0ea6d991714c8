/**
 * CORS per venue (issue 9): `PUT /v1/venues/:id/origins` (owner only) sets the browser origins a venue's
 * keys are accepted from. Preflights carry no key value, so they are answered for any origin; the actual
 * keyed request from an origin outside a configured list is refused with 403 `origin-not-allowed`.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { PATHS, SERVICE_PATHS } from '../../src/contract/paths.ts'
import { call, expectError, signIn, startTestService, type TestService } from '../helpers/service.ts'
import { claimVenue, newVenueId } from '../helpers/venues.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

const setOrigins = (token: string | undefined, venueId: string, body: unknown) => call(svc, 'PUT', SERVICE_PATHS.venueOrigins(venueId), { token, body })
const storedOrigins = async (venueId: string) =>
  (await svc.ctx.db.selectFrom('venues').select('origins').where('id', '=', venueId).executeTakeFirstOrThrow()).origins

describe('venue origins: PUT /v1/venues/:id/origins', () => {
  it('the owner sets the list; origins are stored as browsers send them (lowercase host, no default port), deduplicated', async () => {
    const v = await claimVenue(svc)
    const r = await setOrigins(v.owner.token, v.venueId, { origins: ['https://Shop.Example:443', 'http://localhost:5173', 'https://shop.example'] })
    assert.equal(r.status, 200, JSON.stringify(r.body))
    assert.deepEqual(r.body, { venueId: v.venueId, origins: ['https://shop.example', 'http://localhost:5173'] })
    assert.deepEqual(await storedOrigins(v.venueId), ['https://shop.example', 'http://localhost:5173'])
    const read = await call(svc, 'GET', SERVICE_PATHS.venueOrigins(v.venueId), { token: v.owner.token })
    assert.deepEqual(read.body, r.body)
  })

  it('"owner-only": another account is 403, signed out is 401, an unknown venue is 404; nothing changes', async () => {
    const v = await claimVenue(svc)
    const other = await signIn(svc)
    expectError(await setOrigins(other.token, v.venueId, { origins: ['https://evil.example'] }), 403, 'forbidden')
    expectError(await call(svc, 'GET', SERVICE_PATHS.venueOrigins(v.venueId), { token: other.token }), 403, 'forbidden')
    expectError(await setOrigins(undefined, v.venueId, { origins: ['https://evil.example'] }), 401, 'unauthenticated')
    expectError(await setOrigins(other.token, newVenueId(), { origins: [] }), 404, 'not-found')
    assert.deepEqual(await storedOrigins(v.venueId), [])
  })

  it('"validate origins: scheme+host+optional port, no paths": anything else is 400 naming the entry, and nothing is written', async () => {
    const v = await claimVenue(svc)
    const bad = [
      'https://shop.example/',
      'https://shop.example/path',
      'https://shop.example?x=1',
      'https://shop.example#top',
      'shop.example',
      'ftp://shop.example',
      'https://user:pw@shop.example',
      'https://',
      'https://shop example',
      '*',
      'null',
      'https://shop.example:99999',
    ]
    for (const o of bad) {
      const r = await setOrigins(v.owner.token, v.venueId, { origins: ['https://ok.example', o] })
      expectError(r, 400, 'validation-failed', /^'origins\.1' /)
      assert.equal(r.body.error.param, 'origins.1', o)
    }
    expectError(await setOrigins(v.owner.token, v.venueId, { origins: 'https://shop.example' }), 400, 'validation-failed')
    expectError(await setOrigins(v.owner.token, v.venueId, { origins: [42] }), 400, 'validation-failed')
    expectError(await setOrigins(v.owner.token, v.venueId, { origins: [], extra: 1 }), 400, 'validation-failed', /unknown field 'extra'/)
    expectError(await setOrigins(v.owner.token, v.venueId, { origins: Array.from({ length: 51 }, (_, i) => `https://s${i}.example`) }), 400, 'validation-failed', /at most 50/)
    expectError(await setOrigins(v.owner.token, 'BAD', { origins: [] }), 400, 'validation-failed')
    assert.deepEqual(await storedOrigins(v.venueId), [])
  })
})

describe('CORS per venue', () => {
  const keyed = (key: string, origin?: string, method = 'GET', path: string = SERVICE_PATHS.rooms) =>
    call(svc, method, path, { key, headers: origin ? { origin } : {} })

  it('a preflight is answered for any origin, allowing the X-Venue-Key header (it carries no key value)', async () => {
    const v = await claimVenue(svc)
    await setOrigins(v.owner.token, v.venueId, { origins: ['https://shop.example'] })
    const res = await fetch(svc.url + PATHS.posts, {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-venue-key, authorization' },
    })
    assert.equal(res.status, 204)
    assert.equal(res.headers.get('access-control-allow-origin'), 'https://elsewhere.example')
    assert.match(res.headers.get('access-control-allow-headers') ?? '', /X-Venue-Key/i)
    assert.match(res.headers.get('access-control-allow-methods') ?? '', /POST/)
  })

  it('"a venue with configured origins only allows those": its key from another origin is 403 origin-not-allowed, from a listed origin it is answered', async () => {
    const v = await claimVenue(svc)
    await setOrigins(v.owner.token, v.venueId, { origins: ['https://shop.example', 'http://localhost:5173'] })
    const ok = await keyed(v.key, 'https://shop.example')
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
    assert.equal(ok.headers.get('access-control-allow-origin'), 'https://shop.example')
    assert.match(ok.headers.get('vary') ?? '', /Origin/i)
    assert.equal((await keyed(v.key, 'http://localhost:5173')).status, 200)
    const no = await keyed(v.key, 'https://evil.example')
    expectError(no, 403, 'origin-not-allowed', /^this venue's key is not accepted from https:\/\/evil\.example/)
    // Readable by the refused page, so its developer sees why.
    assert.equal(no.headers.get('access-control-allow-origin'), 'https://evil.example')
    // Same host, other scheme or port: another origin.
    expectError(await keyed(v.key, 'http://shop.example'), 403, 'origin-not-allowed')
    expectError(await keyed(v.key, 'http://localhost:5174'), 403, 'origin-not-allowed')
    expectError(await keyed(v.key, 'null'), 403, 'origin-not-allowed')
  })

  it('a refused keyed write writes nothing', async () => {
    const v = await claimVenue(svc)
    await setOrigins(v.owner.token, v.venueId, { origins: ['https://shop.example'] })
    const r = await call(svc, 'POST', PATHS.posts, {
      key: v.key,
      token: v.owner.token,
      headers: { origin: 'https://evil.example' },
      body: { subjectType: 'topic', subjectRef: 'cors-write', body: 'from the wrong page' },
    })
    expectError(r, 403, 'origin-not-allowed')
    const t = await call(svc, 'GET', `${PATHS.posts}?subjectType=topic&subjectRef=cors-write`)
    assert.equal(t.body.posts.length, 0)
  })

  it('"a venue with none configured allows any origin"; clearing the list allows any origin again', async () => {
    const v = await claimVenue(svc)
    const r = await keyed(v.key, 'https://anywhere.example')
    assert.equal(r.status, 200)
    assert.equal(r.headers.get('access-control-allow-origin'), 'https://anywhere.example')
    await setOrigins(v.owner.token, v.venueId, { origins: ['https://shop.example'] })
    expectError(await keyed(v.key, 'https://anywhere.example'), 403, 'origin-not-allowed')
    await setOrigins(v.owner.token, v.venueId, { origins: [] })
    assert.equal((await keyed(v.key, 'https://anywhere.example')).status, 200)
  })

  it('requests without Origin (servers, scripts) and keyless requests are not checked', async () => {
    const v = await claimVenue(svc)
    await setOrigins(v.owner.token, v.venueId, { origins: ['https://shop.example'] })
    assert.equal((await keyed(v.key)).status, 200)
    const keyless = await call(svc, 'GET', `${PATHS.feed}?limit=1`, { headers: { origin: 'https://evil.example' } })
    assert.equal(keyless.status, 200)
  })

  it('an unknown key from any origin is the route\'s refusal (401 invalid-venue-key), not an origin refusal', async () => {
    // A read that needs the key's venue (room=self): reads otherwise fail open past a key that is not live.
    const r = await keyed(`pck_${'0'.repeat(64)}`, 'https://evil.example', 'GET', `${PATHS.feed}?room=self`)
    expectError(r, 401, 'invalid-venue-key')
  })
})
