/** Batched reads: take counts, profiles, records, verdicts, markets, leaderboard. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { MODERATION_CTX } from '../../src/stores/moderation.ts'
import type { Ctx } from '../../src/stores/ctx.ts'
import type { Venuekit } from '../../src/stores/index.ts'
import { newMarketId } from '../helpers/service.ts'
import { freshRef } from '../sdk/harness.ts'
import { mount, page, signInOn, spyFetch, startEnv, tick, until, type Env } from './helpers.ts'

/** The page's internal context: its `revalidate` is the re-read a write or a live change asks for (profiles have no Retry of their own). */
const ctxOf = (vk: Venuekit) => (vk as unknown as Record<symbol, Ctx>)[MODERATION_CTX]
/** A market id in another casing than the service's (lowercase) one. */
const mixedCase = (id: string) => '0x' + id.slice(2).toUpperCase()

let env: Env
before(async () => {
  env = await startEnv()
})
after(() => env.svc.close())

describe('take counts (§2.6, §4.5.4)', () => {
  it('"250 ids asked for by 5 stores in one tick cost exactly 3 take-count requests"', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const ids = Array.from({ length: 250 }, () => newMarketId())
    const stores = Array.from({ length: 5 }, (_, i) => vk.takeCounts(ids.slice(i * 50, i * 50 + 50)))
    const offs = stores.map(mount)
    const values = await Promise.all(stores.map((s, i) => until(s, (v) => v.countOf(ids[i * 50]) !== null)))
    values.forEach((v, i) => ids.slice(i * 50, i * 50 + 50).forEach((id) => assert.deepEqual(v.countOf(id), { posts: 0, takes: 0, bySide: {} })))
    assert.equal(spy.to('/v1/social/take-counts').length, 3)
    const asked = spy.to('/v1/social/take-counts').flatMap((c) => c.url.searchParams.get('ids')!.split(','))
    assert.equal(new Set(asked).size, 250, 'each id asked once')
    offs.forEach((off) => off())
  })

  it('§2.6 "Once loaded, a market with no posts is all zeros"; counts reflect visible posts', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const empty = newMarketId()
    const m = await env.h.addMarket()
    const writer = await env.h.signedIn()
    await writer.createPost('event', m.id, 'a comment')
    const s = vk.takeCounts([empty, m.id.toUpperCase().replace('0X', '0x')])
    const v = await until(s, (v) => v.countOf(empty) !== null)
    assert.deepEqual(v.countOf(empty), { posts: 0, takes: 0, bySide: {} })
    assert.deepEqual(v.countOf(m.id), { posts: 1, takes: 0, bySide: {} }, 'keyed lowercased, any casing asks')
    assert.equal(v.countOf(newMarketId()), null, 'an id this store was not asked for is null')
  })

  it('§4.5.4 "Print nothing, never \'0 takes\', when countOf is null": countOf is null while loading and after a failed read (injected failing fetch)', async (t) => {
    const spy = spyFetch()
    spy.fail((u) => u.pathname === '/v1/social/take-counts')
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const id = newMarketId()
    const s = vk.takeCounts([id])
    const off = mount(s)
    assert.equal(s.get().loading, true)
    assert.equal(s.get().countOf(id), null, 'null while loading')
    const v = await until(s, (v) => !!v.error)
    assert.equal(v.countOf(id), null, 'null after a failure')
    assert.equal(v.loading, false)
    off()
  })

  it('an id that is not a market id is never sent: it cannot fail the batch other stores share', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const good = newMarketId()
    const bad = vk.takeCounts(['not-a-market'])
    const ok = vk.takeCounts([good])
    const offs = [bad, ok].map(mount)
    const v = await until(ok, (v) => v.countOf(good) !== null)
    assert.equal(v.error, null)
    assert.equal(bad.get().countOf('not-a-market'), null)
    assert.deepEqual(spy.to('/v1/social/take-counts').map((c) => c.url.searchParams.get('ids')), [good])
    offs.forEach((off) => off())
  })

  it('§4.3 useTakeCounts "countOf(id) giving counts or null": countOf finds a market\'s counts under any casing of its id (keyed lowercased)', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const writer = await env.h.signedIn()
    await writer.createPost('event', m.id, 'a comment')
    const s = vk.takeCounts([m.id])
    t.after(mount(s))
    const v = await until(s, (v) => v.countOf(m.id) !== null)
    assert.notEqual(mixedCase(m.id), m.id)
    assert.deepEqual(v.countOf(mixedCase(m.id)), { posts: 1, takes: 0, bySide: {} })
  })

  it('§2.6 take counts are "null while loading or after a failed read": a failed re-read of loaded counts shows null with the error, never the old counts (injected failing fetch)', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const s = vk.takeCounts([m.id])
    t.after(mount(s))
    let v = await until(s, (v) => v.countOf(m.id) !== null)
    assert.deepEqual(v.countOf(m.id), { posts: 0, takes: 0, bySide: {} })
    spy.fail((u) => u.pathname === '/v1/social/take-counts')
    // The SDK reuses a settled count read for a few seconds: drop it, so the re-read reaches the service.
    vk.client.takeCounts.clear()
    v.refresh()
    v = await until(s, (v) => !!v.error, 5000, 'the re-read failed')
    assert.equal(spy.to('/v1/social/take-counts').length, 2, 'it was a re-read')
    assert.equal(v.countOf(m.id), null, 'not the counts of the earlier read')
    assert.equal(v.loading, false)
  })

  it('§2.6 counts "include visible posts": a take the reader posts re-reads the take counts on the page, which then count it', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const w = await signInOn(vk, env)
    await env.h.setPosition(w.wallet, m.id, 0, '1000')
    const s = vk.takeCounts([m.id])
    t.after(mount(s))
    let v = await until(s, (v) => v.countOf(m.id) !== null)
    assert.deepEqual(v.countOf(m.id), { posts: 0, takes: 0, bySide: {} })
    const p = await vk.postActions().get().create('event', m.id, 'it will')
    assert.equal(p.stance?.side, 0, 'a take')
    v = await until(s, (v) => v.countOf(m.id)?.takes === 1, 5000, 'the take counted')
    assert.equal(v.countOf(m.id)!.posts, 1)
  })

  it('the same set of ids in any order or casing is the same store', (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const a = newMarketId()
    const b = newMarketId()
    assert.equal(vk.takeCounts([a, b]), vk.takeCounts([b.toUpperCase().replace('0X', '0x'), a, a]))
  })
})

describe('profiles, records, verdicts, markets', () => {
  it('§2.12 "useProfiles is one batched request per page, deduplicated, lowercased, keyed on the set of wallets"', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const [a, b, c] = [env.h.wallet(), env.h.wallet(), env.h.wallet()]
    const s1 = vk.profiles([a.address, b.address])
    const s2 = vk.profiles([b.wallet, c.address.toUpperCase().replace('0X', '0x')])
    const s3 = vk.profile(a.address)
    assert.equal(vk.profiles([b.wallet, a.wallet, a.address]), s1, 'keyed on the set of wallets')
    const offs = [s1, s2, s3].map(mount)
    await until(s1, (v) => !v.loading && Object.keys(v.profiles).length === 2)
    const v2 = await until(s2, (v) => !v.loading && Object.keys(v.profiles).length === 2)
    const v3 = await until(s3, (v) => !!v.profile)
    assert.equal(spy.to('/v1/social/profiles').length, 1, 'one request for the page')
    const asked = spy.to('/v1/social/profiles')[0].url.searchParams.get('wallets')!.split(',')
    assert.deepEqual(asked.sort(), [a.wallet, b.wallet, c.wallet].sort(), 'deduplicated and lowercased')
    assert.ok(v2.profiles[c.wallet], 'keyed by lowercased wallet')
    assert.equal(v3.profile!.wallet, a.wallet)
    offs.forEach((off) => off())
  })

  it('§2.12 "useRecords: batched records at one node": wallets asked at one facet within one tick go out as one request per facet', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const node = { type: 'category' as const, ref: freshRef('rec') }
    const m = await env.h.addMarket({ nodes: [node], facet: node })
    const right = await env.h.signedIn()
    await env.h.setPosition(right.w.wallet, m.id, 0, '1000000')
    await right.createPost('event', m.id, 'it will')
    await env.h.resolve(m.id, 0)
    const other = env.h.wallet()
    const s1 = vk.records([right.w.address], node)
    const s2 = vk.records([other.wallet], node)
    const s3 = vk.records([other.wallet], null)
    const offs = [s1, s2, s3].map(mount)
    const v1 = await until(s1, (v) => !v.loading && !!v.records[right.w.wallet])
    const v2 = await until(s2, (v) => !!v.records[other.wallet])
    await until(s3, (v) => !!v.records[other.wallet])
    assert.equal(spy.to('/v1/records').length, 2, 'one request per facet')
    assert.equal(v1.records[right.w.wallet].right, 1)
    assert.equal(v1.records[right.w.wallet].rank, 1)
    assert.ok(v1.records[right.w.wallet].population >= 1, 'a rank comes with its population')
    assert.equal(v2.records[other.wallet].rank, null, 'unranked is a state, not last place')
    assert.throws(() => vk.records([other.wallet], undefined as never), /facet/)
    offs.forEach((off) => off())
  })

  it('§2.12 useProfiles, like counts "null … after a failed read": a failed re-read of loaded profiles shows none of the old answer, with the error (injected failing fetch)', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const a = env.h.wallet()
    const s = vk.profiles([a.address])
    const one = vk.profile(a.address)
    t.after(mount(s))
    t.after(mount(one))
    await until(s, (v) => !!v.profiles[a.wallet])
    assert.equal(one.get().profile!.wallet, a.wallet)
    spy.fail((u) => u.pathname === '/v1/social/profiles')
    ctxOf(vk).revalidate('profiles|')
    const v = await until(s, (v) => !!v.error, 5000, 'the re-read failed')
    assert.equal(spy.to('/v1/social/profiles').length, 2, 'it was a re-read')
    assert.deepEqual(v.profiles, {}, 'not the profiles of the earlier read')
    assert.equal(v.loading, false)
    assert.deepEqual([one.get().profile, one.get().error], [null, v.error])
  })

  it('§2.12 useRecords, like counts "null … after a failed read": a failed re-read of loaded records shows none of the old records, with the error (injected failing fetch)', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const w = env.h.wallet()
    const s = vk.records([w.address], null)
    t.after(mount(s))
    let v = await until(s, (v) => !!v.records[w.wallet])
    assert.equal(v.records[w.wallet].rank, null)
    spy.fail((u) => u.pathname === '/v1/records')
    v.refresh()
    v = await until(s, (v) => !!v.error, 5000, 'the re-read failed')
    assert.equal(spy.to('/v1/records').length, 2, 'it was a re-read')
    assert.deepEqual(v.records, {}, 'not the records of the earlier read')
    assert.equal(v.loading, false)
  })

  it('§3.2 "open → market resolution recorded on chain → right / wrong": a market the page holds as open follows an author\'s `results` (§2.4) and a feed page\'s settlements, so a receipt drawn before the resolution moves without a reload', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const node = { type: 'category' as const, ref: freshRef('settle') }
    const [byAuthor, byFeed] = [await env.h.addMarket({ nodes: [node], facet: node }), await env.h.addMarket({ nodes: [node], facet: node })]
    // One author's take on each market: the first author's profile names only the first market.
    const [author, other] = [await env.h.signedIn(), await env.h.signedIn()]
    for (const [who, m] of [[author, byAuthor], [other, byFeed]] as const) {
      await env.h.setPosition(who.w.wallet, m.id, 0, '1000')
      await who.createPost('event', m.id, 'it will')
    }
    const held = [vk.market(byAuthor.id), vk.market(byFeed.id)]
    const offs = held.map(mount)
    t.after(() => offs.forEach((off) => off()))
    for (const s of held) await until(s, (v) => !!v.market && v.market.result === null, 5000, 'open')
    await env.h.resolve(byAuthor.id, 0)
    await env.h.resolve(byFeed.id, 1)
    // The page's copies still say open: nothing read them again.
    await tick(50)
    assert.deepEqual(held.map((s) => s.get().market!.result), [null, null])
    // The author's profile is read: its results name the first market as ended.
    offs.push(mount(vk.authorTakes(author.w.wallet)))
    await until(held[0], (v) => JSON.stringify(v.market?.result) === JSON.stringify({ winner: 0 }), 5000, 'the first market settled')
    assert.equal(held[1].get().market!.result, null, 'a market the read did not name is not read again')
    // A feed page of the node carries the second market's settlement.
    offs.push(mount(vk.feed('subject', { subjectType: 'category', subjectRef: node.ref })))
    await until(held[1], (v) => JSON.stringify(v.market?.result) === JSON.stringify({ winner: 1 }), 5000, 'the second market settled')
  })

  it('verdicts: undefined while loading, null when nobody held the market, a tally once settled', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    const held = await env.h.addMarket()
    const nobody = await env.h.addMarket()
    const w = await env.h.signedIn()
    await env.h.setPosition(w.w.wallet, held.id, 1, '500')
    await w.createPost('event', held.id, 'no way')
    await env.h.resolve(held.id, 0)
    const s = vk.verdicts([held.id, nobody.id])
    const off = mount(s)
    assert.equal(s.get().verdictOf(held.id), undefined, 'undefined while loading')
    const v = await until(s, (v) => v.verdictOf(held.id) !== undefined)
    assert.equal(v.verdictOf(nobody.id), null)
    assert.equal(v.verdictOf(held.id)!.wrong, 1)
    off()
  })

  it('markets: every id asked for within one tick is one read; unknown ids are absent', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const a = await env.h.addMarket({ title: 'A?' })
    const b = await env.h.addMarket({ title: 'B?' })
    const unknown = newMarketId()
    const s1 = vk.market(a.id)
    const s2 = vk.markets([b.id, unknown])
    const offs = [s1, s2].map(mount)
    const v1 = await until(s1, (v) => !!v.market)
    const v2 = await until(s2, (v) => !v.loading && !!v.markets[b.id])
    assert.equal(v1.market!.title, 'A?')
    assert.equal(v2.markets[unknown], undefined)
    assert.equal(spy.to('/v1/markets').length, 1)
    offs.forEach((off) => off())
  })

  it('§9.3 "scope is required on <Leaderboard>; scope={null} is the global board": leaderboard(null) reads the global board with its population', async (t) => {
    const vk = page(env)
    t.after(() => vk.dispose())
    assert.throws(() => (vk.leaderboard as (s?: unknown) => unknown)(), /scope is required/)
    const s = vk.leaderboard(null)
    const off = mount(s)
    const v = await until(s, (v) => !v.loading && v.population !== null)
    assert.equal(typeof v.population, 'number')
    assert.ok(Array.isArray(v.entries))
    off()
    await tick()
  })
})

describe('Retry (refresh) after a failed read', () => {
  it('an error state\'s Retry re-reads: take counts, records, verdicts, markets, leaderboard and author takes recover with refresh()', async (t) => {
    const spy = spyFetch()
    const vk = page(env, { fetch: spy.fetch })
    t.after(() => vk.dispose())
    const m = await env.h.addMarket()
    const wallet = '0x' + 'ab'.repeat(20)
    spy.fail(() => true)
    const stores = {
      counts: vk.takeCounts([m.id]),
      records: vk.records([wallet], null),
      verdicts: vk.verdicts([m.id]),
      markets: vk.markets([m.id]),
      leaderboard: vk.leaderboard(null),
      authorTakes: vk.authorTakes(wallet),
    }
    const offs = Object.values(stores).map(mount)
    for (const [name, s] of Object.entries(stores)) await until(s as any, (v: any) => !!v.error, 5000, `${name} failed`)
    spy.fail(null)
    for (const [name, s] of Object.entries(stores)) {
      ;(s.get() as any).refresh()
      const v: any = await until(s as any, (v: any) => !v.error && !v.loading, 5000, `${name} recovered`)
      assert.equal(v.error, null, name)
    }
    assert.deepEqual(stores.counts.get().countOf(m.id), { posts: 0, takes: 0, bySide: {} })
    assert.equal(stores.markets.get().markets[m.id]?.id, m.id)
    offs.forEach((off) => off())
  })
})
