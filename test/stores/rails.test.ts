/** The For-you rail (`vk.forYou`, §2.3) and a room's closing-soon rail (`vk.roomFeed(…).markets`, §4.4 rule 5). */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { ForYouRail, Market } from '../../src/contract/types.ts'
import { freshRef } from '../sdk/harness.ts'
import { mount, page, spyFetch, startEnv, until, type Env } from './helpers.ts'

let env: Env
before(async () => {
  env = await startEnv()
})
after(() => env.svc.close())

const at = (h: number) => new Date(Date.now() + h * 3600_000).toISOString()
const isRail = (u: URL) => u.pathname === '/v1/social/for-you'

describe('For-you and closing-soon rails (§2.3, §4.4 rule 5)', () => {
  it('§2.3 useForYou: a failed read of the rail is an error state with Retry (error set), never "no items"; Retry reads it', async (t) => {
    const spy = spyFetch()
    spy.fail(isRail)
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const node = { type: 'topic' as const, ref: freshRef('fyfail') }
    const m = await env.h.addMarket({ nodes: [node], closesAt: at(1) })
    const s = vk.forYou({ subjectType: 'topic', subjectRef: node.ref })
    t.after(mount(s))
    let v = await until(s, (v) => !v.loading, 5000, 'the read settled')
    assert.ok(v.error, 'an error, not an empty rail')
    assert.deepEqual(v.items, [])
    spy.fail(null)
    v.refresh()
    v = await until(s, (v) => v.items.length > 0, 5000, 'the rail read again')
    assert.equal(v.error, null)
    assert.equal(v.items[0].marketId, m.id)
  })

  it('§4.4 rule 5 roomFeed: a failed read of the rail its closing-soon markets come from is marketsError (an error state with Retry), never "none closing soon"', async (t) => {
    const spy = spyFetch()
    spy.fail(isRail)
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const node = { type: 'category' as const, ref: freshRef('soonfail') }
    const m = await env.h.addMarket({ nodes: [node], closesAt: at(1) })
    const s = vk.roomFeed({ subjectType: 'category', subjectRef: node.ref })
    t.after(mount(s))
    let v = await until(s, (v) => !v.marketsLoading && !v.loading, 5000, 'the reads settled')
    assert.ok(v.marketsError, 'an error, not an empty rail')
    assert.deepEqual([v.markets, v.forYou, v.error], [[], null, null], 'the discussion itself read fine')
    spy.fail(null)
    v.refresh()
    v = await until(s, (v) => v.markets.length > 0, 5000, 'the rail read again')
    assert.equal(v.marketsError, null)
    assert.equal(v.markets[0].id, m.id)
  })

  it('§4.4 rule 5 "a closing-soon rail of the room\'s markets": a market on the rail that has resolved is not closing soon (it is over), even one that closes sooner', async (t) => {
    const node = { type: 'category' as const, ref: freshRef('soonres') }
    const open = await env.h.addMarket({ nodes: [node], closesAt: at(2) })
    const over = await env.h.addMarket({ nodes: [node], closesAt: at(1) })
    // The service picks the rail's open markets, then reads their copies: a resolution in between puts a
    // resolved copy on the rail. That moment cannot be timed from outside, so the rail's answer is given
    // as it would then be: `over` listed (it was open when picked), its copy as the service reports it now.
    let resolved: Market | null = null
    const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
      const r = await fetch(input, init)
      if (!isRail(new URL(String(input)))) return r
      const rail = (await r.json()) as ForYouRail
      resolved ??= ((await env.h.resolve(over.id, 0)) as { market: Market }).market
      if (rail.markets[over.id]) rail.markets[over.id] = resolved
      return new Response(JSON.stringify(rail), { status: r.status, headers: { 'content-type': 'application/json' } })
    }) as typeof fetch
    const vk = page(env, { fetch: fetchImpl })
    t.after(() => vk.dispose())
    const s = vk.roomFeed({ subjectType: 'category', subjectRef: node.ref })
    t.after(mount(s))
    const v = await until(s, (v) => !!v.forYou, 5000, 'the rail')
    assert.ok(v.forYou!.items.some((i) => i.marketId === over.id), 'on the rail as answered')
    assert.deepEqual(v.forYou!.markets[over.id].result, { winner: 0 }, 'resolved')
    assert.deepEqual(v.markets.map((m) => m.id), [open.id])
  })
})
