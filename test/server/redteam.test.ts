/**
 * Red team: an unauthorised caller must learn or change nothing it should not ("Authorisation is checked on the
 * server, never trusted from the client. Raw venue keys are shown once and stored only as a hash."). Each test is
 * one attack, named by the rule it would break, run against the real HTTP app and stream. The attacks that the
 * other files already pin (the authorisation matrix, private-rooms, realtime-rooms, replies, keys…) are not
 * repeated here.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { randomHex } from '../../src/core/ids.ts'
import { PATHS, roomThreadTopic, threadTopic } from '../../src/contract/paths.ts'
import { sha256 } from '../../src/server/auth/tokens.ts'
import { MIGRATIONS } from '../../src/server/db/migrations.ts'
import { addMarket, call, expectError, newWallet, signIn, startTestService, type CallResult, type TestService, type TestUser } from '../helpers/service.ts'
import { StreamClient } from '../helpers/stream.ts'
import { claimVenue, createRoom, post, type Venue } from '../helpers/venues.ts'

let svc: TestService
const operatorAccount = newWallet()
before(async () => {
  svc = await startTestService({ operators: [operatorAccount.address] })
})
after(() => svc.close())

const sockets: StreamClient[] = []
after(() => {
  for (const s of sockets) s.close()
})

const ok = (r: CallResult, what: string) => {
  assert.ok(r.status < 300, `${what}: ${r.status} ${JSON.stringify(r.body)}`)
  return r.body
}
const newNode = () => `rt-${randomHex(4)}`
const addMember = async (v: Venue, room: string, u: TestUser) => ok(await call(svc, 'PUT', `/v1/rooms/${room}/members/${u.wallet}`, { token: v.owner.token }), 'add member')

/**
 * A venue V with a private room on a category node, and callers who must not read it: signed out, a signed-in
 * stranger, a member who left, a member the owner removed, a member of V's other private room, and the owner of
 * another venue W (with W's key). `member` is a current member (the control).
 */
async function privateWorld() {
  const node = newNode()
  const v = await claimVenue(svc)
  const w = await claimVenue(svc)
  const priv = await createRoom(svc, v, { subjectType: 'category', subjectRef: node, visibility: 'private', title: 'Inner' })
  const otherPriv = await createRoom(svc, v, { subjectType: 'category', subjectRef: newNode(), visibility: 'private', title: 'Other' })
  const [author, member, stranger, left, removed, otherRoomMember] = await Promise.all([1, 2, 3, 4, 5, 6].map(() => signIn(svc, undefined, v.venueId)))
  for (const u of [author, member, left, removed]) await addMember(v, priv, u)
  await addMember(v, otherPriv, otherRoomMember)
  ok(await call(svc, 'POST', `/v1/rooms/${priv}/leave`, { token: left.token }), 'leave')
  ok(await call(svc, 'DELETE', `/v1/rooms/${priv}/members/${removed.wallet}`, { token: v.owner.token }), 'remove')
  const outsiders: [string, TestUser | null, string | undefined][] = [
    ['signed out', null, undefined],
    ['a signed-in stranger', stranger, undefined],
    ['a member who left', left, undefined],
    ['a removed member', removed, undefined],
    ["a member of the venue's other private room", otherRoomMember, undefined],
    ["another venue's owner, with its key", w.owner, w.key],
  ]
  return { node, v, w, priv, author, member, outsiders }
}

describe('red team: private-room content through every read', () => {
  it('§2.6 "exclude private-room discussion" and §7 "… 404 (not 403, so existence is not confirmed)": a take written only inside a private room reaches no public record — /v1/records (at its node and globally), the leaderboard and its population, a public room\'s board, and the record chip of the author\'s public posts all read as if it was never written; a public take on the same node counts (control)', async () => {
    const { node, v, priv, author, outsiders } = await privateWorld()
    const pub = await createRoom(svc, v, { subjectType: 'category', subjectRef: node, title: 'Open' })
    ok(await call(svc, 'POST', `/v1/rooms/${pub}/join`, { token: author.token }), 'join the public room')
    // The author's only take: inside the private room, on a market of the node, on the side that wins.
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: node }] })
    await svc.chain.setPosition(author.wallet, m.id, 0, 5n)
    const secret = await post(svc, author, { subjectType: 'event', subjectRef: m.id, body: 'members only: yes', room: priv })
    assert.equal(secret.status, 201, JSON.stringify(secret.body))
    assert.equal(secret.body.post.stance?.side, 0)
    // A public comment of theirs on the node, which a record feed labels with their record.
    const open = await post(svc, author, { subjectType: 'category', subjectRef: node, body: 'a public comment' })
    assert.equal(open.status, 201)
    // Control: someone else's public take on another market of the node, also right.
    const control = await signIn(svc, undefined, v.venueId)
    const m2 = await addMarket(svc, { nodes: [{ type: 'category', ref: node }] })
    await svc.chain.setPosition(control.wallet, m2.id, 0, 5n)
    assert.equal((await post(svc, control, { subjectType: 'event', subjectRef: m2.id, body: 'public: yes' })).body.post.stance?.side, 0)
    await svc.chain.resolve(m.id, 0)
    await svc.chain.resolve(m2.id, 0)

    for (const [name, u, key] of outsiders) {
      const as = { token: u?.token, key }
      const recs = ok(await call(svc, 'GET', `/v1/records?wallets=${author.wallet},${control.wallet}&facet=category:${node}`, as), 'records')
      assert.deepEqual(
        { right: recs.records[author.wallet].right, wrong: recs.records[author.wallet].wrong, rank: recs.records[author.wallet].rank },
        { right: 0, wrong: 0, rank: null },
        `${name}: the node's record shows the private take`,
      )
      assert.equal(recs.records[control.wallet].right, 1, `${name}: the control's public take counts`)
      assert.equal(recs.records[control.wallet].population, 1, `${name}: the population counts the private taker`)
      const global = ok(await call(svc, 'GET', `/v1/records?wallets=${author.wallet}`, as), 'global record')
      assert.equal(global.records[author.wallet].right, 0, `${name}: the global record shows the private take`)
      const board = ok(await call(svc, 'GET', `/v1/leaderboard?scope=category:${node}`, as), 'leaderboard')
      assert.deepEqual(board.entries.map((e: { wallet: string }) => e.wallet), [control.wallet], `${name}: the leaderboard lists the private taker`)
      assert.equal(board.population, 1)
      const roomBoard = ok(await call(svc, 'GET', `/v1/rooms/${pub}/board`, as), 'public room board')
      const entry = roomBoard.board.find((e: { wallet: string }) => e.wallet === author.wallet)
      assert.deepEqual({ rank: entry?.rank, right: entry?.right }, { rank: null, right: 0 }, `${name}: the public room's board ranks the private taker`)
      const feed = ok(await call(svc, 'GET', `/v1/social/posts/feed?scope=subject&subjectType=category&subjectRef=${node}&sort=record`, as), 'record feed')
      const row = feed.posts.find((p: { id: string }) => p.id === open.body.post.id)
      assert.deepEqual({ right: row?.record?.right, rank: row?.record?.rank }, { right: 0, rank: null }, `${name}: the public post's record chip shows the private take`)
    }
  })

  it('§2.6 "exclude private-room discussion", for records settled before the rule: migration 012 writes again the records of the accounts holding a private-room take on a settled market (globally and at its node), and leaves the others as they are', async () => {
    const { node, priv, author, v } = await privateWorld()
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: node }] })
    await svc.chain.setPosition(author.wallet, m.id, 0, 5n)
    assert.equal((await post(svc, author, { subjectType: 'event', subjectRef: m.id, body: 'members only: yes', room: priv })).status, 201)
    const other = await signIn(svc, undefined, v.venueId)
    const m2 = await addMarket(svc, { nodes: [{ type: 'category', ref: newNode() }] })
    await svc.chain.setPosition(other.wallet, m2.id, 0, 5n)
    assert.equal((await post(svc, other, { subjectType: 'event', subjectRef: m2.id, body: 'public: yes' })).status, 201)
    await svc.chain.resolve(m.id, 0)
    await svc.chain.resolve(m2.id, 0)
    // The records as the service wrote them before the rule: the private take counted, at the node and globally.
    const db = svc.ctx.db
    const account = async (wallet: string) => (await db.selectFrom('wallets').select('account_id').where('address', '=', wallet).executeTakeFirstOrThrow()).account_id
    const [authorId, otherId] = [await account(author.wallet), await account(other.wallet)]
    for (const [type, ref] of [['*', '*'], ['category', node]]) {
      await db
        .insertInto('records')
        .values({ account_id: authorId, facet_type: type, facet_ref: ref, right_count: 1, wrong_count: 0, void_count: 0, odds_sum: 5000, score: 0.2, updated_at: new Date() })
        .onConflict((oc) => oc.columns(['facet_type', 'facet_ref', 'account_id']).doUpdateSet({ right_count: 1, score: 0.2, odds_sum: 5000 }))
        .execute()
    }
    // An account with no private take whose stored record the recompute would change: it must stay as stored.
    await db.updateTable('records').set({ right_count: 7 }).where('account_id', '=', otherId).where('facet_type', '=', '*').execute()
    assert.equal(ok(await call(svc, 'GET', `/v1/records?wallets=${author.wallet}&facet=category:${node}`), 'before').records[author.wallet].right, 1)

    await MIGRATIONS['012_records_public_takes'].up(db)

    const atNode = ok(await call(svc, 'GET', `/v1/records?wallets=${author.wallet}&facet=category:${node}`), 'at the node').records[author.wallet]
    assert.deepEqual({ right: atNode.right, rank: atNode.rank }, { right: 0, rank: null })
    const global = ok(await call(svc, 'GET', `/v1/records?wallets=${author.wallet},${other.wallet}`), 'global').records
    assert.deepEqual({ right: global[author.wallet].right, rank: global[author.wallet].rank }, { right: 0, rank: null })
    assert.equal(global[other.wallet].right, 7, 'an account with no private take is not written')
  })

  it('§2.6 "exclude private-room discussion" on a profile: no outsider (signed out, a stranger, a member who left or was removed, a member of another private room, another venue\'s owner with its key) reads a member\'s private take, comment or reply on any tab (takes, takes=false, includeReplies, with the room\'s venue named or its key); a member does', async () => {
    const { node, v, priv, author, member, outsiders } = await privateWorld()
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: node }] })
    await svc.chain.setPosition(author.wallet, m.id, 1, 5n)
    const take = ok(await post(svc, author, { subjectType: 'event', subjectRef: m.id, body: 'private take', room: priv }), 'take').post.id
    const comment = ok(await post(svc, author, { subjectType: 'category', subjectRef: node, body: 'private comment', room: priv }), 'comment').post.id
    const reply = ok(await post(svc, author, { subjectType: 'category', subjectRef: node, body: 'private reply', parentId: ok(await post(svc, member, { subjectType: 'category', subjectRef: node, body: 'member post', room: priv }), 'p').post.id }), 'reply').post.id
    const tabs = ['', 'takes=false', 'takes=false&includeReplies=true', 'includeReplies=true', `takes=false&includeReplies=true&venue=${v.venueId}`]
    for (const [name, u, key] of [...outsiders, ["the room's venue key, signed out", null, v.key] as const]) {
      for (const tab of tabs) {
        const r = ok(await call(svc, 'GET', `/v1/social/profile/${author.wallet}/posts?${tab}`, { token: u?.token, key: key ?? undefined }), 'profile')
        assert.deepEqual(r.posts, [], `${name} (${tab || 'default'}): ${JSON.stringify(r.posts.map((p: { body: string }) => p.body))}`)
        assert.deepEqual(r.results, {}, `${name}: the private take's market result`)
      }
    }
    const seen = ok(await call(svc, 'GET', `/v1/social/profile/${author.wallet}/posts?takes=false&includeReplies=true`, { token: member.token }), 'member').posts.map((p: { id: string }) => p.id)
    assert.deepEqual(seen.sort(), [take, comment, reply].sort())
  })

  it('§2.2 settlements count "what every reader is counted on" (§2.6 "exclude private-room discussion"): a resolved market\'s right/wrong on a public feed leave out the private room\'s takes, for every reader, members included', async () => {
    const { node, priv, author, member, outsiders } = await privateWorld()
    const m = await addMarket(svc, { nodes: [{ type: 'category', ref: node }] })
    const pub = await signIn(svc)
    await svc.chain.setPosition(pub.wallet, m.id, 0, 5n)
    await svc.chain.setPosition(author.wallet, m.id, 0, 5n)
    await svc.chain.setPosition(member.wallet, m.id, 1, 5n)
    ok(await post(svc, pub, { subjectType: 'event', subjectRef: m.id, body: 'public take' }), 'public take')
    ok(await post(svc, author, { subjectType: 'event', subjectRef: m.id, body: 'private right', room: priv }), 'private')
    ok(await post(svc, member, { subjectType: 'event', subjectRef: m.id, body: 'private wrong', room: priv }), 'private')
    await svc.chain.resolve(m.id, 0)
    for (const [name, u, key] of [...outsiders, ['a member', member, undefined] as const]) {
      const feed = ok(await call(svc, 'GET', `/v1/social/posts/feed?scope=subject&subjectType=category&subjectRef=${node}`, { token: u?.token, key }), 'feed')
      const s = feed.settlements.find((x: { marketId: string }) => x.marketId === m.id)
      assert.deepEqual({ right: s?.right, wrong: s?.wrong }, { right: 1, wrong: 0 }, name)
      const counts = ok(await call(svc, 'GET', `/v1/social/take-counts?ids=${m.id}`, { token: u?.token, key }), 'counts')
      assert.deepEqual(counts.counts[m.id], { posts: 1, takes: 1, bySide: { '0': 1 } }, name)
    }
  })
})

describe('red team: the stream', () => {
  async function socket() {
    const s = await StreamClient.open(svc.streamUrl)
    sockets.push(s)
    return s
  }
  const ask = async (s: StreamClient, topic: string, token?: string) => {
    s.send({ type: 'subscribe', topic, ...(token ? { token } : {}) })
    return s.next()
  }

  it('§7 and §6.1: a member the owner removes, and a member whose session expires, stop hearing the private room at once — on its room topic and on the plain thread — without a word; a remaining member still hears each change', async () => {
    const { node, v, priv, author, member } = await privateWorld()
    const [removedLater, expiring] = [await signIn(svc, undefined, v.venueId), await signIn(svc, undefined, v.venueId)]
    for (const u of [removedLater, expiring]) await addMember(v, priv, u)
    const roomTopic = roomThreadTopic(priv, 'category', node)
    const plain = threadTopic('category', node)
    const sentinel = `sentinel-${randomHex(3)}`
    const listeners = new Map<TestUser, StreamClient>()
    for (const u of [removedLater, expiring, member]) {
      const s = await socket()
      assert.deepEqual(await ask(s, roomTopic, u.token), { type: 'subscribed', topic: roomTopic })
      assert.deepEqual(await ask(s, plain, u.token), { type: 'subscribed', topic: plain })
      await s.subscribe(threadTopic('topic', sentinel))
      listeners.set(u, s)
    }
    // Both still hear a change while admitted (the control).
    ok(await post(svc, author, { subjectType: 'category', subjectRef: node, body: 'first', room: priv }), 'post')
    for (const s of listeners.values()) {
      const heard = [await s.next(), await s.next()].map((x) => (x as { topic: string }).topic).sort()
      assert.deepEqual(heard, [roomTopic, plain].sort())
    }
    ok(await call(svc, 'DELETE', `/v1/rooms/${priv}/members/${removedLater.wallet}`, { token: v.owner.token }), 'remove')
    await svc.ctx.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('token_hash', '=', sha256(expiring.token)).execute()
    ok(await post(svc, author, { subjectType: 'category', subjectRef: node, body: 'after', room: priv }), 'post')
    const first = await post(svc, author, { subjectType: 'category', subjectRef: node, body: 'reply after', room: priv })
    ok(await call(svc, 'POST', `/v1/social/posts/${first.body.post.id}/reactions`, { token: member.token, body: { kind: 'agree', active: true } }), 'agree')
    ok(await post(svc, author, { subjectType: 'topic', subjectRef: sentinel, body: 'sentinel' }), 'sentinel')
    for (const u of [removedLater, expiring])
      assert.deepEqual(await listeners.get(u)!.next(), { type: 'changed', topic: threadTopic('topic', sentinel) }, 'the sentinel comes first: nothing of the room')
    const heard: string[] = []
    for (let i = 0; i < 7; i++) heard.push((await listeners.get(member)!.next() as { topic: string }).topic)
    assert.equal(heard.filter((t) => t === roomTopic).length, 3)
    assert.equal(heard.filter((t) => t === plain).length, 3)
  })
})

describe('red team: session tokens and venue keys in odd places', () => {
  it('§5 sessions are "Authorization: Bearer <token>" only: a token in the query string, after a lowercase "bearer", or sent twice signs nobody in — a private room\'s thread stays 404 and a write into it 401 — and no answer echoes the token', async () => {
    const { node, priv, member } = await privateWorld()
    ok(await post(svc, member, { subjectType: 'category', subjectRef: node, body: 'inside', room: priv }), 'post')
    const thread = `/v1/social/posts?subjectType=category&subjectRef=${node}&room=${priv}`
    // The control: the member reads it with a proper header.
    assert.equal((await call(svc, 'GET', thread, { token: member.token })).status, 200)
    const forms: [string, Record<string, string>, string][] = [
      ['lowercase bearer', { authorization: `bearer ${member.token}` }, ''],
      ['sent twice', { authorization: `Bearer ${member.token}, Bearer ${member.token}` }, ''],
      ['no scheme', { authorization: member.token }, ''],
      ['as a venue key', { 'x-venue-key': member.token }, ''],
      ['in the query (token)', {}, `&token=${member.token}`],
      ['in the query (access_token)', {}, `&access_token=${member.token}`],
    ]
    for (const [name, headers, query] of forms) {
      const r = await call(svc, 'GET', thread + query, { headers })
      assert.ok(r.status === 404 || r.status === 400, `${name}: ${r.status} ${JSON.stringify(r.body)}`)
      if (r.status === 400) assert.equal(r.body.error.code, 'unsupported-param', name)
      else assert.equal(r.body.error.code, 'room-not-found', name)
      assert.equal(JSON.stringify(r.body).includes(member.token.slice(4)), false, `${name}: the token is echoed`)
      const w = await call(svc, 'POST', PATHS.posts + (query ? `?${query.slice(1)}` : ''), { headers, body: { subjectType: 'category', subjectRef: node, body: 'x', room: priv } })
      assert.ok(w.status === 401 || w.status === 400, `${name} write: ${w.status} ${JSON.stringify(w.body)}`)
      assert.equal(JSON.stringify(w.body).includes(member.token.slice(4)), false, `${name} write: the token is echoed`)
    }
    // A signed-out token and an expired one: reads fail open (signed out), writes are 401 session-expired.
    const gone = await signIn(svc)
    ok(await call(svc, 'POST', PATHS.authSignOut, { token: gone.token }), 'sign out')
    ok(await call(svc, 'POST', PATHS.authSignOut, { token: member.token }), 'sign out')
    for (const t of [member.token, gone.token]) {
      expectError(await call(svc, 'GET', thread, { token: t }), 404, 'room-not-found')
      expectError(await call(svc, 'POST', PATHS.posts, { token: t, body: { subjectType: 'category', subjectRef: node, body: 'x', room: priv } }), 401, 'session-expired')
      expectError(await call(svc, 'GET', PATHS.me, { token: t }), 401, 'session-expired')
    }
  })

  it('"Raw venue keys are shown once and stored only as a hash" and a session token only in its sign-in answer: neither appears in any other answer (body or header) the owner reads — me, rooms, membership, board, queue, audit, usage, origins, sponsorship, feeds, profile, a second key\'s mint — nor in an error about a mangled key, nor in anything the service logs', async (t) => {
    const logged: string[] = []
    for (const m of ['log', 'error', 'warn', 'info'] as const) t.mock.method(console, m, (...args: unknown[]) => void logged.push(args.map(String).join(' ')))
    const owner = await signIn(svc)
    const venueId = `rt-${randomHex(5)}`
    const mint = await call(svc, 'POST', '/admin/keys', { token: owner.token, body: { venueId, scopes: ['read', 'trade'], label: 'web' } })
    assert.equal(mint.status, 201)
    const key: string = mint.body.key
    const secrets = [key, key.slice(4), owner.token, owner.token.slice(4)]
    const leaks = (r: CallResult) => {
      const text = JSON.stringify(r.body) + [...r.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n')
      return secrets.filter((s) => text.includes(s))
    }
    const as = { token: owner.token, key }
    const room = await createRoom(svc, { venueId, key, owner, selfRoomId: '' }, { visibility: 'private' })
    ok(await call(svc, 'POST', PATHS.posts, { ...as, body: { subjectType: 'topic', subjectRef: 'rt-secrets', body: 'hello', room: 'self' } }), 'post')
    const reads: [string, string][] = [
      ['me', PATHS.me],
      ['rooms', `/v1/rooms?venueId=${venueId}`],
      ['room', `/v1/rooms/${room}`],
      ['self membership', '/v1/rooms/self/membership'],
      ['board', `/v1/rooms/${room}/board`],
      ['queue', `/v1/mod/queue?venueId=${venueId}`],
      ['audit', `/v1/mod/audit?venueId=${venueId}`],
      ['usage', `/v1/venues/${venueId}/usage`],
      ['origins', `/v1/venues/${venueId}/origins`],
      ['sponsorship', '/v1/gateway/sponsorship'],
      ['feed', '/v1/social/posts/feed?room=self'],
      ['thread', '/v1/social/posts?subjectType=topic&subjectRef=rt-secrets&room=self'],
      ['profile', `/v1/social/profile/${owner.wallet}/posts?takes=false`],
    ]
    for (const [name, path] of reads) {
      const r = await call(svc, 'GET', path, as)
      assert.equal(r.status, 200, `${name}: ${JSON.stringify(r.body)}`)
      assert.deepEqual(leaks(r), [], name)
    }
    const second = await call(svc, 'POST', '/admin/keys', { token: owner.token, body: { venueId, scopes: ['read'], label: 'second' } })
    assert.equal(second.status, 201)
    assert.deepEqual(leaks(second), [], 'a second mint shows the first key')
    for (const [name, headers] of [
      ['a key with a character more', { 'x-venue-key': `${key}0` }],
      ['a key sent twice', { 'x-venue-key': `${key}, ${key}` }],
      ['a token with a character more', { authorization: `Bearer ${owner.token}0` }],
    ] as const) {
      for (const [method, path] of [['GET', '/v1/rooms/self'], ['POST', PATHS.posts]] as const) {
        const r = await call(svc, method, path, { headers, body: method === 'POST' ? { subjectType: 'topic', subjectRef: 'x', body: 'x' } : undefined })
        assert.ok(r.status >= 400, `${name} ${method}: ${r.status}`)
        assert.deepEqual(leaks(r), [], `${name} ${method}`)
      }
    }
    assert.deepEqual(logged.filter((l) => secrets.some((s) => l.includes(s))), [], 'logged')
  })
})
