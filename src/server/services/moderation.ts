/**
 * Moderation (§3.1, §5.7, §2.10). A scope is a venue id (the venue's owner, or an operator, acts) or
 * '*' (the platform: operators only, no `venueId`). Every action runs in one transaction with its audit
 * row and answers the new state. What each action does:
 *
 * - keep    the post stays. Closes the scope's queue item, settles the scope's reports and lifts the
 *           scope's hide: platform keep returns a report-threshold-hidden post to visible, venue keep
 *           removes that venue's hide. An operator's removal is lifted only by restore.
 * - clear   dismisses the reports: settles the scope's reports and closes the item; visibility unchanged.
 *           Settling: the platform's marks every report of the post settled for the platform
 *           (`platform_settled_at`: the threshold count starts again, the reasons leave its queue); a
 *           venue's marks the reports that went to its queue settled for the venue (`settled_at`). Each
 *           queue reviews on its own, so neither settlement touches the other's open review. The report
 *           threshold is the platform's (§3.1: it hides the post everywhere, and removal everywhere is
 *           operator only, §5.7), so a venue's settlement never lowers its count nor takes the reasons off
 *           the platform's queue; it only closes the venue's own review. Likewise a platform keep or clear
 *           leaves a venue's open item with its reports and reasons: the venue's own rules may still call
 *           for its hide.
 * - hide    with venueId: hidden on that venue only (a venue_hides row), live everywhere else.
 *           Without venueId: platform-level removal (state 'removed'), the same as remove (§3.1).
 * - remove  operator only, no venueId: state 'removed' everywhere (the author still sees it).
 * - restore undoes a hide or removal at the scope: venue: the venue's hide goes; platform: the post
 *           returns to visible (from removed or threshold-hidden). Reports are left as they are.
 * - pin     sets (or with `pinned: false` clears) the post's one pin flag; it never changes visibility.
 *           A venue pins only posts in its own rooms; an operator pins any post.
 * - ban     blocks posting (never reading or trading) at the scope: a venue ban blocks posting from
 *           sessions on that venue and into its rooms, and the venue's `venue=` overlay drops the
 *           wallet's posts; a global ban blocks posting everywhere. Target: `wallet`, or a post's author.
 * - unban   lifts the ban at the scope.
 * Every action that names a post leaves that post's item at the scope in Actioned (created if the post
 * was never reported), so the Actioned tab lists what moderators did. The post must be one the caller may
 * reach (post-access.ts: a private room's post is 404 to outsiders), and a venue acts on a private room's
 * post only when the room is its own: that post is never shown on another venue.
 */
import { ensureAccount, walletOwner } from './accounts.ts'
import { sql, type Kysely, type Transaction } from 'kysely'
import { MSG } from '../../contract/errors.ts'
import type { AuditEntry, AuditPage, ModAction, ModActionResult, ModQueueItem, ModQueuePage, ModState } from '../../contract/types.ts'
import { timeId } from '../../core/ids.ts'
import type { Caller } from '../auth/session.ts'
import type { ServiceContext } from '../context.ts'
import type { Database } from '../db/schema.ts'
import { decodeCursor, encodeCursor } from '../http/cursor.ts'
import { ApiError } from '../http/errors.ts'
import { reachablePost } from './post-access.ts'
import { POST_COLUMNS, agreedSet, toPost, type PostRow } from './post-view.ts'
import { primaryWallets } from './leaderboard.ts'
import { publishThreads, threadsWithPostsOf, type ChangedThread } from './thread-events.ts'
import { requireVenueAdmin } from './venues.ts'

export const PLATFORM = '*'

/** Who may moderate the scope: the venue's owner or an operator; without venueId, operators only. */
export async function requireModerator(ctx: ServiceContext, caller: Caller, venueId: string | null): Promise<string> {
  if (venueId) {
    await requireVenueAdmin(ctx, caller, venueId, MSG.CANNOT_MODERATE)
    return venueId
  }
  // §4.4 rule 6: whoever cannot moderate reads 'you can't moderate this venue' (the platform queue too).
  if (!caller.operator) throw new ApiError(403, 'forbidden', MSG.CANNOT_MODERATE)
  return PLATFORM
}

export interface ModInput {
  action: ModAction
  venueId: string | null
  postId?: string
  wallet?: string
  pinned?: boolean
}

type Tx = Transaction<Database>

/** The post an action names, locked: reached by the caller (post-access.ts), hidden and removed posts included. */
async function lockPost(tx: Tx, ctx: ServiceContext, caller: Caller, id: string, venueId: string | null) {
  const p = await reachablePost(ctx, caller, id, { db: tx, lock: true, hidden: true })
  if (venueId && p.room_private && p.room_venue_id !== venueId) throw new ApiError(403, 'forbidden', "a private room's posts are moderated by the room's own venue")
  return p
}

/**
 * Settles the scope's reports of a post (see the header). Each queue settles only for itself: the platform
 * marks every report of the post `platform_settled_at` (the threshold's count starts again), a venue marks
 * the reports in its queue `settled_at` (the platform keeps counting them). Neither deletes a report, so
 * neither takes a report or its reason from the other's open review.
 */
async function settleReports(tx: Tx, ctx: ServiceContext, postId: string, scope: string) {
  if (scope !== PLATFORM) {
    await tx.updateTable('reports').set({ settled_at: ctx.now() }).where('post_id', '=', postId).where('venue_id', '=', scope).where('settled_at', 'is', null).execute()
    return
  }
  await tx.updateTable('reports').set({ platform_settled_at: ctx.now() }).where('post_id', '=', postId).where('platform_settled_at', 'is', null).execute()
  await tx.updateTable('posts').set({ report_count: 0 }).where('id', '=', postId).execute()
}

/**
 * The reports a scope has to review: the platform's are the post's reports it has not settled (its
 * `report_count`, the threshold's count); a venue's are those that went to its queue and that it has not settled.
 */
function scopeReports(db: Kysely<Database>, scope: string) {
  let q = db.selectFrom('reports').select(['post_id', 'reason'])
  if (scope !== PLATFORM) q = q.where('venue_id', '=', scope).where('settled_at', 'is', null)
  else q = q.where('platform_settled_at', 'is', null)
  return q
}

/** Whether a post row changed state. */
async function setState(tx: Tx, postId: string, to: 'visible' | 'removed', onlyFrom?: 'hidden'): Promise<boolean> {
  let q = tx.updateTable('posts').set({ state: to }).where('id', '=', postId).where('state', '!=', to)
  if (onlyFrom) q = q.where('state', '=', onlyFrom)
  return (await q.returning('id').execute()).length > 0
}

/** Whether the venue's hide was added or lifted (false: it already was as asked). */
async function venueHide(tx: Tx, ctx: ServiceContext, postId: string, venueId: string, caller: Caller, on: boolean): Promise<boolean> {
  const rows = on
    ? await tx
        .insertInto('venue_hides')
        .values({ venue_id: venueId, post_id: postId, by_account: caller.accountId, at: ctx.now() })
        .onConflict((oc) => oc.columns(['venue_id', 'post_id']).doNothing())
        .returning('post_id')
        .execute()
    : await tx.deleteFrom('venue_hides').where('venue_id', '=', venueId).where('post_id', '=', postId).returning('post_id').execute()
  return rows.length > 0
}

async function closeItem(tx: Tx, ctx: ServiceContext, postId: string, scope: string, action: ModAction, caller: Caller) {
  await tx
    .insertInto('mod_items')
    .values({ post_id: postId, scope, state: 'actioned', last_action: action, last_actor: caller.wallet, updated_at: ctx.now() })
    .onConflict((oc) => oc.columns(['scope', 'post_id']).doUpdateSet({ state: 'actioned', last_action: action, last_actor: caller.wallet, updated_at: ctx.now() }))
    .execute()
}

/** The account of a wallet; a ban of a wallet never seen creates its account (so the ban holds at its first sign-in). */
async function accountOfWallet(tx: Tx, ctx: ServiceContext, wallet: string, create: boolean): Promise<string | null> {
  return create ? ensureAccount(tx, wallet, ctx.now()) : walletOwner(tx, wallet)
}

/** Runs one moderation action. The caller was authorised for the scope by `requireModerator`. */
export async function moderate(ctx: ServiceContext, caller: Caller, scope: string, input: ModInput): Promise<ModActionResult> {
  const { action } = input
  const venueId = scope === PLATFORM ? null : scope
  if (action === 'remove' && venueId) throw new ApiError(400, 'validation-failed', 'remove is platform-wide and takes no venueId; a venue hides a post with hide', { param: 'venueId' })
  const postActions: ModAction[] = ['keep', 'hide', 'pin', 'clear', 'remove', 'restore']
  if (postActions.includes(action) && !input.postId) throw new ApiError(400, 'validation-failed', `'postId' is required for ${action}`, { param: 'postId' })
  if (postActions.includes(action) && input.wallet) throw new ApiError(400, 'validation-failed', `'wallet' is only for ban and unban`, { param: 'wallet' })
  if ((action === 'ban' || action === 'unban') && !input.postId && !input.wallet)
    throw new ApiError(400, 'validation-failed', `${action} needs 'wallet' or 'postId' (the post's author)`, { param: 'wallet' })
  if (input.pinned !== undefined && action !== 'pin') throw new ApiError(400, 'validation-failed', "'pinned' is only for pin", { param: 'pinned' })

  const out = await ctx.db.transaction().execute(async (tx) => {
    const post = input.postId ? await lockPost(tx, ctx, caller, input.postId, venueId) : null
    const walletTarget = input.wallet ? await accountOfWallet(tx, ctx, input.wallet, action === 'ban') : null
    let ban: ModActionResult['ban'] = null
    /** Threads whose shown posts the action changes, besides the post's own: a ban's or unban's author's threads. */
    let threads: ChangedThread[] = []
    /**
     * Whether a thread read shows something else now (§6.1 fires on a change, and only then): settling reports
     * changes no read, nor does an action that finds the post as asked already.
     */
    let changed = false
    switch (action) {
      case 'keep':
        await settleReports(tx, ctx, post!.id, scope)
        changed = venueId ? await venueHide(tx, ctx, post!.id, venueId, caller, false) : await setState(tx, post!.id, 'visible', 'hidden')
        break
      case 'clear':
        await settleReports(tx, ctx, post!.id, scope)
        break
      case 'hide':
        changed = venueId ? await venueHide(tx, ctx, post!.id, venueId, caller, true) : await setState(tx, post!.id, 'removed')
        break
      case 'remove':
        changed = await setState(tx, post!.id, 'removed')
        break
      case 'restore':
        changed = venueId ? await venueHide(tx, ctx, post!.id, venueId, caller, false) : await setState(tx, post!.id, 'visible')
        break
      case 'pin': {
        if (venueId) {
          const room = post!.room_id ? await tx.selectFrom('rooms').select('venue_id').where('id', '=', post!.room_id).executeTakeFirst() : undefined
          if (room?.venue_id !== venueId) throw new ApiError(403, 'forbidden', "a venue pins only posts in its own rooms")
        }
        // Pinning again moves the pin's time (pins are shown newest first); unpinning a post with no pin changes nothing.
        let q = tx.updateTable('posts').set({ pinned_at: input.pinned === false ? null : ctx.now() }).where('id', '=', post!.id)
        if (input.pinned === false) q = q.where('pinned_at', 'is not', null)
        changed = (await q.returning('id').execute()).length > 0
        break
      }
      case 'ban':
      case 'unban': {
        const target = walletTarget ?? post?.account_id ?? null
        if (post && walletTarget && walletTarget !== post.account_id) throw new ApiError(400, 'validation-failed', "'wallet' is not the author of 'postId'", { param: 'wallet' })
        if (target === caller.accountId) throw new ApiError(400, 'validation-failed', "you can't ban yourself")
        let banned = false
        if (!target) {
          // Unban of a wallet the service has never seen: nothing is banned.
        } else if (action === 'ban')
          banned =
            (
              await tx
                .insertInto('bans')
                .values({ scope, account_id: target, by_account: caller.accountId, at: ctx.now() })
                .onConflict((oc) => oc.columns(['scope', 'account_id']).doNothing())
                .returning('account_id')
                .execute()
            ).length > 0
        else banned = (await tx.deleteFrom('bans').where('scope', '=', scope).where('account_id', '=', target).returning('account_id').execute()).length > 0
        // A venue's ban hides (or shows again) the author's posts under that venue's overlay on every thread
        // they wrote in (§6.1), in rooms too (a private room's only on its room topic: thread-events.ts). A
        // platform ban stops their writing and changes no read, and a ban already in place changes nothing.
        if (target && venueId && banned)
          threads = await threadsWithPostsOf(tx, 'account_id', target)
        const shown = input.wallet ?? (target ? ((await primaryWallets(ctx, [target], tx)).get(target) ?? '') : '')
        ban = { wallet: shown, scope, banned: action === 'ban' }
        break
      }
    }
    if (post) await closeItem(tx, ctx, post.id, scope, action, caller)
    await tx
      .insertInto('mod_audit')
      .values({
        id: timeId('m_'),
        scope,
        actor_account: caller.accountId,
        actor_wallet: caller.wallet,
        action,
        post_id: post?.id ?? null,
        target_account: action === 'ban' || action === 'unban' ? (walletTarget ?? post?.account_id ?? null) : (post?.account_id ?? null),
        at: ctx.now(),
      })
      .execute()
    return { post, ban, threads, changed }
  })

  let postState: ModActionResult['post'] = null
  let item: ModActionResult['item'] = null
  if (out.post) {
    const p = await ctx.db.selectFrom('posts').select(['state', 'pinned_at', 'report_count']).where('id', '=', out.post.id).executeTakeFirstOrThrow()
    const hidden = venueId
      ? !!(await ctx.db.selectFrom('venue_hides').select('post_id').where('venue_id', '=', venueId).where('post_id', '=', out.post.id).executeTakeFirst())
      : false
    const reports = venueId ? (await scopeReports(ctx.db, scope).where('post_id', '=', out.post.id).execute()).length : p.report_count
    postState = { state: p.state, hiddenHere: hidden, pinned: !!p.pinned_at, reports }
    const it = await ctx.db.selectFrom('mod_items').select('state').where('scope', '=', scope).where('post_id', '=', out.post.id).executeTakeFirst()
    item = it ? { state: it.state } : null
  }
  await publishThreads(ctx, out.post && out.changed ? [...out.threads, out.post] : out.threads)
  return { action, venueId, postId: out.post?.id ?? null, post: postState, item, ban: out.ban }
}

const epochUs = sql<string>`(extract(epoch from mi.updated_at) * 1000000)::bigint::text`

/** One page of a scope's queue, newest activity first. Includes posts the report threshold hid. */
export async function queuePage(ctx: ServiceContext, caller: Caller, scope: string, state: ModState, limit: number, cursor?: string): Promise<ModQueuePage> {
  const after = decodeCursor(cursor, ['string', 'string']) as [string, string] | null
  if (after && !/^\d{1,18}$/.test(after[0])) throw new ApiError(400, 'validation-failed', "'cursor' is not a cursor this service issued", { param: 'cursor' })
  let q = ctx.db
    .selectFrom('mod_items as mi')
    .innerJoin('posts as p', 'p.id', 'mi.post_id')
    .select(POST_COLUMNS)
    .select(['mi.state as item_state', 'mi.last_action', 'mi.last_actor', 'mi.updated_at as item_at', epochUs.as('item_us'), 'p.report_count'])
    .where('mi.scope', '=', scope)
    .where('mi.state', '=', state)
    .where('p.deleted_at', 'is', null)
  if (after) q = q.where(sql<boolean>`((extract(epoch from mi.updated_at) * 1000000)::bigint, mi.post_id) < (${after[0]}::bigint, ${after[1]})`)
  const rows = await q.orderBy('mi.updated_at', 'desc').orderBy('mi.post_id', 'desc').limit(limit + 1).execute()
  const page = rows.slice(0, limit)
  const ids = page.map((r) => r.id)
  const reasons = new Map<string, string[]>()
  const counts = new Map<string, number>()
  const hidesHere = new Set<string>()
  const banned = new Set<string>()
  if (ids.length) {
    const authors = [...new Set(page.map((r) => r.account_id))]
    for (const b of await ctx.db.selectFrom('bans').select('account_id').where('scope', '=', scope).where('account_id', 'in', authors).execute())
      banned.add(b.account_id)
    const rr = await scopeReports(ctx.db, scope).where('post_id', 'in', ids).orderBy('created_at').execute()
    for (const r of rr) {
      counts.set(r.post_id, (counts.get(r.post_id) ?? 0) + 1)
      const list = reasons.get(r.post_id) ?? []
      if (!list.includes(r.reason) && list.length < 20) list.push(r.reason)
      reasons.set(r.post_id, list)
    }
    if (scope !== PLATFORM) {
      const hh = await ctx.db.selectFrom('venue_hides').select('post_id').where('venue_id', '=', scope).where('post_id', 'in', ids).execute()
      for (const h of hh) hidesHere.add(h.post_id)
    }
  }
  const agreed = await agreedSet(ctx, caller.accountId, ids)
  const items: ModQueueItem[] = page.map((r) => ({
    post: toPost(r as PostRow, caller.accountId, agreed),
    reports: scope === PLATFORM ? r.report_count : (counts.get(r.id) ?? 0),
    reasons: reasons.get(r.id) ?? [],
    thresholdHidden: r.state === 'hidden',
    hiddenHere: scope === PLATFORM ? r.state !== 'visible' : hidesHere.has(r.id),
    state: r.item_state,
    lastAction: r.last_action ? { action: r.last_action as ModAction, at: new Date(r.item_at).toISOString(), by: r.last_actor ?? '' } : null,
    postState: r.state as ModQueueItem['postState'],
    authorBanned: banned.has(r.account_id),
  }))
  const last = page[page.length - 1]
  return { items, nextCursor: rows.length > limit && last ? encodeCursor([last.item_us, last.id]) : null }
}

/** One page of a scope's audit log, newest first. */
export async function auditPage(ctx: ServiceContext, scope: string, limit: number, cursor?: string): Promise<AuditPage> {
  const after = decodeCursor(cursor, ['string']) as [string] | null
  let q = ctx.db.selectFrom('mod_audit').selectAll().where('scope', '=', scope)
  if (after) q = q.where('id', '<', after[0])
  const rows = await q.orderBy('id', 'desc').limit(limit + 1).execute()
  const page = rows.slice(0, limit)
  const targets = await primaryWallets(ctx, [...new Set(page.map((r) => r.target_account).filter((x): x is string => !!x))])
  const entries: AuditEntry[] = page.map((r) => ({
    id: r.id,
    action: r.action as ModAction,
    venueId: r.scope === PLATFORM ? null : r.scope,
    actor: r.actor_wallet,
    postId: r.post_id,
    target: r.target_account ? (targets.get(r.target_account) ?? null) : null,
    at: new Date(r.at).toISOString(),
  }))
  const last = page[page.length - 1]
  return { entries, nextCursor: rows.length > limit && last ? encodeCursor([last.id]) : null }
}
