/**
 * English failure sentences, the same keys in every slice (`comments`, `room`, `moderation`): an element
 * looks a failure up by its error code (`shared/failures.ts`), so what a reader reads is always a string of
 * the element's slice, replaceable through `<vk-strings-provider>` or `strings`, never the service's or the
 * SDK's own English (that stays in `vk-error`'s detail).
 */
import { MSG } from '../../../contract/errors.ts'

export const failuresEn = {
  /** `network`: no answer (offline, DNS, refused connection, CORS). */
  failNetwork: "Couldn't reach the service. Check your connection and try again.",
  /** `timeout`: the request deadline passed. */
  failTimeout: 'The service took too long to answer. Try again.',
  /** `unauthenticated`, `session-expired`. */
  failSignIn: 'Sign in to continue.',
  /** `forbidden`. */
  failForbidden: "You can't do that here.",
  /** `banned` (a ban blocks posting only). */
  failBanned: "You can't post here: you are banned.",
  /** `rate-limited`. */
  failRateLimited: 'Too many tries. Wait a moment and try again.',
  /** `room-other-venue`: a room of another venue than the one you are signed in on. */
  failRoomOtherVenue: 'This room belongs to another venue.',
  /** `not-found`, `post-not-found`, `room-not-found`. */
  failNotFound: "It isn't there anymore.",
  /** Any other failure, where the element has no sentence of its own. */
  failGeneric: 'Something went wrong. Try again.',
}
export type FailureStrings = typeof failuresEn

/**
 * The spec's refusals of a post into a room (§7), word for word, in the slices that write posts
 * (`comments`, `room`): `room-join-required` and `room-left`.
 */
export interface RefusalStrings {
  joinToPost: string
  leftRoom: string
  joinRefused: string
  /** The button beside 'join this room to post in it': joins, then posts the kept text. */
  joinAndPost: string
  /** The button beside 'you left this room — rejoin to post'. */
  rejoinAndPost: string
}
export const refusalsEn: RefusalStrings = {
  joinToPost: MSG.JOIN_TO_POST,
  leftRoom: MSG.LEFT_ROOM,
  joinRefused: MSG.ROOM_NOT_OPEN,
  joinAndPost: 'Join and post',
  rejoinAndPost: 'Rejoin and post',
}
