/**
 * "Nothing is lost or half-written": the database's invariants, read as the rows that break them.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../src/server/db/schema.ts'

/**
 * Rows that break an invariant a half-written write would leave behind, by rule: what the crash test
 * (after kill -9) and the atomic-writes test (after a failure injected mid-write) check. Empty lists: none.
 */
export async function halfWritten(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const q = async (s: ReturnType<typeof sql<{ id: string }>>) => (await s.execute(db)).rows.map((r) => r.id)
  return {
    'a top-level post without its node-index rows': await q(sql`select p.id from posts p join markets m on m.id = p.market_id
      where p.parent_id is null and p.deleted_at is null
        and (select count(*) from post_nodes n where n.post_id = p.id) <> jsonb_array_length(m.nodes)`),
    'a top-level post outside markets without its node-index row': await q(sql`select p.id from posts p
      where p.parent_id is null and p.deleted_at is null and p.market_id is null and p.room_id is null
        and not exists (select 1 from post_nodes n where n.post_id = p.id)`),
    'a deleted post still in the node index': await q(sql`select p.id from posts p where p.deleted_at is not null and exists (select 1 from post_nodes n where n.post_id = p.id)`),
    "a parent whose reply count is not its replies' rows": await q(sql`select p.id from posts p
      where p.replies <> (select count(*) from posts r where r.parent_id = p.id and r.deleted_at is null and r.state = 'visible')`),
    "a post whose agree count is not its agrees' rows": await q(sql`select p.id from posts p
      where p.agrees <> (select count(*) from reactions r where r.post_id = p.id and r.kind = 'agree')`),
    'a node-index row whose score is not its post score': await q(sql`select n.post_id as id from post_nodes n join posts p on p.id = n.post_id where n.score <> p.score`),
    'a reply without its parent': await q(sql`select r.id from posts r left join posts p on p.id = r.parent_id where r.parent_id is not null and p.id is null`),
    'a take without its full stance': await q(sql`select id from posts where (stance_side is null) <> (stance_size is null)`),
    'a take counter that is not a recount of its posts': await q(sql`select coalesce(c.market_id, r.market_id) || ':' || coalesce(c.side, r.side) as id
      from market_take_counts c full join (
        select market_id, coalesce(stance_side, -1) as side, count(*)::int as n from posts
        where market_id is not null and deleted_at is null and state = 'visible' and not room_private
          and (parent_id is null or exists (select 1 from posts pp where pp.id = posts.parent_id and pp.deleted_at is null and pp.state = 'visible'))
        group by 1, 2
      ) r on r.market_id = c.market_id and r.side = c.side
      where coalesce(c.n, 0) <> coalesce(r.n, 0)`),
    "a post whose report count is not its open reports' rows": await q(sql`select p.id from posts p
      where p.report_count <> (select count(*) from reports r where r.post_id = p.id and r.platform_settled_at is null)`),
    'a room without its creator as a member': await q(sql`select r.id from rooms r
      where not exists (select 1 from room_members m where m.room_id = r.id)`),
    'a claimed venue without a key or its self room': await q(sql`select v.id from venues v
      where not exists (select 1 from venue_keys k where k.venue_id = v.id) or not exists (select 1 from rooms r where r.venue_id = v.id and r.is_self)`),
    'an account without a wallet': await q(sql`select a.id from accounts a where not exists (select 1 from wallets w where w.account_id = a.id)`),
    'a moderated post without its audit row': await q(sql`select i.post_id as id from mod_items i
      where i.state = 'actioned' and not exists (select 1 from mod_audit a where a.post_id = i.post_id and a.scope = i.scope)`),
  }
}
