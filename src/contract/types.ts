/** Wire types: what the service answers and the clients read. */
import type { NodeType, SubjectType } from './ids.ts'

/** A taxonomy node reference. */
export interface NodeRef {
  type: NodeType
  ref: string
}

/** One outcome of a market. `displayLabel` is set on binary price-threshold markets (Above / Below). */
export interface OutcomeLabel {
  label: string
  displayLabel?: string
}

/** How a market ended, as the chain recorded it: a winning outcome index, or void (no winner). */
export type MarketResult = { winner: number } | { void: true }

export interface Market {
  id: string
  title: string
  outcomes: OutcomeLabel[]
  /** Taxonomy nodes the market sits on. */
  nodes: NodeRef[]
  /** The node a record is read at for takes on this market (nodeFacetOf). */
  facet: NodeRef | null
  /** Durable series thread a recurring market's rounds roll into. */
  series: string | null
  clob: boolean
  closesAt: string | null
  /** Collateral decimals; null when unknown. */
  decimals: number | null
  /** Resolution as the chain recorded it; null while unresolved (always null for CLOB markets, §3.2). */
  result: MarketResult | null
}

/** The stance the server proved and froze when the post was written (§1.4). */
export interface Stance {
  /** Outcome index held. */
  side: number
  /** Position size in collateral base units, as a decimal string. */
  size: string
  /** That side's price in basis points at write time; null when unknown. */
  priceBps: number | null
}

/**
 * `GET /v1/me/stance/{marketId}`: the stance a post by the signed-in account on this market would carry if
 * written now (§1.4: its largest position, while the market is open); null when it holds none or the market
 * has resolved. A take prompt reads it to say when the take will show another side than the one just bought.
 */
export interface MyStanceResult {
  marketId: string
  stance: Stance | null
}

/** An author's settled record at one node (§2.12). */
export interface SettledRecord {
  facet: NodeRef | null
  right: number
  wrong: number
  void: number
  /** Sum of odds beaten, in basis points, over right takes. */
  oddsBeatenBps: number
  /** 1-based rank within the facet; null means unranked (not last). */
  rank: number | null
  /** Ranked accounts at the facet. A rank is never shown without it. */
  population: number
}

export interface Post {
  id: string
  subjectType: SubjectType
  subjectRef: string
  /** Wallet that wrote the post. Posts belong to the account behind it. */
  author: string
  body: string
  parentId: string | null
  roomId: string | null
  createdAt: string
  editedAt: string | null
  agrees: number
  replies: number
  /** Present only when the reader is signed in. */
  agreed?: boolean
  /** Present only when the post is hidden and shown to its own author. */
  hidden?: boolean
  /** Set on rows merged from a recurring market's series thread (another round). */
  fromSeries?: boolean
  /** Present when the author held a position at write time (a take). */
  stance?: Stance
  /** Present only when the feed's sort is `record`. */
  record?: SettledRecord | null
  /** Pinned by a moderator. */
  pinned?: boolean
}

export interface Signal {
  kind: 'callers-moved'
  marketId: string
  side: number
  count: number
  /** A post id: the signal is a line under that post. */
  attachTo: string | null
  /** When `attachTo` is null: the post this quiet row is placed before; null means after the last post. */
  before: string | null
}

export interface Settlement {
  marketId: string
  result: MarketResult
  resolvedAt: string | null
  right: number
  wrong: number
  attachTo: string | null
}

export type Labels = Record<string, OutcomeLabel[]>
export type Titles = Record<string, string>

/** Ranked feed response (§2.2). */
export interface FeedPage {
  posts: Post[]
  signals: Signal[]
  settlements: Settlement[]
  threads: Record<string, Post[]>
  labels: Labels
  titles: Titles
  /** 'live' or 'record': the order the posts are in. */
  sort: FeedSort
  scope: FeedScope
  nextCursor: string | null
}

/**
 * A post's earlier replies (`GET /v1/social/posts/:id/replies`, `client.replies`): the replies older than
 * `before`, oldest first. A thread or feed page folds in only a parent's newest 50 replies.
 */
export interface RepliesPage {
  posts: Post[]
  /** Older replies remain: read them with `before` set to this page's first reply. */
  hasMore: boolean
}

/** One market thread (§4.2 `posts`). */
export interface ThreadPage {
  posts: Post[]
  threads: Record<string, Post[]>
  /** For a recurring market, the durable series thread its rounds roll into. */
  series: string | null
  labels: Labels
  titles: Titles
  hasMore: boolean
  nextCursor: string | null
  /**
   * The room the thread was read in (`room`, with `self` resolved to the venue's room id), else null. Its live
   * changes come on `roomThreadTopic(roomId, …)` (`onComments(…, { room: roomId })`).
   */
  roomId?: string | null
}

export interface AuthorPostsResult {
  posts: Post[]
  /** How each resolved market on the page ended, keyed by lowercased market id. */
  results: Record<string, MarketResult>
  labels: Labels
  titles: Titles
  hasMore: boolean
  nextCursor: string | null
}

export interface TakeCount {
  posts: number
  takes: number
  /** Takes per outcome index, keyed by the index as a string. */
  bySide: Record<string, number>
}

export interface TakeCountsResult {
  counts: Record<string, TakeCount>
}

export interface CountsResult {
  by: string
  groups: { key: string; posts: number; takes: number }[]
}

export type ForYouReason = 'closing-soon' | 'trending' | 'followed' | 'held'
export interface ForYouItem {
  marketId: string
  reason: ForYouReason
  /** For 'followed': the node followed. */
  node?: NodeRef
}
export interface ForYouRail {
  items: ForYouItem[]
  markets: Record<string, Market>
  personalized: boolean
}

export interface Profile {
  wallet: string
  name: string | null
  avatarUrl: string | null
}

export interface SessionInfo {
  token: string
  expiresAt: string
  accountId: string
  wallet: string
  wallets: string[]
  venueId: string | null
  operator: boolean
}

export interface MeResult {
  accountId: string
  wallet: string
  wallets: string[]
  venueId: string | null
  operator: boolean
  profile: Profile
}

export interface NonceResult {
  nonce: string
  /** The EIP-4361 message the wallet must sign, verbatim. */
  message: string
  expiresAt: string
}

export interface FollowState {
  subjectType: SubjectType
  subjectRef: string
  following: boolean
}

export interface RoomInfo {
  id: string
  venueId: string
  subject: NodeRef
  visibility: 'public' | 'private'
  /** The venue's name for the room; null in a private room's membership read by an outsider (§7: nothing confirmed beyond its existence). */
  title: string | null
}

export interface Membership {
  room: RoomInfo
  member: boolean | null
  members: number | null
  joinedAt: string | null
  /** True once the caller has left (sticky until rejoin). */
  left: boolean
}

export interface JoinResult {
  member: boolean
  refused: boolean
  message?: string
  joinedAt: string | null
}

export interface BoardEntry {
  wallet: string
  rank: number | null
  population: number
  right: number
  wrong: number
}

export interface Board {
  room: RoomInfo
  facet: NodeRef
  population: number
  board: BoardEntry[]
  /** Active members of the room (the board's length over all pages). */
  members: number
  nextCursor: string | null
}

export interface LeaderboardResult {
  scope: NodeRef | null
  population: number
  entries: BoardEntry[]
  nextCursor: string | null
}

export interface RecordsResult {
  facet: NodeRef | null
  records: Record<string, SettledRecord>
}

export interface Verdict {
  marketId: string
  right: number
  wrong: number
  undecided: number
  void: boolean
  /** Holders counted (right + wrong + undecided). */
  holders: number
  /** Whether the market has a recorded result (false while open, and always for CLOB markets). */
  settled: boolean
}

export interface VerdictsResult {
  verdicts: Record<string, Verdict | null>
}

export type ModState = 'open' | 'actioned'
export type ModAction = 'keep' | 'hide' | 'pin' | 'clear' | 'ban' | 'unban' | 'remove' | 'restore'

export interface ModQueueItem {
  post: Post
  reports: number
  reasons: string[]
  /** Hidden by the report threshold, pending review. */
  thresholdHidden: boolean
  hiddenHere: boolean
  state: ModState
  lastAction: { action: ModAction; at: string; by: string } | null
  /** Platform-wide state of the post: 'hidden' is the report threshold's hide, 'removed' the operator's. */
  postState: 'visible' | 'hidden' | 'removed'
  /** The post's author is banned from posting in this queue's scope (the venue, or everywhere on the platform queue). */
  authorBanned: boolean
}

export interface ModQueuePage {
  items: ModQueueItem[]
  nextCursor: string | null
}

export interface AuditEntry {
  id: string
  action: ModAction
  venueId: string | null
  actor: string
  postId: string | null
  target: string | null
  at: string
}

/** The answer of every moderation write: the new state, never an optimistic guess (§4.2). */
export interface ModActionResult {
  action: ModAction
  venueId: string | null
  postId: string | null
  /** The post after the action; null for a ban or unban by wallet alone. */
  post: {
    state: 'visible' | 'hidden' | 'removed'
    /** Hidden on the acting venue (venue_hides); false for platform actions. */
    hiddenHere: boolean
    pinned: boolean
    reports: number
  } | null
  /** The queue item after the action (scope of the action), when the action touched a post. */
  item: { state: ModState } | null
  /** After ban / unban. */
  ban: { wallet: string; scope: string; banned: boolean } | null
}

export interface AuditPage {
  entries: AuditEntry[]
  nextCursor: string | null
}

export interface VenueUsageDay {
  /** UTC day, YYYY-MM-DD. */
  day: string
  reads: number
  writes: number
}

export interface VenueUsage {
  venueId: string
  days: VenueUsageDay[]
}

/** A venue's allowed browser origins (`PUT /v1/venues/:id/origins`). Empty: any origin. */
export interface VenueOrigins {
  venueId: string
  origins: string[]
}

export interface RoomList {
  rooms: RoomInfo[]
}

export interface VenueKeyIssued {
  key: string
  venueId: string
  scopes: ('read' | 'trade')[]
  label: string
  keyId: string
  claimed: boolean
  createdAt: string
}

/** A venue key as its owner lists it (`GET /v1/venues/:venueId/keys`): never the key nor its hash. */
export interface VenueKeyInfo {
  keyId: string
  label: string
  scopes: ('read' | 'trade')[]
  createdAt: string
  /** When it was revoked (`DELETE /v1/venues/:venueId/keys/:keyId`), or null while it is live. */
  revokedAt: string | null
}

export interface VenueKeys {
  venueId: string
  /** Newest first, revoked ones included. */
  keys: VenueKeyInfo[]
}

export interface SponsorshipState {
  venueId: string | null
  attributed: boolean
  sponsored: boolean
  enforcement: boolean
}

/** Stream messages (§6): events carry no payload beyond the topic. */
/** `token`: the session token (a private room's topic needs a session that may read it; on a plain thread it lets the room's members hear its changes). */
export type StreamClientMessage = { type: 'subscribe'; topic: string; token?: string } | { type: 'unsubscribe'; topic: string } | { type: 'ping' }
export type StreamServerMessage =
  | { type: 'changed'; topic: string }
  | { type: 'subscribed'; topic: string }
  | { type: 'pong' }
  /** `topic`: the subscription refused (a room topic the session may not follow), which the socket no longer follows. */
  | { type: 'error'; code: string; message: string; topic?: string }

export type FeedScope = 'global' | 'following' | 'subject'
export type FeedSort = 'live' | 'record'

/** Answers of the post writes and account calls (§4.2), as the SDK returns them. */
export interface PostResult {
  post: Post
}
export interface ReactResult {
  postId: string
  kind: 'agree'
  agreed: boolean
  agrees: number
}
export interface ReportResult {
  postId: string
  reported: true
}
export interface DeleteResult {
  deleted: true
  postId: string
}
export interface BlockResult {
  blocked: boolean
  wallet: string
}
export interface LinkResult {
  accountId: string
  wallets: string[]
}
export interface ProfilesResult {
  /** Keyed by lowercased wallet. */
  profiles: Record<string, Profile>
}
export interface MarketsResult {
  /** Keyed by lowercased market id; unknown ids are absent. */
  markets: Record<string, Market>
}
