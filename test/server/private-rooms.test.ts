/**
 * §7 private rooms: readable by whoever `resolveRoom` admits (members, the venue's owner, operators); 404 for outsiders.
 * A private room's post named by id in a write is reached by the same people (services/post-access.ts).
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { call, expectError, newWallet, signIn, startTestService, type TestService, type TestUser } from '../helpers/service.ts'
import { claimVenue, createRoom, post, type Venue } from '../helpers/venues.ts'

let svc: TestService
const operatorAccount = newWallet()
before(async () => {
  svc = await startTestService({ operators: [operatorAccount.address] })
})
after(() => svc.close())

describe('private rooms', () => {
  it('an operator who is not a member reads a private room\'s thread and feed and sees its posts; an outsider gets 404, never 403', async () => {
    const v = await claimVenue(svc)
    const roomId = await createRoom(svc, v, { subjectType: 'topic', subjectRef: 'inner-circle', visibility: 'private' })
    const member = await signIn(svc)
    assert.equal((await call(svc, 'PUT', `/v1/rooms/${roomId}/members/${member.wallet}`, { token: v.owner.token })).status < 300, true)
    const p = await post(svc, member, { subjectType: 'topic', subjectRef: 'inner-circle', body: 'members only', room: roomId })
    assert.equal(p.status, 201, JSON.stringify(p.body))

    const operator = await signIn(svc, operatorAccount)
    const thread = await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=inner-circle&room=${roomId}`, { token: operator.token })
    assert.equal(thread.status, 200)
    assert.deepEqual(thread.body.posts.map((x: any) => x.id), [p.body.post.id])
    const feed = await call(svc, 'GET', `/v1/social/posts/feed?room=${roomId}`, { token: operator.token })
    assert.equal(feed.status, 200)
    assert.deepEqual(feed.body.posts.map((x: any) => x.id), [p.body.post.id])

    const outsider = await signIn(svc)
    expectError(await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=inner-circle&room=${roomId}`, { token: outsider.token }), 404, 'room-not-found')
    expectError(await call(svc, 'GET', `/v1/social/posts/feed?room=${roomId}`, { token: outsider.token }), 404, 'room-not-found')
    // Without `room`, the private post never reaches an outsider's thread or the global feed.
    const open = await call(svc, 'GET', '/v1/social/posts?subjectType=topic&subjectRef=inner-circle', { token: outsider.token })
    assert.equal(open.body.posts.length, 0)
    const global = await call(svc, 'GET', '/v1/social/posts/feed', { token: member.token })
    assert.equal(global.body.posts.some((x: any) => x.id === p.body.post.id), false)
  })

  it('a private room\'s feed (room=) shows its posts\' replies to everyone the room admits — the venue\'s owner who is no member and an operator too — as its thread does', async () => {
    const v = await claimVenue(svc)
    const topic = `feed-replies-${v.venueId}`
    const roomId = await createRoom(svc, v, { subjectType: 'topic', subjectRef: topic, visibility: 'private' })
    const [a, b] = [await signIn(svc, undefined, v.venueId), await signIn(svc, undefined, v.venueId)]
    for (const u of [a, b]) assert.equal((await call(svc, 'PUT', `/v1/rooms/${roomId}/members/${u.wallet}`, { token: v.owner.token })).status, 200)
    const top = await post(svc, a, { subjectType: 'topic', subjectRef: topic, body: 'members only', room: roomId })
    assert.equal(top.status, 201, JSON.stringify(top.body))
    const reply = await post(svc, b, { subjectType: 'topic', subjectRef: topic, body: 'a reply', parentId: top.body.post.id })
    assert.equal(reply.status, 201, JSON.stringify(reply.body))
    // The owner leaves the room (still its venue's owner: admitted, not a member).
    assert.equal((await call(svc, 'POST', `/v1/rooms/${roomId}/leave`, { token: v.owner.token })).status, 200)
    const operator = await signIn(svc, operatorAccount)
    for (const [name, u] of [['member', b], ['owner, not a member', v.owner], ['operator', operator]] as const) {
      const feed = await call(svc, 'GET', `/v1/social/posts/feed?room=${roomId}`, { token: u.token })
      assert.equal(feed.status, 200, `${name}: ${JSON.stringify(feed.body)}`)
      assert.deepEqual(feed.body.posts.map((x: any) => x.id), [top.body.post.id], name)
      assert.deepEqual((feed.body.threads[top.body.post.id] ?? []).map((x: any) => x.id), [reply.body.post.id], `${name}: the feed row carries its reply`)
      const thread = await call(svc, 'GET', `/v1/social/posts?subjectType=topic&subjectRef=${topic}&room=${roomId}&includeReplies=true`, { token: u.token })
      assert.deepEqual((thread.body.threads[top.body.post.id] ?? []).map((x: any) => x.id), [reply.body.post.id], `${name}: as the thread shows it`)
    }
  })

  /** The tables a write on a post may touch, as sorted JSON, to show a refusal wrote nothing. */
  async function writes(): Promise<Record<string, string>> {
    const out: Record<string, string> = {}
    for (const t of ['posts', 'post_nodes', 'reactions', 'reports', 'mod_items', 'mod_audit', 'room_members', 'bans', 'venue_hides']) {
      const r = await sql<{ j: string }>`select coalesce(json_agg(x order by x::text)::text, '[]') as j from ${sql.table(t)} x`.execute(svc.ctx.db)
      out[t] = r.rows[0].j
    }
    return out
  }

  /** A venue with a public and a private room on one topic, a post by a member in the private room. */
  async function privateWorld() {
    const v = await claimVenue(svc)
    const topic = `inner-${v.venueId}`
    const pub = await createRoom(svc, v, { subjectType: 'topic', subjectRef: topic })
    const priv = await createRoom(svc, v, { subjectType: 'topic', subjectRef: topic, visibility: 'private' })
    const author = await signIn(svc, undefined, v.venueId)
    const add = (u: TestUser) => call(svc, 'PUT', `/v1/rooms/${priv}/members/${u.wallet}`, { token: v.owner.token })
    assert.equal((await add(author)).status, 200)
    const p = await post(svc, author, { subjectType: 'topic', subjectRef: topic, body: 'members only', room: priv })
    assert.equal(p.status, 201, JSON.stringify(p.body))
    return { v, topic, pub, priv, author, add, postId: p.body.post.id as string }
  }

  it('§7 "Thread or board of a private room read by an outsider → 404 (not 403, so existence is not confirmed)": a private-room post named by id — agree, report, reply (with or without `room`), edit, delete — answers an outsider, a member who left and a removed member 404 post-not-found, and nothing is written', async () => {
    const { v, topic, pub, priv, author, add, postId } = await privateWorld()
    const outsider = await signIn(svc, undefined, v.venueId)
    const left = await signIn(svc, undefined, v.venueId)
    const removed = await signIn(svc, undefined, v.venueId)
    for (const u of [outsider, left, removed]) assert.equal((await call(svc, 'POST', `/v1/rooms/${pub}/join`, { token: u.token })).status, 200)
    for (const u of [left, removed]) assert.equal((await add(u)).status, 200)
    assert.equal((await call(svc, 'POST', `/v1/rooms/${priv}/leave`, { token: left.token })).status, 200)
    assert.equal((await call(svc, 'DELETE', `/v1/rooms/${priv}/members/${removed.wallet}`, { token: v.owner.token })).status, 200)

    const before = await writes()
    for (const [name, u] of [['outsider', outsider], ['left', left], ['removed', removed]] as const) {
      const attempts = {
        agree: await call(svc, 'POST', `/v1/social/posts/${postId}/reactions`, { token: u.token, body: { kind: 'agree', active: true } }),
        report: await call(svc, 'POST', `/v1/social/posts/${postId}/reports`, { token: u.token, body: { reason: 'spam' } }),
        reply: await post(svc, u, { subjectType: 'topic', subjectRef: topic, parentId: postId }),
        // Posting into the public room is open to them: the parent must still not be confirmed (never 'parent-mismatch').
        replyInRoom: await post(svc, u, { subjectType: 'topic', subjectRef: topic, parentId: postId, room: pub }),
        edit: await call(svc, 'PATCH', `/v1/social/posts/${postId}`, { token: u.token, body: { body: 'x' } }),
        delete: await call(svc, 'DELETE', `/v1/social/posts/${postId}`, { token: u.token }),
      }
      for (const [what, r] of Object.entries(attempts)) {
        assert.equal(r.status, 404, `${name} ${what}: ${JSON.stringify(r.body)}`)
        assert.equal(r.body.error.code, 'post-not-found', `${name} ${what}`)
      }
    }
    assert.deepEqual(await writes(), before)

    // A post id that never existed answers the same.
    const none = await call(svc, 'POST', '/v1/social/posts/p_0000000000000/reactions', { token: outsider.token, body: { kind: 'agree', active: true } })
    expectError(none, 404, 'post-not-found')
    // Insiders reach it: a member agrees and replies; the venue's owner reports it.
    const member = await signIn(svc, undefined, v.venueId)
    assert.equal((await add(member)).status, 200)
    assert.equal((await call(svc, 'POST', `/v1/social/posts/${postId}/reactions`, { token: member.token, body: { kind: 'agree', active: true } })).status, 200)
    assert.equal((await post(svc, member, { subjectType: 'topic', subjectRef: topic, parentId: postId })).status, 201)
    assert.equal((await call(svc, 'POST', `/v1/social/posts/${postId}/reports`, { token: v.owner.token, body: { reason: 'spam' } })).status, 200)
    // Its author knows it exists: removed from the room, they still edit and delete their own post.
    assert.equal((await call(svc, 'DELETE', `/v1/rooms/${priv}/members/${author.wallet}`, { token: v.owner.token })).status, 200)
    assert.equal((await call(svc, 'PATCH', `/v1/social/posts/${postId}`, { token: author.token, body: { body: 'edited' } })).status, 200)
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${postId}`, { token: author.token })).status, 200)
  })

  it('§2.6 "exclude private-room discussion": a member signed in on another venue W reports a post in V\'s private room → W\'s queue stays empty, V\'s queue and the platform queue get it', async () => {
    const { v, add, postId } = await privateWorld()
    const w: Venue = await claimVenue(svc)
    const operator = await signIn(svc, operatorAccount)
    const memberOnV = await signIn(svc, undefined, v.venueId)
    assert.equal((await add(memberOnV)).status, 200)
    const onW = await signIn(svc, memberOnV.account, w.venueId)
    assert.equal((await call(svc, 'POST', `/v1/social/posts/${postId}/reports`, { token: onW.token, body: { reason: 'off-topic' } })).status, 200)
    // The same with W's key: the report still goes to the room's venue.
    const keyed = await signIn(svc, undefined, v.venueId)
    assert.equal((await add(keyed)).status, 200)
    assert.equal((await call(svc, 'POST', `/v1/social/posts/${postId}/reports`, { token: keyed.token, key: w.key, body: { reason: 'spam' } })).status, 200)

    const queued = async (who: TestUser, qs: string) => {
      const q = await call(svc, 'GET', `/v1/mod/queue${qs}`, { token: who.token })
      assert.equal(q.status, 200, JSON.stringify(q.body))
      return q.body.items.filter((i: { post: { id: string } }) => i.post.id === postId) as { reports: number; reasons: string[]; post: { body: string } }[]
    }
    assert.deepEqual(await queued(w.owner, `?venueId=${w.venueId}`), [], "W's queue never carries V's private post")
    assert.deepEqual(await queued(w.owner, `?venueId=${w.venueId}&state=actioned`), [])
    const [inV] = await queued(v.owner, `?venueId=${v.venueId}`)
    assert.equal(inV?.reports, 2)
    assert.deepEqual(inV.reasons, ['off-topic', 'spam'])
    const [inPlatform] = await queued(operator, '')
    assert.equal(inPlatform?.reports, 2)
    const rows = await svc.ctx.db.selectFrom('reports').select('venue_id').where('post_id', '=', postId).execute()
    assert.deepEqual(rows.map((r) => r.venue_id), [v.venueId, v.venueId])
  })

  it('§5.7 "A venue owner moderates that venue": another venue\'s moderators cannot act on (or ban the author of) a private-room post — 404 for an outsider, 403 for an operator or a member acting for another venue; nothing written', async () => {
    const { v, add, author, postId } = await privateWorld()
    const w = await claimVenue(svc)
    const operator = await signIn(svc, operatorAccount)
    const act = (who: TestUser, action: string, body: Record<string, unknown>) => call(svc, 'POST', `/v1/mod/${action}`, { token: who.token, body })
    const before = await writes()
    for (const action of ['hide', 'keep', 'clear', 'restore', 'ban', 'unban']) {
      const r = await act(w.owner, action, { venueId: w.venueId, postId })
      expectError(r, 404, 'post-not-found')
      assert.equal(JSON.stringify(r.body).includes(author.wallet), false, 'the author is not named')
      expectError(await act(operator, action, { venueId: w.venueId, postId }), 403, 'forbidden')
    }
    // W's owner admitted to V's private room reads it, but still cannot act on it for W.
    assert.equal((await add(w.owner)).status, 200)
    const before2 = await writes()
    expectError(await act(w.owner, 'hide', { venueId: w.venueId, postId }), 403, 'forbidden')
    assert.deepEqual(await writes(), before2)
    // V's owner and the platform act on it.
    assert.equal((await act(v.owner, 'hide', { venueId: v.venueId, postId })).status, 200)
    assert.equal((await act(operator, 'pin', { postId })).status, 200)
    assert.notDeepEqual(await writes(), before)
  })
})
