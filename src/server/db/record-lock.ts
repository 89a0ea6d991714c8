/**
 * The advisory lock key of one record (an account at a facet), as SQL over three SQL expressions: taken by the
 * record writer (services/records.ts, the `records` trigger) and, shared, by a top-level post's insert
 * (migration 008's comment says why).
 */
export const RECORD_LOCK_KEY = (account: string, facetType: string, facetRef: string) =>
  `hashtextextended('vk-record ' || ${account} || ' ' || ${facetType} || ' ' || ${facetRef}, 0)`
