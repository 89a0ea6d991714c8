/** Accepted query parameters per read. Anything else on the ranked feed is 400 `unsupported-param` (§4.1 rule 1). */
export const FEED_PARAMS = ['scope', 'subjectType', 'subjectRef', 'venue', 'room', 'sort', 'limit', 'cursor'] as const
export const THREAD_PARAMS = ['subjectType', 'subjectRef', 'includeReplies', 'includeSeries', 'limit', 'cursor', 'venue', 'room'] as const
export const REPLIES_PARAMS = ['before', 'limit', 'venue', 'feed'] as const
export const PROFILE_POSTS_PARAMS = ['takes', 'includeReplies', 'venue', 'limit', 'cursor'] as const
export const FOR_YOU_PARAMS = ['room', 'subjectType', 'subjectRef', 'limit'] as const
export const TAKE_COUNT_PARAMS = ['ids', 'venue'] as const
export const COUNTS_PARAMS = ['by'] as const
export const PROFILES_PARAMS = ['wallets'] as const
export const MARKETS_PARAMS = ['ids'] as const

export const FEED_SCOPES = ['global', 'following', 'subject'] as const
export const FEED_SORTS = ['live', 'record'] as const

/** Axes `/v1/markets/counts` can group on. `country` and `series` are refused (§4.1). */
export const COUNT_AXES = ['category', 'topic', 'org', 'brand'] as const
export type CountAxis = (typeof COUNT_AXES)[number]

export const KEY_SCOPES = ['read', 'trade'] as const
export const MOD_ACTIONS = ['keep', 'hide', 'pin', 'clear', 'ban', 'unban', 'remove', 'restore'] as const
export const MOD_STATES = ['open', 'actioned'] as const
