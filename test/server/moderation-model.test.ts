/**
 * Model-based audit of the venue and moderation state machines (§2.10, §2.11, §3.1, §4.1 rule 5, §5.3–5.7, §7;
 * docs/ARCHITECTURE.md "Moderation", "Venue keys", "The request's venue").
 *
 * fast-check generates random sequences of reports (by several accounts, up to the threshold), venue actions by the
 * owner (or an operator with `venueId`), platform actions by an operator, venue and global bans and unbans, author
 * edits, deletes, new posts and replies, key mints, rotations and revocations, origin lists and refused requests;
 * each is sent to the real HTTP service. A small model says what every reader must see. After every step the test
 * reads: the market's thread (author, another user, signed out; no `venue`, `venue=` the venue, `venue=` another
 * venue; and with the venue's live key), the ranked subject feed, the author's profile, the take counts (public,
 * identical for every reader), the venue's and the platform's queues (open and actioned), both audit logs and the
 * venue's metered usage; and compares each with the model.
 *
 * The model (one run: venue V with its owner, a post author A signed in on V, a replier B, shared reporters and
 * reader, an untouched venue W, one operator):
 * - post state: visible → hidden (threshold of unsettled platform reports) → visible (platform keep / restore);
 *   any → removed (platform hide / remove) → visible (platform restore only); deleted is final. Per venue a
 *   hide flag (venue hide / restore / keep). Pinned is a flag (never visibility).
 * - who sees a post: deleted: nobody; not visible: its author only, on the thread and profile (never the feed);
 *   under `venue=V`: not hidden on V and its author not banned on V, else its author only. A reply goes with its
 *   parent (counts: only while its parent is shown under the same overlay).
 * - a report per (post, reporter): its venue (the key's venue, or none), settled for the venue, settled for the
 *   platform. It is new to a queue when first made or when that queue settled it; a repeat new to no queue is a
 *   no-op. The platform's count (`report_count`) is its unsettled reports.
 * - a queue item per (scope, post): open when a report new to the scope arrives, actioned by any action naming
 *   the post at that scope (created if absent). Deleted posts leave the queues.
 * - bans per scope: a venue ban refuses posts and edits from sessions on the venue and drops the author's posts
 *   under `venue=V`; a global ban refuses posting everywhere; neither ever blocks a read.
 * - the audit log: one row per accepted action, at its scope (ARCHITECTURE: "Each action runs in one transaction
 *   with its audit row"; a no-op action is recorded too, see moderation.test.ts "every action is recorded").
 * - keys: minted (201, `pck_` + 64 hex, shown once), revoked (directly in the store: the service has no
 *   revocation route); a revoked key reads without an overlay (`X-Venue-Key-Status: refused`) and is refused on
 *   every write (401 invalid-venue-key: a post, a report, an agree, a delete, a moderation action); usage counts
 *   every request with a live key (reads: GET, writes: the rest).
 * - origins: a keyed request from an origin not on a non-empty list is 403 origin-not-allowed (not metered).
 *
 * Env: VK_MODEL_RUNS (default 22), VK_MODEL_SEED (default fixed), VK_MODEL_SHRINK=1 (shrink a failure: slower).
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import { MSG } from '../../src/contract/errors.ts'
import { LIMITS } from '../../src/contract/limits.ts'
import { addMarket, call, expectError, signIn, startWithOperator, type CallResult, type TestService, type TestUser } from '../helpers/service.ts'
import { claimVenue, type Venue } from '../helpers/venues.ts'
import { sha256 } from '../../src/server/auth/tokens.ts'

const RUNS = Number(process.env.VK_MODEL_RUNS ?? 22)
const SEED = Number(process.env.VK_MODEL_SEED ?? 20261127)
const SHRINK = process.env.VK_MODEL_SHRINK === '1'
const THRESHOLD = LIMITS.reportThreshold
const NOT_FOUND = 'no post with this id'
const PARENT_MISSING = 'the post you reply to does not exist'

let svc: TestService
let operator: TestUser
let reader: TestUser
let reporters: TestUser[]
let W: Venue
before(async () => {
  ;({ svc, operator } = await startWithOperator())
  reader = await signIn(svc)
  reporters = []
  for (let i = 0; i <= THRESHOLD; i++) reporters.push(await signIn(svc))
  W = await claimVenue(svc)
})
after(() => svc.close())

// ---------------------------------------------------------------------------------------------------
// The model

type Who = 'A' | 'B'
type PState = 'visible' | 'hidden' | 'removed'
interface MPost {
  id: string
  author: Who
  parent: string | null
  stance: boolean
  /** In V's public self room (a venue pins only posts in its own rooms; a report of it goes to V's queue). */
  room: boolean
  deleted: boolean
  state: PState
  pinned: boolean
  vHidden: boolean
  body: string
}
interface MReport {
  venue: 'V' | null
  vSettled: boolean
  pSettled: boolean
}
interface MKey {
  key: string
  live: boolean
}
interface Model {
  posts: MPost[]
  reports: Map<string, Map<number, MReport>>
  items: { P: Map<string, 'open' | 'actioned'>; V: Map<string, 'open' | 'actioned'> }
  last: { P: Map<string, string>; V: Map<string, string> }
  bans: { P: Set<Who>; V: Set<Who> }
  audit: { P: number; V: number }
  lastAudit: { P?: AuditExpect; V?: AuditExpect }
  keys: MKey[]
  origins: string[]
  usage: { reads: number; writes: number }
}
interface AuditExpect {
  action: string
  actor: string
  postId: string | null
  target: string | null
}

interface Run {
  V: Venue
  A: TestUser
  B: TestUser
  market: string
  m: Model
  log: string[]
  noopAudits: string[]
  /** States this run reached (coverage, printed at the end). */
  reached: Set<string>
}

const wallet = (r: Run, who: Who) => (who === 'A' ? r.A.wallet : r.B.wallet)
const user = (r: Run, who: Who) => (who === 'A' ? r.A : r.B)
const postOf = (r: Run, id: string) => r.m.posts.find((p) => p.id === id)!
const liveKey = (r: Run) => [...r.m.keys].reverse().find((k) => k.live)!.key

/** One HTTP call; a live key of V is metered (reads: GET, writes: the rest). */
async function req(r: Run, method: string, path: string, opts: { body?: unknown; token?: string; key?: string; headers?: Record<string, string>; metered?: boolean } = {}) {
  const res = await call(svc, method, path, opts)
  if (opts.key && opts.metered !== false && r.m.keys.some((k) => k.key === opts.key && k.live)) r.m.usage[method === 'GET' ? 'reads' : 'writes']++
  return res
}

function overlayHides(r: Run, p: MPost, overlay: 'V' | 'W' | null) {
  return overlay === 'V' && (p.vHidden || r.m.bans.V.has(p.author))
}
/** Whether `reader` sees post `p` under `overlay` (visibleTo): own hidden posts only where `ownHidden`. */
function sees(r: Run, p: MPost, reader: Who | 'R' | null, overlay: 'V' | 'W' | null, ownHidden: boolean) {
  if (p.deleted) return false
  const own = ownHidden && reader === p.author
  if (p.state !== 'visible' && !own) return false
  if (overlayHides(r, p, overlay) && !own) return false
  return true
}
const hiddenFlag = (r: Run, p: MPost, reader: Who | 'R' | null, overlay: 'V' | 'W' | null) =>
  reader === p.author && (p.state !== 'visible' || overlayHides(r, p, overlay))

type Row = { id: string; hidden?: true; pinned?: true; body: string }
const rowOf = (r: Run, p: MPost, reader: Who | 'R' | null, overlay: 'V' | 'W' | null): Row => ({
  id: p.id,
  ...(hiddenFlag(r, p, reader, overlay) ? { hidden: true as const } : {}),
  ...(p.pinned ? { pinned: true as const } : {}),
  body: p.body,
})
const seen = (x: { id: string; hidden?: boolean; pinned?: boolean; body: string }): Row => ({
  id: x.id,
  ...(x.hidden ? { hidden: true as const } : {}),
  ...(x.pinned ? { pinned: true as const } : {}),
  body: x.body,
})

function expectedThread(r: Run, reader: Who | 'R' | null, overlay: 'V' | 'W' | null) {
  const top = r.m.posts.filter((p) => !p.parent && sees(r, p, reader, overlay, true)).sort((a, b) => (a.id < b.id ? 1 : -1))
  const threads: Record<string, Row[]> = {}
  for (const p of top) {
    const replies = r.m.posts.filter((x) => x.parent === p.id && sees(r, x, reader, overlay, true)).sort((a, b) => (a.id < b.id ? -1 : 1))
    if (replies.length) threads[p.id] = replies.map((x) => rowOf(r, x, reader, overlay))
  }
  return { posts: top.map((p) => rowOf(r, p, reader, overlay)), threads }
}

function expectedFeed(r: Run, overlay: 'V' | 'W' | null) {
  const top = r.m.posts.filter((p) => !p.parent && sees(r, p, null, overlay, false))
  const threads: Record<string, string[]> = {}
  for (const p of top) {
    const replies = r.m.posts.filter((x) => x.parent === p.id && sees(r, x, null, overlay, false)).map((x) => x.id).sort()
    if (replies.length) threads[p.id] = replies
  }
  return { posts: top.map((p) => p.id).sort(), threads }
}

function expectedCounts(r: Run, overlay: 'V' | 'W' | null) {
  const counted = r.m.posts.filter((p) => {
    if (!sees(r, p, null, overlay, false)) return false
    if (!p.parent) return true
    return sees(r, postOf(r, p.parent), null, overlay, false)
  })
  const takes = counted.filter((p) => p.stance).length
  return { posts: counted.length, takes, bySide: takes ? { '0': takes } : {} }
}

const reportsOf = (r: Run, id: string) => [...(r.m.reports.get(id)?.values() ?? [])]
const platformReports = (r: Run, id: string) => reportsOf(r, id).filter((x) => !x.pSettled).length
const venueReports = (r: Run, id: string) => reportsOf(r, id).filter((x) => x.venue === 'V' && !x.vSettled).length

// ---------------------------------------------------------------------------------------------------
// Checks after every step

function sameAs(actual: unknown, expected: unknown, what: string, r: Run) {
  assert.deepEqual(actual, expected, `${what}\nsteps:\n  ${r.log.join('\n  ')}`)
}

async function checkAll(r: Run) {
  for (const p of r.m.posts) {
    if (p.state !== 'visible' && !p.deleted) r.reached.add(p.state)
    if (p.vHidden && !p.deleted) r.reached.add('venue-hidden')
    if (p.pinned && !p.deleted) r.reached.add(p.room ? 'pinned-room' : 'pinned')
    if (p.deleted) r.reached.add('deleted')
    if (p.parent && !p.deleted && postOf(r, p.parent).state !== 'visible') r.reached.add('reply-under-hidden')
  }
  if (r.m.bans.V.size) r.reached.add('venue-ban')
  if (r.m.bans.P.size) r.reached.add('global-ban')
  if (r.m.keys.some((k) => !k.live)) r.reached.add('key-revoked')
  if (r.m.origins.length) r.reached.add('origins')
  const q = `subjectType=event&subjectRef=${r.market}`
  const readers: [Who | 'R' | null, string | undefined][] = [
    ['A', r.A.token],
    ['R', reader.token],
    [null, undefined],
  ]
  const overlays: ['V' | 'W' | null, string][] = [
    [null, ''],
    ['V', `&venue=${r.V.venueId}`],
    ['W', `&venue=${W.venueId}`],
  ]
  // The thread: 3 readers × 3 overlays, plus V's live key without `venue` (§5.3 "It scopes reads to the venue").
  const threadReads = [
    ...readers.flatMap(([who, token]) => overlays.map(([o, qs]) => ({ who, token, o, qs }))),
    // B, the replier: its own hidden replies, under its parent when the parent is shown to B.
    ...overlays.slice(0, 2).map(([o, qs]) => ({ who: 'B' as const, token: r.B.token, o, qs })),
  ]
  const threads = await Promise.all(threadReads.map((t) => req(r, 'GET', `/v1/social/posts?${q}${t.qs}`, { token: t.token })))
  threadReads.forEach((t, i) => {
    const res = threads[i]
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const got = {
      posts: res.body.posts.map(seen),
      threads: Object.fromEntries(Object.entries(res.body.threads as Record<string, Row[]>).map(([k, v]) => [k, v.map(seen)])),
    }
    sameAs(got, expectedThread(r, t.who, t.o), `thread read by ${t.who ?? 'signed out'} with venue=${t.o ?? '(none)'}`, r)
  })
  const keyed = await req(r, 'GET', `/v1/social/posts?${q}`, { token: reader.token, key: liveKey(r) })
  assert.equal(keyed.headers.get('x-venue-key-status'), null)
  sameAs({ posts: keyed.body.posts.map(seen) }, { posts: expectedThread(r, 'R', 'V').posts }, "thread read with V's live key (no venue=)", r)

  // The ranked feed (subject scope on the market): visible posts only, the author's own hidden ones too.
  const feedReads: [Who | 'R' | null, string | undefined, 'V' | 'W' | null, string][] = [
    [null, undefined, null, ''],
    [null, undefined, 'V', `&venue=${r.V.venueId}`],
    ['A', r.A.token, null, ''],
  ]
  const feeds = await Promise.all(feedReads.map(([, token, , qs]) => req(r, 'GET', `/v1/social/posts/feed?scope=subject&${q}&limit=100${qs}`, { token })))
  feedReads.forEach(([who, , o], i) => {
    const res = feeds[i]
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const got = {
      posts: res.body.posts.map((p: { id: string }) => p.id).sort(),
      threads: Object.fromEntries(Object.entries(res.body.threads as Record<string, { id: string }[]>).map(([k, v]) => [k, v.map((x) => x.id).sort()])),
    }
    sameAs(got, expectedFeed(r, o), `feed read by ${who ?? 'signed out'} with venue=${o ?? '(none)'}`, r)
  })

  // The author's profile (Discussion tab: every post, no replies).
  const profReads: [Who | 'R' | null, string | undefined, 'V' | 'W' | null, string][] = [
    ['A', r.A.token, null, ''],
    ['A', r.A.token, 'V', `&venue=${r.V.venueId}`],
    [null, undefined, null, ''],
    [null, undefined, 'V', `&venue=${r.V.venueId}`],
  ]
  const profs = await Promise.all(profReads.map(([, token, , qs]) => req(r, 'GET', `/v1/social/profile/${r.A.wallet}/posts?takes=false&limit=100${qs}`, { token })))
  profReads.forEach(([who, , o], i) => {
    const res = profs[i]
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const want = r.m.posts
      .filter((p) => p.author === 'A' && !p.parent && sees(r, p, who, o, true))
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .map((p) => rowOf(r, p, who, o))
    sameAs(res.body.posts.map(seen), want, `A's profile read by ${who ?? 'signed out'} with venue=${o ?? '(none)'}`, r)
  })

  // B's profile with replies (§2.4, ARCHITECTURE "Profile"): a reply whose parent is gone (deleted, hidden, removed,
  // or under the overlay hidden on the venue or by an author it banned) is shown only to its author, marked hidden.
  const parentGone = (x: MPost, o: 'V' | 'W' | null) => {
    const parent = postOf(r, x.parent!)
    return parent.deleted || parent.state !== 'visible' || overlayHides(r, parent, o)
  }
  const bReads: [Who | 'R' | null, string | undefined, 'V' | 'W' | null, string][] = [
    ['B', r.B.token, null, ''],
    ['B', r.B.token, 'V', `&venue=${r.V.venueId}`],
    [null, undefined, null, ''],
    [null, undefined, 'V', `&venue=${r.V.venueId}`],
  ]
  const bProfs = await Promise.all(bReads.map(([, token, , qs]) => req(r, 'GET', `/v1/social/profile/${r.B.wallet}/posts?takes=false&includeReplies=true&limit=100${qs}`, { token })))
  bReads.forEach(([who, , o], i) => {
    const res = bProfs[i]
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const want = r.m.posts
      .filter((x) => x.author === 'B' && sees(r, x, who, o, true) && (who === 'B' || !parentGone(x, o)))
      .sort((a, b) => (a.id < b.id ? 1 : -1))
      .map((x) => {
        const row = rowOf(r, x, who, o)
        return who === 'B' && parentGone(x, o) ? seen({ ...row, hidden: true }) : row
      })
    sameAs(res.body.posts.map(seen), want, `B's profile with replies read by ${who ?? 'signed out'} with venue=${o ?? '(none)'}`, r)
  })

  // Take counts: public, identical for every reader (§2.6); `venue` applies the overlay.
  const countReads: [string | undefined, 'V' | 'W' | null, string, string | undefined][] = [
    [undefined, null, '', undefined],
    [r.A.token, null, '', undefined],
    [reader.token, null, '', undefined],
    [undefined, 'V', `&venue=${r.V.venueId}`, undefined],
    [r.A.token, 'W', `&venue=${W.venueId}`, undefined],
    [undefined, 'V', '', liveKey(r)],
  ]
  const counts = await Promise.all(countReads.map(([token, , qs, key]) => req(r, 'GET', `/v1/social/take-counts?ids=${r.market}${qs}`, { token, key })))
  countReads.forEach(([token, o, , key], i) => {
    const res = counts[i]
    assert.equal(res.status, 200, JSON.stringify(res.body))
    sameAs(res.body.counts[r.market], expectedCounts(r, o), `take counts (${token ? 'signed in' : 'signed out'}, venue=${o ?? '(none)'}${key ? ', keyed' : ''})`, r)
  })

  // Queues: the venue's (owner) and the platform's (operator), open and actioned.
  const ids = new Set(r.m.posts.map((p) => p.id))
  const queueReads: ['V' | 'P', 'open' | 'actioned'][] = [
    ['V', 'open'],
    ['V', 'actioned'],
    ['P', 'open'],
    ['P', 'actioned'],
  ]
  const queues = await Promise.all(
    queueReads.map(([scope, state]) =>
      scope === 'V'
        ? req(r, 'GET', `/v1/mod/queue?venueId=${r.V.venueId}&state=${state}&limit=100`, { token: r.V.owner.token })
        : req(r, 'GET', `/v1/mod/queue?state=${state}&limit=100`, { token: operator.token }),
    ),
  )
  queueReads.forEach(([scope, state], i) => {
    const res = queues[i]
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const got = (res.body.items as any[])
      .filter((it) => ids.has(it.post.id))
      .map((it) => ({
        id: it.post.id,
        state: it.state,
        reports: it.reports,
        thresholdHidden: it.thresholdHidden,
        hiddenHere: it.hiddenHere,
        postState: it.postState,
        authorBanned: it.authorBanned,
        lastAction: it.lastAction?.action ?? null,
      }))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
    const want = r.m.posts
      .filter((p) => !p.deleted && r.m.items[scope].get(p.id) === state)
      .map((p) => ({
        id: p.id,
        state,
        reports: scope === 'V' ? venueReports(r, p.id) : platformReports(r, p.id),
        thresholdHidden: p.state === 'hidden',
        hiddenHere: scope === 'V' ? p.vHidden : p.state !== 'visible',
        postState: p.state,
        authorBanned: r.m.bans[scope].has(p.author),
        lastAction: r.m.last[scope].get(p.id) ?? null,
      }))
      .sort((a, b) => (a.id < b.id ? -1 : 1))
    sameAs(got, want, `${scope === 'V' ? "the venue's" : "the platform's"} ${state} queue`, r)
  })

  // Audit logs: one row per accepted action at its scope; the newest says who did what to whom.
  const [va, pa] = await Promise.all([
    req(r, 'GET', `/v1/mod/audit?venueId=${r.V.venueId}&limit=100`, { token: r.V.owner.token }),
    req(r, 'GET', '/v1/mod/audit?limit=100', { token: operator.token }),
  ])
  assert.equal(va.status, 200)
  assert.equal(pa.status, 200)
  const mine = (e: { postId: string | null; target: string | null }) => (e.postId && ids.has(e.postId)) || e.target === r.A.wallet || e.target === r.B.wallet
  const vEntries = va.body.entries as any[]
  const pEntries = (pa.body.entries as any[]).filter(mine)
  sameAs(vEntries.length, r.m.audit.V, "the venue's audit log: one row per action", r)
  sameAs(pEntries.length, r.m.audit.P, "the platform's audit log: one row per action", r)
  for (const [scope, entries] of [['V', vEntries], ['P', pEntries]] as const) {
    const want = r.m.lastAudit[scope]
    if (want) {
      const e = entries[0]
      sameAs({ action: e.action, actor: e.actor, postId: e.postId, target: e.target, venueId: e.venueId }, { ...want, venueId: scope === 'V' ? r.V.venueId : null }, `newest ${scope} audit entry`, r)
    }
  }

  // Usage: every request with a live key of V, counted per kind (the usage read itself is keyless).
  const u = await req(r, 'GET', `/v1/venues/${r.V.venueId}/usage`, { token: r.V.owner.token })
  assert.equal(u.status, 200)
  sameAs({ reads: u.body.days[0]?.reads ?? 0, writes: u.body.days[0]?.writes ?? 0 }, r.m.usage, "V's metered usage", r)
}

// ---------------------------------------------------------------------------------------------------
// Steps

const VENUE_ACTIONS = ['hide', 'restore', 'keep', 'clear', 'pin', 'unpin'] as const
const PLATFORM_ACTIONS = ['hide', 'remove', 'restore', 'keep', 'clear', 'pin', 'unpin'] as const

type Step =
  | { t: 'report'; who: number; post: number; viaKey: boolean }
  | { t: 'reportBurst'; post: number; viaKey: boolean }
  | { t: 'venue'; action: (typeof VENUE_ACTIONS)[number]; post: number; byOperator: boolean }
  | { t: 'platform'; action: (typeof PLATFORM_ACTIONS)[number]; post: number }
  | { t: 'ban'; scope: 'V' | 'P'; ban: boolean; byPost: boolean; post: number; target: Who; byOperator: boolean }
  | { t: 'edit'; post: number }
  | { t: 'delete'; post: number }
  | { t: 'write'; inRoom: boolean }
  | { t: 'reply'; post: number; viaKey: boolean }
  | { t: 'mintKey' }
  | { t: 'revokeKey' }
  | { t: 'origins'; list: number }
  | { t: 'refused'; kind: number }

/** One of `xs`, some more often than others (weight 1 unless named). */
const weighted = <T extends string>(xs: readonly T[], w: Partial<Record<T, number>>) => fc.oneof(...xs.map((x) => ({ weight: w[x] ?? 1, arbitrary: fc.constant(x) })))
/** Steps aim at the first two posts half of the time, so actions meet on the same post. */
const postIx = fc.oneof(fc.constant(0), fc.constant(1), fc.nat(9))
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ t: fc.constant('reportBurst' as const), post: postIx, viaKey: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('report' as const), who: fc.nat(THRESHOLD), post: postIx, viaKey: fc.boolean() }) },
  {
    weight: 8,
    arbitrary: fc.record({ t: fc.constant('venue' as const), action: weighted(VENUE_ACTIONS, { hide: 3, keep: 2 }), post: postIx, byOperator: fc.boolean() }),
  },
  {
    weight: 6,
    arbitrary: fc.record({ t: fc.constant('platform' as const), action: weighted(PLATFORM_ACTIONS, { remove: 2, restore: 2, keep: 2 }), post: postIx }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('ban' as const),
      scope: fc.constantFrom<'V' | 'P'>('V', 'P'),
      ban: fc.boolean(),
      byPost: fc.boolean(),
      post: postIx,
      target: fc.constantFrom<Who>('A', 'B'),
      byOperator: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('edit' as const), post: postIx }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('delete' as const), post: postIx }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('write' as const), inRoom: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('reply' as const), post: postIx, viaKey: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('mintKey' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('revokeKey' as const) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('origins' as const), list: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('refused' as const), kind: fc.nat(7) }) },
)

const snapshot = (m: Model) => JSON.stringify(m, (_k, v) => (v instanceof Map ? [...v] : v instanceof Set ? [...v] : v))
const nth = <T>(xs: T[], i: number) => xs[i % xs.length]
const ORIGINS = [[], ['https://shop.example'], ['https://shop.example', 'http://localhost:5173'], ['http://localhost:5173']]

const act = (r: Run, who: TestUser | undefined, action: string, body: Record<string, unknown>) => req(r, 'POST', `/v1/mod/${action}`, { token: who?.token, body })

function touchItem(r: Run, scope: 'P' | 'V', id: string, action: string) {
  r.m.items[scope].set(id, 'actioned')
  r.m.last[scope].set(id, action)
}
function audited(r: Run, scope: 'P' | 'V', e: AuditExpect, changed: boolean) {
  r.m.audit[scope]++
  r.m.lastAudit[scope] = e
  if (!changed) r.noopAudits.push(`${scope} ${e.action}`)
}

/** The mod action's answer: the new state read back (§4.2 "Moderation writes are not optimistic"). */
function checkAnswer(r: Run, res: CallResult, scope: 'P' | 'V', p: MPost, action: string) {
  assert.equal(res.status, 200, `${action}: ${JSON.stringify(res.body)}`)
  sameAs(
    res.body.post,
    { state: p.state, hiddenHere: scope === 'V' ? p.vHidden : false, pinned: p.pinned, reports: scope === 'V' ? venueReports(r, p.id) : platformReports(r, p.id) },
    `${action}'s answer`,
    r,
  )
  sameAs(res.body.item, { state: 'actioned' }, `${action}'s item`, r)
}

async function apply(r: Run, s: Step) {
  const m = r.m
  const alive = m.posts
  switch (s.t) {
    case 'report': {
      const p = nth(alive, s.post)
      const who = reporters[s.who]
      const key = s.viaKey ? liveKey(r) : undefined
      r.log.push(`report ${p.id} by reporter ${s.who}${key ? ' with V key' : ''}`)
      const res = await req(r, 'POST', `/v1/social/posts/${p.id}/reports`, { token: who.token, key, body: { reason: `reason ${s.who}` } })
      if (p.deleted) return expectError(res, 404, 'post-not-found', NOT_FOUND)
      assert.equal(res.status, 200, JSON.stringify(res.body))
      const reps = m.reports.get(p.id) ?? new Map<number, MReport>()
      m.reports.set(p.id, reps)
      const had = reps.get(s.who)
      // The room's venue, else the venue the report is made on (its key's).
      const queueVenue: 'V' | null = p.room || key ? 'V' : null
      const forPlatform = !had || had.pSettled
      const forVenue = !had || had.vSettled || (had.venue === null && queueVenue !== null)
      if (!forPlatform && !forVenue) return
      const venue = forVenue ? queueVenue : had!.venue
      reps.set(s.who, { venue, vSettled: false, pSettled: false })
      if (forPlatform) {
        if (platformReports(r, p.id) >= THRESHOLD && p.state === 'visible') p.state = 'hidden'
        m.items.P.set(p.id, 'open')
      }
      if (forVenue && venue) {
        m.items.V.set(p.id, 'open')
      }
      return
    }
    case 'reportBurst': {
      // The threshold's worth of distinct reporters, one after the other.
      for (let who = 0; who < THRESHOLD; who++) await apply(r, { t: 'report', who, post: s.post, viaKey: s.viaKey })
      return
    }
    case 'venue': {
      const p = nth(alive, s.post)
      const actor = s.byOperator ? operator : r.V.owner
      const action = s.action === 'unpin' ? 'pin' : s.action
      r.log.push(`venue ${s.action} ${p.id} by ${s.byOperator ? 'operator' : 'owner'}`)
      const res = await act(r, actor, action, { venueId: r.V.venueId, postId: p.id, ...(s.action === 'unpin' ? { pinned: false } : {}) })
      if (p.deleted) return expectError(res, 404, 'post-not-found', NOT_FOUND)
      if (action === 'pin' && !p.room) return expectError(res, 403, 'forbidden', 'a venue pins only posts in its own rooms')
      let changed = false
      if (action === 'pin') {
        changed = s.action === 'pin' || p.pinned
        p.pinned = s.action === 'pin'
      }
      if (s.action === 'keep' || s.action === 'clear') {
        for (const x of reportsOf(r, p.id)) if (x.venue === 'V' && !x.vSettled) x.vSettled = true
      }
      if (s.action === 'hide') {
        changed = !p.vHidden
        p.vHidden = true
      }
      if (s.action === 'restore' || s.action === 'keep') {
        changed = p.vHidden
        p.vHidden = false
      }
      if (s.action === 'clear' || s.action === 'keep') changed = changed || m.items.V.get(p.id) !== 'actioned'
      touchItem(r, 'V', p.id, action)
      audited(r, 'V', { action, actor: actor.wallet, postId: p.id, target: wallet(r, p.author) }, changed)
      return checkAnswer(r, res, 'V', p, `venue ${s.action}`)
    }
    case 'platform': {
      const p = nth(alive, s.post)
      const action = s.action === 'unpin' ? 'pin' : s.action
      r.log.push(`platform ${s.action} ${p.id}`)
      const res = await act(r, operator, action, { postId: p.id, ...(s.action === 'unpin' ? { pinned: false } : {}) })
      if (p.deleted) return expectError(res, 404, 'post-not-found', NOT_FOUND)
      let changed = false
      const before = JSON.stringify(p)
      if (s.action === 'keep' || s.action === 'clear') {
        changed = m.items.P.get(p.id) !== 'actioned'
        for (const x of reportsOf(r, p.id)) x.pSettled = true
      }
      if (s.action === 'keep' && p.state === 'hidden') p.state = 'visible'
      if (s.action === 'hide' || s.action === 'remove') p.state = 'removed'
      if (s.action === 'restore') p.state = 'visible'
      if (s.action === 'pin') p.pinned = true
      if (s.action === 'unpin') p.pinned = false
      changed = changed || JSON.stringify(p) !== before || s.action === 'pin'
      touchItem(r, 'P', p.id, action)
      audited(r, 'P', { action, actor: operator.wallet, postId: p.id, target: wallet(r, p.author) }, changed)
      return checkAnswer(r, res, 'P', p, `platform ${s.action}`)
    }
    case 'ban': {
      const p = nth(alive, s.post)
      const target: Who = s.byPost ? p.author : s.target
      const actor = s.scope === 'P' || s.byOperator ? operator : r.V.owner
      const action = s.ban ? 'ban' : 'unban'
      r.log.push(`${s.scope === 'V' ? 'venue' : 'global'} ${action} ${s.byPost ? `author of ${p.id}` : target} by ${actor === operator ? 'operator' : 'owner'}`)
      const body = { ...(s.scope === 'V' ? { venueId: r.V.venueId } : {}), ...(s.byPost ? { postId: p.id } : { wallet: wallet(r, target) }) }
      const res = await act(r, actor, action, body)
      if (s.byPost && p.deleted) return expectError(res, 404, 'post-not-found', NOT_FOUND)
      assert.equal(res.status, 200, JSON.stringify(res.body))
      const set = m.bans[s.scope]
      const changed = s.ban ? !set.has(target) : set.has(target)
      if (s.ban) set.add(target)
      else set.delete(target)
      sameAs(res.body.ban, { wallet: wallet(r, target), scope: s.scope === 'V' ? r.V.venueId : '*', banned: s.ban }, `${action}'s answer`, r)
      if (s.byPost) {
        touchItem(r, s.scope, p.id, action)
        sameAs(res.body.item, { state: 'actioned' }, `${action}'s item`, r)
      }
      audited(r, s.scope, { action, actor: actor.wallet, postId: s.byPost ? p.id : null, target: wallet(r, target) }, changed)
      return
    }
    case 'edit': {
      const p = nth(alive, s.post)
      const body = `edited ${r.log.length}`
      r.log.push(`edit ${p.id} by its author ${p.author}`)
      const res = await req(r, 'PATCH', `/v1/social/posts/${p.id}`, { token: user(r, p.author).token, body: { body } })
      if (p.deleted) return expectError(res, 404, 'post-not-found', NOT_FOUND)
      if (m.bans.P.has(p.author)) return expectError(res, 403, 'banned', 'you are banned from posting')
      // A signed in on V: a ban on V refuses the edit; B signed in on no venue.
      if (p.author === 'A' && m.bans.V.has('A')) return expectError(res, 403, 'banned', 'you are banned from posting on this venue')
      if (p.state === 'hidden') return expectError(res, 403, 'forbidden', 'this post is under review; it cannot be edited until a moderator has reviewed it')
      if (p.state === 'removed') return expectError(res, 403, 'forbidden', 'this post was removed by a moderator; it cannot be edited')
      assert.equal(res.status, 200, JSON.stringify(res.body))
      p.body = body
      return
    }
    case 'delete': {
      const p = nth(alive, s.post)
      r.log.push(`delete ${p.id} by its author ${p.author}`)
      const res = await req(r, 'DELETE', `/v1/social/posts/${p.id}`, { token: user(r, p.author).token })
      if (p.deleted) return expectError(res, 404, 'post-not-found', NOT_FOUND)
      assert.equal(res.status, 200, JSON.stringify(res.body))
      p.deleted = true
      return
    }
    case 'write': {
      if (m.posts.length >= 7) return
      r.log.push(`A writes a post${s.inRoom ? " in V's room" : ''}`)
      const res = await req(r, 'POST', '/v1/social/posts', {
        token: r.A.token,
        body: { subjectType: 'event', subjectRef: r.market, body: `take ${r.log.length}`, ...(s.inRoom ? { room: r.V.selfRoomId } : {}) },
      })
      if (m.bans.P.has('A')) return expectError(res, 403, 'banned', 'you are banned from posting')
      if (m.bans.V.has('A')) return expectError(res, 403, 'banned', 'you are banned from posting on this venue')
      assert.equal(res.status, 201, JSON.stringify(res.body))
      assert.ok(res.body.post.stance, 'A holds a position: a take')
      assert.equal(res.body.post.roomId, s.inRoom ? r.V.selfRoomId : null)
      m.posts.push({ id: res.body.post.id, author: 'A', parent: null, stance: true, room: s.inRoom, deleted: false, state: 'visible', pinned: false, vHidden: false, body: res.body.post.body })
      return
    }
    case 'reply': {
      if (m.posts.length >= 7) return
      const tops = alive.filter((p) => !p.parent)
      const p = nth(tops, s.post)
      const key = s.viaKey ? liveKey(r) : undefined
      r.log.push(`B replies to ${p.id}${key ? ' with V key' : ''}`)
      const res = await req(r, 'POST', '/v1/social/posts', { token: r.B.token, key, body: { subjectType: 'event', subjectRef: r.market, parentId: p.id, body: `reply ${r.log.length}` } })
      if (m.bans.P.has('B')) return expectError(res, 403, 'banned', 'you are banned from posting')
      // The key binds the venue (§5.3): a ban on V refuses the reply before anything else.
      if (key && m.bans.V.has('B')) return expectError(res, 403, 'banned', 'you are banned from posting on this venue')
      if (p.deleted || (p.state !== 'visible' && p.author !== 'B')) return expectError(res, 404, 'post-not-found', PARENT_MISSING)
      // A reply goes into its parent's room under the room's rules: B is no member of V's room (§7).
      if (p.room && m.bans.V.has('B')) return expectError(res, 403, 'banned', 'you are banned from posting on this venue')
      if (p.room) return expectError(res, 403, 'room-join-required', MSG.JOIN_TO_POST)
      assert.equal(res.status, 201, JSON.stringify(res.body))
      m.posts.push({ id: res.body.post.id, author: 'B', parent: p.id, stance: false, room: false, deleted: false, state: 'visible', pinned: false, vHidden: false, body: res.body.post.body })
      return
    }
    case 'mintKey': {
      r.log.push('owner mints another key for V')
      const res = await req(r, 'POST', '/admin/keys', { token: r.V.owner.token, body: { venueId: r.V.venueId, scopes: ['read', 'trade'], label: 'rotated' } })
      assert.equal(res.status, 201, JSON.stringify(res.body))
      assert.match(res.body.key, /^pck_[0-9a-f]{64}$/)
      assert.equal(res.body.claimed, false)
      m.keys.push({ key: res.body.key, live: true })
      return
    }
    case 'revokeKey': {
      // Rotation: a new key first when the one to revoke is the last live one.
      if (m.keys.filter((k) => k.live).length < 2) await apply(r, { t: 'mintKey' })
      const old = m.keys.find((k) => k.live)!
      r.log.push('the oldest live key of V is revoked')
      await svc.ctx.db.updateTable('venue_keys').set({ revoked_at: new Date() }).where('key_hash', '=', sha256(old.key)).execute()
      old.live = false
      // What a revoked key can still do: read, without the venue's overlay, marked refused; nothing else.
      const t = await req(r, 'GET', `/v1/social/posts?subjectType=event&subjectRef=${r.market}`, { token: reader.token, key: old.key })
      assert.equal(t.status, 200)
      assert.equal(t.headers.get('x-venue-key-status'), 'refused')
      sameAs({ posts: t.body.posts.map(seen) }, { posts: expectedThread(r, 'R', null).posts }, 'a revoked key reads without the overlay', r)
      const top = m.posts.find((p) => !p.deleted && p.state === 'visible')
      if (top) expectError(await req(r, 'POST', `/v1/social/posts/${top.id}/reports`, { token: reporters[0].token, key: old.key, body: { reason: 'x' } }), 401, 'invalid-venue-key', 'this venue key is not valid')
      expectError(await req(r, 'POST', '/v1/social/posts', { token: r.A.token, key: old.key, body: { subjectType: 'event', subjectRef: r.market, body: 'x' } }), 401, 'invalid-venue-key', 'this venue key is not valid')
      expectError(await req(r, 'GET', '/v1/rooms/self/membership', { token: r.A.token, key: old.key }), 401, 'invalid-venue-key', 'this venue key is not valid')
      // "a key that is not live is 401, as on every write": also the writes that do not ask for the request's venue.
      if (top) {
        expectError(await req(r, 'POST', `/v1/social/posts/${top.id}/reactions`, { token: reader.token, key: old.key, body: { kind: 'agree', active: true } }), 401, 'invalid-venue-key', 'this venue key is not valid')
        expectError(await req(r, 'POST', '/v1/mod/hide', { token: r.V.owner.token, key: old.key, body: { venueId: r.V.venueId, postId: top.id } }), 401, 'invalid-venue-key', 'this venue key is not valid')
        expectError(await req(r, 'DELETE', `/v1/social/posts/${top.id}`, { token: user(r, top.author).token, key: old.key }), 401, 'invalid-venue-key', 'this venue key is not valid')
      }
      return
    }
    case 'origins': {
      const list = ORIGINS[s.list]
      r.log.push(`V's origins: ${JSON.stringify(list)}`)
      const res = await req(r, 'PUT', `/v1/venues/${r.V.venueId}/origins`, { token: r.V.owner.token, body: { origins: list } })
      assert.equal(res.status, 200, JSON.stringify(res.body))
      sameAs(res.body, { venueId: r.V.venueId, origins: list }, 'origins answer', r)
      m.origins = list
      for (const origin of ['https://shop.example', 'http://localhost:5173', 'https://evil.example']) {
        const allowed = list.length === 0 || list.includes(origin)
        const read = await req(r, 'GET', `/v1/social/take-counts?ids=${r.market}`, { key: liveKey(r), headers: { origin }, metered: allowed })
        if (allowed) assert.equal(read.status, 200, JSON.stringify(read.body))
        else expectError(read, 403, 'origin-not-allowed')
      }
      return
    }
    case 'refused': {
      const p = nth(alive, s.kind)
      const before = snapshot(m)
      switch (s.kind) {
        case 0:
          r.log.push(`a reader tries a venue hide of ${p.id}`)
          expectError(await act(r, reader, 'hide', { venueId: r.V.venueId, postId: p.id }), 403, 'forbidden', MSG.CANNOT_MODERATE)
          break
        case 1:
          r.log.push(`V's owner tries a platform removal of ${p.id}`)
          expectError(await act(r, r.V.owner, 'remove', { postId: p.id }), 403, 'forbidden', MSG.CANNOT_MODERATE)
          expectError(await act(r, r.V.owner, 'ban', { wallet: r.A.wallet }), 403, 'forbidden', MSG.CANNOT_MODERATE)
          break
        case 2:
          r.log.push(`W's owner tries to moderate V (${p.id})`)
          expectError(await act(r, W.owner, 'hide', { venueId: r.V.venueId, postId: p.id }), 403, 'forbidden', MSG.CANNOT_MODERATE)
          expectError(await req(r, 'GET', `/v1/mod/queue?venueId=${r.V.venueId}`, { token: W.owner.token }), 403, 'forbidden', MSG.CANNOT_MODERATE)
          expectError(await req(r, 'GET', `/v1/mod/audit?venueId=${r.V.venueId}`, { token: W.owner.token }), 403, 'forbidden', MSG.CANNOT_MODERATE)
          expectError(await req(r, 'GET', '/v1/mod/queue', { token: r.V.owner.token }), 403, 'forbidden', MSG.CANNOT_MODERATE)
          break
        case 3:
          r.log.push('a second claim of V')
          expectError(
            await req(r, 'POST', '/admin/keys', { token: reader.token, body: { venueId: r.V.venueId, scopes: ['read'], label: 'mine' } }),
            409,
            'venue-exists',
            `the venue id '${r.V.venueId}' is already held; only its owner mints keys for it`,
          )
          break
        case 4:
          r.log.push(`signed out moderation of ${p.id}`)
          expectError(await act(r, undefined, 'hide', { venueId: r.V.venueId, postId: p.id }), 401, 'unauthenticated')
          expectError(await req(r, 'GET', `/v1/mod/queue?venueId=${r.V.venueId}`), 401, 'unauthenticated')
          break
        case 5:
          r.log.push(`V's owner tries remove with venueId on ${p.id}`)
          expectError(await act(r, r.V.owner, 'remove', { venueId: r.V.venueId, postId: p.id }), 400, 'validation-failed')
          break
        case 6:
          r.log.push('moderation of an unknown post')
          expectError(await act(r, r.V.owner, 'hide', { venueId: r.V.venueId, postId: 'p_0000000000000000000000' }), 404, 'post-not-found', NOT_FOUND)
          expectError(await act(r, operator, 'restore', { postId: 'p_0000000000000000000000' }), 404, 'post-not-found', NOT_FOUND)
          break
        default:
          r.log.push(`the author reports their own post ${p.id}`)
          if (!p.deleted) expectError(await req(r, 'POST', `/v1/social/posts/${p.id}/reports`, { token: user(r, p.author).token, body: { reason: 'mine' } }), 403, 'forbidden')
      }
      sameAs(snapshot(m), before, 'a refusal changes nothing', r)
      return
    }
  }
}

async function newRun(): Promise<Run> {
  const V = await claimVenue(svc)
  const A = await signIn(svc, undefined, V.venueId)
  const B = await signIn(svc)
  const market = (await addMarket(svc)).id
  await svc.chain.setPosition(A.wallet, market, 0, 5_000_000n)
  const m: Model = {
    posts: [],
    reports: new Map(),
    items: { P: new Map(), V: new Map() },
    last: { P: new Map(), V: new Map() },
    bans: { P: new Set(), V: new Set() },
    audit: { P: 0, V: 0 },
    lastAudit: {},
    keys: [{ key: V.key, live: true }],
    origins: [],
    // claimVenue reads /v1/rooms/self with the key once.
    usage: { reads: 1, writes: 0 },
  }
  const r: Run = { V, A, B, market, m, log: [], noopAudits: [], reached: new Set() }
  assert.equal((await call(svc, 'POST', `/v1/rooms/${V.selfRoomId}/join`, { token: A.token })).status, 200)
  await apply(r, { t: 'write', inRoom: false })
  await apply(r, { t: 'write', inRoom: true })
  await apply(r, { t: 'reply', post: 0, viaKey: false })
  r.log = [`setup: A wrote ${m.posts[0].id}, ${m.posts[1].id} (in V's room); B replied ${m.posts[2].id} under ${m.posts[0].id}`]
  return r
}

describe('model: venue and moderation state machines against the HTTP service', () => {
  it(`random sequences of 8–20 steps (${RUNS} runs): every reader's thread, feed, profile, take counts, both queues, both audit logs and usage match the model`, { timeout: 600_000 }, async () => {
    const t0 = Date.now()
    let steps = 0
    const noop = new Map<string, number>()
    const reached = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 8, maxLength: 20 }), async (seq) => {
        const r = await newRun()
        try {
          await checkAll(r)
          for (const s of seq) {
            await apply(r, s)
            await checkAll(r)
            steps++
          }
        } catch (err) {
          // fast-check reports the sequence, not the difference: print it (with the steps so far).
          console.error(`moderation model: a difference from the model\n${(err as Error).message}`)
          throw err
        }
        for (const a of r.noopAudits) noop.set(a, (noop.get(a) ?? 0) + 1)
        for (const c of r.reached) reached.set(c, (reached.get(c) ?? 0) + 1)
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: !SHRINK },
    )
    console.log(
      `moderation model: ${RUNS} runs, ${steps} steps in ${((Date.now() - t0) / 1000).toFixed(1)} s (${svc.ctx.store.kind}); audit rows of no-op actions: ${[...noop].map(([k, v]) => `${k}:${v}`).join(' ') || 'none'}; runs reaching: ${[...reached].sort().map(([k, v]) => `${k}:${v}`).join(' ')}`,
    )
  })
})
