/** §2.3 the for-you rail, §4.2 `forYou`: GET /v1/social/for-you. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { addMarket, call, expectError, signIn, startTestService, type TestService } from '../helpers/service.ts'
import { accountOf, feedPath, makeRoom, makeVenue, makeVenueKey, uniqueRef } from '../helpers/feed-fixtures.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

const DAY = 86400_000
const inDays = (d: number) => new Date(Date.now() + d * DAY)
const rail = (query: Record<string, string | number | undefined>, opts: { token?: string; key?: string } = {}) =>
  call(svc, 'GET', feedPath(query, '/v1/social/for-you'), opts)
const pairs = (body: any) => body.items.map((i: any) => [i.marketId, i.reason])

async function trades(marketId: string, n: number, at?: Date) {
  const trader = await signIn(svc)
  for (let i = 0; i < n; i++) await svc.chain.trade({ wallet: trader.wallet, marketId, side: 0, size: 1n, at })
}

describe('for-you: parameters', () => {
  it('§2.3 for-you: a parameter outside its contract (room, subjectType, subjectRef, limit) is 400 unsupported-param', async () => {
    for (const name of ['cursor', 'venue', 'scope', 'author']) {
      const r = await rail({ [name]: 'x' })
      expectError(r, 400, 'unsupported-param')
      assert.equal(r.body.error.param, name)
    }
    assert.equal((await rail({})).status, 200)
  })

  it('§2.3 for-you: bad values are 400 naming the parameter', async () => {
    expectError(await rail({ limit: 0 }), 400, 'validation-failed', /limit/)
    expectError(await rail({ limit: 101 }), 400, 'validation-failed', /limit/)
    expectError(await rail({ subjectType: 'category' }), 400, 'validation-failed', /subjectRef/)
    expectError(await rail({ subjectRef: 'weather' }), 400, 'validation-failed', /subjectType/)
    expectError(await rail({ subjectType: 'event', subjectRef: '0x12' }), 400, 'validation-failed', /market id/)
    expectError(await rail({ room: 'not a room' }), 400, 'validation-failed', /room/)
  })
})

describe('for-you: a market subject', () => {
  it('§4.2 forYou { subjectType, subjectRef } on a market (subjectType event, as <vk-community-takes scope="subject"> passes it on a market page): the markets around it, those on its facet node, and never the market itself', async () => {
    const ref = uniqueRef('cat')
    const node = [{ type: 'category' as const, ref }]
    const subject = await addMarket(svc, { nodes: node, closesAt: inDays(1) })
    const near = await addMarket(svc, { nodes: node, closesAt: inDays(2) })
    const elsewhere = await addMarket(svc, { nodes: [{ type: 'category' as const, ref: uniqueRef('cat') }], closesAt: inDays(1) })
    const r = await rail({ subjectType: 'event', subjectRef: subject.id.toUpperCase().replace('0X', '0x') })
    assert.equal(r.status, 200, JSON.stringify(r.body))
    const ids = r.body.items.map((i: { marketId: string }) => i.marketId)
    assert.ok(ids.includes(near.id), 'a market on the same node')
    assert.ok(!ids.includes(subject.id), 'not the market itself')
    assert.ok(!ids.includes(elsewhere.id), 'not a market on another node')
    // Control: the same node's rail holds the subject market.
    const byNode = await rail({ subjectType: 'category', subjectRef: ref })
    assert.deepEqual(pairs(byNode.body).map(([id]: [string, string]) => id), [subject.id, near.id])
  })

  it('§5.1 "Reads fail open": an unknown market narrows nothing (the rail is the unscoped one)', async () => {
    const unknown = `0x${'7'.repeat(64)}`
    const r = await rail({ subjectType: 'event', subjectRef: unknown, limit: 100 })
    assert.equal(r.status, 200, JSON.stringify(r.body))
    const all = await rail({ limit: 100 })
    assert.deepEqual(r.body.items, all.body.items)
  })
})

describe('for-you: reasons', () => {
  it('§2.3 "personalized" is false when signed out: only closing-soon and trending items, interleaved', async () => {
    const ref = uniqueRef('cat')
    const node = [{ type: 'category' as const, ref }]
    const soon2 = await addMarket(svc, { nodes: node, closesAt: inDays(2) })
    const soon1 = await addMarket(svc, { nodes: node, closesAt: inDays(1) })
    const hot = await addMarket(svc, { nodes: node, closesAt: inDays(30) })
    const warm = await addMarket(svc, { nodes: node, closesAt: inDays(30) })
    await trades(hot.id, 3)
    await trades(warm.id, 1)
    const someone = await signIn(svc)
    await svc.chain.setPosition(someone.wallet, hot.id, 0, 5n)
    const r = await rail({ subjectType: 'category', subjectRef: ref })
    assert.equal(r.status, 200)
    assert.equal(r.body.personalized, false)
    assert.deepEqual(pairs(r.body), [
      [soon1.id, 'closing-soon'],
      [hot.id, 'trending'],
      [soon2.id, 'closing-soon'],
      [warm.id, 'trending'],
    ])
  })

  it('§2.3 closing-soon: "unresolved markets closing within N days, soonest first" (7 days; closed and resolved markets left out)', async () => {
    const ref = uniqueRef('cat')
    const node = [{ type: 'category' as const, ref }]
    const d6 = await addMarket(svc, { nodes: node, closesAt: inDays(6) })
    const d3 = await addMarket(svc, { nodes: node, closesAt: inDays(3) })
    await addMarket(svc, { nodes: node, closesAt: inDays(8) })
    await addMarket(svc, { nodes: node, closesAt: new Date(Date.now() - 3600_000) })
    await addMarket(svc, { nodes: node, closesAt: null })
    const resolved = await addMarket(svc, { nodes: node, closesAt: inDays(1) })
    await svc.chain.resolve(resolved.id, 0)
    const r = await rail({ subjectType: 'category', subjectRef: ref })
    assert.deepEqual(pairs(r.body), [
      [d3.id, 'closing-soon'],
      [d6.id, 'closing-soon'],
    ])
  })

  it('§2.3 trending: "most trades in the last 24 h" (older trades and resolved markets do not count)', async () => {
    const ref = uniqueRef('cat')
    const node = [{ type: 'category' as const, ref }]
    const [a, b, c, done] = [
      await addMarket(svc, { nodes: node, closesAt: null }),
      await addMarket(svc, { nodes: node, closesAt: null }),
      await addMarket(svc, { nodes: node, closesAt: null }),
      await addMarket(svc, { nodes: node, closesAt: null }),
    ]
    await trades(a.id, 2)
    await trades(b.id, 3)
    await trades(c.id, 5, new Date(Date.now() - 2 * DAY))
    await trades(done.id, 9)
    await svc.chain.resolve(done.id, 1)
    const r = await rail({ subjectType: 'category', subjectRef: ref })
    assert.deepEqual(pairs(r.body), [
      [b.id, 'trending'],
      [a.id, 'trending'],
    ])
  })

  it('§2.3 signed in: held and followed items (followed carries its node), personalized true, each market once with the first reason winning', async () => {
    const ref = uniqueRef('cat')
    const topic = uniqueRef('topic')
    const node = [{ type: 'category' as const, ref }]
    const reader = await signIn(svc)
    const held = await addMarket(svc, { nodes: node, closesAt: inDays(1) }) // also closing soon: held wins
    const heldResolved = await addMarket(svc, { nodes: node, closesAt: null })
    const followed = await addMarket(svc, { nodes: [...node, { type: 'topic', ref: topic }], closesAt: inDays(20) })
    const soon = await addMarket(svc, { nodes: node, closesAt: inDays(2) })
    await trades(soon.id, 4) // also trending: closing-soon wins
    await svc.chain.setPosition(reader.wallet, held.id, 1, 7n)
    await svc.chain.setPosition(reader.wallet, heldResolved.id, 1, 7n)
    await svc.chain.resolve(heldResolved.id, 1)
    await svc.ctx.db.insertInto('follows').values({ account_id: await accountOf(svc, reader.wallet), subject_type: 'topic', subject_ref: topic }).execute()
    const r = await rail({ subjectType: 'category', subjectRef: ref }, { token: reader.token })
    assert.equal(r.body.personalized, true)
    assert.deepEqual(pairs(r.body), [
      [held.id, 'held'],
      [followed.id, 'followed'],
      [soon.id, 'closing-soon'],
    ])
    assert.deepEqual(r.body.items[1].node, { type: 'topic', ref: topic })
    const seen = r.body.items.map((i: any) => i.marketId)
    assert.equal(new Set(seen).size, seen.length)
    // Signed in with nothing held or followed is still personalized.
    const nobody = await signIn(svc)
    const n = await rail({ subjectType: 'category', subjectRef: ref }, { token: nobody.token })
    assert.equal(n.body.personalized, true)
    assert.deepEqual(pairs(n.body), [
      [held.id, 'closing-soon'],
      [soon.id, 'closing-soon'],
    ])
  })

  it('§2.3 "markets": every market the items reference, keyed by lowercased id', async () => {
    const ref = uniqueRef('cat')
    const m = await addMarket(svc, { id: `0x${'CD'.repeat(31)}${randomByte()}`, nodes: [{ type: 'category', ref }], closesAt: inDays(1), title: 'Referenced' })
    const r = await rail({ subjectType: 'category', subjectRef: ref })
    assert.deepEqual(Object.keys(r.body.markets), [m.id])
    assert.equal(m.id, m.id.toLowerCase())
    assert.equal(r.body.markets[m.id].title, 'Referenced')
    for (const i of r.body.items) assert.ok(r.body.markets[i.marketId])
  })

  it('§2.3 limit caps the rail', async () => {
    const ref = uniqueRef('cat')
    for (let i = 1; i <= 5; i++) await addMarket(svc, { nodes: [{ type: 'category', ref }], closesAt: inDays(i) })
    assert.equal((await rail({ subjectType: 'category', subjectRef: ref, limit: 2 })).body.items.length, 2)
    assert.equal((await rail({ subjectType: 'category', subjectRef: ref })).body.items.length, 5)
  })
})

describe('for-you: narrowing', () => {
  it('§2.3 room narrows the rail to markets on the room\'s node; room=self needs a venue key; a private room is 404 to outsiders', async () => {
    const ref = uniqueRef('cat')
    const other = uniqueRef('cat')
    const inRoomNode = await addMarket(svc, { nodes: [{ type: 'category', ref }], closesAt: inDays(1) })
    await addMarket(svc, { nodes: [{ type: 'category', ref: other }], closesAt: inDays(1) })
    const venueId = await makeVenue(svc)
    const { roomId } = await makeRoom(svc, { venueId, subject: { type: 'category', ref }, isSelf: true })
    const r = await rail({ room: roomId })
    assert.deepEqual(pairs(r.body), [[inRoomNode.id, 'closing-soon']])
    expectError(await rail({ room: 'self' }), 401, 'venue-key-required')
    const key = await makeVenueKey(svc, venueId)
    assert.deepEqual(pairs((await rail({ room: 'self' }, { key })).body), [[inRoomNode.id, 'closing-soon']])
    const member = await signIn(svc)
    const priv = await makeRoom(svc, { subject: { type: 'category', ref }, visibility: 'private', members: [member] })
    expectError(await rail({ room: priv.roomId }), 404, 'room-not-found')
    assert.equal((await rail({ room: priv.roomId }, { token: member.token })).status, 200)
  })
})

function randomByte() {
  return Math.floor(Math.random() * 256).toString(16).padStart(2, '0').toUpperCase()
}
