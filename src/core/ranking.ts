/**
 * The `live` ranking (§4.1 `sort=live`): recency decay × engagement, takes above bare comments.
 *
 *   score = log10(1 + agrees + 2·replies) + (take ? TAKE_BOOST : 0) + createdAtSeconds / DECAY_SECONDS
 *
 * In linear terms the weight is (1 + engagement) × 10^(TAKE_BOOST) × 10^(t / DECAY_SECONDS): every
 * DECAY_SECONDS (12.5 h) of age costs a factor of ten, which ten times the engagement wins back, and a
 * take counts as a comment with ten times its engagement. The score only changes when engagement
 * changes, so it is stored on the post and indexed; a page is an index range scan. Migration 010's trigger
 * computes the same arithmetic in SQL when a reply's visibility moves its parent's reply count: a change of
 * the formula needs a migration that replaces that trigger too.
 */
export const DECAY_SECONDS = 45_000
export const TAKE_BOOST = 1

export function liveScore(p: { createdAtMs: number; agrees: number; replies: number; isTake: boolean }): number {
  const engagement = Math.max(0, p.agrees) + 2 * Math.max(0, p.replies)
  return Math.log10(1 + engagement) + (p.isTake ? TAKE_BOOST : 0) + p.createdAtMs / 1000 / DECAY_SECONDS
}

/**
 * Record score used by `sort=record` and leaderboards: a Wilson lower bound on the right rate
 * (95%), so one lucky call does not outrank a long good record. Void takes do not count.
 */
export function recordScore(right: number, wrong: number): number {
  const n = right + wrong
  if (n === 0) return 0
  const z = 1.96
  const p = right / n
  const denom = 1 + (z * z) / n
  const centre = p + (z * z) / (2 * n)
  const margin = z * Math.sqrt((p * (1 - p) + (z * z) / (4 * n)) / n)
  return (centre - margin) / denom
}
