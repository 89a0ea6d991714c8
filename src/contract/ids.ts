/** Identifier formats shared by the service and every client. */

/** A market id is a condition id: `0x` followed by 64 hex characters. Compared lowercased. */
export const MARKET_ID_RE = /^0x[0-9a-fA-F]{64}$/
/** A wallet address: `0x` followed by 40 hex characters. Compared lowercased. */
export const WALLET_RE = /^0x[0-9a-fA-F]{40}$/
/**
 * A venue id: 6 to 64 characters, lowercase alphanumeric with hyphens (§2.11, §5.5), hyphens anywhere (the
 * spec places none), with at least one letter or digit. The SDK takes every id the platform can hold.
 */
export const VENUE_ID_RE = /^(?=[a-z0-9-]*[a-z0-9])[a-z0-9-]{6,64}$/
/** Venue ids starting with these are reserved and never claimed (§5.5). */
export const RESERVED_VENUE_PREFIXES = ['prophecy', 'somnia'] as const
/**
 * Platform names that are never claimed as venue ids (§5.5: "platform names such as demo, studio,
 * gateway"). Matched exactly. Names shorter than 6 characters are listed too, so the refusal names the
 * reason (reserved) rather than the length.
 */
export const RESERVED_VENUE_IDS = [
  'demo', 'studio', 'gateway', 'admin', 'api', 'app', 'auth', 'login', 'signin', 'www', 'docs', 'help',
  'support', 'status', 'static', 'assets', 'cdn', 'platform', 'operator', 'operators', 'system', 'internal',
  'venuekit', 'venue', 'venues', 'console', 'dashboard', 'billing', 'paymaster', 'bundler', 'sponsor',
  'mainnet', 'testnet', 'stream', 'official', 'staff', 'moderation', 'moderator', 'root', 'self', 'default',
  'public', 'private', 'global', 'null', 'undefined',
] as const
/**
 * §5.5 "shorter ids are allocated by the operator, not first-come": ids of 6 to this many characters
 * are allocated only by a platform operator; first-come claims need a longer id.
 */
export const OPERATOR_ALLOCATED_MAX_LENGTH = 7
export const isReservedVenueId = (id: string): boolean =>
  (RESERVED_VENUE_IDS as readonly string[]).includes(id) || RESERVED_VENUE_PREFIXES.some((p) => id.startsWith(p))
/** A venue key: `pck_` followed by 64 hex characters (§2.11). */
export const VENUE_KEY_RE = /^pck_[0-9a-f]{64}$/
/** A taxonomy node key: lowercase slug. */
export const NODE_REF_RE = /^[a-z0-9][a-z0-9._:-]{0,127}$/
/** A post id as issued by the service. */
export const POST_ID_RE = /^p_[0-9a-z]{10,40}$/
/** A room id as issued by the service, or `self` (the room of the key's venue). */
export const ROOM_ID_PATTERN = 'r_[0-9a-z-]{1,64}'
export const ROOM_ID_RE = new RegExp(`^(self|${ROOM_ID_PATTERN})$`)

export const SUBJECT_TYPES = ['event', 'category', 'topic', 'series', 'country', 'org', 'brand'] as const
export type SubjectType = (typeof SUBJECT_TYPES)[number]
/** Taxonomy node kinds: every subject type except a market. */
export const NODE_TYPES = ['category', 'topic', 'series', 'country', 'org', 'brand'] as const
export type NodeType = (typeof NODE_TYPES)[number]
/** Node kinds with no follow path (§3.3): members of their rooms join explicitly. */
export const UNFOLLOWABLE_NODE_TYPES: readonly NodeType[] = ['org', 'brand']

export const isMarketId = (v: unknown): v is string => typeof v === 'string' && MARKET_ID_RE.test(v)
export const isWallet = (v: unknown): v is string => typeof v === 'string' && WALLET_RE.test(v)
export const isSubjectType = (v: unknown): v is SubjectType =>
  typeof v === 'string' && (SUBJECT_TYPES as readonly string[]).includes(v)
export const isNodeType = (v: unknown): v is NodeType =>
  typeof v === 'string' && (NODE_TYPES as readonly string[]).includes(v)
