/**
 * `createClient` (§9.5) and the operations of §4.2. Reads work signed out and send the session only
 * when one exists; writes need a session (checked before any request) and throw on failure.
 * The session lives in the client, in memory: `client.session`, `setSession`, `onSessionChange`.
 */
import type { SubjectType } from '../contract/ids.ts'
import { FEED_SCOPES, FEED_SORTS, MOD_STATES } from '../contract/params.ts'
import { PATHS, roomThreadTopic, threadTopic } from '../contract/paths.ts'
import type {
  AuthorPostsResult,
  BlockResult,
  Board,
  CountsResult,
  DeleteResult,
  FeedPage,
  FeedScope,
  FeedSort,
  FollowState,
  ForYouRail,
  JoinResult,
  LeaderboardResult,
  LinkResult,
  MarketsResult,
  MeResult,
  Membership,
  ModAction,
  ModActionResult,
  ModQueuePage,
  ModState,
  MyStanceResult,
  NodeRef,
  NonceResult,
  Post,
  PostResult,
  ProfilesResult,
  ReactResult,
  RecordsResult,
  RepliesPage,
  ReportResult,
  SessionInfo,
  ThreadPage,
  VerdictsResult,
} from '../contract/types.ts'
import { resolveConfig, type ClientConfig } from './config.ts'
import { ValidationError } from './errors.ts'
import { createStream } from './stream.ts'
import { takeCountsReader } from './take-counts.ts'
import { createRequest, noSession, type Query } from './transport.ts'
import * as v from './validate.ts'

/** Every read accepts the caller's own abort signal. */
export interface ReadOptions {
  signal?: AbortSignal
}
/** Every write accepts the caller's own abort signal too (with `timeoutMs`, whichever fires first). */
export interface WriteOptions {
  signal?: AbortSignal
}
export interface ThreadOptions extends ReadOptions {
  includeReplies?: boolean
  includeSeries?: boolean
  limit?: number
  cursor?: string
  venue?: string
  room?: string
}
export interface FeedOptions extends ReadOptions {
  scope?: FeedScope
  subjectType?: SubjectType
  subjectRef?: string
  venue?: string
  room?: string
  sort?: FeedSort
  limit?: number
  cursor?: string
}
export interface RepliesOptions extends ReadOptions {
  /** A reply id: the replies older than it (the first reply a page shows). */
  before?: string
  limit?: number
  venue?: string
  /**
   * The parent is folded on a ranked feed: read its replies as the feed folds them, without the reader's own
   * hidden ones (§3.1: the ranked feed shows visible posts only; the thread shows an author their hidden posts).
   */
  feed?: boolean
}
export interface AuthorPostsOptions extends ReadOptions {
  takes?: boolean
  includeReplies?: boolean
  venue?: string
  limit?: number
  cursor?: string
}
export interface ForYouOptions extends ReadOptions {
  room?: string
  subjectType?: SubjectType
  subjectRef?: string
  limit?: number
}
export interface ModQueueOptions extends ReadOptions, ModOptions {
  state?: ModState
  limit?: number
  cursor?: string
}
/** Moderation scope: a venue (its owner moderates) or, without `venueId`, the platform (operators). */
export interface ModOptions {
  venueId?: string
}
type ModPostAction = (postId: string, o?: ModOptions) => Promise<ModActionResult>
export interface PageOptions extends ReadOptions {
  limit?: number
  cursor?: string
}
/** A wallet that can sign: the address and whatever signing call the wallet provides. */
export interface WalletSigner {
  address: string
  signMessage: (message: string) => Promise<string> | string
}
export type SessionListener = (session: SessionInfo | null) => void

export function createClient(config: ClientConfig) {
  const cfg = resolveConfig(config)
  let session: SessionInfo | null = null
  const listeners = new Set<SessionListener>()
  // A fetchImpl that is not a function is refused now, not a NetworkError at the first request.
  const request = createRequest(cfg, config.fetchImpl == null ? undefined : v.fn(config.fetchImpl, 'fetchImpl'), () => session?.token)
  /**
   * The moderation overlay of reads of posts when a read names no `venue`: the client's `venueId`, keyed or
   * not, so a venue's hides and bans hold on its pages with or without a key, and also when the service
   * refuses the key for reads (unknown, revoked, or trade-only). With a live key `venue` names the key's own
   * venue, so sending it changes nothing (§5.3: the named venue, else the key's).
   */
  const venueOf = (o?: { venue?: string } | null) => o?.venue ?? cfg.venueId ?? undefined
  const takeCounts = takeCountsReader(request, venueOf)
  const stream = createStream(cfg.streamUrl, config.WebSocketImpl, () => session?.token)

  /** A read: options become the query (the signal aside); the session goes along when there is one. */
  const read = <T>(path: string, o?: ReadOptions | null, extra: Query = {}) => {
    const { signal, ...q } = (o ?? {}) as ReadOptions & Query
    return request<T>('GET', path, { query: { ...q, ...extra }, auth: 1, signal })
  }
  /** A write: needs a session, throws on failure, and drops cached counts. `gateway` last: only the auth writes use it. */
  const write = async <T>(method: string, path: string, body?: unknown, signal?: AbortSignal, gateway?: boolean) => {
    const r = await request<T>(method, path, { body, auth: 2, gateway, signal })
    takeCounts.clear()
    return r
  }
  const setSession = (s: SessionInfo | null) => {
    if (s != null && typeof s.token != 'string') throw new ValidationError('session', 'must carry a token')
    const was = session?.token
    session = s
    if (was != s?.token) stream.resubscribe()
    listeners.forEach((l) => l(s))
  }
  /** Optional subject of a feed or rail: validated when given. */
  const maybeSubject = (o?: { subjectType?: SubjectType; subjectRef?: string; room?: string } | null) => {
    o ??= {}
    if (o.room != null) v.room(o.room)
    return o.subjectType == null && o.subjectRef == null
      ? {}
      : { subjectRef: o.subjectType == null ? o.subjectRef : v.subject(o.subjectType, o.subjectRef!) }
  }
  /** Sign a fresh nonce's message with the wallet (sign-in and wallet linking). */
  const signed = async (w: WalletSigner) => {
    const address = v.wallet(w?.address, 'address')
    v.fn(w.signMessage, 'signMessage')
    const n = await request<NonceResult>('POST', PATHS.authNonce, { body: { address }, gateway: true })
    return { message: n.message, signature: await w.signMessage(n.message) }
  }
  const modPost = (action: ModAction) => async (postId: string, o?: ModOptions & WriteOptions & { pinned?: boolean } | null) =>
    write<ModActionResult>('POST', PATHS.modAction(action), { postId: v.postId(postId), venueId: o?.venueId, pinned: o?.pinned }, o?.signal)
  /** Ban and unban a wallet; with `postId` (a post of theirs) the post's queue item is actioned too. */
  const modWallet = (action: ModAction) => async (wallet: string, o?: ModOptions & WriteOptions & { postId?: string } | null) =>
    write<ModActionResult>(
      'POST',
      PATHS.modAction(action),
      { wallet: v.wallet(wallet), venueId: o?.venueId, postId: o?.postId == null ? undefined : v.postId(o?.postId) },
      o?.signal,
    )

  return {
    /** The resolved configuration: addresses, chain id and contracts of the named network. */
    config: cfg,
    /** The current session, or null when signed out. */
    get session() {
      return session
    },
    setSession,
    /** Calls `cb` on every sign-in, sign-out or `setSession`; returns its remover. */
    onSessionChange(cb: SessionListener) {
      // Checked now: a listener that is not a function would make every later session change throw.
      listeners.add(v.fn(cb, 'callback'))
      return () => void listeners.delete(cb)
    },

    /** One thread, newest first, cursor-paged. */
    posts: async (subjectType: SubjectType, subjectRef: string, o?: ThreadOptions | null) => {
      const ref = v.subject(subjectType, subjectRef)
      if (o?.room != null) v.room(o?.room)
      return read<ThreadPage>(PATHS.posts, o, { subjectType, subjectRef: ref, venue: venueOf(o) })
    },
    /** The ranked feed: render in the order given. */
    postFeed: async (o?: FeedOptions | null) => {
      v.oneOf(o?.scope, FEED_SCOPES, 'scope')
      v.oneOf(o?.sort, FEED_SORTS, 'sort')
      return read<FeedPage>(PATHS.feed, o, { ...maybeSubject(o), venue: venueOf(o) })
    },
    /** A post's replies older than `before`, oldest first: a thread or feed page folds in only the newest 50. */
    replies: async (postId: string, o?: RepliesOptions | null) => {
      if (o?.before != null) v.postId(o?.before, 'before')
      return read<RepliesPage>(PATHS.replies(v.postId(postId)), o, { venue: venueOf(o) })
    },
    /** A person's posts with how their resolved markets ended. */
    postsByAuthor: async (wallet: string, o?: AuthorPostsOptions | null) => read<AuthorPostsResult>(PATHS.profilePosts(v.wallet(wallet)), o, { venue: venueOf(o) }),
    /** Per-market counts (public): split by 100 ids, merged, and shared per set of ids. */
    takeCounts,
    /** The discovery rail. */
    forYou: async (o?: ForYouOptions | null) => read<ForYouRail>(PATHS.forYou, o, maybeSubject(o)),

    /**
     * The stance a post by the signed-in account on this market would carry now (its largest position while
     * the market is open), or null. Session required.
     */
    myStance: async (marketId: string, o?: ReadOptions | null) => request<MyStanceResult>('GET', PATHS.myStance(v.marketId(marketId)), { auth: 2, signal: o?.signal }),
    /** Writes a post. Sends no stance: the server proves it. */
    createPost: async (subjectType: SubjectType, subjectRef: string, body: string, parentId?: string | null, o?: WriteOptions & { room?: string } | null) =>
      write<PostResult>(
        'POST',
        PATHS.posts,
        {
          subjectType,
          subjectRef: v.subject(subjectType, subjectRef),
          body: v.text(body, 'body'),
          parentId: parentId == null ? undefined : v.postId(parentId),
          room: o?.room == null ? undefined : v.room(o?.room),
        },
        o?.signal,
      ).then((r) => r.post),
    editPost: async (postId: string, body: string, o?: WriteOptions | null) =>
      write<PostResult>('PATCH', PATHS.post(v.postId(postId)), { body: v.text(body, 'body') }, o?.signal).then((r): Post => r.post),
    deletePost: async (postId: string, o?: WriteOptions | null) => write<DeleteResult>('DELETE', PATHS.post(v.postId(postId)), undefined, o?.signal),
    /** Agree (`active` true, the default) or take the agree back. */
    reactPost: async (postId: string, active = true, o?: WriteOptions | null) =>
      write<ReactResult>('POST', PATHS.react(v.postId(postId)), { kind: 'agree', active: !!active }, o?.signal),
    reportPost: async (postId: string, reason: string, o?: WriteOptions | null) =>
      write<ReportResult>('POST', PATHS.report(v.postId(postId)), { reason: v.text(reason, 'reason') }, o?.signal),
    block: async (wallet: string, o?: WriteOptions | null) => write<BlockResult>('POST', PATHS.blocks, { wallet: v.wallet(wallet) }, o?.signal),
    unblock: async (wallet: string, o?: WriteOptions | null) => write<BlockResult>('DELETE', PATHS.block(v.wallet(wallet)), undefined, o?.signal),

    /**
     * Rooms; `room` defaults to `'self'`: the room of the venue whose key the client carries (a join or leave
     * without a key: the venue the session signed in for).
     */
    rooms: {
      membership: async (room = 'self', o?: ReadOptions | null) => read<Membership>(PATHS.roomMembership(v.room(room)), o),
      board: async (room = 'self', o?: PageOptions | null) => read<Board>(PATHS.roomBoard(v.room(room)), o),
      join: async (room = 'self', o?: WriteOptions | null) => write<JoinResult>('POST', PATHS.roomJoin(v.room(room)), undefined, o?.signal),
      leave: async (room = 'self', o?: WriteOptions | null) => write<Membership>('POST', PATHS.roomLeave(v.room(room)), undefined, o?.signal),
    },
    /** Moderation. With `venueId`: that venue's overlay (its owner). Without: platform level (operators). Not optimistic. */
    mod: {
      queue: async (o?: ModQueueOptions | null) => (v.oneOf(o?.state, MOD_STATES, 'state'), read<ModQueuePage>(PATHS.modQueue, o)),
      keep: modPost('keep') as ModPostAction,
      hide: modPost('hide') as ModPostAction,
      /** Pins (or with `pinned: false` unpins) a post; a venue pins only posts in its own rooms. */
      pin: modPost('pin'),
      clear: modPost('clear') as ModPostAction,
      remove: modPost('remove') as ModPostAction,
      restore: modPost('restore') as ModPostAction,
      ban: modWallet('ban'),
      unban: modWallet('unban'),
    },
    /**
     * Calls `cb` (no payload: refetch) whenever the thread changes; returns the unsubscribe. With `room` (a room
     * id, as a thread page's `roomId` names it): the thread inside that room, a private one's only while the
     * session may read it.
     */
    onComments: (subjectType: SubjectType, subjectRef: string, cb: () => void, o?: { room?: string | null } | null) => {
      v.fn(cb, 'callback')
      const ref = v.subject(subjectType, subjectRef)
      if (o?.room == null) return stream.on(threadTopic(subjectType, ref), cb)
      if (o?.room == 'self') throw new ValidationError('room', "must be a room id, not 'self'")
      return stream.on(roomThreadTopic(v.room(o?.room), subjectType, ref), cb)
    },

    auth: {
      /** Sign-In with Ethereum: the wallet signs the service's message verbatim; the session is kept in the client. */
      signIn: async (w: WalletSigner & { venueId?: string }) => {
        const venueId = w?.venueId ?? cfg.venueId ?? undefined
        const s = await request<SessionInfo>('POST', PATHS.authVerify, { body: { ...(await signed(w)), venueId }, gateway: true })
        setSession(s)
        return s
      },
      /** Links another wallet to the signed-in account. */
      linkWallet: async (w: WalletSigner) => {
        if (!session) throw noSession()
        const r = await write<LinkResult>('POST', PATHS.authLink, await signed(w), undefined, true)
        if (session) setSession({ ...session, wallets: r.wallets })
        return r
      },
      /** Ends the session on the service and in the client (in the client even when the service refuses). */
      signOut: async () => {
        if (!session) return
        try {
          await write('POST', PATHS.authSignOut, undefined, undefined, true)
        } finally {
          setSession(null)
        }
      },
      me: async (o?: ReadOptions | null) => read<MeResult>(PATHS.me, o),
    },

    /** Profiles for many wallets in one read, keyed by lowercased wallet. */
    profiles: async (wallets: readonly string[], o?: ReadOptions | null) =>
      read<ProfilesResult>(PATHS.profiles, o, { wallets: v.idSet(wallets, v.wallet, 'wallets') }),
    followState: async (subjectType: SubjectType, subjectRef: string, o?: ReadOptions | null) =>
      read<FollowState>(PATHS.follow(subjectType, v.subject(subjectType, subjectRef)), o),
    follow: async (subjectType: SubjectType, subjectRef: string, o?: WriteOptions | null) =>
      write<FollowState>('PUT', PATHS.follow(subjectType, v.subject(subjectType, subjectRef)), undefined, o?.signal),
    unfollow: async (subjectType: SubjectType, subjectRef: string, o?: WriteOptions | null) =>
      write<FollowState>('DELETE', PATHS.follow(subjectType, v.subject(subjectType, subjectRef)), undefined, o?.signal),
    /** Settled records of many wallets at one node (`null`: overall). */
    records: async (wallets: readonly string[], facet: NodeRef | null, o?: ReadOptions | null) =>
      read<RecordsResult>(PATHS.records, o, { wallets: v.idSet(wallets, v.wallet, 'wallets'), facet: v.node(facet, 'facet') }),
    /** The leaderboard of a node; `scope` null is the global board. */
    leaderboard: async (scope: NodeRef | null, o?: PageOptions | null) => read<LeaderboardResult>(PATHS.leaderboard, o, { scope: v.node(scope, 'scope') ?? 'global' }),
    /** Settled-market tallies (right / wrong / undecided) per market. */
    verdicts: async (marketIds: readonly string[], o?: ReadOptions | null) =>
      read<VerdictsResult>(PATHS.verdicts, o, { ids: v.idSet(marketIds, v.marketId, 'marketIds') }),
    /** Markets by id (title, outcome labels, nodes, closing time, result), keyed by lowercased id. */
    markets: async (marketIds: readonly string[], o?: ReadOptions | null) =>
      read<MarketsResult>(PATHS.markets, o, { ids: v.idSet(marketIds, v.marketId, 'marketIds') }),
    /** Counts grouped by a taxonomy axis; an axis the service cannot group on is its 400, naming the axes. */
    counts: async (by: string, o?: ReadOptions | null) => read<CountsResult>(PATHS.counts, o, { by: v.text(by, 'by') }),

    /** Ends every live subscription and closes the socket. */
    close: () => stream.close(),
  }
}

export type VenuekitClient = ReturnType<typeof createClient>
