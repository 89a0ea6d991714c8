/**
 * Paging of the id-ordered reads: the market thread (§4.2 `posts`, §2.7; with includeSeries and
 * replies folded in), a post's earlier replies, and an author's posts (§2.4). Every post written at one
 * instant (ids tie on their time part), with replies, hidden, removed, deleted, venue-hidden and private-room
 * posts mixed in; paged with limit 1, 2 and 3 against one page of 100.
 */
import { before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { addMarket, call, signIn, type TestService, type TestUser } from '../helpers/service.ts'
import { serviceOnClock } from '../helpers/service-on-clock.ts'
import { addMember, makeRoom, makeVenue, setState, venueHide, writePost } from '../helpers/read-fixtures.ts'

let svc: TestService
const clock = serviceOnClock((s) => ({ svc } = s))
const T = clock.ms

const qs = (q: Record<string, string | number | boolean | undefined>) => {
  const s = new URLSearchParams()
  for (const [k, v] of Object.entries(q)) if (v !== undefined) s.set(k, String(v))
  return s.toString()
}

async function pagesOf(path: string, q: Record<string, any>, limit: number, token?: string) {
  const pages: any[] = []
  let cursor: string | undefined
  for (let i = 0; i < 500; i++) {
    const r = await call(svc, 'GET', `${path}?${qs({ ...q, limit, cursor })}`, { token })
    assert.equal(r.status, 200, JSON.stringify(r.body))
    pages.push(r.body)
    if (!r.body.nextCursor) return pages
    cursor = r.body.nextCursor
  }
  throw new Error('did not end')
}

const marketOf = (x: any): string | null => (x.subjectType === 'event' ? x.subjectRef.toLowerCase() : null)

/** The common checks of an id-paged read: the rows, their order, nextCursor/hasMore, and the per-post extras. */
async function comparePaged(name: string, path: string, q: Record<string, any>, token: string | undefined, extras: (tag: string, page: any, whole: any) => void, min = 3) {
  const [whole] = await pagesOf(path, q, 100, token)
  assert.equal(whole.nextCursor, null, `${name}: fits one page`)
  const wholeIds = whole.posts.map((p: any) => p.id)
  assert.ok(wholeIds.length >= min, `${name}: enough rows (${wholeIds.length})`)
  assert.deepEqual([...wholeIds].sort().reverse(), wholeIds, `${name}: newest first (id desc)`)
  const byId = new Map(whole.posts.map((p: any) => [p.id, p]))
  for (const limit of [1, 2, 3]) {
    const tag = `${name} limit ${limit}`
    const pages = await pagesOf(path, q, limit, token)
    assert.deepEqual(pages.flatMap((p) => p.posts.map((x: any) => x.id)), wholeIds, `${tag}: same rows, same order, each once`)
    pages.forEach((p, i) => {
      const last = i === pages.length - 1
      assert.equal(p.nextCursor === null, last, `${tag}: nextCursor null exactly on the last page (page ${i})`)
      assert.equal(p.hasMore, !last, `${tag}: hasMore (page ${i})`)
      if (!last) assert.equal(p.posts.length, limit, `${tag}: full page`)
      for (const x of p.posts) assert.deepEqual(x, byId.get(x.id), `${tag}: post ${x.id} as on the big page (fromSeries, hidden, stance…)`)
      extras(tag, p, whole)
    })
  }
  return whole
}

/** Labels and titles of a page: exactly the page's markets (and `own`, a thread's market), as on the big page. */
function labelsOfPage(tag: string, p: any, whole: any, own: string | null, withReplies: boolean) {
  const markets = new Set<string>(p.posts.map(marketOf).filter(Boolean))
  if (own) markets.add(own)
  for (const m of markets) {
    assert.deepEqual(p.labels[m], whole.labels[m], `${tag}: labels of ${m}`)
    assert.equal(p.titles[m], whole.titles[m], `${tag}: title of ${m}`)
  }
  assert.deepEqual(Object.keys(p.labels).sort(), [...markets].sort(), `${tag}: labels are for the page's markets only`)
  void withReplies
}

let users: Record<string, TestUser>
let m1: { id: string }
let round2: { id: string }
let series: string
let venue: string
let privRoom: string
let pubRoom: string
const wrote: Record<string, string> = {}

describe('§4.2 posts "One thread, newest first, cursor-paged" and postsByAuthor, paged over ties at limit 1, 2 and 3, read as one page of 100', () => {
  before(async () => {
    users = {}
    for (const n of ['a', 'b', 'c', 'member']) users[n] = await signIn(svc)
    series = `series-${T}`
    m1 = await addMarket(svc, { series, title: 'Round 1' })
    round2 = await addMarket(svc, { series, title: 'Round 2' })
    const resolved = await addMarket(svc, { title: 'Resolved' })
    venue = await makeVenue(svc)
    pubRoom = await makeRoom(svc, { venueId: venue, subjectType: 'series', subjectRef: series })
    privRoom = await makeRoom(svc, { venueId: venue, visibility: 'private', subjectType: 'series', subjectRef: series })
    for (const n of ['a', 'member']) {
      await addMember(svc, pubRoom, users[n])
      await addMember(svc, privRoom, users[n])
    }
    for (const n of ['a', 'b']) {
      await svc.chain.setPosition(users[n].wallet, m1.id, 0, 10n)
      await svc.chain.setPosition(users[n].wallet, round2.id, 1, 10n)
      await svc.chain.setPosition(users[n].wallet, resolved.id, 0, 10n)
    }
    clock.ms = T
    const w = async (key: string, who: string, type: string, ref: string, extra: { parentId?: string; room?: string } = {}) => {
      wrote[key] = (await writePost(svc, users[who], type, ref, key, extra)).id
    }
    // Interleaved: the thread's market, the series node, the other round, an unrelated resolved market.
    for (let i = 0; i < 4; i++) {
      for (const n of ['a', 'b', 'c']) await w(`m1-${n}${i}`, n, 'event', m1.id)
      await w(`series-${i}`, i % 2 ? 'a' : 'c', 'series', series)
      await w(`round2-${i}`, i % 2 ? 'b' : 'a', 'event', round2.id)
      await w(`resolved-${i}`, i % 2 ? 'a' : 'c', 'event', resolved.id)
      await w(`pub-m1-${i}`, i % 2 ? 'a' : 'member', 'event', m1.id, { room: pubRoom })
      await w(`pub-series-${i}`, 'member', 'series', series, { room: pubRoom })
      await w(`priv-round2-${i}`, i % 2 ? 'a' : 'member', 'event', round2.id, { room: privRoom })
      await w(`priv-m1-${i}`, 'member', 'event', m1.id, { room: privRoom })
    }
    await w('m1-pub', 'a', 'event', m1.id, { room: pubRoom })
    await w('m1-priv', 'member', 'event', m1.id, { room: privRoom })
    await w('m1-priv-a', 'a', 'event', m1.id, { room: privRoom })
    // Replies under rows of every kind.
    await w('r-m1', 'b', 'event', m1.id, { parentId: wrote['m1-a0'] })
    await w('r-m1-2', 'c', 'event', m1.id, { parentId: wrote['m1-a0'] })
    await w('r-series', 'b', 'series', series, { parentId: wrote['series-1'] })
    await w('r-round2', 'c', 'event', round2.id, { parentId: wrote['round2-2'] })
    await w('r-resolved', 'c', 'event', resolved.id, { parentId: wrote['resolved-1'] })
    await w('r-own', 'a', 'event', m1.id, { parentId: wrote['m1-c1'] })
    await w('r-gone', 'a', 'event', m1.id, { parentId: wrote['m1-b2'] })
    await w('r-priv', 'member', 'event', m1.id, { parentId: wrote['m1-priv'] })
    // Hidden (a's own: a sees it), removed, deleted, venue-hidden; a reply whose parent is then hidden.
    await setState(svc, wrote['m1-a1'], 'hidden')
    await setState(svc, wrote['series-3'], 'removed')
    await setState(svc, wrote['m1-b2'], 'hidden')
    await setState(svc, wrote['pub-m1-1'], 'hidden')
    await w('r-pub', 'a', 'event', m1.id, { parentId: wrote['pub-m1-2'], room: pubRoom })
    await setState(svc, wrote['r-m1-2'], 'hidden')
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${wrote['m1-c2']}`, { token: users.c.token })).status, 200)
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${wrote['resolved-2']}`, { token: users.c.token })).status, 200)
    await venueHide(svc, venue, wrote['m1-b0'])
    await venueHide(svc, venue, wrote['round2-1'])
    await svc.chain.resolve(resolved.id, 0)
    // The private-room member blocks c: c's posts and replies leave the member's pages.
    assert.equal((await call(svc, 'POST', '/v1/social/blocks', { token: users.member.token, body: { wallet: users.c.wallet } })).status, 200)
  })

  for (const includeSeries of [false, true])
    for (const includeReplies of [true, false])
      it(`thread: includeSeries=${includeSeries}, includeReplies=${includeReplies}, for every kind of reader and overlay`, async () => {
        for (const [who, extra] of [
          ['signed out', {}],
          ['author of hidden posts', { as: 'a' }],
          ['private-room member', { as: 'member' }],
          ['venue overlay', { venue }],
          ['public room', { room: pubRoom }],
          ['private room, member', { room: privRoom, as: 'member' }],
        ] as [string, { as?: string; venue?: string; room?: string }][]) {
          const q = { subjectType: 'event', subjectRef: m1.id, includeSeries, includeReplies, venue: extra.venue, room: extra.room }
          const name = `thread series=${includeSeries} replies=${includeReplies} ${who}`
          const token = extra.as ? users[extra.as].token : undefined
          await comparePaged(name, '/v1/social/posts', q, token, (tag, p, whole) => {
            assert.equal(p.series, whole.series, `${tag}: series`)
            assert.equal(p.roomId, whole.roomId, `${tag}: roomId`)
            const onPage = new Set(p.posts.map((x: any) => x.id))
            for (const k of Object.keys(p.threads)) assert.ok(onPage.has(k), `${tag}: thread ${k} is under a post on the page`)
            for (const id of onPage) assert.deepEqual(p.threads[id as string], whole.threads[id as string], `${tag}: thread of ${id}`)
            if (!includeReplies) assert.deepEqual(p.threads, {}, `${tag}: no replies`)
            labelsOfPage(tag, p, whole, m1.id, includeReplies)
          })
        }
      })

  it('thread keyset: a post written between page reads (same instant), and page 1 rows hidden / deleted (the cursor row too), shift nothing', async () => {
    const q = { subjectType: 'event', subjectRef: m1.id, includeSeries: true }
    const [whole] = await pagesOf('/v1/social/posts', q, 100)
    const wholeIds = whole.posts.map((p: any) => p.id)
    const first = await call(svc, 'GET', `/v1/social/posts?${qs({ ...q, limit: 3 })}`)
    const [a, , c] = first.body.posts.map((p: any) => p.id)
    clock.ms = T
    const fresh = await writePost(svc, users.b, 'event', m1.id, 'written between the reads')
    await writePost(svc, users.b, 'series', series, 'on the series, between the reads')
    await setState(svc, a, 'hidden')
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${c}`, { token: users[whole.posts[2].author === users.a.wallet ? 'a' : whole.posts[2].author === users.b.wallet ? 'b' : 'c'].token })).status, 200)
    let cursor = first.body.nextCursor
    const rest: string[] = []
    while (cursor) {
      const r = await call(svc, 'GET', `/v1/social/posts?${qs({ ...q, limit: 3, cursor })}`)
      rest.push(...r.body.posts.map((p: any) => p.id))
      cursor = r.body.nextCursor
    }
    assert.deepEqual(rest, wholeIds.slice(3))
    assert.ok(!rest.includes(fresh.id))
  })

  it('earlier replies: 63 replies at one instant (some hidden, one deleted) read back with before= at limit 1, 2, 3 as one page of 100 has them', async () => {
    clock.ms = T
    const parent = await writePost(svc, users.a, 'topic', `t-${T}`, 'busy')
    const replies: string[] = []
    for (let i = 0; i < 63; i++) replies.push((await writePost(svc, users[['a', 'b', 'c'][i % 3]], 'topic', `t-${T}`, `reply ${i}`, { parentId: parent.id })).id)
    await setState(svc, replies[10], 'hidden') // b's
    await setState(svc, replies[30], 'hidden') // a's
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${replies[20]}`, { token: users.c.token })).status, 200)
    for (const [who, token] of [['signed out', undefined], ['a', users.a.token], ['b', users.b.token]] as [string, string | undefined][]) {
      const big = await call(svc, 'GET', `/v1/social/posts/${parent.id}/replies?limit=100`, { token })
      assert.equal(big.body.hasMore, false)
      const bigIds = big.body.posts.map((p: any) => p.id)
      assert.deepEqual([...bigIds].sort(), bigIds, `${who}: oldest first`)
      for (const limit of [1, 2, 3]) {
        const pages: any[] = []
        let beforeId: string | undefined
        for (;;) {
          const r = await call(svc, 'GET', `/v1/social/posts/${parent.id}/replies?${qs({ limit, before: beforeId })}`, { token })
          assert.equal(r.status, 200)
          pages.push(r.body)
          if (!r.body.hasMore) break
          assert.equal(r.body.posts.length, limit, `${who} limit ${limit}: full page while hasMore`)
          beforeId = r.body.posts[0].id
        }
        const seen = [...pages].reverse().flatMap((p) => p.posts.map((x: any) => x.id))
        assert.deepEqual(seen, bigIds, `${who} limit ${limit}: every reply once, in order`)
        const byId = new Map(big.body.posts.map((x: any) => [x.id, x]))
        for (const p of pages) for (const x of p.posts) assert.deepEqual(x, byId.get(x.id))
      }
      // The thread's fold holds the newest 50; before= its first reads exactly the rest.
      const t = await call(svc, 'GET', `/v1/social/posts?${qs({ subjectType: 'topic', subjectRef: `t-${T}` })}`, { token })
      const folded = t.body.threads[parent.id].map((x: any) => x.id)
      assert.deepEqual(folded, bigIds.slice(-50), `${who}: the fold is the newest 50`)
      const rest = await call(svc, 'GET', `/v1/social/posts/${parent.id}/replies?${qs({ before: folded[0], limit: 100 })}`, { token })
      assert.deepEqual(rest.body.posts.map((x: any) => x.id), bigIds.slice(0, -50), `${who}: before the fold`)
    }
  })

  for (const takes of [true, false])
    for (const includeReplies of [false, true])
      it(`author posts: takes=${takes}, includeReplies=${includeReplies}, read by the author, by another and under a venue overlay`, async () => {
        for (const [who, token, venueQ] of [
          ['self', users.a.token, undefined],
          ['other', users.b.token, undefined],
          ['signed out, venue', undefined, venue],
          ['self, venue', users.a.token, venue],
        ] as [string, string | undefined, string | undefined][]) {
          const name = `profile takes=${takes} replies=${includeReplies} ${who}`
          for (const author of ['a', 'c']) {
            await comparePaged(`${name} of ${author}`, `/v1/social/profile/${users[author].wallet}/posts`, { takes, includeReplies, venue: venueQ }, token, (tag, p, whole) => {
              const markets = new Set<string>(p.posts.map(marketOf).filter(Boolean))
              for (const m of markets) {
                assert.deepEqual(p.results[m], whole.results[m], `${tag}: result of ${m}`)
                assert.deepEqual(p.labels[m], whole.labels[m], `${tag}: labels of ${m}`)
                assert.equal(p.titles[m], whole.titles[m], `${tag}: title of ${m}`)
              }
              for (const k of [...Object.keys(p.results), ...Object.keys(p.labels)]) assert.ok(markets.has(k), `${tag}: ${k} is a market on the page`)
            }, author === 'a' ? 3 : 0)
          }
        }
      })

  it('author posts keyset: a post written between the reads and page 1 rows deleted shift nothing', async () => {
    const path = `/v1/social/profile/${users.a.wallet}/posts`
    const q = { takes: false, includeReplies: true }
    const [whole] = await pagesOf(path, q, 100, users.a.token)
    const wholeIds = whole.posts.map((p: any) => p.id)
    const first = await call(svc, 'GET', `${path}?${qs({ ...q, limit: 2 })}`, { token: users.a.token })
    clock.ms = T
    const fresh = await writePost(svc, users.a, 'event', m1.id, 'between the reads')
    for (const id of first.body.posts.map((p: any) => p.id)) assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${id}`, { token: users.a.token })).status, 200)
    let cursor = first.body.nextCursor
    const rest: string[] = []
    while (cursor) {
      const r = await call(svc, 'GET', `${path}?${qs({ ...q, limit: 2, cursor })}`, { token: users.a.token })
      rest.push(...r.body.posts.map((p: any) => p.id))
      cursor = r.body.nextCursor
    }
    assert.deepEqual(rest, wholeIds.slice(2))
    assert.ok(!rest.includes(fresh.id))
  })
})
