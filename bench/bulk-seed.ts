/**
 * Bulk data for benchmarks: N posts over M markets in a few categories, written with set-based SQL
 * (generate_series) in batches of 100k rows, so 100k posts take seconds on PGlite and 1M posts about a
 * minute on PostgreSQL. Every row is what the service itself would write:
 * - ids in the service's time-ordered format (`p_` + 9 base-36 characters of milliseconds + 3 of sequence +
 *   8 random), spread over the last 30 days, so seeded and new posts sort together;
 * - one post in four is a reply to the post before it (one level deep, same market), whose reply count
 *   and score include it;
 * - one post in three carries a stance (side, size, price at write time);
 * - scores from the same live formula (core/ranking.ts), `post_nodes` rows for every top-level post, and
 *   the take-count counters (recomputed once at the end rather than by the trigger per row);
 * - settled records for the `sort=record` order: one author in five holds a positive record at every
 *   category (scores spread over 0.5–3.5), one in five a record that is not positive (it ranks as
 *   unranked), the rest none.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../src/server/db/schema.ts'
import { DECAY_SECONDS, TAKE_BOOST } from '../src/core/ranking.ts'

export interface BulkOptions {
  posts: number
  markets?: number
  authors?: number
  categories?: string[]
  /** Rows per INSERT (default 100k). */
  batch?: number
  /** Called after each batch with the rows written so far. */
  progress?: (done: number) => void
}

export async function bulkSeed(db: Kysely<Database>, o: BulkOptions) {
  const markets = o.markets ?? 500
  const authors = o.authors ?? 2000
  const batch = o.batch ?? 100_000
  const cats = o.categories ?? ['crypto', 'politics', 'sports', 'weather', 'science']
  const catList = sql.raw(`array[${cats.map((c) => `'${c}'`).join(',')}]`)
  await sql`insert into accounts (id) select 'a_bench' || g from generate_series(1, ${authors}) g on conflict do nothing`.execute(db)
  await sql`insert into wallets (address, account_id)
    select '0x' || lpad(to_hex(g), 40, '0'), 'a_bench' || g from generate_series(1, ${authors}) g on conflict do nothing`.execute(db)
  await sql`insert into markets (id, title, outcomes, nodes, facet_type, facet_ref, clob, closes_at, decimals, result)
    select '0x' || lpad(to_hex(g), 64, '0'), 'Bench market ' || g, '[{"label":"Yes"},{"label":"No"}]'::jsonb,
      jsonb_build_array(jsonb_build_object('type','category','ref', (${catList})[1 + g % ${cats.length}])),
      'category', (${catList})[1 + g % ${cats.length}], false, now() + interval '7 days', 6, null
    from generate_series(1, ${markets}) g on conflict do nothing`.execute(db)
  await sql`insert into market_nodes (market_id, node_type, node_ref)
    select '0x' || lpad(to_hex(g), 64, '0'), 'category', (${catList})[1 + g % ${cats.length}]
    from generate_series(1, ${markets}) g on conflict do nothing`.execute(db)
  await sql`insert into prices (market_id, side, price_bps)
    select '0x' || lpad(to_hex(g), 64, '0'), s, case when s = 0 then 4000 else 6000 end
    from generate_series(1, ${markets}) g, generate_series(0, 1) s on conflict do nothing`.execute(db)

  // The service's id format: base 36, 9 characters of milliseconds, 3 of sequence, 8 random-looking.
  await sql`create or replace function vk_bench_b36(n bigint, width int) returns text language sql immutable as $$
    select string_agg(substr('0123456789abcdefghijklmnopqrstuvwxyz', ((n / (36::numeric ^ k)::bigint) % 36)::int + 1, 1), '' order by k desc)
    from generate_series(0, width - 1) k $$`.execute(db)
  const now = Date.now()
  const span = 30 * 86400_000
  const step = Math.max(1, Math.floor(span / o.posts))
  const t0 = now - span
  // The take-count trigger would fire once per seeded row; the counters are recomputed once at the end.
  await sql`alter table posts disable trigger posts_market_take_counts`.execute(db)
  // The record-score trigger would read `records` per row; the seed sets `record_score` itself (below).
  await sql`alter table posts disable trigger posts_record_score`.execute(db)
  try {
    for (let from = 1; from <= o.posts; from += batch) {
      const to = Math.min(o.posts, from + batch - 1)
      // Post g: market 1 + g % markets (a reply, g % 4 = 0, shares its parent g-1's market: g-1 is never a reply).
      await sql`with rows as (
          select g, t, ag, m, fc, is_reply, has_reply, stance, rs,
            'p_' || vk_bench_b36(t, 9) || vk_bench_b36(g % 46656, 3) || substr(md5(g::text), 1, 8) as id,
            case when is_reply then 'p_' || vk_bench_b36(t - ${step}, 9) || vk_bench_b36((g - 1) % 46656, 3) || substr(md5((g - 1)::text), 1, 8) end as parent
          from (
            select g, ${t0}::bigint + g::bigint * ${step} as t, (g * 7919) % 13 as ag,
              '0x' || lpad(to_hex(1 + (case when g % 4 = 0 then g - 1 else g end) % ${markets}), 64, '0') as m,
              (${catList})[1 + (1 + (case when g % 4 = 0 then g - 1 else g end) % ${markets}) % ${cats.length}] as fc,
              g % 4 = 0 as is_reply, (g + 1) % 4 = 0 and g + 1 <= ${o.posts} as has_reply, g % 3 = 0 as stance,
            -- The author's record score (the records inserted below: author A = 1 + g % authors holds a positive
            -- one at every category when A % 5 = 0), kept on the row as the trigger on records would.
            case when (1 + g % ${authors}) % 5 = 0 and g % 4 <> 0 then 0.5 + ((1 + g % ${authors}) % 7) * 0.5 else 0 end as rs
            from generate_series(${from}::bigint, ${to}::bigint) g
          ) s
        ),
        ins as (
          insert into posts (id, subject_type, subject_ref, account_id, author, body, parent_id, market_id, facet_type, facet_ref,
              stance_side, stance_size, stance_price_bps, created_at, agrees, replies, score, record_score)
          select id, 'event', m, 'a_bench' || (1 + g % ${authors}), '0x' || lpad(to_hex(1 + g % ${authors}), 40, '0'),
            'Bench post number ' || g || ' with a few words of body text to make it realistic.', parent, m, 'category', fc,
            case when stance then (g % 2)::int end, case when stance then '1000000' end, case when stance then 4000 + (g % 2)::int * 2000 end,
            to_timestamp(t / 1000.0), ag, case when has_reply then 1 else 0 end,
            log(1 + ag + 2 * (case when has_reply then 1 else 0 end)) + case when stance then ${TAKE_BOOST} else 0 end + (t / 1000.0) / ${DECAY_SECONDS},
            rs
          from rows
          returning id, parent_id, facet_type, facet_ref, score, record_score
        )
        insert into post_nodes (post_id, node_type, node_ref, score, record_score)
        select id, facet_type, facet_ref, score, record_score from ins where parent_id is null`.execute(db)
      o.progress?.(to)
    }
  } finally {
    await sql`drop function if exists vk_bench_b36(bigint, int)`.execute(db)
    await sql`alter table posts enable trigger posts_market_take_counts`.execute(db)
    await sql`alter table posts enable trigger posts_record_score`.execute(db)
  }
  await sql`insert into market_take_counts (market_id, side, n)
    select market_id, coalesce(stance_side, -1), count(*)::int from posts
    where market_id is not null and deleted_at is null and state = 'visible' and not room_private
    group by 1, 2
    on conflict (market_id, side) do update set n = excluded.n`.execute(db)
  await sql`insert into records (account_id, facet_type, facet_ref, right_count, wrong_count, void_count, odds_sum, score)
    select 'a_bench' || g, 'category', c, case when g % 5 = 0 then 1 + g % 7 else 0 end, case when g % 5 = 0 then g % 3 else 2 end, 0,
      case when g % 5 = 0 then (1 + g % 7) * 4000 else 0 end, case when g % 5 = 0 then 0.5 + (g % 7) * 0.5 else -1 end
    from generate_series(1, ${authors}) g, unnest(${catList}) c
    where g % 5 in (0, 1)
    on conflict do nothing`.execute(db)
  await sql`analyze`.execute(db)
}
