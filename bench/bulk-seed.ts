/**
 * Bulk data for benchmarks: N top-level posts over M markets in a few categories, written with set-based
 * SQL (generate_series) so 100k rows take seconds. Every row is what the service itself would write:
 * scores from the same live formula, post_nodes for the category index, a stance on one post in three.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../src/server/db/schema.ts'
import { DECAY_SECONDS, TAKE_BOOST } from '../src/core/ranking.ts'

export interface BulkOptions {
  posts: number
  markets?: number
  authors?: number
  categories?: string[]
}

export async function bulkSeed(db: Kysely<Database>, o: BulkOptions) {
  const markets = o.markets ?? 500
  const authors = o.authors ?? 2000
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
  // Posts spread over the last 30 days; ids keep time order like timeId (ms base36, padded).
  const now = Date.now()
  const span = 30 * 86400_000
  await sql`insert into posts (id, subject_type, subject_ref, account_id, author, body, market_id, facet_type, facet_ref,
      stance_side, stance_size, stance_price_bps, created_at, agrees, replies, score)
    select
      'p_' || t::text,
      'event', m, 'a_bench' || (1 + g % ${authors}), '0x' || lpad(to_hex(1 + g % ${authors}), 40, '0'),
      'Bench post number ' || g || ' with a few words of body text to make it realistic.', m, 'category',
      (${catList})[1 + (g % ${markets} + 1) % ${cats.length}],
      case when g % 3 = 0 then g % 2 end, case when g % 3 = 0 then '1000000' end, case when g % 3 = 0 then 4000 + (g % 2) * 2000 end,
      to_timestamp(t / 1000.0), ag, 0,
      log(1 + ag) + case when g % 3 = 0 then ${TAKE_BOOST} else 0 end + (t / 1000.0) / ${DECAY_SECONDS}
    from (
      select g, '0x' || lpad(to_hex(1 + g % ${markets}), 64, '0') as m,
        (${now - span}::bigint + (g::bigint * ${Math.floor(span / o.posts)})) as t, (g * 7919) % 13 as ag
      from generate_series(1, ${o.posts}) g
    ) s`.execute(db)
  await sql`insert into post_nodes (post_id, node_type, node_ref, score)
    select id, facet_type, facet_ref, score from posts where id like 'p_%' and parent_id is null and facet_type is not null
    on conflict do nothing`.execute(db)
  await sql`analyze`.execute(db)
}
