/**
 * Market-creation failure reasons (§2.12 `PREPARE_ERROR_CLASS`, §7 rule 4): each maps to whether a retry
 * can succeed and whether the failure is ours (the platform's) rather than the user's. Both daily caps
 * are not retryable.
 */
export const PREPARE_ERROR_CLASS = {
  'daily-cap-user': { retryable: false, ours: false },
  'daily-cap-venue': { retryable: false, ours: false },
  'duplicate-market': { retryable: false, ours: false },
  'invalid-question': { retryable: false, ours: false },
  'closing-time-invalid': { retryable: false, ours: false },
  'insufficient-funds': { retryable: false, ours: false },
  'rpc-unavailable': { retryable: true, ours: true },
  'gas-estimate-failed': { retryable: true, ours: true },
  'paymaster-rejected': { retryable: true, ours: true },
  'indexer-lagging': { retryable: true, ours: true },
  unknown: { retryable: true, ours: true },
} as const satisfies Record<string, { retryable: boolean; ours: boolean }>

export type PrepareErrorReason = keyof typeof PREPARE_ERROR_CLASS

/** Class of a reason; an unlisted reason (also one named like an object's own member, 'toString') is `unknown` (ours, retryable). */
export function prepareErrorClass(reason: string): { retryable: boolean; ours: boolean } {
  return Object.hasOwn(PREPARE_ERROR_CLASS, reason) ? PREPARE_ERROR_CLASS[reason as PrepareErrorReason] : PREPARE_ERROR_CLASS.unknown
}
