/**
 * Wire paths, all in this module: `PATHS`, the ones the SDK calls (and the service mounts), and `SERVICE_PATHS`, the
 * ones only the service mounts. Every path is under `/v1` except key issuance.
 */
import { ROOM_ID_PATTERN } from './ids.ts'
const e = encodeURIComponent
/** The paths the SDK calls. */
export const PATHS = {
  authNonce: '/v1/auth/nonce',
  authVerify: '/v1/auth/verify',
  authLink: '/v1/auth/link',
  authSignOut: '/v1/auth/signout',
  me: '/v1/me',
  /** The stance a post by the signed-in account on this market would carry now (session required). */
  myStance: (marketId: string) => `/v1/me/stance/${e(marketId)}`,
  posts: '/v1/social/posts',
  feed: '/v1/social/posts/feed',
  post: (id: string) => `/v1/social/posts/${e(id)}`,
  /** A post's replies older than `before` (a thread page folds in only the newest 50). */
  replies: (id: string) => `/v1/social/posts/${e(id)}/replies`,
  react: (id: string) => `/v1/social/posts/${e(id)}/reactions`,
  report: (id: string) => `/v1/social/posts/${e(id)}/reports`,
  blocks: '/v1/social/blocks',
  block: (wallet: string) => `/v1/social/blocks/${e(wallet)}`,
  profilePosts: (wallet: string) => `/v1/social/profile/${e(wallet)}/posts`,
  profiles: '/v1/social/profiles',
  follow: (subjectType: string, subjectRef: string) => `/v1/social/follows/${e(subjectType)}/${e(subjectRef)}`,
  forYou: '/v1/social/for-you',
  takeCounts: '/v1/social/take-counts',
  counts: '/v1/markets/counts',
  markets: '/v1/markets',
  verdicts: '/v1/markets/verdicts',
  records: '/v1/records',
  leaderboard: '/v1/leaderboard',
  roomMembership: (room: string) => `/v1/rooms/${e(room)}/membership`,
  roomJoin: (room: string) => `/v1/rooms/${e(room)}/join`,
  roomLeave: (room: string) => `/v1/rooms/${e(room)}/leave`,
  roomBoard: (room: string) => `/v1/rooms/${e(room)}/board`,
  modQueue: '/v1/mod/queue',
  modAction: (action: string) => `/v1/mod/${e(action)}`,
  stream: '/v1/stream',
} as const

/**
 * Paths only the service mounts: key issuance, a venue's settings and usage, the gateway's sponsorship, the audit
 * log, health, and reads no client operation makes. Kept apart from `PATHS` so the SDK and the script bundle
 * carry only the paths they call.
 */
export const SERVICE_PATHS = {
  myProfile: '/v1/me/profile',
  market: (id: string) => `/v1/markets/${e(id)}`,
  room: (room: string) => `/v1/rooms/${e(room)}`,
  rooms: '/v1/rooms',
  modAudit: '/v1/mod/audit',
  adminKeys: '/admin/keys',
  venueUsage: (venueId: string) => `/v1/venues/${e(venueId)}/usage`,
  /** The browser origins a venue's keys are accepted from (owner only; an empty list allows any origin). */
  venueOrigins: (venueId: string) => `/v1/venues/${e(venueId)}/origins`,
  sponsorship: '/v1/gateway/sponsorship',
  health: '/v1/health',
} as const

/** Stream topic for one thread. Market refs are lowercased. */
export const threadTopic = (subjectType: string, subjectRef: string) => `thread:${subjectType}:${subjectRef.toLowerCase()}`
/**
 * Stream topic for one thread inside one room (`room:<roomId>:thread:…`). A private room's activity goes out
 * only on these, and the stream lets a socket follow a private room's topic only with a session that may
 * read the room (its members, its venue's owner, operators): the subscribe message carries the token.
 */
export const roomThreadTopic = (roomId: string, subjectType: string, subjectRef: string) => `room:${roomId}:${threadTopic(subjectType, subjectRef)}`
/** The room id of a `roomThreadTopic`, or null for any other topic. */
export const roomOfTopic = (topic: string): string | null => new RegExp(`^room:(${ROOM_ID_PATTERN}):thread:`).exec(topic)?.[1] ?? null
/**
 * The bus topic of a change inside a private room (`private:<roomId>:thread:…`), published instead of its
 * room topic. No socket may subscribe to it: the hub hands it to the room topic's subscribers, and to the
 * room's members following the plain thread, which shows them the room's posts (§6.1).
 */
export const privateRoomChangeTopic = (roomId: string, subjectType: string, subjectRef: string) => `private:${roomId}:${threadTopic(subjectType, subjectRef)}`
/** The room, its room topic and the plain thread topic of a `privateRoomChangeTopic`; null for any other topic. */
export const privateRoomChangeOf = (topic: string): { roomId: string; roomTopic: string; thread: string } | null => {
  const m = new RegExp(`^private:(${ROOM_ID_PATTERN}):thread:([^:]+):(.+)$`).exec(topic)
  return m ? { roomId: m[1], roomTopic: roomThreadTopic(m[1], m[2], m[3]), thread: threadTopic(m[2], m[3]) } : null
}

/** Header names (DESIGN.md wire conventions). */
export const HEADERS = { venueKey: 'X-Venue-Key', authorization: 'Authorization', venueKeyStatus: 'X-Venue-Key-Status', requestId: 'X-Request-Id' } as const
