/**
 * What a reader reads when something fails: the error's code (the service's, or the SDK's own `network`,
 * `timeout`, `unauthenticated` …) looked up as a string of the element's slice, so every failure sentence
 * is replaceable (`<vk-strings-provider>`, `strings`) and translates. The error's own `message` (the
 * service's English, or the SDK's "the service could not be reached (Failed to fetch)") is never shown: it
 * travels in `vk-error`'s `detail.error` for the venue's logs.
 */
import { MSG } from '../../contract/errors.ts'
import { VenuekitError } from '../../sdk/errors.ts'
import type { StringsController } from './strings-controller.ts'
import type { FailureStrings, RefusalStrings } from './strings/failures.en.ts'
import type { Slice, StringSlices } from './strings/index.ts'

/** Codes every slice has a sentence for. */
const FAILURES: Record<string, keyof FailureStrings> = {
  network: 'failNetwork',
  timeout: 'failTimeout',
  unauthenticated: 'failSignIn',
  'session-expired': 'failSignIn',
  forbidden: 'failForbidden',
  banned: 'failBanned',
  'rate-limited': 'failRateLimited',
  'room-other-venue': 'failRoomOtherVenue',
  'not-found': 'failNotFound',
  'post-not-found': 'failNotFound',
  'room-not-found': 'failNotFound',
}

/** A post refused by its room (§7): the spec's sentences, in the slices that write posts. */
const REFUSALS: Record<string, keyof RefusalStrings> = {
  'room-join-required': 'joinToPost',
  'room-left': 'leftRoom',
  // A join into a private room answers 200 `refused: true` (errors.ts): the room feed shows `joinRefused`
  // itself; a composer's Join (`joinOffer`) turns it into this code.
  'room-not-open': 'joinRefused',
}

/** The error's code (`VenuekitError.code`), or '' when it has none. */
export const errorCode = (e: unknown): string => (e && typeof e === 'object' && 'code' in e ? String((e as { code: unknown }).code) : '')

type Key<S extends Slice> = keyof StringSlices[S] & string

/** The sentence for a failure: the code's string in this slice, else `fallback` (a string of the slice). */
export function failureText<S extends Slice>(str: StringsController<S>, error: unknown, fallback: Key<S>): string {
  const key = FAILURES[errorCode(error)]
  return str.t((key ?? fallback) as Key<S>)
}

/** Like `failureText`, for writing a post: a room's refusal reads as the spec's sentence ('join this room to post in it', …). */
export function writeFailureText<S extends 'comments' | 'room'>(str: StringsController<S>, error: unknown, fallback: Key<S>): string {
  const refusal = REFUSALS[errorCode(error)]
  return refusal ? str.t(refusal as Key<S>) : failureText(str, error, fallback)
}

/** The refusals a join cures (§7), with their button's string. */
const OFFERS: Record<string, keyof RefusalStrings> = {
  'room-join-required': 'joinAndPost',
  'room-left': 'rejoinAndPost',
}

/**
 * A composer's `recover` for a post into `room` (a room id, or 'self'): a room's refusal offers to join it
 * ('Join and post', 'Rejoin and post'), then posts the kept text. Nothing without a room.
 */
export function joinOffer<S extends 'comments' | 'room'>(str: StringsController<S>, room: string | null | undefined, join: (room: string) => Promise<{ refused: boolean }>) {
  return (error: unknown) => {
    const key = OFFERS[errorCode(error)]
    return key && room
      ? {
          label: str.t(key as Key<S>),
          run: async () => {
            // A room not open to join (private) refuses with a 200: a failure here, not a cure.
            if ((await join(room)).refused) throw new VenuekitError('room-not-open', MSG.ROOM_NOT_OPEN)
          },
        }
      : null
  }
}
