/**
 * A person's posts (§2.4, §4.2 `postsByAuthor`). Posts belong to the account, so any wallet linked to
 * it reads the same posts (§2.1). Default: takes only (a stance is set), no replies. Hidden posts are
 * seen only by their author (§3.1). So is a reply whose parent is gone (deleted, hidden or removed, or
 * hidden under the venue overlay: `parentGone`): it left every thread with its parent, so only its author
 * still sees it here, marked `hidden: true` like their own hidden posts. `results` says how each resolved
 * market on the page ended, as the chain recorded it; unresolved and CLOB markets are absent (§3.2).
 */
import type { AuthorPostsResult, Labels, MarketResult, Titles } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { encodeCursor } from '../http/cursor.ts'
import { markVenueHidden } from './own-hidden.ts'
import { agreedSet, POST_COLUMNS, toPost, type PostRow } from './post-view.ts'
import { parentGone, visibleTo } from './visibility.ts'

export interface AuthorPostsQuery {
  /** Takes only (default) or every post (`takes=false`, the Discussion tab). */
  takes: boolean
  includeReplies: boolean
  venue: string | null
  limit: number
  /** Last post id of the previous page. */
  after: string | null
}

const EMPTY: AuthorPostsResult = { posts: [], results: {}, labels: {}, titles: {}, hasMore: false, nextCursor: null }

/** The account a wallet belongs to, or null when the service has never seen it. */
export async function accountOfWallet(ctx: ServiceContext, wallet: string): Promise<string | null> {
  const row = await ctx.db.selectFrom('wallets').select('account_id').where('address', '=', wallet.toLowerCase()).executeTakeFirst()
  return row?.account_id ?? null
}

export async function readAuthorPosts(ctx: ServiceContext, reader: string | null, wallet: string, q: AuthorPostsQuery): Promise<AuthorPostsResult> {
  const account = await accountOfWallet(ctx, wallet)
  if (!account) return { ...EMPTY }
  let query = ctx.db
    .selectFrom('posts as p')
    .select(POST_COLUMNS)
    .where('p.account_id', '=', account)
    .where(visibleTo({ reader, venue: q.venue, ownHidden: true }))
  const own = reader === account
  if (q.takes) query = query.where('p.stance_side', 'is not', null)
  if (!q.includeReplies) query = query.where('p.parent_id', 'is', null)
  else if (own) query = query.select((eb) => parentGone(q.venue)(eb).as('parent_gone'))
  else query = query.where((eb) => eb.not(parentGone(q.venue)(eb)))
  if (q.after) query = query.where('p.id', '<', q.after)
  const rows = (await query.orderBy('p.id', 'desc').limit(q.limit + 1).execute()) as (PostRow & { parent_gone?: boolean })[]

  const hasMore = rows.length > q.limit
  const page = rows.slice(0, q.limit)
  const agreed = await agreedSet(ctx, reader, page.map((r) => r.id))
  const posts = page.map((r) => toPost(r, reader, agreed))
  page.forEach((r, i) => {
    if (r.parent_gone) posts[i].hidden = true
  })
  await markVenueHidden(ctx, posts, reader, q.venue)

  const results: Record<string, MarketResult> = {}
  const labels: Labels = {}
  const titles: Titles = {}
  const ids = [...new Set(page.map((r) => r.market_id).filter((x): x is string => !!x))]
  if (ids.length) {
    for (const [id, m] of await ctx.chain.markets(ids)) {
      labels[id] = m.outcomes
      titles[id] = m.title
      // marketFromRow already answers null for CLOB markets (§3.2): their takes stay open.
      if (m.result) results[id] = m.result
    }
  }
  return { posts, results, labels, titles, hasMore, nextCursor: hasMore ? encodeCursor([page[page.length - 1].id]) : null }
}
