import { failuresEn } from './failures.en.ts'

/** English strings of the `moderation` slice: the moderation queue. */
export const moderationEn = {
  queueLabel: 'Moderation queue',
  platformQueue: 'Platform queue',
  open: 'Open',
  actioned: 'Actioned',
  loading: 'Loading…',
  error: "Couldn't load the queue.",
  retry: 'Try again',
  empty: 'Nothing to review.',
  emptyActioned: 'Nothing actioned yet.',
  forbidden: "you can't moderate this venue",
  /** Signed out (nothing refused yet): asks to sign in, with the `signIn` button. */
  signInToModerate: 'Sign in to moderate.',
  signIn: 'Sign in',
  loadMore: 'Load more',
  loadingMore: 'Loading more…',
  keep: 'Keep',
  hide: 'Hide',
  ban: 'Ban',
  unban: 'Unban',
  pin: 'Pin',
  clear: 'Clear',
  remove: 'Remove',
  restore: 'Restore',
  pending: 'Working…',
  done: '{action}: done',
  /** `{message}` is the failure's sentence (a `fail…` string of this slice). */
  failed: '{action} failed. {message}',
  actionsFor: 'Actions on the post by {name}',
  flags: 'Status',
  reasons: 'Report reasons',
  /** One report's reason as quoted under the post; the quotation marks are the locale's. */
  reasonQuote: '“{reason}”',
  reports: '{count, plural, one {# report} other {# reports}}',
  thresholdHidden: 'Hidden by reports, pending review',
  /** On an Actioned row: hidden by the report threshold, and already reviewed here. */
  thresholdHiddenReviewed: 'Hidden by reports',
  /** What an Actioned row's decision was; `{outcome}` is one of the `outcome…` strings. */
  reviewed: 'Reviewed: {outcome}',
  reviewedNoAction: 'Reviewed',
  outcomeKeep: 'kept',
  outcomeHide: 'hidden',
  outcomePin: 'pinned',
  outcomeClear: 'cleared',
  outcomeBan: 'author banned',
  outcomeUnban: 'author unbanned',
  outcomeRemove: 'removed',
  outcomeRestore: 'restored',
  /** Ban's confirmation on a venue's queue, and on the platform queue (no venue: every venue). */
  confirmBan: 'Ban {name} from posting on this venue? They can still read and trade.',
  confirmBanPlatform: 'Ban {name} from posting everywhere, on every venue? They can still read and trade.',
  banConfirm: 'Ban {name}',
  cancel: 'Cancel',
  hiddenHere: 'Hidden on this venue',
  /** The author's ban in the queue's scope (the row then offers Unban instead of Ban). */
  authorBanned: 'Author banned from posting on this venue',
  authorBannedPlatform: 'Author banned from posting everywhere',
  removed: 'Removed everywhere',
  lastAction: 'Last action: {action}',
  openPost: 'Open post',
  ...failuresEn,
  failForbidden: "You can't moderate this venue.",
}
export type ModerationStrings = typeof moderationEn
