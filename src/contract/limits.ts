/** Limits the service enforces and the clients respect (§8). */
export const LIMITS = {
  /** Market ids per take-counts request (§4.1, §8). */
  takeCountIdsPerRequest: 100,
  /** Market ids per batched markets read. */
  marketIdsPerRequest: 100,
  /** Post body, in characters (after trimming). */
  bodyMaxChars: 2000,
  /** Report reason, in characters. */
  reasonMaxChars: 500,
  /** Page size default and maximum for threads, feeds and profiles. */
  pageDefault: 20,
  pageMax: 100,
  /**
   * Replies a thread or feed page folds in per parent: the newest ones (a reply just written is always on the
   * page); the earlier ones are read with `client.replies` ("Show earlier replies").
   */
  repliesPerParent: 50,
  /** Wallets per batched profiles or records read. */
  walletsPerBatch: 200,
  /** Default distinct reporters that auto-hide a post (configurable). */
  reportThreshold: 3,
  /** Session lifetime. */
  sessionTtlMs: 7 * 24 * 3600_000,
  /** Sign-in nonce lifetime. */
  nonceTtlMs: 10 * 60_000,
  /** Request body size. */
  bodyMaxBytes: 64 * 1024,
  /** A market closing within this is "closing soon" (the For-you reason, a room's closing-soon rail). */
  closingSoonMs: 7 * 86400_000,
} as const

/**
 * A character that draws something: not white space (`\s` covers every space separator), not a control
 * character, not a default-ignorable one (zero-width space and joiners, word joiner, byte-order mark, bidi
 * marks, variation selectors, soft hyphen, Hangul fillers: Unicode's Default_Ignorable_Code_Point), not the
 * braille blank. Format characters that draw a glyph (Arabic ؀ or ۝) are not ignorable, so they count.
 */
const VISIBLE = /[^\s\p{Cc}\p{Default_Ignorable_Code_Point}\u2800]/u
/** Whether a text shows anything: a post body or report reason made only of invisible characters is empty. */
export const hasVisibleText = (s: string): boolean => VISIBLE.test(s)
