/**
 * A private room's node feed read by someone the room admits without membership (an operator, the venue's
 * owner: `resolveRoom`, `openRoom`): the page shows the room's posts, so its signals must be placed against
 * those posts as a member's page places them (attached under the market's highest post, on that post's page
 * only), not turned into quiet rows as if the market had no post in the feed. Paged at 1, 2, 3 and 100.
 */
import { it } from 'node:test'
import assert from 'node:assert/strict'
import { addMarket, signIn, type TestService, type TestUser } from '../helpers/service.ts'
import { serviceOnClock } from '../helpers/service-on-clock.ts'
import { accountOf, allPages, makeRoom, makeVenue, settleTakes, uniqueRef, writePost } from '../helpers/feed-fixtures.ts'

let svc: TestService
let operator: TestUser
const clock = serviceOnClock((s) => ({ svc, operator } = s))
const T = clock.ms

it('§2.2 signals in a private room read by an admitted non-member (operator, owner) are placed as for a member, page by page', async () => {
  const C = uniqueRef('cat')
  const callers = [await signIn(svc), await signIn(svc)]
  for (const c of callers) await settleTakes(svc, c, C, { right: 1, wrong: 0 })
  const [member, member2, owner] = [await signIn(svc), await signIn(svc), await signIn(svc)]
  const markets = [await addMarket(svc, { nodes: [{ type: 'category', ref: C }] }), await addMarket(svc, { nodes: [{ type: 'category', ref: C }] })]
  const quiet = await addMarket(svc, { nodes: [{ type: 'category', ref: C }] })
  const venueId = await makeVenue(svc, await accountOf(svc, owner.wallet))
  const { roomId } = await makeRoom(svc, { venueId, subject: { type: 'category', ref: C }, visibility: 'private', members: [member, member2] })
  clock.ms = T
  for (const m of markets) for (const u of [member, member2, member]) await writePost(svc, u, 'event', m.id, 'in the private room', { room: roomId })
  await writePost(svc, member2, 'category', C, 'on the node, in the room', { room: roomId })
  await svc.chain.trade({ wallet: callers[0].wallet, marketId: markets[0].id, side: 0, size: 1n, at: new Date(T) })
  await svc.chain.trade({ wallet: callers[1].wallet, marketId: markets[1].id, side: 1, size: 1n, at: new Date(T) })
  await svc.chain.trade({ wallet: callers[1].wallet, marketId: quiet.id, side: 0, size: 1n, at: new Date(T) })

  const signalsOf = (pages: any[]) => pages.flatMap((p) => p.signals.map((s: any) => [s.marketId, s.side, s.count, s.attachTo, s.before]))
  for (const sort of ['live', 'record']) {
    const q = { room: roomId, subjectType: 'category', subjectRef: C, sort }
    const reference = await allPages(svc, { ...q, limit: 100 }, { token: member.token })
    const refIds = reference[0].posts.map((p: any) => p.id)
    assert.equal(refIds.length, 7)
    assert.deepEqual(reference[0].signals.filter((s: any) => s.attachTo).length, 2, `${sort}: the member's page attaches both market signals`)
    for (const [who, u] of [['operator', operator], ['owner', owner]] as [string, TestUser][]) {
      for (const limit of [100, 1, 2, 3]) {
        const pages = await allPages(svc, { ...q, limit }, { token: u.token })
        const tag = `${sort} ${who} limit ${limit}`
        assert.deepEqual(pages.flatMap((p) => p.posts.map((x: any) => x.id)), refIds, `${tag}: the room's posts`)
        const memberPages = await allPages(svc, { ...q, limit }, { token: member.token })
        assert.deepEqual(signalsOf(pages), signalsOf(memberPages), `${tag}: signals placed as on a member's pages`)
      }
    }
  }
})
