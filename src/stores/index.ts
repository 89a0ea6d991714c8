/**
 * venuekit/stores: nanostores over the SDK, one context per page, shared by every element and usable
 * from any framework (`@nanostores/vue`, Svelte's `$store`, `@nanostores/react`). The stores are the
 * equivalent of the spec's React hooks (§4.3, §2.12). They never touch the DOM.
 */
export { createVenuekit, getVenuekit, onVenuekitChange } from './context.ts'
export type { Venuekit, VenuekitOptions } from './context.ts'
export type { VenuekitGlobal } from './venuekit-global.ts'
export type { CommentsOptions, CommentsValue } from './comments.ts'
export type { PagedTail } from './paged.ts'
export type { EarlierReplies } from './replies.ts'
export type { FeedOptions, FeedValue, ForYouOptions, ForYouValue, RoomFeedOptions, RoomFeedValue, RoomTarget } from './feeds.ts'
export type { PostActionsValue } from './actions.ts'
export type { MembershipValue, BoardValue } from './rooms.ts'
export type { AuthorTakesValue, AuthorListValue } from './authors.ts'
export type { ModerationQueueValue, ModerateValue } from './moderation.ts'
export type { CheckoutAdapter, CheckoutTarget, CheckoutValue, PredictOrder, TailValue, TakePromptValue, BuySettled } from './checkout.ts'
export type { ProfilesValue, ProfileValue, MeValue, FollowValue } from './identity.ts'
export type { TakeCountsValue, RecordsValue, VerdictsValue, MarketsValue, MarketValue, LeaderboardValue } from './reads.ts'
export type { EventsValue, NotificationsValue, ThreadEvent } from './events.ts'
export { VenuekitError } from '../sdk/errors.ts'
