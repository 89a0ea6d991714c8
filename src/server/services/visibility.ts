/**
 * Who sees which post. One place for the rules every read applies:
 * - deleted posts are gone for everyone;
 * - hidden (report threshold) and removed (operator) posts are seen only by their author, and only
 *   where `ownHidden` is allowed (the thread and their profile, §3.1);
 * - `venue` overlays that venue's hides and bans (§4.1 rule 5); it never filters to the venue's posts;
 * - a reader never sees posts by accounts they blocked;
 * - private-room posts are seen only by that room's members, or inside a room the reader was admitted
 *   to (`openRoom`: its owner and operators); room containment itself is the caller's job.
 *
 * A reply is read folded under its parent (the thread and feed read replies per parent they show), so it
 * goes with its parent there. A read that lists replies on their own (a profile) asks `parentGone`.
 */
import { sql, type ExpressionBuilder } from 'kysely'
import type { Database } from '../db/schema.ts'

export interface ReadScope {
  /** Reader's account, or null when signed out. */
  reader: string | null
  /** Venue whose moderation overlay applies. */
  venue: string | null
  /** Let the reader see their own hidden or removed posts. */
  ownHidden: boolean
  /**
   * A room the reader was already admitted to by `resolveRoom` (members, the venue's owner, operators):
   * its private posts are visible even when the reader is not a member (an owner or an operator).
   */
  openRoom?: string | null
}

type PostsEb = ExpressionBuilder<Database & { p: Database['posts'] }, 'p'>

export function visibleTo(scope: ReadScope) {
  return (eb: PostsEb) => {
    const conds = [eb('p.deleted_at', 'is', null)]
    const shown = eb('p.state', '=', 'visible')
    conds.push(scope.ownHidden && scope.reader ? eb.or([shown, eb('p.account_id', '=', scope.reader)]) : shown)
    if (scope.venue) {
      const overlay = eb.and([
        eb.not(eb.exists(eb.selectFrom('venue_hides as vh').select(sql.lit(1).as('x')).whereRef('vh.post_id', '=', 'p.id').where('vh.venue_id', '=', scope.venue))),
        eb.not(eb.exists(eb.selectFrom('bans as vb').select(sql.lit(1).as('x')).whereRef('vb.account_id', '=', 'p.account_id').where('vb.scope', '=', scope.venue))),
      ])
      conds.push(scope.ownHidden && scope.reader ? eb.or([overlay, eb('p.account_id', '=', scope.reader)]) : overlay)
    }
    if (scope.reader) {
      conds.push(
        eb.not(
          eb.exists(
            eb.selectFrom('blocks as b').select(sql.lit(1).as('x')).where('b.account_id', '=', scope.reader).whereRef('b.blocked_account_id', '=', 'p.account_id'),
          ),
        ),
      )
    }
    // Private-room posts: only members of that room.
    const memberOf = scope.reader
      ? eb.exists(
          eb
            .selectFrom('room_members as rm')
            .select(sql.lit(1).as('x'))
            .whereRef('rm.room_id', '=', 'p.room_id')
            .where('rm.account_id', '=', scope.reader)
            .where('rm.left_at', 'is', null),
        )
      : sql<boolean>`false`
    const admitted = scope.openRoom ? [eb('p.room_id', '=', scope.openRoom)] : []
    conds.push(eb.or([eb('p.room_private', '=', false), memberOf, ...admitted]))
    return eb.and(conds)
  }
}

/**
 * A reply whose parent is gone for everyone but the reply's author (§2.6, §3.1): the parent is deleted,
 * hidden by reports or removed (`parent_shown`, migration 010), or, under `venue`'s overlay, hidden on
 * that venue or written by an account it banned. Never true of a top-level post.
 */
export function parentGone(venue: string | null) {
  return (eb: PostsEb) => {
    const gone = [eb('p.parent_shown', '=', false)]
    if (venue) {
      gone.push(
        eb.exists(eb.selectFrom('venue_hides as pvh').select(sql.lit(1).as('x')).whereRef('pvh.post_id', '=', 'p.parent_id').where('pvh.venue_id', '=', venue)),
        eb.exists(
          eb
            .selectFrom('posts as pp')
            .innerJoin('bans as pb', 'pb.account_id', 'pp.account_id')
            .select(sql.lit(1).as('x'))
            .whereRef('pp.id', '=', 'p.parent_id')
            .where('pb.scope', '=', venue),
        ),
      )
    }
    return eb.or(gone)
  }
}

/**
 * What every reader is counted on (§2.6 "Counts are identical for every reader: they include visible posts in
 * public rooms and unroomed threads, and exclude private-room discussion"), on the posts row `alias`: not
 * deleted, visible (not hidden by reports, not removed), outside private rooms, and a reply only while its
 * parent is shown (a reply is read folded under it: `parent_shown`, migration 010). Take counts, settlement
 * tallies and counts by axis use it; the counters' trigger (migration 010) applies the same rule in SQL of its own.
 */
export const publiclyCounted = (alias: string) => {
  const c = (column: string) => sql.ref(`${alias}.${column}`)
  return sql<boolean>`${c('deleted_at')} is null and ${c('state')} = 'visible' and not ${c('room_private')} and ${c('parent_shown')}`
}
