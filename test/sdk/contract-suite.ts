/**
 * The SDK contract suite: every operation of §4.2 (and sign-in, profiles, follows, records, leaderboard,
 * verdicts, counts) against a running reference service. Runtime-neutral: the Node runner, Deno and
 * Chromium each register these cases with their own test function (contract.test.ts, test/deno/sdk.test.ts,
 * test/browser/sdk.test.ts).
 */
import { MSG } from '../../src/contract/errors.ts'
import { LIMITS } from '../../src/contract/limits.ts'
import { HttpError, ValidationError, VenuekitError, type SubjectType } from '../../src/sdk/index.ts'
import { freshRef, type Harness } from './harness.ts'

export interface ContractCase {
  name: string
  run(h: Harness): Promise<void>
}

// A tiny assertion set that runs anywhere.
const show = (v: unknown) => JSON.stringify(v)
export function eq(actual: unknown, expected: unknown, what = 'value') {
  if (show(actual) !== show(expected)) throw new Error(`${what}: expected ${show(expected)}, got ${show(actual)}`)
}
export function ok(cond: unknown, what: string) {
  if (!cond) throw new Error(`expected ${what}`)
}
/** Awaits a rejection and checks it; returns the error. */
export async function rejects<E extends Error = VenuekitError>(p: Promise<unknown> | (() => unknown), check: Partial<Record<string, unknown>> & { type?: new (...a: any[]) => E }): Promise<E> {
  let err: unknown
  try {
    await (typeof p === 'function' ? p() : p)
  } catch (e) {
    err = e
  }
  if (!err) throw new Error(`expected a rejection ${show(check)}`)
  const { type, ...fields } = check
  if (type && !(err instanceof type)) throw new Error(`expected a ${type.name}, got ${(err as Error)?.name}: ${(err as Error)?.message}`)
  for (const [k, v] of Object.entries(fields)) eq((err as any)[k], v, `error.${k}`)
  return err as E
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A fetch that counts the requests it passes on to `base` (and records their URLs, and each method and JSON body as sent). */
export function countingFetch(base: typeof fetch = fetch) {
  const urls: string[] = []
  const sent: { method: string; path: string; body: any }[] = []
  const f = ((input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(String(input))
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body
    sent.push({ method: init?.method ?? 'GET', path: new URL(String(input)).pathname, body })
    return base(input, init)
  }) as typeof fetch
  return Object.assign(f, { urls, sent })
}

/** The same request made by hand, to compare the server's own words with what the SDK reports. */
async function raw(h: Harness, method: string, path: string, token?: string, body?: unknown) {
  const r = await fetch(h.env.url + path, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  return { status: r.status, body: await r.json() }
}

const ids = (posts: { id: string }[]) => posts.map((p) => p.id)

export const contractCases: ContractCase[] = [
  {
    name: '§5.1 "Reads need no credential and work signed out": thread, author posts, take counts, feed, rail, profiles with apiKey null',
    async run(h) {
      const m = await h.addMarket()
      const writer = await h.signedIn()
      const p = await writer.createPost('event', m.id, 'first words')
      const reader = h.client()
      eq(reader.session, null, 'reader session')
      const thread = await reader.posts('event', m.id.toUpperCase().replace('0X', '0x'))
      eq(ids(thread.posts), [p.id], 'thread posts')
      eq(thread.posts[0].agreed, undefined, 'agreed is absent signed out')
      const mine = await reader.postsByAuthor(writer.w.address, { takes: false })
      eq(ids(mine.posts), [p.id], 'author posts (takes: false)')
      eq(ids((await reader.postsByAuthor(writer.w.wallet)).posts), [], 'author posts default to takes only')
      eq((await reader.takeCounts([m.id])).counts[m.id.toLowerCase()], { posts: 1, takes: 0, bySide: {} }, 'take counts')
      const feed = await reader.postFeed()
      ok(Array.isArray(feed.posts) && Array.isArray(feed.signals), 'a feed page')
      const rail = await reader.forYou()
      eq(rail.personalized, false, 'rail personalized signed out')
      const prof = await reader.profiles([writer.w.address])
      ok(prof.profiles[writer.w.wallet], 'a profile keyed by lowercased wallet')
    },
  },
  {
    name: '§5.1 "Reads fail open": with a key the service refuses (unknown or revoked), reads still answer, the client warns once, and room \'self\' throws invalid-venue-key',
    async run(h) {
      const m = await h.addMarket()
      const writer = await h.signedIn()
      const p = await writer.createPost('event', m.id, 'still readable')
      const warned: string[] = []
      const realWarn = console.warn
      console.warn = (...a: unknown[]) => void warned.push(a.join(' '))
      try {
        const c = h.client({ apiKey: `pck_${'0'.repeat(64)}` })
        eq(ids((await c.posts('event', m.id)).posts), [p.id], 'thread')
        eq((await c.takeCounts([m.id])).counts[m.id.toLowerCase()].posts, 1, 'take counts')
        ok(Array.isArray((await c.postFeed()).posts), 'a feed page')
        eq(warned.filter((w) => w.includes("refused this client's apiKey")).length, 1, 'warnings about the key')
        await rejects(c.rooms.board(), { type: HttpError, status: 401, code: 'invalid-venue-key' })
      } finally {
        console.warn = realWarn
      }
    },
  },
  {
    name: '§4.2 "Reads … send the session only when one exists": a signed-in reader sees its own agree',
    async run(h) {
      const m = await h.addMarket()
      const writer = await h.signedIn()
      const fan = await h.signedIn()
      const p = await writer.createPost('event', m.id, 'agree with me')
      const r = await fan.reactPost(p.id)
      eq([r.agreed, r.agrees], [true, 1], 'react result')
      eq((await fan.posts('event', m.id)).posts[0].agreed, true, 'agreed for the signed-in reader')
      eq((await h.client().posts('event', m.id)).posts[0].agreed, undefined, 'no agreed signed out')
      const off = await fan.reactPost(p.id, false)
      eq([off.agreed, off.agrees], [false, 0], 'agree taken back')
    },
  },
  {
    name: '§9.5 auth.signIn({ address, signMessage }) resolves to a session with its token; onSessionChange hears it; signOut ends it',
    async run(h) {
      const c = h.client()
      const w = h.wallet()
      const heard: (string | null)[] = []
      const off = c.onSessionChange((s) => heard.push(s?.wallet ?? null))
      const s = await c.auth.signIn(w)
      ok(/^vks_[0-9a-f]{64}$/.test(s.token), 'a session token')
      eq(s.wallet, w.wallet, 'session wallet')
      eq(c.session, s, 'client.session')
      eq((await c.auth.me()).wallet, w.wallet, 'me')
      await c.auth.signOut()
      eq(c.session, null, 'signed out')
      eq(heard, [w.wallet, null], 'listener calls')
      off()
      // The old token was revoked on the service: a write with it is the server's 401, unchanged.
      c.setSession(s)
      const m = await h.addMarket()
      const e = await rejects(c.createPost('event', m.id, 'after sign-out'), { type: HttpError, status: 401, code: 'session-expired' })
      eq(e.message, (await raw(h, 'POST', '/v1/social/posts', s.token, { subjectType: 'event', subjectRef: m.id, body: 'x' })).body.error.message, 'server message')
    },
  },
  {
    name: '§9.5 auth.signOut "ends the session on the service and in the client (in the client even when the service refuses)": answered, the client is signed out, its listener told once and the token revoked on the service; refused (the session already ended elsewhere, as another tab signing out), it throws the service\'s 401 unchanged and the client is signed out all the same',
    async run(h) {
      // The service answers: signed out in the client, and on the service.
      const a = await h.signedIn()
      const token = a.session!.token
      const heardA: (string | null)[] = []
      a.onSessionChange((s) => heardA.push(s?.token ?? null))
      await a.auth.signOut()
      eq(a.session, null, 'signed out in the client')
      eq(heardA, [null], 'listener calls')
      eq((await raw(h, 'GET', '/v1/me', token)).status, 401, 'the token no longer reads me')
      // The service refuses: the same session was already ended by another client holding it.
      const f = countingFetch(h.env.fetchImpl)
      const b = await h.signedIn({ fetchImpl: f })
      const tokenB = b.session!.token
      const tab = h.client()
      tab.setSession(b.session)
      await tab.auth.signOut()
      const heardB: (string | null)[] = []
      b.onSessionChange((s) => heardB.push(s?.token ?? null))
      const e = await rejects(b.auth.signOut(), { type: HttpError, status: 401, code: 'session-expired' })
      eq(e.message, (await raw(h, 'POST', '/v1/auth/signout', tokenB)).body.error.message, 'the server\'s message')
      eq(b.session, null, 'signed out in the client although the service refused')
      eq(heardB, [null], 'listener calls')
      // Signed out means signed out: a write throws before any request, and signing out again asks nothing.
      const asked = f.urls.length
      await rejects(b.createPost('category', 'weather', 'still me?'), { type: VenuekitError, code: 'unauthenticated' })
      await b.auth.signOut()
      eq(f.urls.length, asked, 'no request')
    },
  },
  {
    name: '§5.2 "Writes … require a client session": a write without one throws before any request',
    async run(h) {
      const f = countingFetch(h.env.fetchImpl)
      const c = h.client({ fetchImpl: f })
      const m = `0x${'ab'.repeat(32)}`
      const w = `0x${'12'.repeat(20)}`
      const post = 'p_0000000000aa'
      await rejects(c.createPost('event', m, 'hello'), { type: VenuekitError, code: 'unauthenticated' })
      // Every write of the SDK, each through its own path: posts, reactions, reports, blocks, rooms, moderation, follows.
      const writes: [string, () => Promise<unknown>][] = [
        ['editPost', () => c.editPost(post, 'edited')],
        ['deletePost', () => c.deletePost(post)],
        ['reactPost', () => c.reactPost(post)],
        ['reportPost', () => c.reportPost(post, 'spam')],
        ['block', () => c.block(w)],
        ['unblock', () => c.unblock(w)],
        ['rooms.join', () => c.rooms.join()],
        ['rooms.leave', () => c.rooms.leave()],
        ['mod.hide', () => c.mod.hide(post)],
        ['mod.ban', () => c.mod.ban(w)],
        ['follow', () => c.follow('category', 'weather')],
        ['unfollow', () => c.unfollow('category', 'weather')],
        ['auth.linkWallet', () => c.auth.linkWallet(h.wallet())],
      ]
      for (const [name, call] of writes)
        await rejects(call, { type: VenuekitError, code: 'unauthenticated' }).catch((e: Error) => {
          throw new Error(`${name}: ${e.message}`)
        })
      eq(f.urls, [], 'requests made')
    },
  },
  {
    name: '§9.5 auth.linkWallet links a second wallet to the signed-in account',
    async run(h) {
      const c = await h.signedIn()
      const second = h.wallet()
      const r = await c.auth.linkWallet(second)
      eq(r.wallets.length, 2, 'wallets after linking')
      eq(c.session?.wallets.includes(second.wallet), true, 'session knows the linked wallet')
    },
  },
  {
    name: '§1.4 "The client never sends a stance": createPost carries none and returns the stance the server proved',
    async run(h) {
      const m = await h.addMarket()
      const c = await h.signedIn()
      await h.setPosition(c.w.wallet, m.id, 1, '2500000')
      const p = await c.createPost('event', m.id, 'No way')
      eq(p.stance, { side: 1, size: '2500000', priceBps: 6000 }, 'stance')
      eq(p.author, c.w.wallet, 'author')
      const reply = await (await h.signedIn()).createPost('event', m.id, 'why not?', p.id)
      eq(reply.parentId, p.id, 'reply parent')
      const t = await h.client().posts('event', m.id)
      eq(ids(t.threads[p.id] ?? []), [reply.id], 'reply folded under its parent')
      eq((await h.client().takeCounts([m.id])).counts[m.id], { posts: 2, takes: 1, bySide: { 1: 1 } }, 'counts')
    },
  },
  {
    name: '§1.4 "The client never sends a stance" (§4.5.2 "Do not send a stance"): the bodies createPost (a post, a reply, a room post) and editPost send hold their own fields only, even when a JS caller hands them a stance, a side, a size or a price; the post carries the stance the server proved',
    async run(h) {
      const v = await h.venue()
      const subject = { type: 'category' as const, ref: freshRef('stance') }
      const roomId = await h.room(v, subject)
      const m = await h.addMarket({ nodes: [subject] })
      const f = countingFetch(h.env.fetchImpl)
      const c = await h.signedIn({ apiKey: v.key, fetchImpl: f })
      await h.setPosition(c.w.wallet, m.id, 1, '2500000')
      await c.rooms.join(roomId)
      // What a JS caller might pass (the types refuse it): the stance it would like, and its parts.
      const forged = { stance: { side: 0, size: '999999999', priceBps: 9900 }, side: 0, size: '999999999', priceBps: 9900, position: '999999999' }
      const js = <T>(o: object) => o as unknown as T
      type CreateOptions = Parameters<typeof c.createPost>[4]
      /** The JSON body of the last request, checked after the call settles (a refusal would hide what was sent). */
      const lastBody = async (method: string, path: string, write: () => Promise<unknown>) => {
        const r = await write().catch((e: unknown) => e)
        const last = f.sent[f.sent.length - 1]
        eq([last?.method, last?.path], [method, path], 'the request')
        return { r: r as any, body: last?.body as Record<string, unknown> }
      }
      const keys = (b: Record<string, unknown>) => Object.keys(b ?? {}).sort()
      const proved = { side: 1, size: '2500000', priceBps: 6000 }

      const p = await lastBody('POST', '/v1/social/posts', () => c.createPost('event', m.id, 'No way', null, js<CreateOptions>(forged)))
      eq(keys(p.body), ['body', 'subjectRef', 'subjectType'], 'a post\'s body fields')
      eq(p.r.stance, proved, 'the stance the server proved')
      const reply = await lastBody('POST', '/v1/social/posts', () => c.createPost('event', m.id, 'and why', p.r.id, js<CreateOptions>(forged)))
      eq(keys(reply.body), ['body', 'parentId', 'subjectRef', 'subjectType'], 'a reply\'s body fields')
      eq(reply.r.parentId, p.r.id, 'a reply')
      const inRoom = await lastBody('POST', '/v1/social/posts', () => c.createPost('event', m.id, 'in the room', null, js<CreateOptions>({ ...forged, room: roomId })))
      eq(keys(inRoom.body), ['body', 'room', 'subjectRef', 'subjectType'], 'a room post\'s body fields')
      eq([inRoom.r.roomId, inRoom.r.stance], [roomId, proved], 'a room post, with the proved stance')
      const edited = await lastBody('PATCH', `/v1/social/posts/${p.r.id}`, () => c.editPost(p.r.id, 'No way at all', js<Parameters<typeof c.editPost>[2]>(forged)))
      eq(keys(edited.body), ['body'], 'an edit\'s body fields')
      eq([edited.r.body, edited.r.stance], ['No way at all', proved], 'edited, the stance unchanged')
    },
  },
  {
    name: '§1.4 myStance: the stance a post written now would carry (the largest position), which the next createPost carries; it needs a session and a market id, checked before any request',
    async run(h) {
      const m = await h.addMarket()
      const c = await h.signedIn()
      eq(await c.myStance(m.id), { marketId: m.id, stance: null }, 'no position')
      await h.setPosition(c.w.wallet, m.id, 0, '300')
      await h.setPosition(c.w.wallet, m.id, 1, '200')
      const s = await c.myStance(m.id)
      eq(s.stance, { side: 0, size: '300', priceBps: 4000 }, 'the larger side')
      eq((await c.createPost('event', m.id, 'bought No, hold more Yes')).stance, s.stance, 'the post carries it')
      const f = countingFetch(h.env.fetchImpl)
      await rejects(h.client({ fetchImpl: f }).myStance(m.id), { type: VenuekitError, code: 'unauthenticated' })
      await rejects(c.myStance('0x12'), { type: ValidationError })
      eq(f.urls, [], 'requests made')
      await rejects(c.myStance(`0x${'cd'.repeat(32)}`), { type: HttpError, status: 404, code: 'market-not-found' })
    },
  },
  {
    name: '§4.2 editPost, reportPost and deletePost write with the session and answer the server\'s result',
    async run(h) {
      const m = await h.addMarket()
      const c = await h.signedIn()
      const p = await c.createPost('event', m.id, 'draft')
      eq((await c.editPost(p.id, 'final')).body, 'final', 'edited body')
      eq(await (await h.signedIn()).reportPost(p.id, 'spam'), { postId: p.id, reported: true }, 'report result')
      eq(await c.deletePost(p.id), { deleted: true, postId: p.id }, 'delete result')
      eq(ids((await h.client().posts('event', m.id)).posts), [], 'deleted post gone')
    },
  },
  {
    name: '§7 "Every client write action throws on failure", with the server\'s code and message unchanged',
    async run(h) {
      const m = await h.addMarket()
      const a = await h.signedIn()
      const b = await h.signedIn()
      const p = await a.createPost('event', m.id, 'mine')
      const e = await rejects(b.editPost(p.id, 'not yours'), { type: HttpError, status: 403, code: 'forbidden' })
      const direct = await raw(h, 'PATCH', `/v1/social/posts/${p.id}`, b.session!.token, { body: 'not yours' })
      eq(e.message, direct.body.error.message, 'message word for word')
      eq((e as unknown as HttpError).serverMessage, direct.body.error.message, 'serverMessage')
      eq((e as unknown as HttpError).body, direct.body, 'body')
      await rejects(a.reactPost(p.id), { type: HttpError, status: 403 })
      await rejects(a.deletePost('p_0000000000zz'), { type: HttpError, status: 404 })
    },
  },
  {
    name: 'HttpError.requestId is the refusal\'s X-Request-Id, the id the service\'s log names (§7 "throws on failure")',
    async run(h) {
      const m = await h.addMarket()
      const a = await h.signedIn()
      const p = await a.createPost('event', m.id, 'mine')
      // The id as the runtime's own fetch reads it (across origins in Chromium: CORS must expose the header).
      const seen: (string | null)[] = []
      const base = h.env.fetchImpl ?? fetch
      const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
        const r = await base(input, init)
        seen.push(r.headers.get('x-request-id'))
        return r
      }) as typeof fetch
      const b = await h.signedIn({ fetchImpl })
      const e = await rejects<HttpError>(b.editPost(p.id, 'not yours'), { type: HttpError, status: 403, code: 'forbidden' })
      ok(/^[0-9a-f-]{36}$/.test(String(e.requestId)), `a request id (got ${e.requestId})`)
      eq(e.requestId, seen.at(-1), 'requestId')
      const again = await rejects<HttpError>(b.editPost(p.id, 'still not yours'), { type: HttpError, status: 403 })
      ok(again.requestId !== e.requestId, 'a fresh id per request')
    },
  },
  {
    name: '§4.2 block and unblock: a blocked author\'s posts leave the blocker\'s reads, and come back',
    async run(h) {
      const m = await h.addMarket()
      const author = await h.signedIn()
      const reader = await h.signedIn()
      const p = await author.createPost('event', m.id, 'loud')
      eq(await reader.block(author.w.address), { blocked: true, wallet: author.w.wallet }, 'block result')
      eq(ids((await reader.posts('event', m.id)).posts), [], 'hidden from the blocker')
      eq(ids((await h.client().posts('event', m.id)).posts), [p.id], 'still there for others')
      eq(await reader.unblock(author.w.wallet), { blocked: false, wallet: author.w.wallet }, 'unblock result')
      eq(ids((await reader.posts('event', m.id)).posts), [p.id], 'back after unblock')
    },
  },
  {
    name: '§2.12 follow, unfollow and follow state',
    async run(h) {
      const c = await h.signedIn()
      const ref = freshRef('topic')
      eq((await c.followState('topic', ref)).following, false, 'not following')
      eq((await c.follow('topic', ref)).following, true, 'follow')
      eq((await c.followState('topic', ref)).following, true, 'following')
      eq((await h.client().followState('topic', ref)).following, false, 'signed out reads false')
      eq((await c.unfollow('topic', ref)).following, false, 'unfollow')
      await rejects(c.follow('org', 'acme'), { type: HttpError, status: 400 })
    },
  },
  {
    name: '§2.12 "useProfiles is one batched request … deduplicated, lowercased": profiles for many wallets',
    async run(h) {
      const a = await h.signedIn()
      const b = h.wallet()
      const f = countingFetch(h.env.fetchImpl)
      const c = h.client({ fetchImpl: f })
      const r = await c.profiles([a.w.address, b.address.toUpperCase().replace('0X', '0x'), a.w.wallet])
      eq(Object.keys(r.profiles).sort(), [a.w.wallet, b.wallet].sort(), 'profiles keyed lowercased')
      eq(f.urls.length, 1, 'one request')
      ok(new URL(f.urls[0]).searchParams.get('wallets') === [a.w.wallet, b.wallet].sort().join(','), 'deduplicated, lowercased wallets')
    },
  },
  {
    name: '§4.1 take counts "one request covers up to 100 market ids; the SDK splits larger sets" and merges them',
    async run(h) {
      const m = await h.addMarket()
      await (await h.signedIn()).createPost('event', m.id, 'counted')
      const many = [m.id, ...Array.from({ length: 149 }, (_, i) => `0x${i.toString(16).padStart(64, 'c')}`)]
      const f = countingFetch(h.env.fetchImpl)
      const r = await h.client({ fetchImpl: f }).takeCounts(many)
      eq(f.urls.length, 2, 'requests')
      eq(f.urls.map((u) => new URL(u).searchParams.get('ids')!.split(',').length).sort((x, y) => x - y), [50, LIMITS.takeCountIdsPerRequest], 'ids per request')
      eq(Object.keys(r.counts).length, 150, 'merged counts')
      eq(r.counts[m.id].posts, 1, 'the market with a post')
      eq(r.counts[many[1]], { posts: 0, takes: 0, bySide: {} }, 'a market with no posts is all zeros')
    },
  },
  {
    name: '§4.1 take counts "the same set of ids in any order or casing shares one cached read"',
    async run(h) {
      const a = (await h.addMarket()).id
      const b = (await h.addMarket()).id
      const f = countingFetch(h.env.fetchImpl)
      const c = h.client({ fetchImpl: f })
      const [r1, r2] = await Promise.all([c.takeCounts([a, b]), c.takeCounts([b.toUpperCase().replace('0X', '0x'), a, a])])
      eq(f.urls.length, 1, 'one in-flight read')
      eq(r1, r2, 'same answer')
      await c.takeCounts([b, a])
      eq(f.urls.length, 1, 'recently cached')
      await c.takeCounts([a])
      eq(f.urls.length, 2, 'another set is another read')
    },
  },
  {
    name: '§4.2 postFeed: the ranked feed, and the server\'s §4.1 rule 1 refusal "unsupported-param" reaches the caller',
    async run(h) {
      const ref = freshRef('cat')
      const m = await h.addMarket({ nodes: [{ type: 'category', ref }] })
      const c = await h.signedIn()
      await h.setPosition(c.w.wallet, m.id, 0, 10)
      const p = await c.createPost('event', m.id, 'ranked take')
      const page = await h.client().postFeed({ scope: 'subject', subjectType: 'category', subjectRef: ref })
      eq(ids(page.posts), [p.id], 'subject feed')
      eq(page.titles[m.id], m.title, 'titles keyed by market id')
      const rec = await h.client().postFeed({ subjectType: 'category', subjectRef: ref, sort: 'record' })
      eq(rec.sort, 'record', 'sort record')
      ok('record' in rec.posts[0], 'post.record filled with sort record')
      await rejects(h.client().postFeed({ author: c.w.wallet } as never), { type: HttpError, status: 400, code: 'unsupported-param' })
      await rejects(h.client().postFeed({ scope: 'following' }), { type: HttpError, status: 401 })
    },
  },
  {
    name: '§4.2 forYou: the discovery rail; personalized only with a session',
    async run(h) {
      const c = await h.signedIn()
      const rail = await c.forYou({ limit: 5 })
      ok(Array.isArray(rail.items) && typeof rail.markets === 'object', 'a rail')
      eq(rail.personalized, true, 'personalized with a session (the session was sent)')
      eq((await h.client().forYou({ subjectType: 'category', subjectRef: 'weather' })).personalized, false, 'not personalized signed out')
    },
  },
  {
    name: '§4.2 postsByAuthor: posts with how each resolved market ended',
    async run(h) {
      const m = await h.addMarket()
      const c = await h.signedIn()
      await h.setPosition(c.w.wallet, m.id, 0, 100)
      const p = await c.createPost('event', m.id, 'yes it will')
      await h.resolve(m.id, 0)
      const r = await h.client().postsByAuthor(c.w.wallet)
      eq(ids(r.posts), [p.id], 'takes')
      eq(r.results[m.id], { winner: 0 }, 'result of the resolved market')
      eq(r.hasMore, false, 'hasMore')
    },
  },
  {
    name: '§4.1 counts(by): grouped counts, and "an axis it cannot group on gives status 400 naming the existing axes"',
    async run(h) {
      const r = await h.client().counts('category')
      eq(r.by, 'category', 'axis')
      ok(Array.isArray(r.groups), 'groups')
      const e = await rejects(h.client().counts('country'), { type: HttpError, status: 400 })
      ok(/category/.test(e.message), 'the message names the axes')
      eq(e.message, (await raw(h, 'GET', '/v1/markets/counts?by=country')).body.error.message, 'message word for word')
    },
  },
  {
    name: '§4.2 rooms (room defaults to \'self\'): membership, join, board, leave; §7 room refusals reach the caller word for word',
    async run(h) {
      const v = await h.venue()
      const member = await h.signedIn({ apiKey: v.key })
      // 'self': the room of the venue whose key the client carries.
      const self = await member.rooms.membership()
      eq([self.room.venueId, self.member], [v.venueId, false], 'self room, not a member yet')
      const j = await member.rooms.join()
      eq([j.member, j.refused], [true, false], 'joined')
      eq((await member.rooms.membership()).member, true, 'member')
      ok(Array.isArray((await member.rooms.board()).board), 'a board')
      eq((await member.rooms.leave()).member, false, 'left')
      await rejects(h.client().rooms.membership(), { type: HttpError, code: 'venue-key-required' })
      // A room on a followable node, by id.
      const subject = { type: 'category' as const, ref: freshRef('room') }
      const roomId = await h.room(v, subject)
      const m = await h.addMarket({ nodes: [subject] })
      await member.rooms.join(roomId)
      eq((await member.rooms.membership(roomId)).room.id, roomId, 'by room id')
      eq((await member.createPost('event', m.id, 'in the room', null, { room: roomId })).roomId, roomId, 'posted into the room')
      const outsider = await h.signedIn({ apiKey: v.key })
      await rejects(outsider.createPost('event', m.id, 'let me in', null, { room: roomId }), { type: HttpError, status: 403, message: MSG.JOIN_TO_POST })
      await member.rooms.leave(roomId)
      await member.follow('category', subject.ref)
      await rejects(member.createPost('event', m.id, 'back again', null, { room: roomId }), { type: HttpError, message: MSG.LEFT_ROOM })
      // §7 "Join another venue's room": an error, "not reported as invite-only".
      const other = await h.venue()
      const otherRoom = await h.room(other, { type: 'category', ref: freshRef('other') })
      const e = await rejects<HttpError>(member.rooms.join(otherRoom), { type: HttpError })
      ok(e.message !== MSG.ROOM_NOT_OPEN && !('refused' in Object(e.body)), 'not reported as invite-only')
    },
  },
  {
    name: '§3.3 "Join a private room": refused with \'this room is not open to join\'; §7 its board is 404 for an outsider',
    async run(h) {
      const v = await h.venue()
      const roomId = await h.room(v, { type: 'topic', ref: freshRef('private') }, 'private')
      const c = await h.signedIn({ apiKey: v.key })
      const j = await c.rooms.join(roomId)
      eq([j.member, j.refused, j.message], [false, true, MSG.ROOM_NOT_OPEN], 'refused join')
      await rejects(c.rooms.board(roomId), { type: HttpError, status: 404 })
    },
  },
  {
    name: '§5.7 moderation: a venue owner works its queue (keep, hide, pin, clear, ban, unban); an outsider is forbidden; operators remove and restore',
    async run(h) {
      const v = await h.venue()
      const owner = v.owner
      const subject = { type: 'category' as const, ref: freshRef('mod') }
      const roomId = await h.room(v, subject)
      const m = await h.addMarket({ nodes: [subject] })
      const author = await h.signedIn({ apiKey: v.key })
      await author.rooms.join(roomId)
      const p = await author.createPost('event', m.id, 'reported take', null, { room: roomId })
      const reporter = await h.signedIn({ venueId: v.venueId })
      await reporter.reportPost(p.id, 'rude')
      const q = await owner.mod.queue({ venueId: v.venueId })
      ok(q.items.some((i) => i.post.id === p.id), 'the reported post is in the venue queue')
      const outsider = await h.signedIn()
      await rejects(outsider.mod.queue({ venueId: v.venueId }), { type: HttpError, status: 403, message: MSG.CANNOT_MODERATE })
      const hidden = await owner.mod.hide(p.id, { venueId: v.venueId })
      eq(hidden.post?.hiddenHere, true, 'hidden on this venue')
      eq(ids((await h.client().posts('event', m.id, { venue: v.venueId })).posts), [], 'gone from the venue overlay')
      eq(ids((await h.client().posts('event', m.id)).posts), [p.id], 'live everywhere else')
      eq((await owner.mod.keep(p.id, { venueId: v.venueId })).action, 'keep', 'keep')
      eq((await owner.mod.pin(p.id, { venueId: v.venueId })).post?.pinned, true, 'pin')
      eq((await owner.mod.pin(p.id, { venueId: v.venueId, pinned: false })).post?.pinned, false, 'unpin')
      eq((await owner.mod.clear(p.id, { venueId: v.venueId })).action, 'clear', 'clear')
      eq((await owner.mod.ban(author.w.wallet, { venueId: v.venueId })).ban?.banned, true, 'ban')
      eq((await owner.mod.unban(author.w.wallet, { venueId: v.venueId })).ban?.banned, false, 'unban')
      eq((await owner.mod.queue({ venueId: v.venueId, state: 'actioned' })).items.some((i) => i.post.id === p.id), true, 'actioned tab')
      await rejects(owner.mod.remove(p.id), { type: HttpError, status: 403 })
      const op = await h.signedIn({}, h.operator())
      eq((await op.mod.remove(p.id)).post?.state, 'removed', 'operator removal')
      eq(ids((await h.client().posts('event', m.id)).posts), [], 'removed everywhere')
      eq((await op.mod.restore(p.id)).post?.state, 'visible', 'restored')
    },
  },
  {
    name: '§5.3 "It scopes reads to the venue": a keyless client that names its venueId reads with that venue\'s overlay too (thread, feed, profile, take counts); a read that names a venue, or a client with no venue, does not',
    async run(h) {
      const v = await h.venue()
      const m = await h.addMarket()
      const author = await h.signedIn()
      const p = await author.createPost('event', m.id, 'hidden on this venue only')
      await v.owner.mod.hide(p.id, { venueId: v.venueId })
      const keyless = h.client({ apiKey: null, venueId: v.venueId })
      eq(ids((await keyless.posts('event', m.id)).posts), [], 'thread')
      eq((await keyless.postFeed({ scope: 'global', limit: 100 })).posts.some((x) => x.id === p.id), false, 'feed')
      eq(ids((await keyless.postsByAuthor(author.w.wallet, { takes: false })).posts), [], 'profile')
      eq((await keyless.takeCounts([m.id])).counts[m.id.toLowerCase()].posts, 0, 'take counts')
      const other = await h.venue()
      eq(ids((await keyless.posts('event', m.id, { venue: other.venueId })).posts), [p.id], 'a named venue wins')
      eq((await keyless.takeCounts([m.id], { venue: other.venueId })).counts[m.id.toLowerCase()].posts, 1, 'a named venue wins (take counts)')
      const none = h.client({ apiKey: null })
      eq(ids((await none.posts('event', m.id)).posts), [p.id], 'no venue: no overlay')
      eq((await none.takeCounts([m.id])).counts[m.id.toLowerCase()].posts, 1, 'no venue: no overlay (take counts)')
    },
  },
  {
    name: '§5.3 "It scopes reads to the venue" and §5.1 "Reads fail open": a keyed client whose key the service refuses for reads (unknown, revoked or trade-only) keeps its venueId\'s overlay (thread, feed, profile, take counts); with a live key, naming the venue changes nothing',
    async run(h) {
      const v = await h.venue()
      const m = await h.addMarket()
      const author = await h.signedIn()
      const p = await author.createPost('event', m.id, 'hidden on this venue only')
      const banned = await h.signedIn()
      const q = await banned.createPost('event', m.id, 'by a wallet this venue banned')
      await v.owner.mod.hide(p.id, { venueId: v.venueId })
      await v.owner.mod.ban(banned.w.wallet, { venueId: v.venueId })
      const warned: string[] = []
      const realWarn = console.warn
      console.warn = (...a: unknown[]) => void warned.push(a.join(' '))
      try {
        const tradeOnly = await h.key(v, ['trade'])
        const refused = { 'an unknown key': `pck_${'9'.repeat(64)}`, 'a trade-only key': tradeOnly }
        for (const [what, apiKey] of Object.entries(refused)) {
          const c = h.client({ apiKey, venueId: v.venueId })
          eq(ids((await c.posts('event', m.id)).posts), [], `${what}: thread`)
          const feed = await c.postFeed({ scope: 'subject', subjectType: 'event', subjectRef: m.id })
          eq(ids(feed.posts), [], `${what}: feed`)
          eq(ids((await c.postsByAuthor(author.w.wallet, { takes: false })).posts), [], `${what}: profile`)
          eq(ids((await c.postsByAuthor(banned.w.wallet, { takes: false })).posts), [], `${what}: the banned author's profile`)
          eq((await c.takeCounts([m.id])).counts[m.id.toLowerCase()].posts, 0, `${what}: take counts`)
          // A read that names a venue still wins.
          const other = await h.venue()
          eq(ids((await c.posts('event', m.id, { venue: other.venueId })).posts), [q.id, p.id], `${what}: a named venue wins`)
        }
        ok(warned.some((w) => w.includes("refused this client's apiKey") && w.includes(v.venueId)), 'the warning says the overlay is kept')
        // Control: the same refused key without a venueId reads with no overlay.
        eq(ids((await h.client({ apiKey: tradeOnly }).posts('event', m.id)).posts), [q.id, p.id], 'a refused key and no venueId: no overlay')
        // A live read key: the named venue is the key's own, so sending it (venueId) changes nothing.
        const keyOnly = h.client({ apiKey: v.key })
        const keyAndVenue = h.client({ apiKey: v.key, venueId: v.venueId })
        const sameOverlay = async (read: (c: typeof keyOnly) => Promise<unknown>, what: string) => eq(await read(keyAndVenue), await read(keyOnly), what)
        await sameOverlay(async (c) => ids((await c.posts('event', m.id)).posts), 'live key: thread')
        await sameOverlay(async (c) => ids((await c.postFeed({ scope: 'subject', subjectType: 'event', subjectRef: m.id })).posts), 'live key: feed')
        await sameOverlay(async (c) => ids((await c.postsByAuthor(banned.w.wallet, { takes: false })).posts), 'live key: profile')
        await sameOverlay(async (c) => (await c.takeCounts([m.id])).counts[m.id.toLowerCase()].posts, 'live key: take counts')
        eq(ids((await keyAndVenue.posts('event', m.id)).posts), [], 'live key: the overlay holds')
      } finally {
        console.warn = realWarn
      }
    },
  },
  {
    name: '§2.12 records for many wallets at one node, the leaderboard by scope, and market verdicts',
    async run(h) {
      const ref = freshRef('rec')
      const m = await h.addMarket({ nodes: [{ type: 'category', ref }] })
      const right = await h.signedIn()
      const wrong = await h.signedIn()
      await h.setPosition(right.w.wallet, m.id, 0, 100)
      await h.setPosition(wrong.w.wallet, m.id, 1, 100)
      await right.createPost('event', m.id, 'yes')
      await wrong.createPost('event', m.id, 'no')
      await h.resolve(m.id, 0)
      const c = h.client()
      const facet = { type: 'category' as const, ref }
      const rec = await c.records([right.w.address, wrong.w.wallet], facet)
      eq([rec.records[right.w.wallet]?.right, rec.records[wrong.w.wallet]?.wrong], [1, 1], 'records at the facet')
      const board = await c.leaderboard(facet)
      ok(board.population >= 1, 'a leaderboard states its population')
      const global = await c.leaderboard(null)
      eq(global.scope, null, 'scope null is the global board')
      ok(Array.isArray(global.entries), 'global board entries')
      const v = await c.verdicts([m.id])
      eq([v.verdicts[m.id]?.right, v.verdicts[m.id]?.wrong], [1, 1], 'verdict tally')
    },
  },
  {
    name: '§6.1 onComments "fires when the thread changes. The callback carries no payload"; unsubscribe stops it',
    async run(h) {
      const m = await h.addMarket()
      const watcher = h.client()
      const writer = await h.signedIn()
      const calls: number[] = []
      const off = watcher.onComments('event', m.id, (...args: unknown[]) => calls.push(args.length))
      try {
        // Subscription is asynchronous: post until the change arrives.
        for (let i = 0; i < 50 && !calls.length; i++) {
          await writer.createPost('event', m.id, `ping ${i}`)
          await sleep(100)
        }
        ok(calls.length > 0, 'a change event')
        ok(calls.every((n) => n === 0), 'no payload')
      } finally {
        off()
      }
      const seen = calls.length
      await writer.createPost('event', m.id, 'after unsubscribe')
      await sleep(300)
      eq(calls.length, seen, 'no calls after unsubscribe')
    },
  },
  {
    name: '§4.2 validation before the network: malformed wallet or market ids, unknown scope or subject type, empty body — each names the argument, no request made',
    async run(h) {
      const f = countingFetch(h.env.fetchImpl)
      const c = h.client({ fetchImpl: f })
      const s = await c.auth.signIn(h.wallet()).catch(() => null)
      eq(s !== null, true, 'signed in')
      const before = f.urls.length
      const market = `0x${'ab'.repeat(32)}`
      const cases: [() => unknown, string][] = [
        [() => c.postsByAuthor('0x123'), 'wallet'],
        [() => c.block('not-a-wallet'), 'wallet'],
        [() => c.profiles(['0x12']), 'wallets'],
        [() => c.takeCounts([market, '0xdeadbeef']), 'marketIds'],
        [() => c.verdicts(['nope']), 'marketIds'],
        [() => c.posts('event', '0x1234'), 'subjectRef'],
        [() => c.postFeed({ scope: 'everyone' as never }), 'scope'],
        [() => c.postFeed({ sort: 'hot' as never }), 'sort'],
        [() => c.posts('market' as SubjectType, market), 'subjectType'],
        [() => c.createPost('thing' as SubjectType, 'x', 'hello'), 'subjectType'],
        [() => c.createPost('event', market, '   '), 'body'],
        [() => c.createPost('event', market, '\u200b\u200d\ufeff'), 'body'],
        [() => c.editPost('p_0000000000aa', ''), 'body'],
        [() => c.editPost('p_0000000000aa', ' \u2060 '), 'body'],
        [() => c.reportPost('p_0000000000aa', ''), 'reason'],
        [() => c.reportPost('p_0000000000aa', '\u3164'), 'reason'],
        [() => c.leaderboard({ type: 'planet' as never, ref: 'x' }), 'scope'],
        [() => c.records([market], null), 'wallets'],
        // A node key is a string: not read as the text "undefined" or "123".
        [() => c.posts('topic', undefined as never), 'subjectRef'],
        [() => c.createPost('category', 123 as never, 'hello'), 'subjectRef'],
        [() => c.records([h.wallet().wallet], { type: 'category', ref: undefined as never }), 'facet'],
        [() => c.auth.signIn({ address: '0x1', signMessage: () => '' }), 'address'],
      ]
      for (const [call, argument] of cases) {
        const p = call()
        ok(p instanceof Promise, `a rejected promise, not a synchronous throw (${argument})`)
        const e = await rejects<ValidationError>(p as Promise<unknown>, { type: ValidationError, argument })
        ok(e.message.startsWith(argument), `message names ${argument}: ${e.message}`)
      }
      // onComments returns its unsubscribe, so it throws synchronously.
      await rejects<ValidationError>(() => c.onComments('event', 'x', () => {}), { type: ValidationError, argument: 'subjectRef' })
      await rejects<ValidationError>(() => c.onComments('topic', undefined as never, () => {}), { type: ValidationError, argument: 'subjectRef' })
      eq(f.urls.length, before, 'no request made')
    },
  },
  {
    name: '§4.2 "Rooms default to \'self\'" and §2.10 "Tabs/state filter: Open and Actioned": a room parameter that is neither \'self\' nor a room id (posts, postFeed, forYou, createPost, rooms.membership / board / join / leave, onComments) and a mod.queue state other than open or actioned throw a ValidationError (code validation) naming it — "room must be a room id or \'self\'", "state must be one of open, actioned" — before any request',
    async run(h) {
      const f = countingFetch(h.env.fetchImpl)
      const c = h.client({ fetchImpl: f })
      await c.auth.signIn(h.wallet())
      const before = f.urls.length
      const market = `0x${'ab'.repeat(32)}`
      try {
        for (const room of ['', 'SELF', 'self ', 'r_', 'R_abc', 'room-1', 'r_abc/../x', '../r_abc']) {
          const calls: [string, () => unknown][] = [
            ['posts', () => c.posts('event', market, { room })],
            ['postFeed', () => c.postFeed({ room })],
            ['forYou', () => c.forYou({ room })],
            ['createPost', () => c.createPost('event', market, 'hello', null, { room })],
            ['rooms.membership', () => c.rooms.membership(room)],
            ['rooms.board', () => c.rooms.board(room)],
            ['rooms.join', () => c.rooms.join(room)],
            ['rooms.leave', () => c.rooms.leave(room)],
          ]
          for (const [op, call] of calls) {
            const p = call()
            ok(p instanceof Promise, `${op}: a rejected promise, not a synchronous throw`)
            await rejects<ValidationError>(p as Promise<unknown>, { type: ValidationError, code: 'validation', argument: 'room', message: "room must be a room id or 'self'" })
          }
          // onComments returns its unsubscribe, so it throws synchronously.
          await rejects<ValidationError>(() => c.onComments('event', market, () => {}, { room }), { type: ValidationError, code: 'validation', argument: 'room', message: "room must be a room id or 'self'" })
        }
        for (const state of ['', 'OPEN', 'closed', 'all', 'hidden']) {
          const p = c.mod.queue({ state: state as never })
          ok(p instanceof Promise, 'mod.queue: a rejected promise, not a synchronous throw')
          await rejects<ValidationError>(p, { type: ValidationError, code: 'validation', argument: 'state', message: 'state must be one of open, actioned' })
        }
      } finally {
        c.close() // a socket an unchecked room would have opened
      }
      eq(f.urls.length, before, 'no request made')
    },
  },
]

