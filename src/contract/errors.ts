/**
 * Error codes and the spec's messages. The wire form of every error is
 * `{ "error": { "code": ErrorCode, "message": string } }`.
 * Messages quoted by the specification are used word for word.
 */
export const MSG = {
  JOIN_TO_POST: 'join this room to post in it',
  LEFT_ROOM: 'you left this room — rejoin to post',
  ROOM_NOT_OPEN: 'this room is not open to join',
  CANNOT_MODERATE: "you can't moderate this venue",
} as const

export const ERROR_CODES = [
  'bad-request',
  'invalid-json',
  'validation-failed',
  'unsupported-param',
  'unsupported-axis',
  'stance-not-accepted',
  'too-many-ids',
  'not-followable',
  'unauthenticated',
  'invalid-signature',
  'invalid-nonce',
  'session-expired',
  'forbidden',
  'banned',
  'not-found',
  'market-not-found',
  'post-not-found',
  'room-not-found',
  'reply-depth',
  'parent-mismatch',
  'room-join-required',
  'room-left',
  // No `room-not-open`: joining a private room is not an error. §3.3/§7 answer it with the `refused` flag
  // and 'this room is not open to join' (200 `{ member: false, refused: true, message }`, MSG.ROOM_NOT_OPEN).
  'room-other-venue',
  'venue-key-required',
  'invalid-venue-key',
  'venue-key-scope',
  'venue-id-invalid',
  'venue-id-reserved',
  'venue-exists',
  'invalid-scope',
  'wallet-linked',
  'conflict',
  'payload-too-large',
  'rate-limited',
  'origin-not-allowed',
  'method-not-allowed',
  'internal',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

export interface ErrorBody {
  /** `requestId`: a 500 names its request (the answer's `X-Request-Id`, the service's log line). */
  error: { code: ErrorCode | string; message: string; param?: string; axes?: string[]; requestId?: string }
}

export const isErrorBody = (v: unknown): v is ErrorBody =>
  !!v && typeof v === 'object' && !!(v as any).error && typeof (v as any).error.code === 'string' &&
  typeof (v as any).error.message === 'string'
