/**
 * The one migration set. Plain PostgreSQL: the same statements run on PGlite and on a PostgreSQL server.
 * Append new migrations; never edit an applied one.
 */
import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely'
import { recomputeRecordsWithPrivateTakes } from '../services/records.ts'
import { RECORD_LOCK_KEY } from './record-lock.ts'

const m001 = `
create table accounts (
  id text primary key,
  created_at timestamptz not null default now()
);
create table wallets (
  address text primary key,
  account_id text not null references accounts(id),
  linked_at timestamptz not null default now()
);
create index wallets_account on wallets(account_id);
create table profiles (
  account_id text primary key references accounts(id),
  name text,
  avatar_url text,
  updated_at timestamptz not null default now()
);
create table auth_nonces (
  nonce text primary key,
  address text not null,
  message text not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create table sessions (
  token_hash text primary key,
  account_id text not null references accounts(id),
  wallet text not null,
  venue_id text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index sessions_account on sessions(account_id);

create table markets (
  id text primary key,
  title text not null,
  outcomes jsonb not null,
  nodes jsonb not null,
  facet_type text,
  facet_ref text,
  series text,
  clob boolean not null default false,
  closes_at timestamptz,
  decimals integer,
  result jsonb,
  resolved_at timestamptz,
  volume double precision not null default 0,
  created_at timestamptz not null default now()
);
create index markets_series on markets(series) where series is not null;
create index markets_closes on markets(closes_at) where result is null;
create table market_nodes (
  market_id text not null references markets(id),
  node_type text not null,
  node_ref text not null,
  primary key (node_type, node_ref, market_id)
);
create index market_nodes_market on market_nodes(market_id);
create table prices (
  market_id text not null references markets(id),
  side integer not null,
  price_bps integer not null,
  updated_at timestamptz not null default now(),
  primary key (market_id, side)
);
create table positions (
  wallet text not null,
  market_id text not null references markets(id),
  side integer not null,
  size numeric not null,
  updated_at timestamptz not null default now(),
  primary key (wallet, market_id, side)
);
create index positions_market on positions(market_id);
create table trades (
  id text primary key,
  wallet text not null,
  market_id text not null references markets(id),
  side integer not null,
  size numeric not null,
  price_bps integer,
  at timestamptz not null default now()
);
create index trades_market_at on trades(market_id, at desc);
create index trades_at on trades(at desc);

create table venues (
  id text primary key,
  owner_account_id text references accounts(id),
  created_at timestamptz not null default now(),
  sponsorship_grant boolean not null default false,
  policy jsonb,
  origins jsonb not null default '[]'::jsonb
);
create table venue_keys (
  id text primary key,
  venue_id text not null references venues(id),
  key_hash text not null unique,
  scopes jsonb not null,
  label text not null,
  created_by text references accounts(id),
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);
create index venue_keys_venue on venue_keys(venue_id);
create table venue_usage (
  venue_id text not null references venues(id),
  day date not null,
  reads integer not null default 0,
  writes integer not null default 0,
  primary key (venue_id, day)
);
create table rooms (
  id text primary key,
  venue_id text not null references venues(id),
  subject_type text not null,
  subject_ref text not null,
  visibility text not null check (visibility in ('public','private')),
  title text not null,
  is_self boolean not null default false,
  created_at timestamptz not null default now()
);
create unique index rooms_venue_self on rooms(venue_id) where is_self;
create table room_members (
  room_id text not null references rooms(id),
  account_id text not null references accounts(id),
  joined_at timestamptz not null default now(),
  left_at timestamptz,
  primary key (room_id, account_id)
);

create table posts (
  id text primary key,
  subject_type text not null,
  subject_ref text not null,
  account_id text not null references accounts(id),
  author text not null,
  body text not null,
  parent_id text references posts(id),
  room_id text references rooms(id),
  room_private boolean not null default false,
  market_id text references markets(id),
  facet_type text,
  facet_ref text,
  stance_side integer,
  stance_size text,
  stance_price_bps integer,
  created_at timestamptz not null default now(),
  edited_at timestamptz,
  deleted_at timestamptz,
  state text not null default 'visible' check (state in ('visible','hidden','removed')),
  report_count integer not null default 0,
  agrees integer not null default 0,
  replies integer not null default 0,
  score double precision not null,
  pinned_at timestamptz
);
create index posts_thread on posts(subject_type, subject_ref, id desc) where parent_id is null;
create index posts_parent on posts(parent_id, id) where parent_id is not null;
create index posts_account on posts(account_id, id desc);
create index posts_room on posts(room_id, score desc, id desc) where parent_id is null and room_id is not null;
create index posts_live on posts(score desc, id desc)
  where parent_id is null and deleted_at is null and state = 'visible' and not room_private;
create index posts_market on posts(market_id) where market_id is not null;
create table post_nodes (
  post_id text not null references posts(id),
  node_type text not null,
  node_ref text not null,
  score double precision not null,
  primary key (node_type, node_ref, post_id)
);
create index post_nodes_rank on post_nodes(node_type, node_ref, score desc, post_id desc);
create index post_nodes_post on post_nodes(post_id);
create table reactions (
  post_id text not null references posts(id),
  account_id text not null references accounts(id),
  kind text not null,
  created_at timestamptz not null default now(),
  primary key (post_id, account_id, kind)
);
create table reports (
  post_id text not null references posts(id),
  account_id text not null references accounts(id),
  reason text not null,
  venue_id text,
  created_at timestamptz not null default now(),
  primary key (post_id, account_id)
);
create table blocks (
  account_id text not null references accounts(id),
  blocked_account_id text not null references accounts(id),
  created_at timestamptz not null default now(),
  primary key (account_id, blocked_account_id)
);
create table follows (
  account_id text not null references accounts(id),
  subject_type text not null,
  subject_ref text not null,
  created_at timestamptz not null default now(),
  primary key (account_id, subject_type, subject_ref)
);
create index follows_subject on follows(subject_type, subject_ref);

create table venue_hides (
  venue_id text not null,
  post_id text not null references posts(id),
  by_account text not null,
  at timestamptz not null default now(),
  primary key (venue_id, post_id)
);
create table bans (
  scope text not null,
  account_id text not null references accounts(id),
  by_account text not null,
  at timestamptz not null default now(),
  primary key (scope, account_id)
);
create table mod_items (
  post_id text not null references posts(id),
  scope text not null,
  state text not null check (state in ('open','actioned')),
  last_action text,
  last_actor text,
  updated_at timestamptz not null default now(),
  primary key (scope, post_id)
);
create index mod_items_queue on mod_items(scope, state, updated_at desc, post_id desc);
create table mod_audit (
  id text primary key,
  scope text not null,
  actor_account text not null,
  actor_wallet text not null,
  action text not null,
  post_id text,
  target_account text,
  at timestamptz not null default now()
);
create index mod_audit_scope on mod_audit(scope, id desc);
create table records (
  account_id text not null references accounts(id),
  facet_type text not null,
  facet_ref text not null,
  right_count integer not null default 0,
  wrong_count integer not null default 0,
  void_count integer not null default 0,
  odds_sum integer not null default 0,
  score double precision not null default 0,
  updated_at timestamptz not null default now(),
  primary key (facet_type, facet_ref, account_id)
);
create index records_rank on records(facet_type, facet_ref, score desc);
create index records_account on records(account_id);
`

/** Splits a script into statements (one statement per call on every driver). */
function statements(script: string): string[] {
  return script.split(/;\s*\n/).map((s) => s.trim()).filter(Boolean)
}

/** A market's (or any subject's) ranked feed: an index range scan instead of sorting the subject's posts. */
const m002 = `
create index posts_subject_live on posts(subject_type, subject_ref, score desc, id desc)
  where parent_id is null and deleted_at is null and state = 'visible' and not room_private;
`

/**
 * Write rate limits (docs/RELIABILITY.md): fixed-window hit counters, shared by every instance over one
 * database. `bucket` names what is counted (`acct:<account id>`, `key:<sha256 of the venue key>`,
 * `ip:<address>`, `signin:<address>`), never a raw secret; `window_start` is the window's first instant.
 */
const m003 = `
create table rate_counters (
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null default 0,
  primary key (bucket, window_start)
);
create index rate_counters_window on rate_counters(window_start);
`

/**
 * Take counts per market (§2.6) kept as counters, so a read of 100 markets is 100 key lookups instead of
 * counting every post of those markets. `side` is the stance side, -1 for posts without a stance. A
 * post counts while it is public-visible: on a market, not deleted, state visible, not in a private room.
 * A deferred constraint trigger keeps the counters in the same transaction as every change to those
 * columns, whichever code makes it; it runs at commit, after the transaction's other row locks, so it
 * adds no lock-order deadlock. The counters start from the posts already stored.
 */
const m004 = [
  `create table market_take_counts (
    market_id text not null,
    side integer not null,
    n integer not null default 0,
    primary key (market_id, side)
  )`,
  `create function vk_market_take_counts() returns trigger language plpgsql as $fn$
  begin
    if tg_op <> 'INSERT' and old.market_id is not null and old.deleted_at is null and old.state = 'visible' and not old.room_private then
      update market_take_counts set n = n - 1 where market_id = old.market_id and side = coalesce(old.stance_side, -1);
    end if;
    if tg_op <> 'DELETE' and new.market_id is not null and new.deleted_at is null and new.state = 'visible' and not new.room_private then
      insert into market_take_counts (market_id, side, n) values (new.market_id, coalesce(new.stance_side, -1), 1)
      on conflict (market_id, side) do update set n = market_take_counts.n + 1;
    end if;
    return null;
  end
  $fn$`,
  `create constraint trigger posts_market_take_counts
    after insert or delete or update of deleted_at, state, room_private, market_id, stance_side on posts
    deferrable initially deferred for each row execute function vk_market_take_counts()`,
  `insert into market_take_counts (market_id, side, n)
    select market_id, coalesce(stance_side, -1), count(*)::int from posts
    where market_id is not null and deleted_at is null and state = 'visible' and not room_private
    group by 1, 2`,
]

/** Statements given one by one (a function body holds semicolons). */
const runEach = (stmts: string[]): Migration => ({
  async up(db: Kysely<any>) {
    for (const stmt of stmts) await sql.raw(stmt).execute(db)
  },
})

/**
 * A `sort=record` page (§4.1 rule 6; a room's discussion by default) without reading the scope's every
 * recorded post: positive records in score order, and each author's top-level posts at a facet in live
 * order, so the page walks records from the best score down, takes each author's posts at that facet
 * already ordered, and sorts only within one record score (incremental sort) until the page is full. The
 * facet columns are indexed as the record join compares them (`coalesce(…, '*')`: a post without a node
 * is read at the global record).
 */
const m005 = `
create index records_positive on records(score desc, account_id) where score > 0;
create index posts_author_facet on posts(account_id, (coalesce(facet_type, '*')), (coalesce(facet_ref, '*')), score desc, id desc)
  where parent_id is null;
`

/** The records trigger's update of an author's node rows at the record's facet (migrations 006, 007). */
const NODE_ROWS_RECORD_UPDATE = `update post_nodes pn set record_score = greatest(new.score, 0)
    from posts p
    where pn.post_id = p.id and p.parent_id is null and p.account_id = new.account_id
      and coalesce(p.facet_type, '*') = new.facet_type and coalesce(p.facet_ref, '*') = new.facet_ref
      and pn.record_score <> greatest(new.score, 0);`

/** The records trigger's update of an author's top-level posts at the record's facet (migrations 007, 008). */
const POSTS_RECORD_UPDATE = `update posts p set record_score = greatest(new.score, 0)
    where p.parent_id is null and p.account_id = new.account_id
      and coalesce(p.facet_type, '*') = new.facet_type and coalesce(p.facet_ref, '*') = new.facet_ref
      and p.record_score <> greatest(new.score, 0);`

/**
 * A taxonomy node's `sort=record` page as an index range (§4.1 rule 6; `<vk-room-feed subject-type
 * subject-ref>` reads it by default): each node-index row carries its post author's record score at the
 * post's facet (`record_score`, positive, else 0), and the node's rows are indexed in record order. A
 * post's author and facet never change, so the score changes only with the record: the trigger on
 * `records` sets it on every top-level post of that author at that facet, whichever code writes the
 * record; a new post's rows take it from `records` in their own insert (services/posts.ts).
 */
const m006 = [
  `alter table post_nodes add column record_score double precision not null default 0`,
  `create function vk_post_nodes_record_score() returns trigger language plpgsql as $fn$
  begin
    ${NODE_ROWS_RECORD_UPDATE}
    return null;
  end
  $fn$`,
  `create trigger records_post_nodes_record_score after insert or update of score on records
    for each row execute function vk_post_nodes_record_score()`,
  `update post_nodes pn set record_score = rec.score
    from posts p, records rec
    where pn.post_id = p.id and rec.account_id = p.account_id and rec.facet_type = coalesce(p.facet_type, '*')
      and rec.facet_ref = coalesce(p.facet_ref, '*') and rec.score > 0`,
  `create index post_nodes_record on post_nodes(node_type, node_ref, record_score desc, score desc, post_id desc)`,
]

/**
 * The global scope's `sort=record` page as an index range, like a node's (migration 006): each top-level
 * post carries the same record score (`posts.record_score`), kept by the same trigger, now on both tables,
 * and set by each post insert (services/posts.ts). Replaces the walk over `records` for the global page.
 */
const m007 = [
  `alter table posts add column record_score double precision not null default 0`,
  `create or replace function vk_post_nodes_record_score() returns trigger language plpgsql as $fn$
  begin
    ${POSTS_RECORD_UPDATE}
    ${NODE_ROWS_RECORD_UPDATE}
    return null;
  end
  $fn$`,
  `update posts p set record_score = rec.score
    from records rec
    where p.parent_id is null and rec.account_id = p.account_id and rec.facet_type = coalesce(p.facet_type, '*')
      and rec.facet_ref = coalesce(p.facet_ref, '*') and rec.score > 0`,
  `create index posts_record on posts(record_score desc, score desc, id desc)
    where parent_id is null and deleted_at is null and state = 'visible' and not room_private`,
]

/**
 * A post written while its author's record changes keeps the record it was written under (migrations 006,
 * 007 left this open): in READ COMMITTED the post's insert reads `records` as of its statement's start, and
 * the record writer's update of the author's posts does not see a post not yet committed, so each could
 * miss the other. Both now take one advisory lock per author and facet, the record's key, before they read:
 * the record writer (the trigger on `records`) exclusive, a top-level post's insert (a trigger on `posts`,
 * which now sets `record_score` whoever writes the post) shared, so posts never wait on each other. Whichever
 * comes second waits for the first to commit, and its next statement sees the first's row: the post reads
 * the new record, or the writer's update finds the new post. A reply ranks only under its post: 0, no lock.
 */

const m008 = [
  `create or replace function vk_post_nodes_record_score() returns trigger language plpgsql as $fn$
  begin
    perform pg_advisory_xact_lock(${RECORD_LOCK_KEY('new.account_id', 'new.facet_type', 'new.facet_ref')});
    ${POSTS_RECORD_UPDATE}
    ${NODE_ROWS_RECORD_UPDATE}
    return null;
  end
  $fn$`,
  `create function vk_posts_record_score() returns trigger language plpgsql as $fn$
  begin
    if new.parent_id is not null then
      new.record_score := 0;
      return new;
    end if;
    perform pg_advisory_xact_lock_shared(${RECORD_LOCK_KEY('new.account_id', "coalesce(new.facet_type, '*')", "coalesce(new.facet_ref, '*')")});
    new.record_score := coalesce((select rec.score from records rec where rec.account_id = new.account_id
      and rec.facet_type = coalesce(new.facet_type, '*') and rec.facet_ref = coalesce(new.facet_ref, '*') and rec.score > 0), 0);
    return new;
  end
  $fn$`,
  `create trigger posts_record_score before insert on posts for each row execute function vk_posts_record_score()`,
]

/**
 * A venue's settlement of reports (keep, clear) marks them settled for the venue instead of deleting them:
 * the report threshold is the platform's (§3.1, §5.7), so those reports still count toward it and their
 * reasons stay in the platform's queue (services/moderation.ts).
 */
const m009 = `
alter table reports add column settled_at timestamptz;
`

/** Whether a post is shown to readers other than its author, by its own columns: not deleted, state visible. */
const SHOWN = (row: 'old' | 'new') => `(${row}.deleted_at is null and ${row}.state = 'visible')`

/**
 * Replies follow their parent (§2.6 "Counts ... include visible posts", §3.1): a reply exists only folded
 * under its parent, so once the parent is deleted, hidden by reports or removed, the reply is a visible post
 * for nobody but its author. Migration 004's counters looked only at each post's own columns, so such
 * replies still counted.
 *
 * - `posts.parent_shown`: whether the reply's parent is shown (not deleted, state visible); true on a
 *   top-level post. It makes the rule row-local, so the deferred per-row counter trigger stays right
 *   whatever one transaction changes (a trigger that read the parent at commit would pair end-of-transaction
 *   state with per-event OLD/NEW rows). Kept in step by triggers: a top-level post's change of shown state
 *   sets it on its replies in the same statement; a new reply takes it from its parent (the reply's
 *   transaction holds the parent locked).
 * - The counters' public rule adds `parent_shown`, and `parent_shown` joins the columns that fire them.
 * - `posts.replies` (the card's "N replies", and the engagement in the live score) counts the replies
 *   shown by their own columns: a reply hidden by reports or removed no longer counts, nor lifts its parent;
 *   restored, it counts again. A trigger moves the parent's `replies` and `score` (and its node-index rows'
 *   score) whenever a reply enters or leaves that state, whichever code changes it. The score is
 *   core/ranking.ts `liveScore`, the same arithmetic in SQL (it is frozen here: a later change of the
 *   formula needs its own migration).
 *
 * Lock order: a parent, then its replies. A change of a parent's visibility locks the parent (its update)
 * and then its replies (the trigger); every transaction that changes a reply's visibility locks the parent
 * first (post-access.ts `reachablePost` with `lock`, services/posts.ts deletePost), so the reply trigger's
 * update of the parent never waits while holding the reply.
 *
 * The backfill runs in the migration's transaction, after the `alter table` took the table's exclusive
 * lock, so no writer moves a post between the recount and the trigger.
 */
const LIVE_SCORE = (replies: string) =>
  `log((1 + greatest(agrees, 0) + 2 * greatest(${replies}, 0))::float8) + (case when stance_side is null then 0 else 1 end)` +
  ` + (extract(epoch from created_at) * 1000)::float8 / 1000 / 45000`

const m010 = [
  `alter table posts add column parent_shown boolean not null default true`,
  // Backfill first: the counter trigger does not yet fire on parent_shown, so this queues no counter events
  // (the counters are rebuilt below; an event queued now would run at commit, after the rebuild).
  `update posts r set parent_shown = false from posts p
    where r.parent_id = p.id and not (p.deleted_at is null and p.state = 'visible')`,
  `create function vk_posts_parent_shown() returns trigger language plpgsql as $fn$
  begin
    update posts set parent_shown = ${SHOWN('new')} where parent_id = new.id and parent_shown <> ${SHOWN('new')};
    return null;
  end
  $fn$`,
  `create trigger posts_parent_shown after update of deleted_at, state on posts
    for each row when (new.parent_id is null and ${SHOWN('old')} is distinct from ${SHOWN('new')})
    execute function vk_posts_parent_shown()`,
  `create function vk_posts_parent_shown_insert() returns trigger language plpgsql as $fn$
  begin
    new.parent_shown := coalesce((select pp.deleted_at is null and pp.state = 'visible' from posts pp where pp.id = new.parent_id), false);
    return new;
  end
  $fn$`,
  `create trigger posts_parent_shown_insert before insert on posts
    for each row when (new.parent_id is not null) execute function vk_posts_parent_shown_insert()`,
  `create function vk_posts_reply_count() returns trigger language plpgsql as $fn$
  declare
    parent text;
    d integer;
    s double precision;
  begin
    if tg_op = 'DELETE' then
      parent := old.parent_id;
      d := -1;
    else
      parent := new.parent_id;
      d := case when ${SHOWN('new')} then 1 else -1 end;
    end if;
    update posts set replies = greatest(replies + d, 0), score = ${LIVE_SCORE('replies + d')}
      where id = parent returning score into s;
    if found then
      update post_nodes set score = s where post_id = parent;
    end if;
    return null;
  end
  $fn$`,
  `create trigger posts_reply_count_insert after insert on posts
    for each row when (new.parent_id is not null and ${SHOWN('new')}) execute function vk_posts_reply_count()`,
  `create trigger posts_reply_count_update after update of deleted_at, state on posts
    for each row when (new.parent_id is not null and ${SHOWN('old')} is distinct from ${SHOWN('new')}) execute function vk_posts_reply_count()`,
  `create trigger posts_reply_count_delete after delete on posts
    for each row when (old.parent_id is not null and ${SHOWN('old')}) execute function vk_posts_reply_count()`,
  `create or replace function vk_market_take_counts() returns trigger language plpgsql as $fn$
  begin
    if tg_op <> 'INSERT' and old.market_id is not null and old.deleted_at is null and old.state = 'visible' and not old.room_private and old.parent_shown then
      update market_take_counts set n = n - 1 where market_id = old.market_id and side = coalesce(old.stance_side, -1);
    end if;
    if tg_op <> 'DELETE' and new.market_id is not null and new.deleted_at is null and new.state = 'visible' and not new.room_private and new.parent_shown then
      insert into market_take_counts (market_id, side, n) values (new.market_id, coalesce(new.stance_side, -1), 1)
      on conflict (market_id, side) do update set n = market_take_counts.n + 1;
    end if;
    return null;
  end
  $fn$`,
  `drop trigger posts_market_take_counts on posts`,
  `create constraint trigger posts_market_take_counts
    after insert or delete or update of deleted_at, state, room_private, market_id, stance_side, parent_shown on posts
    deferrable initially deferred for each row execute function vk_market_take_counts()`,
  // Backfill the parents' reply counts and scores, then rebuild the counters under the new rule.
  `with c as (
      select p.id, (select count(*)::int from posts r where r.parent_id = p.id and r.deleted_at is null and r.state = 'visible') as n
      from posts p where p.parent_id is null
    )
    update posts p set replies = c.n, score = ${LIVE_SCORE('c.n')}
    from c where c.id = p.id and p.replies <> c.n`,
  `update post_nodes pn set score = p.score from posts p where pn.post_id = p.id and pn.score <> p.score`,
  `delete from market_take_counts`,
  `insert into market_take_counts (market_id, side, n)
    select market_id, coalesce(stance_side, -1), count(*)::int from posts
    where market_id is not null and deleted_at is null and state = 'visible' and not room_private and parent_shown
    group by 1, 2`,
]

/**
 * A platform settlement of reports (keep, clear) marks them settled for the platform instead of deleting
 * them (services/moderation.ts): each queue reviews on its own, so the platform's keep or clear no longer
 * takes the reports and reasons from a venue's open item (which showed 0 reports and no reasons). The
 * threshold counts `where platform_settled_at is null`; a venue's queue keeps reading `settled_at`.
 * Reports filed under a venue id nobody holds (a keyless session may claim any id at sign-in, §5.4) leave
 * that id's queue, and its queue items go: they would pass to whoever claims the id later. New reports
 * go to a venue's queue only when the venue exists (services/posts.ts `reportPost`).
 */
const m011 = [
  `alter table reports add column platform_settled_at timestamptz`,
  `update reports set venue_id = null where venue_id is not null and not exists (select 1 from venues v where v.id = reports.venue_id)`,
  `delete from mod_items where scope <> '*' and not exists (select 1 from venues v where v.id = mod_items.scope)`,
]

/**
 * Sign-in rows are deleted once they can matter no more (services/sign-in-sweep.ts): nonces an hour after their
 * expiry, sessions once expired or signed out. The indexes find them. Whether an account was ever signed into
 * (`linkWallet` never absorbs such an account) was read from its session rows, which no longer stay: it is now
 * the account's `signed_in_at` (the first sign-in), filled from the sessions kept so far.
 */
const m013 = [
  `alter table accounts add column signed_in_at timestamptz`,
  `update accounts a set signed_in_at = s.first from (select account_id, min(created_at) as first from sessions group by account_id) s
    where s.account_id = a.id`,
  `create index auth_nonces_expires on auth_nonces(expires_at)`,
  `create index sessions_expires on sessions(expires_at)`,
  `create index sessions_revoked on sessions(revoked_at) where revoked_at is not null`,
]

const run = (script: string): Migration => ({
  async up(db: Kysely<any>) {
    for (const stmt of statements(script)) await sql.raw(stmt).execute(db)
  },
})

export const MIGRATIONS: Record<string, Migration> = {
  '001_initial': run(m001),
  '002_subject_live_index': run(m002),
  '003_rate_counters': run(m003),
  '004_market_take_counts': runEach(m004),
  '005_record_order': run(m005),
  '006_post_nodes_record_score': runEach(m006),
  '007_posts_record_score': runEach(m007),
  '008_record_score_lock': runEach(m008),
  '009_report_venue_settled': run(m009),
  '010_replies_follow_parent': runEach(m010),
  '011_report_platform_settled': runEach(m011),
  '012_records_public_takes': { up: (db) => recomputeRecordsWithPrivateTakes(db, new Date()) },
  '013_sign_in_sweep': runEach(m013),
}

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return MIGRATIONS
  },
}
