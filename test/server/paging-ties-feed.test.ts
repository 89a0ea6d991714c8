/**
 * Paging of the ranked feed (§2.2, §4.1): data full of ties (every post written at one instant, equal
 * scores, equal records, equal agree counts, replies, hidden / deleted / venue-hidden posts), paged with
 * limit 1, 2 and 3 and compared with one page of 100: every post once, in the same order, and every
 * page-attached extra (signals, quiet rows, settlements, threads, labels, titles, records) where the big
 * page puts it, or consistent with its own page where the extra belongs to the page (settlements).
 */
import { before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { addMarket, call, signIn, type TestService, type TestUser } from '../helpers/service.ts'
import { serviceOnClock } from '../helpers/service-on-clock.ts'
import { accountOf, feed, makeRoom, makeVenue, settleTakes, uniqueRef, writePost } from '../helpers/feed-fixtures.ts'

let svc: TestService
const clock = serviceOnClock((s) => ({ svc } = s))
const T = clock.ms

const marketOf = (x: any): string | null => (x.subjectType === 'event' ? x.subjectRef.toLowerCase() : null)

type Q = Record<string, string | number | undefined>

async function pagesOf(q: Q, limit: number, token?: string) {
  const pages: any[] = []
  let cursor: string | undefined
  for (let i = 0; i < 500; i++) {
    const r = await feed(svc, { ...q, limit, cursor }, { token })
    assert.equal(r.status, 200, JSON.stringify(r.body))
    pages.push(r.body)
    if (!r.body.nextCursor) return pages
    cursor = r.body.nextCursor
  }
  throw new Error('feed did not end')
}

/** A quiet row's place in the whole order: the index of the post it comes before (the list's length: after the last). */
function quietPlaces(pages: any[]) {
  const out: string[] = []
  let offset = 0
  for (const p of pages) {
    const ids = p.posts.map((x: any) => x.id)
    for (const s of p.signals.filter((s: any) => s.attachTo === null)) {
      const at = s.before === null ? offset + ids.length : offset + ids.indexOf(s.before)
      assert.ok(s.before === null || ids.includes(s.before), `quiet row's before ${s.before} is on its page`)
      out.push(`${s.marketId}:${s.side}:${s.count}@${at}`)
    }
    offset += ids.length
  }
  return out.sort()
}

/** Compares the pages of `q` at `limit` with one page of 100. */
async function comparePaged(name: string, q: Q, token?: string) {
  const [whole] = await pagesOf(q, 100, token)
  assert.equal(whole.nextCursor, null, `${name}: fits one page`)
  const wholeIds = whole.posts.map((p: any) => p.id)
  assert.ok(wholeIds.length >= 3, `${name}: enough rows (${wholeIds.length})`)
  const byId = new Map(whole.posts.map((p: any) => [p.id, p]))
  for (const limit of [1, 2, 3]) {
    const tag = `${name} limit ${limit}`
    const pages = await pagesOf(q, limit, token)
    const seen = pages.flatMap((p) => p.posts.map((x: any) => x.id))
    assert.deepEqual(seen, wholeIds, `${tag}: same rows in the same order`)
    pages.forEach((p, i) => {
      const last = i === pages.length - 1
      assert.equal(p.nextCursor === null, last, `${tag}: nextCursor null exactly on the last page (page ${i})`)
      if (!last) assert.equal(p.posts.length, limit, `${tag}: a page before the last is full`)
      assert.ok(p.posts.length > 0 || pages.length === 1, `${tag}: no empty page after the first`)
      const onPage = new Set(p.posts.map((x: any) => x.id))
      // Rows: the same post as on the big page, record included (sort=record).
      for (const x of p.posts) assert.deepEqual(x, byId.get(x.id), `${tag}: post ${x.id} as on the big page`)
      // Threads: exactly the page's posts with replies, as on the big page.
      for (const k of Object.keys(p.threads)) assert.ok(onPage.has(k), `${tag}: thread ${k} belongs to a post on the page`)
      for (const id of onPage) assert.deepEqual(p.threads[id as string], whole.threads[id as string], `${tag}: thread of ${id}`)
      // Labels and titles: every market of the page's posts and signals, as on the big page.
      const markets = new Set([...p.posts.map(marketOf).filter(Boolean), ...p.signals.map((s: any) => s.marketId)])
      for (const m of markets) {
        assert.deepEqual(p.labels[m as string], whole.labels[m as string], `${tag}: labels of ${m}`)
        assert.equal(p.titles[m as string], whole.titles[m as string], `${tag}: title of ${m}`)
      }
      for (const m of Object.keys(p.labels)) assert.ok(markets.has(m), `${tag}: label ${m} is for something on the page`)
      // Settlements belong to the page: each resolved market on it, attached to its highest post on this page.
      const firstOf = new Map<string, string>()
      for (const x of p.posts) if (marketOf(x) && !firstOf.has(marketOf(x)!)) firstOf.set(marketOf(x)!, x.id)
      const expectedSettled = whole.settlements.filter((s: any) => firstOf.has(s.marketId)).map((s: any) => ({ ...s, attachTo: firstOf.get(s.marketId) }))
      assert.deepEqual(p.settlements, expectedSettled, `${tag}: settlements of the page`)
      // Attached signals: on the page of their anchor only.
      for (const s of p.signals.filter((s: any) => s.attachTo)) assert.ok(onPage.has(s.attachTo), `${tag}: signal anchor on its page`)
    })
    const attached = (list: any[]) => list.filter((s) => s.attachTo).map((s) => `${s.marketId}:${s.side}:${s.count}>${s.attachTo}`).sort()
    assert.deepEqual(attached(pages.flatMap((p) => p.signals)), attached(whole.signals), `${tag}: attached signals, each once, under the big page's post`)
    assert.deepEqual(quietPlaces(pages), quietPlaces([whole]), `${tag}: quiet rows, each once, where the big page places them`)
  }
  return whole
}

let users: Record<string, TestUser>
let C: string
let TOPIC: string
let M: Record<string, { id: string }>
let roomId: string
let venue: string
let reader: TestUser
const wrote: Record<string, string> = {}

async function agree(u: TestUser, id: string) {
  const r = await call(svc, 'POST', `/v1/social/posts/${id}/reactions`, { token: u.token, body: { kind: 'agree', active: true } })
  assert.equal(r.status, 200, JSON.stringify(r.body))
}

describe('§2.2 "Feed page" and §1.6 signals "attached to a page": the ranked feed paged over ties at limit 1, 2 and 3 reads as one page of 100', () => {
  before(async () => {
    C = uniqueRef('cat')
    TOPIC = uniqueRef('topic')
    users = {}
    for (const n of ['good', 'eqA', 'eqB', 'bad', 'p1', 'p2', 'p3', 'fan1', 'fan2']) users[n] = await signIn(svc)
    // Records: good 2-0, eqA and eqB 1-0 each (equal scores), bad 0-1. Their settled takes are on the node too.
    await settleTakes(svc, users.good, C, { right: 2, wrong: 0 })
    await settleTakes(svc, users.eqA, C, { right: 1, wrong: 0 })
    await settleTakes(svc, users.eqB, C, { right: 1, wrong: 0 })
    await settleTakes(svc, users.bad, C, { right: 0, wrong: 1 })
    const nodes = [{ type: 'category' as const, ref: C }]
    M = {
      m1: await addMarket(svc, { title: 'M1', nodes: [...nodes, { type: 'topic', ref: TOPIC }] }),
      m2: await addMarket(svc, { title: 'M2', nodes }),
      m3: await addMarket(svc, { title: 'M3 (resolves)', nodes }),
      q1: await addMarket(svc, { title: 'Q1 quiet', nodes }),
      q2: await addMarket(svc, { title: 'Q2 quiet', nodes }),
      q3: await addMarket(svc, { title: 'Q3 quiet', nodes }),
    }
    for (const n of ['good', 'eqA', 'eqB', 'bad', 'p1']) await svc.chain.setPosition(users[n].wallet, M.m1.id, n === 'bad' ? 1 : 0, 10n)
    for (const n of ['eqA', 'eqB', 'p1']) await svc.chain.setPosition(users[n].wallet, M.m2.id, 1, 10n)
    for (const [n, side] of [['eqA', 0], ['p1', 1], ['p2', 0], ['good', 0]] as const) await svc.chain.setPosition(users[n].wallet, M.m3.id, side, 10n)
    venue = await makeVenue(svc)
    ;({ roomId } = await makeRoom(svc, { venueId: venue, subject: { type: 'category', ref: C }, members: [users.eqA, users.p1, users.good, users.p2] }))
    // Everything at one instant.
    clock.ms = T
    const w = async (key: string, who: string, type: string, ref: string, extra: { parentId?: string; room?: string } = {}) => {
      wrote[key] = (await writePost(svc, users[who], type, ref, key, extra)).id
    }
    for (const n of ['good', 'eqA', 'eqB', 'bad', 'p1', 'p2', 'p3']) await w(`m1-${n}`, n, 'event', M.m1.id)
    for (const n of ['eqA', 'eqB', 'p1', 'good']) await w(`m2-${n}`, n, 'event', M.m2.id)
    for (const n of ['eqA', 'p1', 'p2', 'p3', 'good']) await w(`m3-${n}`, n, 'event', M.m3.id)
    for (const n of ['good', 'eqA', 'p1', 'p2']) await w(`c-${n}`, n, 'category', C)
    await w('topic-p3', 'p3', 'topic', TOPIC)
    for (const n of ['eqA', 'p1', 'good']) await w(`room-m1-${n}`, n, 'event', M.m1.id, { room: roomId })
    for (const n of ['eqA', 'p1']) await w(`room-c-${n}`, n, 'category', C, { room: roomId })
    await w('room-m2-good', 'good', 'event', M.m2.id, { room: roomId })
    // Equal agree counts: four posts with one agree, two with two.
    for (const k of ['m1-p2', 'm2-eqB', 'c-good', 'room-c-p1', 'm3-p1']) await agree(users.fan1, wrote[k])
    for (const k of ['m1-eqB', 'room-m1-eqA']) for (const f of ['fan1', 'fan2']) await agree(users[f], wrote[k])
    // Replies (one each: equal scores among the parents), two under one parent.
    for (const [k, parent] of [['r1', 'm1-p3'], ['r2', 'm2-p1'], ['r3', 'c-eqA'], ['r4', 'c-eqA'], ['r5', 'room-m1-p1']] as const) {
      const parentPost = wrote[parent]
      const isRoom = parent.startsWith('room')
      await w(k, 'p2', parent.startsWith('c-') ? 'category' : 'event', parent.startsWith('c-') ? C : parent.includes('m2') ? M.m2.id : M.m1.id, { parentId: parentPost, ...(isRoom ? { room: roomId } : {}) })
    }
    // Hidden, removed, deleted, venue-hidden and a hidden reply.
    await svc.ctx.db.updateTable('posts').set({ state: 'hidden' }).where('id', 'in', [wrote['m1-p1'], wrote['c-p2']]).execute()
    await svc.ctx.db.updateTable('posts').set({ state: 'removed' }).where('id', '=', wrote['m2-p1']).execute()
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${wrote['m3-p3']}`, { token: users.p3.token })).status, 200)
    await svc.ctx.db.insertInto('venue_hides').values([{ venue_id: venue, post_id: wrote['m1-good'], by_account: 'a_test' }, { venue_id: venue, post_id: wrote['c-eqA'], by_account: 'a_test' }]).execute()
    await svc.ctx.db.updateTable('posts').set({ state: 'hidden' }).where('id', '=', wrote.r4).execute()
    // Resolve M3 (settlements), then ranked callers move at the same instant: attached signals on M1, M2; quiet rows on Q1..Q3.
    await svc.chain.resolve(M.m3.id, 0)
    const trade = (n: string, m: string, side: number) => svc.chain.trade({ wallet: users[n].wallet, marketId: M[m].id, side, size: 1n, at: new Date(T) })
    await trade('good', 'm1', 0)
    await trade('eqA', 'm1', 0)
    await trade('eqB', 'm2', 1)
    await trade('good', 'q1', 0)
    await trade('eqA', 'q1', 0) // count 2: scored as a take with two agrees at T (ties with two posts)
    await trade('eqB', 'q2', 1) // count 1: ties with the one-agree takes
    await trade('bad', 'q3', 0) // bad is ranked too (population 4)
    reader = users.p1
    // The reader blocks an author (their posts leave the reader's pages, and the signals' "in feed" test with them).
    assert.equal((await call(svc, 'POST', '/v1/social/blocks', { token: reader.token, body: { wallet: users.bad.wallet } })).status, 200)
    await svc.ctx.db
      .insertInto('follows')
      .values([
        { account_id: await accountOf(svc, reader.wallet), subject_type: 'topic', subject_ref: TOPIC },
        { account_id: await accountOf(svc, reader.wallet), subject_type: 'event', subject_ref: M.m3.id },
        { account_id: await accountOf(svc, reader.wallet), subject_type: 'event', subject_ref: M.m1.id },
      ])
      .execute()
  })

  for (const sort of ['live', 'record']) {
    it(`global scope, sort=${sort}, signed out and signed in`, async () => {
      await comparePaged(`global ${sort}`, { sort })
      await comparePaged(`global ${sort} (reader)`, { sort }, reader.token)
      await comparePaged(`global ${sort} (venue)`, { sort, venue })
    })

    it(`subject scope on a category (signals, quiet rows, settlements), sort=${sort}`, async () => {
      const whole = await comparePaged(`category ${sort}`, { subjectType: 'category', subjectRef: C, sort })
      assert.ok(whole.signals.some((s: any) => s.attachTo), 'the data has attached signals')
      assert.equal(whole.signals.filter((s: any) => s.attachTo === null).length, 3, 'the data has three quiet rows')
      assert.ok(whole.settlements.length >= 1, 'the data has settlements')
      await comparePaged(`category ${sort} (reader)`, { subjectType: 'category', subjectRef: C, sort }, reader.token)
      await comparePaged(`category ${sort} (venue)`, { subjectType: 'category', subjectRef: C, sort, venue })
    })

    it(`subject scope on a topic and on a market, sort=${sort}`, async () => {
      await comparePaged(`topic ${sort}`, { subjectType: 'topic', subjectRef: TOPIC, sort })
      await comparePaged(`market ${sort}`, { subjectType: 'event', subjectRef: M.m1.id, sort })
      await comparePaged(`market ${sort} (venue)`, { subjectType: 'event', subjectRef: M.m1.id, sort, venue }, reader.token)
    })

    it(`following scope, sort=${sort}`, async () => {
      await comparePaged(`following ${sort}`, { scope: 'following', sort }, reader.token)
    })

    it(`room, sort=${sort}: global and subject (category, market) scopes`, async () => {
      await comparePaged(`room ${sort}`, { room: roomId, sort })
      await comparePaged(`room category ${sort}`, { room: roomId, subjectType: 'category', subjectRef: C, sort })
      await comparePaged(`room following ${sort}`, { room: roomId, scope: 'following', sort }, reader.token)
    })
  }

  it('keyset, not offset: after page 1, posts written between the reads (one tied below the cursor, one above it) and the hiding and deletion of page 1 rows (the cursor row too): the next pages are the rows below the cursor, each once', async () => {
    for (const [name, q] of [
      ['global live', { sort: 'live' }],
      ['global record', { sort: 'record' }],
      ['category live', { subjectType: 'category', subjectRef: C }],
      ['category record', { subjectType: 'category', subjectRef: C, sort: 'record' }],
      ['market live', { subjectType: 'event', subjectRef: M.m1.id }],
      ['market record', { subjectType: 'event', subjectRef: M.m1.id, sort: 'record' }],
      ['room live', { room: roomId }],
      ['room record', { room: roomId, sort: 'record' }],
    ] as [string, Q][]) {
      const first = await feed(svc, { ...q, limit: 3 })
      const [a, , c] = first.body.posts.map((p: any) => p.id)
      const inRoom = q.room ? { room: roomId } : {}
      // Tied with the lowest rows (a comment at the instant every row was written), and a newer take above everything.
      clock.ms = T
      const tiedLow = await writePost(svc, users.p2, 'event', M.m1.id, 'tied, written between pages', inRoom)
      clock.ms = T + 20 * 3600_000
      const above = await writePost(svc, users.good, 'event', M.m1.id, 'newer, written between pages', inRoom)
      clock.ms = T
      const [now] = await pagesOf(q, 100)
      const nowIds = now.posts.map((p: any) => p.id)
      assert.ok(nowIds.includes(tiedLow.id) && nowIds.indexOf(above.id) < nowIds.indexOf(c), `${name}: the data (new posts below and above the cursor) ${JSON.stringify({ n: nowIds.length, next: now.nextCursor, low: nowIds.indexOf(tiedLow.id), above: nowIds.indexOf(above.id), c: nowIds.indexOf(c) })}`)
      const expected = nowIds.slice(nowIds.indexOf(c) + 1)
      if (!q.room) assert.ok(expected.includes(tiedLow.id), `${name}: the tied post ranks below the cursor`)
      await svc.ctx.db.updateTable('posts').set({ state: 'hidden' }).where('id', '=', a).execute()
      await svc.ctx.db.updateTable('posts').set({ deleted_at: new Date(T) }).where('id', '=', c).execute()
      let cursor = first.body.nextCursor
      const rest: string[] = []
      while (cursor) {
        const r = await feed(svc, { ...q, limit: 3, cursor })
        rest.push(...r.body.posts.map((p: any) => p.id))
        cursor = r.body.nextCursor
      }
      assert.deepEqual(rest, expected, `${name}: the pages after the first are the rows below its cursor, none skipped, none repeated`)
    }
  })
})
