/**
 * The demo seed (`seedDemo`): deterministic demo data written through the real service paths, read back
 * through the public reads (feed, threads, markets, profiles, records).
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { privateKeyToAccount } from 'viem/accounts'
import { PATHS, SERVICE_PATHS } from '../../src/contract/paths.ts'
import type { FeedPage, Market, Post, ThreadPage } from '../../src/contract/types.ts'
import { LIMITS } from '../../src/contract/limits.ts'
import { DEMO_KEYS, DEMO_MARKET_IDS, DEMO_WALLETS, demoMarketId, LAKERS_TALK, isStoreEmpty, seedDemo, type SeedResult } from '../../src/server/seed.ts'
import { call, signIn, startTestService, type TestService } from '../helpers/service.ts'

let svc: TestService
let seed: SeedResult
let emptyBefore: boolean
before(async () => {
  svc = await startTestService()
  emptyBefore = await isStoreEmpty(svc.ctx)
  seed = await seedDemo(svc)
})
after(() => svc.close())

const thread = async (id: string, extra = '') => (await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${id}${extra}`)).body as ThreadPage
const market = async (slug: string) => (await call(svc, 'GET', SERVICE_PATHS.market(seed.markets[slug]))).body as Market

describe('seed: demo data', () => {
  it('seeds only an empty store: isStoreEmpty before, not after; seeding twice is refused', async () => {
    assert.equal(emptyBefore, true)
    assert.equal(await isStoreEmpty(svc.ctx), false)
    await assert.rejects(seedDemo(svc), /already seeded/)
  })

  it('demo wallets come from FIXED private keys: each DEMO_KEYS entry signs as its listed address', () => {
    assert.equal(DEMO_WALLETS.length, 6)
    for (const w of DEMO_WALLETS) {
      assert.equal(privateKeyToAccount(DEMO_KEYS[w.handle as keyof typeof DEMO_KEYS]).address, w.address)
      assert.equal(seed.wallets[w.handle as keyof typeof seed.wallets], w.address.toLowerCase())
    }
  })

  it('is deterministic: market ids derive from fixed slugs', () => {
    assert.equal(seed.markets['btc-150k'], demoMarketId('btc-150k'))
    assert.deepEqual(seed.markets, DEMO_MARKET_IDS)
    for (const id of Object.values(seed.markets)) assert.match(id, /^0x[0-9a-f]{64}$/)
  })

  it('markets span several categories, with topics, countries and orgs', async () => {
    const res = await call(svc, 'GET', `${PATHS.markets}?ids=${Object.values(seed.markets).join(',')}`)
    assert.equal(res.status, 200)
    const markets = Object.values(res.body.markets) as Market[]
    assert.equal(markets.length, Object.keys(seed.markets).length)
    const nodes = markets.flatMap((m) => m.nodes.map((n) => `${n.type}:${n.ref}`))
    for (const c of ['crypto', 'politics', 'sports', 'weather', 'economy']) assert.ok(nodes.includes(`category:${c}`), c)
    for (const t of ['topic', 'country', 'org', 'series']) assert.ok(nodes.some((n) => n.startsWith(`${t}:`)), t)
  })

  it('the feed shows takes with server-proven stances and comments without one', async () => {
    const res = await call(svc, 'GET', `${PATHS.feed}?limit=100`)
    assert.equal(res.status, 200)
    const page = res.body as FeedPage
    const takes = page.posts.filter((p) => p.stance)
    const comments = page.posts.filter((p) => !p.stance)
    assert.ok(takes.length >= 10, `takes: ${takes.length}`)
    assert.ok(comments.length >= 2)
    const ada = page.posts.find((p) => p.id === seed.posts['btc-ada'])!
    assert.deepEqual(ada.stance, { side: 0, size: '50000000', priceBps: 3800 })
    assert.equal(ada.author, seed.wallets.ada)
    assert.equal(page.titles[seed.markets['btc-150k']], 'Will Bitcoin trade above $150,000 before 31 December?')
  })

  it('a market thread carries takes, a question and one level of replies', async () => {
    const t = await thread(seed.markets['btc-150k'])
    assert.deepEqual(
      t.posts.map((p) => p.id).sort(),
      [seed.posts['btc-ada'], seed.posts['btc-ben'], seed.posts['btc-chloe']].sort(),
    )
    const ben = t.posts.find((p) => p.id === seed.posts['btc-ben'])!
    assert.deepEqual(ben.stance, { side: 1, size: '120000000', priceBps: 6200 })
    assert.equal(t.posts.find((p) => p.id === seed.posts['btc-chloe'])!.stance, undefined)
    assert.deepEqual(t.threads[seed.posts['btc-chloe']].map((p: Post) => p.id), [seed.posts['btc-chloe-ada']])
    assert.deepEqual(t.threads[seed.posts['btc-ada']].map((p: Post) => p.id), [seed.posts['btc-ada-dmitri']])
    assert.equal(t.posts.find((p) => p.id === seed.posts['btc-ada'])!.agrees, 2)
  })

  it('one busy take has more replies than a thread folds under a post (LIMITS.repliesPerParent), so the demo shows "Show earlier replies"', async () => {
    const parent = seed.posts['lakers-dmitri']
    const all = LAKERS_TALK.map((_, i) => seed.posts[`lakers-dmitri-talk-${i + 1}`])
    assert.ok(all.length > LIMITS.repliesPerParent)
    assert.equal(new Set(LAKERS_TALK.map(([, body]) => body)).size, LAKERS_TALK.length, 'no two lines alike')
    const t = await thread(seed.markets['lakers-playoffs'])
    assert.equal(t.posts.find((p) => p.id === parent)!.replies, all.length)
    // The thread folds in the newest 50, oldest first; the replies read gives the ones before them.
    assert.deepEqual(t.threads[parent].map((p: Post) => p.id), all.slice(-LIMITS.repliesPerParent))
    const earlier = await call(svc, 'GET', `${PATHS.replies(parent)}?before=${all.at(-LIMITS.repliesPerParent)}`)
    assert.equal(earlier.status, 200)
    assert.deepEqual(earlier.body.posts.map((p: Post) => p.id), all.slice(0, -LIMITS.repliesPerParent))
    assert.equal(earlier.body.hasMore, false)
    // Each reply carries what its author held then (ben Yes, dmitri and farah No), in keeping with its words.
    const every = (await call(svc, 'GET', `${PATHS.replies(parent)}?limit=100`)).body.posts as Post[]
    for (const p of every) {
      const held = p.author === seed.wallets.ben ? 0 : p.author === seed.wallets.dmitri || p.author === seed.wallets.farah ? 1 : undefined
      assert.equal(p.stance?.side, held, p.body)
      assert.equal(/\bNo\.$/.test(p.body), held === 1, p.body)
    }
    // All within the 18 minutes after the take's last agree, before the story's next post.
    const times = every.map((p) => Date.parse(p.createdAt))
    assert.deepEqual(times, [...times].sort((a, b) => a - b))
    const snow = (await thread(seed.markets['london-snow-xmas'])).posts.find((p) => p.id === seed.posts['snow-chloe'])!
    assert.ok(times.at(-1)! < Date.parse(snow.createdAt), 'before the next post of the story (and the result)')
  })

  it('a binary price-threshold market carries displayLabel Above / Below on its outcomes', async () => {
    const m = await market('eth-4k-friday')
    assert.deepEqual(m.outcomes, [
      { label: 'Yes', displayLabel: 'Above' },
      { label: 'No', displayLabel: 'Below' },
    ])
    const t = await thread(m.id)
    assert.deepEqual(t.labels[m.id], m.outcomes)
  })

  it('one resolved market (records settled through chain.resolve) and one voided market', async () => {
    assert.deepEqual((await market('lakers-playoffs')).result, { winner: 1 })
    assert.deepEqual((await market('london-snow-xmas')).result, { void: true })
    const w = seed.wallets
    const res = await call(svc, 'GET', `${PATHS.records}?wallets=${[w.farah, w.ben, w.chloe, w.dmitri].join(',')}`)
    assert.equal(res.status, 200)
    const r = res.body.records
    assert.deepEqual([r[w.farah].right, r[w.farah].wrong], [2, 0])
    assert.deepEqual([r[w.ben].right, r[w.ben].wrong], [0, 2])
    assert.equal(r[w.chloe].void, 1)
    const sports = await call(svc, 'GET', `${PATHS.records}?wallets=${w.dmitri}&facet=category:sports`)
    assert.deepEqual([sports.body.records[w.dmitri].right, sports.body.records[w.dmitri].wrong], [1, 0])
    // A post written after resolution is a comment: no stance.
    const after = (await thread(seed.markets['lakers-playoffs'])).posts.find((p) => p.id === seed.posts['lakers-dmitri-after'])!
    assert.equal(after.stance, undefined)
  })

  it('one recurring series: rounds share `series`, and a round\'s thread merges the others on request', async () => {
    const rounds = await Promise.all(['btc-up-or-down-day-1', 'btc-up-or-down-day-2', 'btc-up-or-down-day-3'].map(market))
    assert.ok(rounds.every((m) => m.series === 'btc-up-or-down'))
    assert.deepEqual(rounds.map((m) => m.result), [{ winner: 0 }, { winner: 1 }, null])
    const own = await thread(rounds[2].id)
    assert.equal(own.series, 'btc-up-or-down')
    assert.ok(own.posts.every((p) => !p.fromSeries))
    const merged = await thread(rounds[2].id, '&includeSeries=true')
    assert.ok(merged.posts.length > own.posts.length)
    assert.ok(merged.posts.some((p) => p.fromSeries))
  })

  it('one CLOB market, which never shows a result', async () => {
    const m = await market('ucl-final')
    assert.equal(m.clob, true)
    assert.equal(m.outcomes.length, 4)
    assert.equal(m.result, null)
    const t = await thread(m.id)
    assert.equal(t.posts.find((p) => p.id === seed.posts['ucl-emeka'])!.stance!.side, 1)
  })

  it('profiles have names', async () => {
    const res = await call(svc, 'GET', `${PATHS.profiles}?wallets=${seed.wallets.ada},${seed.wallets.chloe}`)
    assert.equal(res.status, 200)
    const text = JSON.stringify(res.body)
    assert.ok(text.includes('Ada Park') && text.includes('Chloé Martin'), text)
  })

  it('a demo wallet signs in with its fixed key and reads what it follows (scope following)', async () => {
    const ada = await signIn(svc, privateKeyToAccount(DEMO_KEYS.ada))
    assert.equal(ada.wallet, seed.wallets.ada)
    const res = await call(svc, 'GET', `${PATHS.feed}?scope=following&limit=100`, { token: ada.token })
    assert.equal(res.status, 200)
    const ids = (res.body as FeedPage).posts.map((p) => p.id)
    assert.ok(ids.includes(seed.posts['ethetf-farah']), 'crypto take by someone ada does not follow as a person')
    assert.ok(!ids.includes(seed.posts['brazil-farah']), 'politics is not followed by ada')
    // Her own position still proves a new take's stance.
    const p = await call(svc, 'POST', PATHS.posts, { token: ada.token, body: { subjectType: 'event', subjectRef: seed.markets['tokyo-35c'], body: 'no position here' } })
    assert.equal(p.body.post.stance, undefined)
    const q = await call(svc, 'POST', PATHS.posts, { token: ada.token, body: { subjectType: 'event', subjectRef: seed.markets['btc-150k'], body: 'still long' } })
    assert.deepEqual(q.body.post.stance, { side: 0, size: '50000000', priceBps: 3800 })
  })

  it('is deterministic: a second store seeded the same way holds the same markets and post bodies in the same order', async () => {
    const other = await startTestService()
    try {
      const again = await seedDemo(other)
      assert.deepEqual(again.markets, seed.markets)
      assert.deepEqual(again.wallets, seed.wallets)
      const bodies = async (s: TestService) =>
        (await s.ctx.db.selectFrom('posts').select(['body', 'author', 'stance_side', 'stance_size', 'stance_price_bps']).orderBy('created_at').orderBy('id').execute())
      const mine = (await bodies(svc)).slice(0, Object.keys(seed.posts).length)
      assert.deepEqual(await bodies(other), mine)
    } finally {
      await other.close()
    }
  })
})
