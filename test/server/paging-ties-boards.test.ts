/**
 * Paging of the boards and the moderation reads: the leaderboard and a room's board (§2.9, §2.12;
 * keyset on ranked first, score, account), the moderation queue in both states (§2.10; newest activity
 * first) and the audit log. Data full of ties: many accounts with the same record, members with none,
 * many queue items acted on at one instant; paged with limit 1, 2 and 3 against one page of 100. And each
 * one's default page (20) and largest (100) over 21 entries.
 */
import { before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomHex, timeId } from '../../src/core/ids.ts'
import { recordScore } from '../../src/core/ranking.ts'
import { call, signIn, type TestService, type TestUser } from '../helpers/service.ts'
import { expectDefaultAndMaxPage } from '../helpers/page-limits.ts'
import { serviceOnClock } from '../helpers/service-on-clock.ts'
import { claimVenue, createRoom, post, type Venue } from '../helpers/venues.ts'
import { accountOf, makeRoom, makeVenue } from '../helpers/read-fixtures.ts'

let svc: TestService
let operator: TestUser
const clock = serviceOnClock((s) => ({ svc, operator } = s))
const T = clock.ms

async function pagesOf(path: string, limit: number, token?: string, list = 'entries') {
  const pages: any[] = []
  let cursor: string | undefined
  const sep = path.includes('?') ? '&' : '?'
  for (let i = 0; i < 500; i++) {
    const r = await call(svc, 'GET', `${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { token })
    assert.equal(r.status, 200, JSON.stringify(r.body))
    assert.ok(Array.isArray(r.body[list]))
    pages.push(r.body)
    if (!r.body.nextCursor) return pages
    cursor = r.body.nextCursor
  }
  throw new Error('did not end')
}

/** Pages at limit 1, 2, 3 against one page of 100: the same entries in the same order, each once; nextCursor null on the last page only. */
async function comparePaged(name: string, path: string, list: string, key: (e: any) => string, token?: string, pageExtras?: (tag: string, p: any, whole: any) => void) {
  const [whole] = await pagesOf(path, 100, token, list)
  assert.equal(whole.nextCursor, null, `${name}: one page`)
  assert.ok(whole[list].length >= 5, `${name}: enough entries (${whole[list].length})`)
  assert.equal(new Set(whole[list].map(key)).size, whole[list].length, `${name}: distinct entries`)
  for (const limit of [1, 2, 3]) {
    const tag = `${name} limit ${limit}`
    const pages = await pagesOf(path, limit, token, list)
    assert.deepEqual(pages.flatMap((p) => p[list]), whole[list], `${tag}: same entries, same order, each once`)
    pages.forEach((p, i) => {
      const last = i === pages.length - 1
      assert.equal(p.nextCursor === null, last, `${tag}: nextCursor null exactly on the last page (page ${i})`)
      if (!last) assert.equal(p[list].length, limit, `${tag}: full page`)
      pageExtras?.(tag, p, whole)
    })
  }
  return whole
}

async function setRecord(u: TestUser, facet: { type: string; ref: string }, right: number, wrong: number) {
  await svc.ctx.db
    .insertInto('records')
    .values({ account_id: await accountOf(svc, u.wallet), facet_type: facet.type, facet_ref: facet.ref, right_count: right, wrong_count: wrong, void_count: 0, odds_sum: 0, score: recordScore(right, wrong) })
    .execute()
}

describe('§2.9 and §2.12 boards paged over ties at limit 1, 2 and 3 read as one page of 100', () => {
  let v: Venue
  let node: string
  let room: string
  const people: TestUser[] = []

  before(async () => {
    v = await claimVenue(svc)
    node = `board-${T.toString(36)}`
    room = await createRoom(svc, v, { subjectType: 'category', subjectRef: node })
    for (let i = 0; i < 16; i++) people.push(await signIn(svc, undefined, v.venueId))
    // Ties: five at 2-0, four at 1-0, three at 7-3 (a score with a long binary fraction), one 0-2; three with none.
    const recs: [number, number][] = [[2, 0], [2, 0], [2, 0], [2, 0], [2, 0], [1, 0], [1, 0], [1, 0], [1, 0], [7, 3], [7, 3], [7, 3], [0, 2]]
    for (let i = 0; i < recs.length; i++) await setRecord(people[i], { type: 'category', ref: node }, ...recs[i])
    // A void-only record at the node (unranked), and records elsewhere that must not count here.
    await svc.ctx.db.insertInto('records').values({ account_id: await accountOf(svc, people[13].wallet), facet_type: 'category', facet_ref: node, right_count: 0, wrong_count: 0, void_count: 2, odds_sum: 0, score: 0 }).execute()
    await setRecord(people[14], { type: 'category', ref: `${node}-other` }, 3, 0)
    for (let i = 0; i < 16; i++) if (i !== 5) {
      const r = await call(svc, 'POST', `/v1/rooms/${room}/join`, { token: people[i].token })
      assert.equal(r.status, 200, JSON.stringify(r.body))
    }
    // A member who left is off the board.
    assert.equal((await call(svc, 'POST', `/v1/rooms/${room}/leave`, { token: people[6].token })).status, 200)
  })

  it('leaderboard at a node and global: ties in score page by account, each once', async () => {
    const whole = await comparePaged('leaderboard node', `/v1/leaderboard?scope=category:${node}`, 'entries', (e) => e.wallet, undefined, (tag, p, w) => {
      assert.equal(p.population, w.population, `${tag}: population`)
    })
    const ranks = whole.entries.map((e: any) => e.rank)
    assert.equal(ranks.length, 13)
    assert.ok(ranks.every((r: number, i: number) => i === 0 || r >= ranks[i - 1]) && new Set(ranks).size === 4, `tied ranks ${ranks}`)
    // The global board: the same accounts at the global facet.
    for (let i = 0; i < 8; i++) await setRecord(people[i], { type: '*', ref: '*' }, i % 2 ? 1 : 3, 0)
    await comparePaged('leaderboard global', '/v1/leaderboard?scope=global', 'entries', (e) => e.wallet)
  })

  it("room board: ranked members first (ties by account), then the unranked, each once; a member who left is off", async () => {
    const whole = await comparePaged('room board', `/v1/rooms/${room}/board`, 'board', (e) => e.wallet, undefined, (tag, p, w) => {
      assert.equal(p.members, w.members, `${tag}: members`)
      assert.equal(p.population, w.population, `${tag}: population`)
    })
    assert.ok(whole.board.length >= 14)
    assert.ok(whole.board.filter((e: any) => e.rank === null).length >= 3)
    assert.ok(!whole.board.some((e: any) => e.wallet === people[6].wallet || e.wallet === people[5].wallet))
  })

  it('board keyset: a record or a member added between page reads, ranking above the cursor, shifts nothing', async () => {
    const first = await call(svc, 'GET', `/v1/rooms/${room}/board?limit=4`)
    const [whole] = await pagesOf(`/v1/rooms/${room}/board`, 100, undefined, 'board')
    const newcomer = await signIn(svc, undefined, v.venueId)
    await setRecord(newcomer, { type: 'category', ref: node }, 9, 0)
    assert.equal((await call(svc, 'POST', `/v1/rooms/${room}/join`, { token: newcomer.token })).status, 200)
    let cursor = first.body.nextCursor
    const rest: any[] = []
    while (cursor) {
      const r = await call(svc, 'GET', `/v1/rooms/${room}/board?limit=4&cursor=${cursor}`)
      rest.push(...r.body.board.map((e: any) => e.wallet))
      cursor = r.body.nextCursor
    }
    assert.deepEqual(rest, whole.board.slice(4).map((e: any) => e.wallet))
  })
})

describe('§2.10 the moderation queue ("Tabs/state filter: Open and Actioned") and the audit log paged over ties read as one page of 100', () => {
  let v: Venue
  let author: TestUser
  const reporters: TestUser[] = []
  const posts: string[] = []
  const report = (who: TestUser, id: string) => call(svc, 'POST', `/v1/social/posts/${id}/reports`, { token: who.token, body: { reason: `spam ${who.wallet.slice(2, 6)}` } })
  const act = (who: TestUser, action: string, body: Record<string, unknown>) => call(svc, 'POST', `/v1/mod/${action}`, { token: who.token, body })

  before(async () => {
    v = await claimVenue(svc)
    author = await signIn(svc, undefined, v.venueId)
    for (let i = 0; i < 3; i++) reporters.push(await signIn(svc, undefined, v.venueId))
    clock.ms = T
    for (let i = 0; i < 24; i++) {
      const p = await post(svc, author, { subjectType: 'topic', subjectRef: `mod-${T}`, body: `post ${i}` })
      assert.equal(p.status, 201)
      posts.push(p.body.post.id)
    }
    // Every report at one instant: one reporter on most, the threshold (3) on some (hidden by reports, still queued).
    for (let i = 0; i < 24; i++) for (const r of reporters.slice(0, i % 5 === 0 ? 3 : 1)) assert.equal((await report(r, posts[i])).status, 200)
    // Actions at the same instant: keep, hide, pin, clear, remove (platform), on both queues.
    for (let i = 0; i < 24; i += 2) {
      const action = ['keep', 'hide', 'clear', 'restore'][(i / 2) % 4]
      const r = await act(v.owner, action, { venueId: v.venueId, postId: posts[i] })
      assert.equal(r.status, 200, JSON.stringify(r.body))
    }
    for (let i = 1; i < 24; i += 3) assert.equal((await act(operator, i % 2 ? 'clear' : 'remove', { postId: posts[i] })).status, 200)
    // A deleted post leaves the queue.
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${posts[23]}`, { token: author.token })).status, 200)
  })

  for (const state of ['open', 'actioned'])
    for (const scope of ['venue', 'platform'])
      it(`queue, ${scope}, state=${state}: every item once in the big page's order`, async () => {
        const q = `/v1/mod/queue?state=${state}${scope === 'venue' ? `&venueId=${v.venueId}` : ''}`
        const who = scope === 'venue' ? v.owner : operator
        const whole = await comparePaged(`queue ${scope} ${state}`, q, 'items', (i) => i.post.id, who.token)
        assert.ok(whole.items.every((i: any) => i.state === state))
        assert.ok(!whole.items.some((i: any) => i.post.id === posts[23]), 'a deleted post is not queued')
      })

  it('audit log, venue and platform: every entry once', async () => {
    await comparePaged('audit venue', `/v1/mod/audit?venueId=${v.venueId}`, 'entries', (e) => e.id, v.owner.token)
    await comparePaged('audit platform', '/v1/mod/audit', 'entries', (e) => e.id, operator.token)
  })

  it('queue keyset: a report at the same instant on a new post, and an action on a page-1 item, between page reads, shift nothing', async () => {
    const q = `/v1/mod/queue?state=open&venueId=${v.venueId}`
    const [whole] = await pagesOf(q, 100, v.owner.token, 'items')
    const wholeIds = whole.items.map((i: any) => i.post.id)
    const first = await call(svc, 'GET', `${q}&limit=3`, { token: v.owner.token })
    clock.ms = T
    const p = await post(svc, author, { subjectType: 'topic', subjectRef: `mod-${T}`, body: 'new' })
    assert.equal((await report(reporters[0], p.body.post.id)).status, 200)
    assert.equal((await act(v.owner, 'keep', { venueId: v.venueId, postId: first.body.items[2].post.id })).status, 200)
    let cursor = first.body.nextCursor
    const rest: string[] = []
    while (cursor) {
      const r = await call(svc, 'GET', `${q}&limit=3&cursor=${cursor}`, { token: v.owner.token })
      rest.push(...r.body.items.map((i: any) => i.post.id))
      cursor = r.body.nextCursor
    }
    assert.deepEqual(rest, wholeIds.slice(3))
  })
})

describe('the page default and maximum (LIMITS.pageDefault 20, LIMITS.pageMax 100) of the leaderboard, a room\'s board, the moderation queue and the audit log: 21 entries read as 20 and a cursor without `limit`, as all 21 with limit=100; limit=101 is refused', () => {
  const N = 21
  let v: Venue
  let node: string
  let room: string
  const accounts: string[] = []

  before(async () => {
    v = await claimVenue(svc)
    node = `page-default-${randomHex(4)}`
    // 21 accounts with a wallet and a record at the node, and members of a room on it: stored in one statement a table.
    for (let i = 0; i < N; i++) accounts.push(`a_${randomHex(8)}`)
    const db = svc.ctx.db
    await db.insertInto('accounts').values(accounts.map((id) => ({ id }))).execute()
    await db.insertInto('wallets').values(accounts.map((account_id) => ({ address: `0x${randomHex(20)}`, account_id }))).execute()
    await db
      .insertInto('records')
      .values(accounts.map((account_id, i) => ({ account_id, facet_type: 'category', facet_ref: node, right_count: 1 + (i % 3), wrong_count: i % 2, void_count: 0, odds_sum: 0, score: recordScore(1 + (i % 3), i % 2) })))
      .execute()
    room = await makeRoom(svc, { venueId: await makeVenue(svc), subjectType: 'category', subjectRef: node })
    await db.insertInto('room_members').values(accounts.map((account_id) => ({ room_id: room, account_id, joined_at: new Date(T) }))).execute()
  })

  it('the leaderboard at a node', async () => {
    await expectDefaultAndMaxPage(svc, `/v1/leaderboard?scope=category:${node}`, 'entries')
  })

  it("a room's board", async () => {
    await expectDefaultAndMaxPage(svc, `/v1/rooms/${room}/board`, 'board')
  })

  it("the moderation queue (a venue's, open)", async () => {
    const author = await signIn(svc, undefined, v.venueId)
    const reporter = await signIn(svc, undefined, v.venueId)
    for (let i = 0; i < N; i++) {
      const p = await post(svc, author, { subjectRef: `queue-${node}`, body: `post ${i}` })
      assert.equal(p.status, 201, JSON.stringify(p.body))
      const r = await call(svc, 'POST', `/v1/social/posts/${p.body.post.id}/reports`, { token: reporter.token, body: { reason: 'spam' } })
      assert.equal(r.status, 200, JSON.stringify(r.body))
    }
    await expectDefaultAndMaxPage(svc, `/v1/mod/queue?venueId=${v.venueId}`, 'items', { token: v.owner.token })
  })

  it("the audit log (a venue's)", async () => {
    const owner = await accountOf(svc, v.owner.wallet)
    await svc.ctx.db
      .insertInto('mod_audit')
      .values(accounts.map((target_account, i) => ({ id: timeId('m_', T + i), scope: v.venueId, actor_account: owner, actor_wallet: v.owner.wallet, action: 'ban', post_id: null, target_account, at: new Date(T + i) })))
      .execute()
    await expectDefaultAndMaxPage(svc, `/v1/mod/audit?venueId=${v.venueId}`, 'entries', { token: v.owner.token })
  })
})
