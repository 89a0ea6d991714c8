/**
 * Settled records (§2.12): per account and node, right and wrong takes (a void is never wrong), the
 * odds beaten over right takes, and a score for ranking. One take counts per account and market: the
 * first one written. Deleting a take does not take it off the record: a stance is frozen proof. A take inside a
 * private room never counts: records are read by everyone (records, boards, the record order and chips, signals),
 * so counting it would tell outsiders about the room's discussion (§2.6 "exclude private-room discussion", §7).
 * Rows with facet ('*','*') are the global record. CLOB markets have no results, so they never settle.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import type { Database } from '../db/schema.ts'
import { RECORD_LOCK_KEY } from '../db/record-lock.ts'
import type { NodeRef, SettledRecord } from '../../contract/types.ts'
import { recordScore } from '../../core/ranking.ts'
import type { ServiceContext } from '../context.ts'
import { parseJson } from '../chain/markets.ts'

export const GLOBAL_FACET = { type: '*', ref: '*' } as const

/**
 * SQL: `rec` is the record of `post`'s author at the post's facet (the global record when the post has
 * none). `post` names a posts row in the statement (`p`, an inserted row…).
 */
export const recordAtFacet = (post: RawBuilder<unknown>) =>
  sql<boolean>`rec.account_id = ${post}.account_id and rec.facet_type = coalesce(${post}.facet_type, '*')
    and rec.facet_ref = coalesce(${post}.facet_ref, '*')`

/** SQL: the author's record score at `post`'s facet when positive, else 0 (the `sort=record` key). */
export const positiveRecordScore = (post: RawBuilder<unknown>) =>
  sql<number>`coalesce((select rec.score from records rec where ${recordAtFacet(post)} and rec.score > 0), 0)`

interface Tally {
  right: number
  wrong: number
  void: number
  odds: number
}

async function tallies(db: Kysely<Database>, accountIds: string[], facet: { type: string; ref: string }) {
  const q = db
    .selectFrom('posts as p')
    .innerJoin('markets as m', 'm.id', 'p.market_id')
    .select(['p.account_id', 'p.market_id', 'p.stance_side', 'p.stance_price_bps', 'm.result'])
    .distinctOn(['p.account_id', 'p.market_id'])
    .where('p.account_id', 'in', accountIds)
    .where('p.stance_side', 'is not', null)
    .where('p.room_private', '=', false)
    .where('m.result', 'is not', null)
    .where('m.clob', '=', false)
    .orderBy('p.account_id')
    .orderBy('p.market_id')
    .orderBy('p.id')
  const rows = await (facet.type === '*' ? q : q.where('m.facet_type', '=', facet.type).where('m.facet_ref', '=', facet.ref)).execute()
  const out = new Map<string, Tally>()
  for (const id of accountIds) out.set(id, { right: 0, wrong: 0, void: 0, odds: 0 })
  for (const r of rows) {
    const t = out.get(r.account_id)!
    const result = parseJson<{ winner: number } | { void: true }>(r.result)
    if ('void' in result) t.void++
    else if (result.winner === r.stance_side) {
      t.right++
      if (r.stance_price_bps != null) t.odds += 10_000 - r.stance_price_bps
    } else t.wrong++
  }
  return out
}

async function writeTallies(db: Kysely<Database>, now: Date, facet: { type: string; ref: string }, t: Map<string, Tally>) {
  for (const [accountId, v] of t) {
    const row = {
      account_id: accountId,
      facet_type: facet.type,
      facet_ref: facet.ref,
      right_count: v.right,
      wrong_count: v.wrong,
      void_count: v.void,
      odds_sum: v.odds,
      score: recordScore(v.right, v.wrong),
      updated_at: now,
    }
    await db
      .insertInto('records')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['facet_type', 'facet_ref', 'account_id']).doUpdateSet({
          right_count: row.right_count,
          wrong_count: row.wrong_count,
          void_count: row.void_count,
          odds_sum: row.odds_sum,
          score: row.score,
          updated_at: row.updated_at,
        }),
      )
      .execute()
  }
}

/**
 * Recomputes the records of every account holding a take on this market, at its facet and globally, in one
 * transaction (`db`'s when it is one: the market's resolution). Before it reads the tallies it takes each
 * record's lock (migration 008's key, in key order), so two resolutions on the same accounts run one after
 * the other and the second reads the first's result: neither writes a tally that misses the other's market.
 */
export async function recomputeRecordsForMarket(ctx: ServiceContext, marketId: string, db: Kysely<Database> = ctx.db): Promise<void> {
  if (!db.isTransaction) return db.transaction().execute((tx) => recomputeRecordsForMarket(ctx, marketId, tx))
  const m = await db.selectFrom('markets').select(['facet_type', 'facet_ref', 'clob']).where('id', '=', marketId).executeTakeFirst()
  if (!m || m.clob) return
  const accounts = await db
    .selectFrom('posts')
    .select('account_id')
    .distinct()
    .where('market_id', '=', marketId)
    .where('stance_side', 'is not', null)
    .where('room_private', '=', false)
    .execute()
  const ids = accounts.map((a) => a.account_id)
  if (!ids.length) return
  const facets = [GLOBAL_FACET as { type: string; ref: string }]
  if (m.facet_type && m.facet_ref) facets.push({ type: m.facet_type, ref: m.facet_ref })
  const keys = sql.join(facets.map((f) => sql`(${f.type}, ${f.ref})`))
  await sql`select count(pg_advisory_xact_lock(k)) from (select distinct ${sql.raw(RECORD_LOCK_KEY('a.id', 'f.t', 'f.r'))} as k
    from unnest(${ids}::text[]) as a(id), (values ${keys}) as f(t, r) order by k) x`.execute(db)
  for (const f of facets) await writeTallies(db, ctx.now(), f, await tallies(db, ids, f))
}

/**
 * Migration 012: a take inside a private room no longer counts (session 35; it counted before). The records of
 * every account holding such a take on a settled market are written again, globally and at each such market's
 * facet, so what was settled before the rule stops telling outsiders about the room (the service is not serving
 * yet: no lock is needed).
 */
export async function recomputeRecordsWithPrivateTakes(db: Kysely<Database>, now: Date): Promise<void> {
  const rows = await db
    .selectFrom('posts as p')
    .innerJoin('markets as m', 'm.id', 'p.market_id')
    .select(['p.account_id', 'm.facet_type', 'm.facet_ref'])
    .distinct()
    .where('p.room_private', '=', true)
    .where('p.stance_side', 'is not', null)
    .where('m.result', 'is not', null)
    .where('m.clob', '=', false)
    .execute()
  const byFacet = new Map<string, { facet: { type: string; ref: string }; ids: Set<string> }>()
  const add = (facet: { type: string; ref: string }, id: string) => {
    const key = `${facet.type} ${facet.ref}`
    const at = byFacet.get(key) ?? byFacet.set(key, { facet, ids: new Set() }).get(key)!
    at.ids.add(id)
  }
  for (const r of rows) {
    add(GLOBAL_FACET, r.account_id)
    if (r.facet_type && r.facet_ref) add({ type: r.facet_type, ref: r.facet_ref }, r.account_id)
  }
  for (const { facet, ids } of byFacet.values()) await writeTallies(db, now, facet, await tallies(db, [...ids], facet))
}

/** Records of many accounts at one facet (null = global), with rank and population. */
/** SQL: the number of ranked accounts at a facet (at least one settled right or wrong call). */
const populationOf = (f: { type: string; ref: string }) =>
  sql<number>`(select count(*)::int from records where facet_type = ${f.type} and facet_ref = ${f.ref} and right_count + wrong_count > 0)`

/** The number of ranked accounts at a facet (global when null): a board's and a record's `population`. */
export async function populationAt(ctx: ServiceContext, facet: NodeRef | null): Promise<number> {
  const { rows } = await sql<{ n: number }>`select ${populationOf(facet ?? GLOBAL_FACET)} as n`.execute(ctx.db)
  return rows[0].n
}

export async function recordsFor(ctx: ServiceContext, accountIds: string[], facet: NodeRef | null): Promise<Map<string, SettledRecord>> {
  const f = facet ?? GLOBAL_FACET
  const out = new Map<string, SettledRecord>()
  const ids = [...new Set(accountIds)]
  // One statement: the population, and the accounts' records with their rank (a row with nulls when none has one).
  const { rows } = await sql<{
    population: number
    account_id: string | null
    right_count: number
    wrong_count: number
    void_count: number
    odds_sum: number
    above: number
  }>`select ${populationOf(f)} as population, r.account_id, r.right_count, r.wrong_count, r.void_count, r.odds_sum,
      (select count(*)::int from records o where o.facet_type = r.facet_type and o.facet_ref = r.facet_ref
        and o.right_count + o.wrong_count > 0 and o.score > r.score) as above
    from (select 1) one
    left join records r on r.facet_type = ${f.type} and r.facet_ref = ${f.ref} and r.account_id = any(${ids}::text[])`.execute(ctx.db)
  const population = rows[0]?.population ?? 0
  const byId = new Map(rows.filter((r) => r.account_id).map((r) => [r.account_id!, r]))
  for (const id of ids) {
    const r = byId.get(id)
    const settled = r ? r.right_count + r.wrong_count : 0
    out.set(id, {
      facet: facet ?? null,
      right: r?.right_count ?? 0,
      wrong: r?.wrong_count ?? 0,
      void: r?.void_count ?? 0,
      oddsBeatenBps: r?.odds_sum ?? 0,
      rank: r && settled > 0 ? r.above + 1 : null,
      population,
    })
  }
  return out
}
