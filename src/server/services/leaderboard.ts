/**
 * Leaderboards and room boards (§2.9, §2.12): accounts ranked by their settled record at one facet
 * (a node, or global). The rank is computed within the facet — the records table keeps one row per
 * account and facet — never sliced from the global board. Ranked means at least one right or wrong
 * take at the facet; `rank` is 1 + the number of ranked accounts with a higher score (ties share a
 * rank); `population` is the number of ranked accounts. Unranked is `rank: null`, never last place.
 * Pages are keyset-paged on (ranked first, score desc, account id).
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import type { BoardEntry, NodeRef } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { encodeCursor, decodeCursor } from '../http/cursor.ts'
import { ApiError } from '../http/errors.ts'
import { GLOBAL_FACET, populationAt } from './records.ts'

type Facet = { type: string; ref: string }
const facetOf = (f: NodeRef | null): Facet => f ?? GLOBAL_FACET

/** The first-linked wallet of each account: the wallet a board shows. */
export async function primaryWallets(ctx: ServiceContext, accountIds: string[], db: Kysely<Database> = ctx.db): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  if (!accountIds.length) return out
  const rows = await db
    .selectFrom('wallets')
    .select(['account_id', 'address'])
    .where('account_id', 'in', accountIds)
    .orderBy('account_id')
    .orderBy('linked_at')
    .orderBy('address')
    .execute()
  for (const r of rows) if (!out.has(r.account_id)) out.set(r.account_id, r.address)
  return out
}

interface PageOpts {
  limit: number
  cursor?: string
  /** Only active members of this room (a room board); otherwise ranked accounts only (a leaderboard). */
  roomId?: string
}

function readCursor(cursor: string | undefined): { grp: number; score: number; account: string } | null {
  const v = decodeCursor(cursor, ['number', 'number', 'string'])
  if (!v) return null
  const [grp, score, account] = v as [number, number, string]
  if ((grp !== 0 && grp !== 1) || !Number.isFinite(score)) throw new ApiError(400, 'validation-failed', "'cursor' is not a cursor this service issued", { param: 'cursor' })
  return { grp, score, account }
}

/** One page of a board at a facet. */
export async function boardPage(ctx: ServiceContext, facet: NodeRef | null, opts: PageOpts): Promise<{ entries: BoardEntry[]; population: number; nextCursor: string | null }> {
  const f = facetOf(facet)
  const after = readCursor(opts.cursor)
  const population = await populationAt(ctx, facet)
  const settled = sql<number>`coalesce(r.right_count, 0) + coalesce(r.wrong_count, 0)`
  const grp = sql<number>`(case when coalesce(r.right_count, 0) + coalesce(r.wrong_count, 0) > 0 then 0 else 1 end)`
  const score = sql<number>`coalesce(r.score, 0)`
  const base = opts.roomId
    ? ctx.db
        .selectFrom('room_members as m')
        .leftJoin('records as r', (j) => j.onRef('r.account_id', '=', 'm.account_id').on('r.facet_type', '=', f.type).on('r.facet_ref', '=', f.ref))
        .select('m.account_id as account_id')
        .where('m.room_id', '=', opts.roomId)
        .where('m.left_at', 'is', null)
    : ctx.db
        .selectFrom('records as r')
        .select('r.account_id as account_id')
        .where('r.facet_type', '=', f.type)
        .where('r.facet_ref', '=', f.ref)
        .where(sql<boolean>`r.right_count + r.wrong_count > 0`)
  let q = base.select([
    grp.as('grp'),
    score.as('score'),
    sql<number>`coalesce(r.right_count, 0)`.as('right'),
    sql<number>`coalesce(r.wrong_count, 0)`.as('wrong'),
    sql<number>`(case when ${settled} > 0 then 1 + (select count(*)::int from records o where o.facet_type = ${f.type} and o.facet_ref = ${f.ref}
        and o.right_count + o.wrong_count > 0 and o.score > r.score) end)`.as('rank'),
  ])
  if (after) {
    q = q.where(
      sql<boolean>`(${grp} > ${after.grp} or (${grp} = ${after.grp} and ${score} < ${after.score})
        or (${grp} = ${after.grp} and ${score} = ${after.score} and ${sql.ref(opts.roomId ? 'm.account_id' : 'r.account_id')} > ${after.account}))`,
    )
  }
  const rows = await q
    .orderBy(grp)
    .orderBy(score, 'desc')
    .orderBy(opts.roomId ? 'm.account_id' : 'r.account_id')
    .limit(opts.limit + 1)
    .execute()
  const more = rows.length > opts.limit
  const page = rows.slice(0, opts.limit)
  const wallets = await primaryWallets(ctx, page.map((r) => r.account_id))
  const entries: BoardEntry[] = page.map((r) => ({
    wallet: wallets.get(r.account_id) ?? '',
    rank: r.rank ?? null,
    population,
    right: r.right,
    wrong: r.wrong,
  }))
  const last = page[page.length - 1]
  return { entries, population, nextCursor: more && last ? encodeCursor([last.grp, last.score, last.account_id]) : null }
}
