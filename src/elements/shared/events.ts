/** Every event venuekit elements fire: bubbling, composed, named `vk-*`. */
import type { Post } from '../../contract/types.ts'

export interface VkEventMap {
  /** A signed-out reader tried to write (spec `onRequireSignIn`). */
  'vk-require-sign-in': CustomEvent<{ action: string }>
  /** The reader asked to sign in (spec `onSignIn`). */
  'vk-sign-in': CustomEvent<undefined>
  /** The reader asked to open a market (spec `onOpenMarket`). */
  'vk-open-market': CustomEvent<{ marketId: string }>
  /** A moderator opened a post from the queue (spec `onOpenPost`). */
  'vk-open-post': CustomEvent<{ postId: string; subjectType: string; subjectRef: string }>
  /** Tail: open checkout on the take's exact side. Cancel it to mark it unhandled. */
  'vk-tail': CustomEvent<{ post: Post; marketId: string; side: number }>
  /** A post was written through an element. */
  'vk-post-created': CustomEvent<{ post: Post }>
  /** A take prompt was answered (skip or a posted take). */
  'vk-take-prompt-answered': CustomEvent<{ marketId: string; side: number; answer: 'skipped' | 'posted' }>
  /** Follow state changed. */
  'vk-follow-change': CustomEvent<{ subjectType: string; subjectRef: string; following: boolean }>
  /** Room membership changed. */
  'vk-membership-change': CustomEvent<{ roomId: string; member: boolean }>
  /** A moderation action completed. */
  'vk-moderated': CustomEvent<{ action: string; postId?: string; wallet?: string }>
  /** An element failed to load; detail carries the error for the venue's logs. */
  'vk-error': CustomEvent<{ error: unknown }>
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface GlobalEventHandlersEventMap extends VkEventMap {}
}
