/** §1.2–1.5, §2.1: the post store's write path, server-proven stances, one level of replies. */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { sql } from 'kysely'
import { LIMITS } from '../../src/contract/limits.ts'
import { PATHS } from '../../src/contract/paths.ts'
import { addMarket, call, expectError, newWallet, ON_POSTGRES, signIn, startTestService, type TestService } from '../helpers/service.ts'
import { linkWallet } from '../helpers/read-fixtures.ts'
import { claimVenue } from '../helpers/venues.ts'

let svc: TestService
before(async () => {
  svc = await startTestService()
})
after(() => svc.close())

describe('posts: write path', () => {
  it('§1.4 "If the author held a position on that market when writing, the server attaches a stance": side, size and that side\'s price in bps', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    await svc.chain.setPosition(u.wallet, m.id, 1, 2_500_000n)
    const r = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'No way' } })
    assert.equal(r.status, 201)
    assert.deepEqual(r.body.post.stance, { side: 1, size: '2500000', priceBps: 6000 })
    assert.equal(r.body.post.author, u.wallet)
  })

  it('§1.5 "A post without one is a comment": no position, no stance', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const r = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'just watching' } })
    assert.equal(r.status, 201)
    assert.equal('stance' in r.body.post, false)
  })

  it('§1.4 "The client never sends a stance": a request carrying one is 400 and nothing is written', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const r = await call(svc, 'POST', '/v1/social/posts', {
      token: u.token,
      body: { subjectType: 'event', subjectRef: m.id, body: 'fake', stance: { side: 0, size: '1', priceBps: 1 } },
    })
    expectError(r, 400, 'stance-not-accepted')
    const thread = await call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${m.id}`)
    if (thread.status === 200) assert.equal(thread.body.posts.length, 0)
  })

  it('§1.4 "Editing a post never changes its stance", even after the position changed', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    await svc.chain.setPosition(u.wallet, m.id, 0, 100n)
    const r = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'Yes' } })
    await svc.chain.setPosition(u.wallet, m.id, 0, 0n)
    await svc.chain.setPosition(u.wallet, m.id, 1, 999n)
    await svc.chain.setPrice(m.id, 0, 9000)
    const e = await call(svc, 'PATCH', `/v1/social/posts/${r.body.post.id}`, { token: u.token, body: { body: 'Yes, edited' } })
    assert.equal(e.status, 200)
    assert.equal(e.body.post.body, 'Yes, edited')
    assert.deepEqual(e.body.post.stance, { side: 0, size: '100', priceBps: 4000 })
    expectError(await call(svc, 'PATCH', `/v1/social/posts/${r.body.post.id}`, { token: u.token, body: { body: 'x', stance: { side: 1 } } }), 400, 'stance-not-accepted')
  })

  it('§2.1 "Any wallet owned by one person yields the same posts": a linked wallet\'s position proves the account\'s stance', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const { newWallet } = await import('../helpers/service.ts')
    const second = newWallet()
    const n = await call(svc, 'POST', '/v1/auth/nonce', { body: { address: second.address } })
    const sig = await second.signMessage({ message: n.body.message })
    const l = await call(svc, 'POST', '/v1/auth/link', { token: u.token, body: { message: n.body.message, signature: sig } })
    assert.equal(l.status, 200)
    assert.equal(l.body.wallets.length, 2)
    await svc.chain.setPosition(second.address, m.id, 0, 5n)
    const r = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'held on my other wallet' } })
    assert.equal(r.body.post.stance.side, 0)
  })

  it('§1.4 "the server attaches a stance: the side, the size, and the market price of that side": the size is the account\'s position on that side, summed over its linked wallets', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const second = await linkWallet(svc, u, newWallet())
    // Side 0: 5 + 7 = 12 across the two wallets; side 1: 10 on one. Summed, side 0 is the larger position.
    await svc.chain.setPosition(u.wallet, m.id, 0, 5n)
    await svc.chain.setPosition(second, m.id, 0, 7n)
    await svc.chain.setPosition(second, m.id, 1, 10n)
    const r = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'Yes, 12 of it' } })
    assert.equal(r.status, 201)
    assert.deepEqual(r.body.post.stance, { side: 0, size: '12', priceBps: 4000 })
    assert.deepEqual((await call(svc, 'GET', PATHS.myStance(m.id), { token: u.token })).body.stance, { side: 0, size: '12', priceBps: 4000 })
  })

  it('a take on a resolved market carries no stance (a stance proves a position held while the market was open)', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    await svc.chain.setPosition(u.wallet, m.id, 0, 5n)
    await svc.chain.resolve(m.id, 0)
    const r = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'called it' } })
    assert.equal(r.status, 201)
    assert.equal('stance' in r.body.post, false)
  })

  it('§1.3 "A market post is keyed by the pair (event, market condition id)": subjectRef is stored lowercased', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const r = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id.toUpperCase().replace('0X', '0x'), body: 'case' } })
    assert.equal(r.status, 201)
    assert.equal(r.body.post.subjectRef, m.id)
  })

  it('§1.2 posts may be written on any taxonomy node subject', async () => {
    const u = await signIn(svc)
    for (const t of ['category', 'topic', 'series', 'country', 'org', 'brand']) {
      const r = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: t, subjectRef: 'node-1', body: `on ${t}` } })
      assert.equal(r.status, 201, t)
      assert.equal(r.body.post.subjectType, t)
    }
  })

  it('an event subject must be a known market: 404 market-not-found', async () => {
    const u = await signIn(svc)
    const r = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: '0x' + 'ab'.repeat(32), body: 'hi' } })
    expectError(r, 404, 'market-not-found')
  })

  it('§8 "Replies: One level": a reply to a reply is refused', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const top = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'top' } })
    const reply = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'reply', parentId: top.body.post.id } })
    assert.equal(reply.status, 201)
    assert.equal(reply.body.post.parentId, top.body.post.id)
    const deeper = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'deeper', parentId: reply.body.post.id } })
    expectError(deeper, 400, 'reply-depth')
  })

  it('a reply must be on the same subject as its parent', async () => {
    const m = await addMarket(svc)
    const m2 = await addMarket(svc)
    const u = await signIn(svc)
    const top = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'top' } })
    expectError(await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m2.id, body: 'x', parentId: top.body.post.id } }), 400, 'parent-mismatch')
  })

  it('only the author edits or deletes a post', async () => {
    const m = await addMarket(svc)
    const a = await signIn(svc)
    const b = await signIn(svc)
    const p = await call(svc, 'POST', '/v1/social/posts', { token: a.token, body: { subjectType: 'event', subjectRef: m.id, body: 'mine' } })
    expectError(await call(svc, 'PATCH', `/v1/social/posts/${p.body.post.id}`, { token: b.token, body: { body: 'hijack' } }), 403, 'forbidden')
    expectError(await call(svc, 'DELETE', `/v1/social/posts/${p.body.post.id}`, { token: b.token }), 403, 'forbidden')
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${p.body.post.id}`, { token: a.token })).status, 200)
    expectError(await call(svc, 'PATCH', `/v1/social/posts/${p.body.post.id}`, { token: a.token, body: { body: 'gone' } }), 404, 'post-not-found')
  })

  it('a reply leaves the thread with its deleted parent: for anyone but its author it is gone — an agree is 404 and writes nothing; its author can still delete it', async () => {
    const m = await addMarket(svc)
    const a = await signIn(svc)
    const b = await signIn(svc)
    const c = await signIn(svc)
    const top = await call(svc, 'POST', '/v1/social/posts', { token: a.token, body: { subjectType: 'event', subjectRef: m.id, body: 'top' } })
    const reply = await call(svc, 'POST', '/v1/social/posts', { token: b.token, body: { subjectType: 'event', subjectRef: m.id, body: 'reply', parentId: top.body.post.id } })
    assert.equal(reply.status, 201)
    const agree = `/v1/social/posts/${reply.body.post.id}/reactions`
    assert.equal((await call(svc, 'POST', agree, { token: c.token, body: { kind: 'agree', active: true } })).body.agrees, 1, 'reachable while its parent stands')
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${top.body.post.id}`, { token: a.token })).status, 200)
    const thread = await call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${m.id}&includeReplies=true`)
    assert.deepEqual(thread.body.posts, [], 'the thread no longer holds either')
    expectError(await call(svc, 'POST', agree, { token: c.token, body: { kind: 'agree', active: false } }), 404, 'post-not-found')
    expectError(await call(svc, 'POST', agree, { token: a.token, body: { kind: 'agree', active: true } }), 404, 'post-not-found')
    const row = await svc.ctx.db.selectFrom('posts').select('agrees').where('id', '=', reply.body.post.id).executeTakeFirstOrThrow()
    assert.equal(row.agrees, 1, 'nothing written')
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${reply.body.post.id}`, { token: b.token })).status, 200, 'its author still reaches it')
  })

  it('§3.1 a post "hidden pending review" (report threshold) or removed cannot be edited by its author: 403 forbidden \'this post is under review\' / \'was removed\', the body the moderators review stays as reported; deleting stays open', async () => {
    const m = await addMarket(svc)
    const a = await signIn(svc)
    const edit = (id: string, body: string) => call(svc, 'PATCH', `/v1/social/posts/${id}`, { token: a.token, body: { body } })
    const hidden = await call(svc, 'POST', '/v1/social/posts', { token: a.token, body: { subjectType: 'event', subjectRef: m.id, body: 'slur' } })
    const hiddenId = hidden.body.post.id as string
    for (let i = 0; i < LIMITS.reportThreshold; i++) {
      const r = await signIn(svc)
      assert.equal((await call(svc, 'POST', `/v1/social/posts/${hiddenId}/reports`, { token: r.token, body: { reason: 'slur' } })).status, 200)
    }
    const removed = await call(svc, 'POST', '/v1/social/posts', { token: a.token, body: { subjectType: 'event', subjectRef: m.id, body: 'removed text' } })
    const removedId = removed.body.post.id as string
    await svc.ctx.db.updateTable('posts').set({ state: 'removed' }).where('id', '=', removedId).execute()
    const row = (id: string) => svc.ctx.db.selectFrom('posts').select(['state', 'body', 'edited_at']).where('id', '=', id).executeTakeFirstOrThrow()
    assert.equal((await row(hiddenId)).state, 'hidden')

    expectError(await edit(hiddenId, 'hello'), 403, 'forbidden', /under review/)
    expectError(await edit(removedId, 'hello'), 403, 'forbidden', /removed/)
    assert.deepEqual(await row(hiddenId), { state: 'hidden', body: 'slur', edited_at: null })
    assert.deepEqual(await row(removedId), { state: 'removed', body: 'removed text', edited_at: null })
    // Once reviewed and back to visible, its author edits it again; deleting never needed the review.
    await svc.ctx.db.updateTable('posts').set({ state: 'visible' }).where('id', '=', hiddenId).execute()
    assert.equal((await edit(hiddenId, 'reworded')).status, 200)
    assert.equal((await call(svc, 'DELETE', `/v1/social/posts/${removedId}`, { token: a.token })).status, 200)
  })

  it('an edit racing a delete is 404 post-not-found and writes nothing: the edit waits on the post\'s row and updates only a row that is not deleted', { skip: !ON_POSTGRES && 'needs PostgreSQL: two connections, one holding the delete open (set VK_TEST_DATABASE_URL)' }, async () => {
    const m = await addMarket(svc)
    const a = await signIn(svc)
    const p = await call(svc, 'POST', '/v1/social/posts', { token: a.token, body: { subjectType: 'event', subjectRef: m.id, body: 'about to go' } })
    const id = p.body.post.id as string
    let commit!: () => void
    const held = new Promise<void>((r) => (commit = r))
    let deleting!: () => void
    const deleted = new Promise<void>((r) => (deleting = r))
    // A delete in flight: the row is updated (and locked) but not yet committed.
    const del = svc.ctx.db.transaction().execute(async (tx) => {
      await tx.updateTable('posts').set({ deleted_at: new Date() }).where('id', '=', id).execute()
      deleting()
      await held
    })
    await deleted
    const edit = call(svc, 'PATCH', `/v1/social/posts/${id}`, { token: a.token, body: { body: 'edited after the delete' } })
    // Wait until the edit is blocked on the row the delete holds, then let the delete commit.
    let waiting = 0
    for (let i = 0; i < 250 && !waiting; i++) {
      await new Promise((r) => setTimeout(r, 20))
      const w = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%posts%'`.execute(svc.ctx.db)
      waiting = w.rows[0].n
    }
    assert.ok(waiting, 'the edit waits on the delete\'s row lock')
    commit()
    await del
    expectError(await edit, 404, 'post-not-found')
    const row = await svc.ctx.db.selectFrom('posts').select(['body', 'edited_at']).where('id', '=', id).executeTakeFirstOrThrow()
    assert.deepEqual(row, { body: 'about to go', edited_at: null })
  })

  it('a post write\'s body errors read like every other route\'s (http/validate.ts): \'<field>\' and a rule, never Zod\'s raw "Invalid input: expected string, received number"', async () => {
    const m = await addMarket(svc)
    const a = await signIn(svc)
    const b = await signIn(svc)
    const p = await call(svc, 'POST', '/v1/social/posts', { token: a.token, body: { subjectType: 'event', subjectRef: m.id, body: 'x' } })
    const id = p.body.post.id as string
    const cases: [string, string, unknown, string][] = [
      ['POST', `/v1/social/posts/${id}/reports`, { reason: 5 }, 'reason'],
      ['POST', '/v1/social/posts', { subjectType: 'event', subjectRef: m.id, body: 'x', parentId: 5 }, 'parentId'],
      ['POST', `/v1/social/posts/${id}/reactions`, { kind: 'agree', active: 'yes' }, 'active'],
      ['POST', '/v1/social/blocks', { wallet: 5 }, 'wallet'],
      ['PATCH', `/v1/social/posts/${id}`, { body: 5 }, 'body'],
    ]
    for (const [method, path, body, field] of cases) {
      const r = await call(svc, method, path, { token: b.token, body })
      expectError(r, 400, 'validation-failed')
      assert.equal(r.body.error.param, field, path)
      assert.match(r.body.error.message, new RegExp(`^'${field}':? must be `), `${path}: ${r.body.error.message}`)
      assert.doesNotMatch(r.body.error.message, /Invalid input|expected \w+, received/, path)
    }
    // The same wording as a route that always used the shared parser (a mistyped field of a moderation action).
    const mod = await call(svc, 'POST', '/v1/mod/keep', { token: b.token, body: { postId: 5 } })
    const report = await call(svc, 'POST', `/v1/social/posts/${id}/reports`, { token: b.token, body: { reason: 5 } })
    assert.equal(report.body.error.message.replace(/^'reason'/, ''), mod.body.error.message.replace(/^'postId'/, ''))
  })

  it('react: "Agree" once per account, set on and off idempotently', async () => {
    const m = await addMarket(svc)
    const a = await signIn(svc)
    const b = await signIn(svc)
    const p = await call(svc, 'POST', '/v1/social/posts', { token: a.token, body: { subjectType: 'event', subjectRef: m.id, body: 'agree?' } })
    const path = `/v1/social/posts/${p.body.post.id}/reactions`
    assert.equal((await call(svc, 'POST', path, { token: b.token, body: { kind: 'agree', active: true } })).body.agrees, 1)
    assert.equal((await call(svc, 'POST', path, { token: b.token, body: { kind: 'agree', active: true } })).body.agrees, 1)
    assert.equal((await call(svc, 'POST', path, { token: b.token, body: { kind: 'agree', active: false } })).body.agrees, 0)
    expectError(await call(svc, 'POST', path, { token: a.token, body: { kind: 'agree', active: true } }), 403)
    expectError(await call(svc, 'POST', path, { token: b.token, body: { kind: 'love', active: true } }), 400, 'validation-failed')
  })

  it('§5.2 "Writes require a client session": every write is 401 without one and nothing is written', async () => {
    const m = await addMarket(svc)
    const writes: [string, string, unknown][] = [
      ['POST', '/v1/social/posts', { subjectType: 'event', subjectRef: m.id, body: 'x' }],
      ['PATCH', '/v1/social/posts/p_0000000000000', { body: 'x' }],
      ['DELETE', '/v1/social/posts/p_0000000000000', undefined],
      ['POST', '/v1/social/posts/p_0000000000000/reactions', { kind: 'agree', active: true }],
      ['POST', '/v1/social/posts/p_0000000000000/reports', { reason: 'spam' }],
      ['POST', '/v1/social/blocks', { wallet: '0x' + '1'.repeat(40) }],
      ['DELETE', `/v1/social/blocks/0x${'1'.repeat(40)}`, undefined],
    ]
    for (const [method, path, body] of writes) expectError(await call(svc, method, path, { body }), 401, 'unauthenticated')
    const bad = await call(svc, 'POST', '/v1/social/posts', { token: 'vks_' + '0'.repeat(64), body: { subjectType: 'event', subjectRef: m.id, body: 'x' } })
    expectError(bad, 401, 'session-expired')
  })

  it('bad input: malformed JSON, wrong types, unknown subject types, bad ids and body limits are 4xx with a code and a sentence', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const t = { token: u.token }
    expectError(await call(svc, 'POST', '/v1/social/posts', { ...t, body: '{"subjectType":' }), 400, 'invalid-json')
    expectError(await call(svc, 'POST', '/v1/social/posts', { ...t, body: '[1,2]' }), 400, 'invalid-json')
    expectError(await call(svc, 'POST', '/v1/social/posts', { ...t, body: { subjectType: 'event', subjectRef: m.id, body: 42 } }), 400, 'validation-failed')
    expectError(await call(svc, 'POST', '/v1/social/posts', { ...t, body: { subjectType: 'planet', subjectRef: 'x', body: 'x' } }), 400, 'validation-failed')
    expectError(await call(svc, 'POST', '/v1/social/posts', { ...t, body: { subjectType: 'event', subjectRef: '0x1234', body: 'x' } }), 400, 'validation-failed')
    expectError(await call(svc, 'POST', '/v1/social/posts', { ...t, body: { subjectType: 'event', subjectRef: m.id, body: '   ' } }), 400, 'validation-failed', /^'body':? must not be empty$/)
    expectError(await call(svc, 'POST', '/v1/social/posts', { ...t, body: { subjectType: 'event', subjectRef: m.id, body: 'x'.repeat(2001) } }), 400, 'validation-failed', /^'body':? must be at most 2000 characters$/)
    expectError(await call(svc, 'POST', '/v1/social/posts', { ...t, body: { subjectType: 'event', subjectRef: m.id, body: 'a\u0000b' } }), 400, 'validation-failed')
    expectError(await call(svc, 'POST', '/v1/social/posts', { ...t, body: { subjectType: 'event', subjectRef: m.id, body: 'x', extra: 1 } }), 400, 'validation-failed', "unknown field 'extra'")
    expectError(await call(svc, 'POST', '/v1/social/posts', { ...t, body: { subjectType: 'event', subjectRef: m.id, body: 'x', parentId: 'nope' } }), 400, 'validation-failed')
    expectError(await call(svc, 'PATCH', '/v1/social/posts/not-an-id', { ...t, body: { body: 'x' } }), 400, 'validation-failed')
    expectError(await call(svc, 'DELETE', '/v1/social/posts/p_0000000000000', t), 404, 'post-not-found')
  })

  it(`body and report-reason limits count characters (code points) after trimming: a body of ${LIMITS.bodyMaxChars} is written and ${LIMITS.bodyMaxChars + 1} refused, also in emoji (two UTF-16 units each); a reason of ${LIMITS.reasonMaxChars} is taken and ${LIMITS.reasonMaxChars + 1} refused`, async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const t = { token: u.token }
    const post = (body: string) => call(svc, 'POST', '/v1/social/posts', { ...t, body: { subjectType: 'event', subjectRef: m.id, body } })
    for (const unit of ['x', '📈']) {
      const ok = await post(` ${unit.repeat(LIMITS.bodyMaxChars)} `)
      assert.equal(ok.status, 201, JSON.stringify(ok.body).slice(0, 200))
      assert.equal(ok.body.post.body, unit.repeat(LIMITS.bodyMaxChars), 'stored trimmed, whole')
      expectError(await post(unit.repeat(LIMITS.bodyMaxChars + 1)), 400, 'validation-failed', /^'body':? must be at most 2000 characters$/)
    }
    const author = await signIn(svc)
    const target = (await call(svc, 'POST', '/v1/social/posts', { token: author.token, body: { subjectType: 'event', subjectRef: m.id, body: 'reported' } })).body.post.id as string
    const report = (reason: string) => call(svc, 'POST', `/v1/social/posts/${target}/reports`, { ...t, body: { reason } })
    expectError(await report('r'.repeat(LIMITS.reasonMaxChars + 1)), 400, 'validation-failed', /^'reason':? must be at most 500 characters$/)
    assert.equal((await report('😀'.repeat(LIMITS.reasonMaxChars))).status, 200)
  })

  it('a body or report reason made only of invisible characters (white space, control characters, zero-width spaces and joiners, byte-order mark, bidi marks, variation selectors, soft hyphen, blank fillers) is "must not be empty", and nothing is written', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const t = { token: u.token }
    const invisible = ['\u200b', '\u200b\u200c\u200d', ' \u2060\ufeff ', '\u200e\u200f', '\u3164', '\u2800', '\u00a0\u3000', '\ufe0f\u034f', '\u00ad', '\u0001\u0085\u007f']
    const before = (await call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${m.id}`)).body.posts.length
    for (const body of invisible) {
      expectError(await call(svc, 'POST', '/v1/social/posts', { ...t, body: { subjectType: 'event', subjectRef: m.id, body } }), 400, 'validation-failed', "'body' must not be empty")
    }
    assert.equal((await call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${m.id}`)).body.posts.length, before, 'no invisible post was written')
    // A visible character among them is a body: an emoji joined with zero-width joiners, an accented letter.
    const ok = await call(svc, 'POST', '/v1/social/posts', { ...t, body: { subjectType: 'event', subjectRef: m.id, body: '\u200b👩\u200d💻\u200b' } })
    assert.equal(ok.status, 201)
    const id = ok.body.post.id
    for (const body of invisible) expectError(await call(svc, 'PATCH', `/v1/social/posts/${id}`, { ...t, body: { body } }), 400, 'validation-failed', "'body' must not be empty")
    const read = (await call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${m.id}`)).body.posts.find((p: { id: string }) => p.id === id)
    assert.equal(read.body, '\u200b👩\u200d💻\u200b', 'the refused edits left the body as it was')
    // Format characters that draw a glyph (Arabic end of ayah, number sign) are text.
    for (const body of ['\u06dd', '\u0600\u0661']) assert.equal((await call(svc, 'POST', '/v1/social/posts', { ...t, body: { subjectType: 'event', subjectRef: m.id, body } })).status, 201, JSON.stringify(body))
    const other = await signIn(svc)
    for (const reason of invisible) expectError(await call(svc, 'POST', `/v1/social/posts/${id}/reports`, { token: other.token, body: { reason } }), 400, 'validation-failed', "'reason' must not be empty")
  })

  it('the same rule for every short text a user names things with: a room title, a key label and a display name made only of invisible characters are "must not be empty", and nothing is written', async () => {
    const invisible = ['\u200b', '\u200b\u200c\u200d', ' \u2060\ufeff ', '\u3164', '\u00ad']
    const v = await claimVenue(svc)
    const rooms = async () => (await svc.ctx.db.selectFrom('rooms').select('id').where('venue_id', '=', v.venueId).execute()).length
    const keys = async () => (await svc.ctx.db.selectFrom('venue_keys').select('key_hash').where('venue_id', '=', v.venueId).execute()).length
    const [roomsBefore, keysBefore] = [await rooms(), await keys()]
    for (const text of invisible) {
      const room = { venueId: v.venueId, subjectType: 'topic', subjectRef: 'x', visibility: 'public', title: text }
      expectError(await call(svc, 'POST', '/v1/rooms', { token: v.owner.token, body: room }), 400, 'validation-failed', "'title' must not be empty")
      expectError(await call(svc, 'POST', '/admin/keys', { token: v.owner.token, body: { venueId: v.venueId, scopes: ['read'], label: text } }), 400, 'validation-failed', "'label' must not be empty")
      expectError(await call(svc, 'PUT', '/v1/me/profile', { token: v.owner.token, body: { name: text } }), 400, 'validation-failed', "'name' must not be empty")
    }
    assert.deepEqual([await rooms(), await keys()], [roomsBefore, keysBefore])
    assert.equal((await call(svc, 'GET', `/v1/social/profiles?wallets=${v.owner.wallet}`)).body.profiles[v.owner.wallet].name, null)
    // A visible character among them is text.
    assert.equal((await call(svc, 'PUT', '/v1/me/profile', { token: v.owner.token, body: { name: '\u200bAda\u200b' } })).status, 200)
  })

  it('"nothing is lost or half-written": a text with an unpaired surrogate (no UTF-8 form) is refused, never stored changed; a paired one (an emoji) is text', async () => {
    const m = await addMarket(svc)
    const u = await signIn(svc)
    const v = await claimVenue(svc)
    const MSG_SURROGATE = 'must be valid Unicode text (no unpaired surrogate)'
    for (const bad of ['hi \ud800 there', 'end \udfff', '\udc00\ud800'])
      expectError(await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: bad } }), 400, 'validation-failed', `'body' ${MSG_SURROGATE}`)
    const ok = await call(svc, 'POST', '/v1/social/posts', { token: u.token, body: { subjectType: 'event', subjectRef: m.id, body: 'ok \ud83d\ude00' } })
    assert.equal(ok.status, 201)
    assert.equal(ok.body.post.body, 'ok 😀')
    expectError(await call(svc, 'PATCH', `/v1/social/posts/${ok.body.post.id}`, { token: u.token, body: { body: 'x \ud800' } }), 400, 'validation-failed', `'body' ${MSG_SURROGATE}`)
    expectError(await call(svc, 'POST', `/v1/social/posts/${ok.body.post.id}/reports`, { token: v.owner.token, body: { reason: 'spam \udbff' } }), 400, 'validation-failed', `'reason' ${MSG_SURROGATE}`)
    expectError(await call(svc, 'POST', '/v1/rooms', { token: v.owner.token, body: { venueId: v.venueId, subjectType: 'topic', subjectRef: 'x', visibility: 'public', title: 'Room \ud800' } }), 400, 'validation-failed', `'title' ${MSG_SURROGATE}`)
    expectError(await call(svc, 'PUT', '/v1/me/profile', { token: u.token, body: { name: 'Ada \ud800' } }), 400, 'validation-failed', `'name' ${MSG_SURROGATE}`)
    const read = (await call(svc, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${m.id}`)).body.posts
    assert.deepEqual(read.map((p: { body: string }) => p.body), ['ok 😀'], 'only the well-formed post was written, as sent')
  })
})
