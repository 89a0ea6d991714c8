/**
 * A page of posts in one statement. A page is its rows (a ranked, limited query of `POST_COLUMNS`), and
 * per row: its replies visible to the reader (one level, the newest `perParent`, shown oldest first), whether the
 * reader agreed with it and with each reply, and its market's title, outcome labels and result (from the
 * service's `markets` table, which the chain source keeps).
 *
 * Why one statement: on the embedded store every statement pays a fixed cost of several protocol round
 * trips inside PGlite, and on PostgreSQL a network round trip; a page that issued rows, agrees, replies
 * and markets as four statements spent most of its time there (docs/PERFORMANCE.md, service overhead).
 * The extras ride along as correlated subqueries and one join, so the database does the same index
 * lookups as before, in one trip.
 */
import { sql, type CompiledQuery, type Expression, type RawBuilder } from 'kysely'
import type { Labels, MarketResult, OutcomeLabel, Post, Titles } from '../../contract/types.ts'
import { LIMITS } from '../../contract/limits.ts'
import type { ServiceContext } from '../context.ts'
import { parseJson } from '../chain/markets.ts'
import { POST_COLUMNS, toPost, type PostRow } from './post-view.ts'
import { visibleTo, type ReadScope } from './visibility.ts'

export interface ExtrasSpec {
  /** The reader, for `agreed` (null: signed out, no agrees read). */
  reader: string | null
  /** Who may see the replies; null: no replies are read. */
  replies: ReadScope | null
  /**
   * Replies per parent, the newest ones (default `LIMITS.repliesPerParent`), so a reply just written is always
   * on the page (§4.4 "A reply written here is read on the market page"); the earlier ones are read page by
   * page (replies.ts).
   */
  perParent?: number
}

/** A reply as the page statement returns it: a post row (json), with the reader's agree. */
type ReplyRow = PostRow & { agreed: boolean | null }

export type PageRow<R extends PostRow = PostRow> = R & {
  agreed: boolean | null
  reply_rows: ReplyRow[] | null
  market_title: string | null
  market_outcomes: OutcomeLabel[] | null
  market_result: MarketResult | null
  market_clob: boolean | null
}

/** Whether `reader` agreed with the post `id`: a boolean column, null when signed out. */
function agreedOf(reader: string | null, id: RawBuilder<string>) {
  if (!reader) return sql<boolean | null>`null::boolean`
  return sql<boolean>`exists (select 1 from reactions ra where ra.post_id = ${id} and ra.account_id = ${reader} and ra.kind = 'agree')`
}

/**
 * `POST_COLUMNS` of the table or subquery `alias`, as they must survive json: the numeric stance size as
 * text (a json number would lose digits). Used for the rows and their replies alike.
 */
const POST_NAMES: string[] = POST_COLUMNS.map((c) => c.slice(2))
const jsonPostColumns = (alias: string) =>
  POST_NAMES.map((c) => (c === 'stance_size' ? sql<string>`${sql.ref(`${alias}.stance_size`)}::text`.as(c) : sql.ref(`${alias}.${c}`).as(c)))

function repliesColumn(ctx: ServiceContext, spec: ExtrasSpec) {
  if (!spec.replies) return sql<null>`null::json`
  const replies = ctx.db
    .selectFrom('posts as p')
    .select(jsonPostColumns('p'))
    .select(agreedOf(spec.reader, sql`p.id`).as('agreed'))
    .where(sql<boolean>`p.parent_id = r.id`)
    .where(visibleTo(spec.replies))
    .orderBy('p.id', 'desc')
    .limit(spec.perParent ?? LIMITS.repliesPerParent)
  return sql<ReplyRow[]>`(select coalesce(json_agg(x order by x.id), '[]'::json) from (${replies}) x)`
}

/** Columns of `rows` as the page statement returns them: the post's (json-safe), then its sort keys. */
const rowColumns = (keys: string[]) =>
  sql.join([...jsonPostColumns('r'), ...keys.filter((k) => !POST_NAMES.includes(k)).map((k) => sql.ref(`r.${k}`))])

/** What a page statement answers: one row, the page's rows as one json array (text on some drivers). */
export type PageStatementRow<R extends PostRow = PostRow> = { page: PageRow<R>[] | string }

/**
 * The page statement over `rows` (a parenthesized subquery selecting `POST_COLUMNS`, plus the sort keys
 * `keys`: a Kysely select embeds as one) with the page's extras, in the order of `keys` (descending).
 *
 * The statement answers one json value: the page's rows as an array. One field instead of ~30 per row
 * keeps the drivers' per-field decoding off the page's path (on PGlite it cost more than the query).
 */
export function pageStatement<R extends PostRow>(ctx: ServiceContext, rows: Expression<R>, keys: string[], spec: ExtrasSpec): RawBuilder<PageStatementRow<R>> {
  const order = keys.length ? sql`order by ${sql.join(keys.map((c) => sql`${sql.ref(`t.${c}`)} desc`))}` : sql``
  return sql<PageStatementRow<R>>`select coalesce(json_agg(t ${order}), '[]'::json) as page from (
    select ${rowColumns(keys)}, ${agreedOf(spec.reader, sql`r.id`)} as agreed, ${repliesColumn(ctx, spec)} as reply_rows,
      m.title as market_title, m.outcomes as market_outcomes, m.result as market_result, m.clob as market_clob
    from ${rows} r left join lateral (select title, outcomes, result, clob from markets where id = r.market_id limit 1) m on true) t`
}

/** Runs a compiled page statement (statement-shapes.ts, or `pageStatement(…).compile(db)`) and answers its rows. */
export async function runPageStatement<R extends PostRow>(ctx: ServiceContext, q: CompiledQuery<PageStatementRow<R>>): Promise<PageRow<R>[]> {
  const { rows } = await ctx.db.executeQuery(q)
  return parseJson<PageRow<R>[]>(rows[0].page)
}

/** The extras of rows already read (a page assembled from several queries), in one statement, in their order. */
export async function extrasOf<R extends PostRow>(ctx: ServiceContext, rows: R[], spec: ExtrasSpec): Promise<PageRow<R>[]> {
  if (!rows.length) return []
  const byId = ctx.db.selectFrom('posts as p').select(POST_COLUMNS).where('p.id', 'in', rows.map((r) => r.id)) as unknown as Expression<PostRow>
  const found = new Map((await runPageStatement(ctx, pageStatement(ctx, byId, [], spec).compile(ctx.db))).map((x) => [x.id, x]))
  return rows.map((r) => {
    // A post deleted between the two reads keeps its row, without extras.
    const x = found.get(r.id)
    return {
      ...r,
      agreed: x?.agreed ?? null,
      reply_rows: x?.reply_rows ?? null,
      market_title: x?.market_title ?? null,
      market_outcomes: x?.market_outcomes ?? null,
      market_result: x?.market_result ?? null,
      market_clob: x?.market_clob ?? null,
    }
  })
}

/** The wire posts of page rows, their threads (replies keyed by parent id), labels and titles. */
export function pageView<R extends PostRow>(rows: PageRow<R>[], reader: string | null) {
  const posts: Post[] = []
  const threads: Record<string, Post[]> = {}
  const labels: Labels = {}
  const titles: Titles = {}
  const results = new Map<string, MarketResult | null>()
  for (const r of rows) {
    posts.push(toPost(r, reader, r.agreed))
    const replies = r.reply_rows
    if (replies?.length) threads[r.id] = replies.map((x) => toPost(x, reader, x.agreed))
    if (r.market_id && r.market_title != null) {
      labels[r.market_id] = r.market_outcomes ?? []
      titles[r.market_id] = r.market_title
      // A CLOB market has no results yet (§3.2), as chain/markets.ts marketFromRow.
      results.set(r.market_id, r.market_clob ? null : r.market_result)
    }
  }
  return { posts, threads, labels, titles, results }
}
