/**
 * `GET /v1/me/stance/{marketId}`: the stance a post by the signed-in account would carry now (§1.4). The take
 * prompt reads it to say when the take will show another side than the one just bought.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { PATHS } from '../../src/contract/paths.ts'
import { addMarket, call, expectError, newMarketId, signIn, startTestService, type TestService } from '../helpers/service.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

describe('my stance: what a post written now would carry', () => {
  it('§1.4 "the server attaches a stance: the side, the size, and the market price of that side": the account\'s largest position, the same stance the next post carries', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    await svc.chain.setPosition(u.wallet, m.id, 0, 4_000_000n)
    await svc.chain.setPosition(u.wallet, m.id, 1, 1_500_000n)
    const r = await call(svc, 'GET', PATHS.myStance(`0x${m.id.slice(2).toUpperCase()}`), { token: u.token })
    assert.equal(r.status, 200)
    assert.deepEqual(r.body, { marketId: m.id, stance: { side: 0, size: '4000000', priceBps: 4000 } })
    // The post written now carries exactly that stance (a buyer of No who holds more Yes posts a Yes take).
    const post = await call(svc, 'POST', PATHS.posts, { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'hedged' } })
    assert.deepEqual(post.body.post.stance, r.body.stance)

    await svc.chain.setPosition(u.wallet, m.id, 1, 9_000_000n)
    assert.deepEqual((await call(svc, 'GET', PATHS.myStance(m.id), { token: u.token })).body.stance, { side: 1, size: '9000000', priceBps: 6000 })
  })

  it('§1.5 no position, or a resolved market: null (a post written now is a comment)', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    assert.deepEqual((await call(svc, 'GET', PATHS.myStance(m.id), { token: u.token })).body, { marketId: m.id, stance: null })
    await svc.chain.setPosition(u.wallet, m.id, 1, 10n)
    await svc.chain.resolve(m.id, 1)
    assert.deepEqual((await call(svc, 'GET', PATHS.myStance(m.id), { token: u.token })).body, { marketId: m.id, stance: null })
  })

  it('another account\'s positions are not the caller\'s: each reads its own', async () => {
    const m = await addMarket(svc)
    const [a, b] = [await signIn(svc), await signIn(svc)]
    await svc.chain.setPosition(a.wallet, m.id, 1, 10n)
    assert.equal((await call(svc, 'GET', PATHS.myStance(m.id), { token: b.token })).body.stance, null)
    assert.equal((await call(svc, 'GET', PATHS.myStance(m.id), { token: a.token })).body.stance.side, 1)
  })

  it('bad input: signed out 401, a malformed id 400, an unknown market 404, any query parameter 400, another method 405', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    expectError(await call(svc, 'GET', PATHS.myStance(m.id)), 401)
    expectError(await call(svc, 'GET', PATHS.myStance('0x12'), { token: u.token }), 400, 'validation-failed', /id/)
    expectError(await call(svc, 'GET', PATHS.myStance(newMarketId()), { token: u.token }), 404, 'market-not-found', /no market with this id/)
    expectError(await call(svc, 'GET', `${PATHS.myStance(m.id)}?wallet=${u.wallet}`, { token: u.token }), 400, 'unsupported-param')
    const post = await call(svc, 'POST', PATHS.myStance(m.id), { token: u.token, body: {} })
    assert.equal(post.status, 405)
    assert.match(post.headers.get('allow') ?? '', /GET/)
  })
})
