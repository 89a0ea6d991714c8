/** Table types for Kysely. Column names are the SQL names. */
import type { ColumnType, Generated } from 'kysely'

type Ts = ColumnType<Date, Date | string | undefined, Date | string>
type TsNull = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>
type Json<T> = ColumnType<T, string, string>

export interface Database {
  /** `signed_in_at`: the account's first sign-in (null: never signed into, see accounts.ts `linkWallet`). */
  accounts: { id: string; created_at: Ts; signed_in_at: TsNull }
  wallets: { address: string; account_id: string; linked_at: Ts }
  profiles: { account_id: string; name: string | null; avatar_url: string | null; updated_at: Ts }
  auth_nonces: { nonce: string; address: string; message: string; expires_at: Ts; used_at: TsNull }
  sessions: {
    token_hash: string
    account_id: string
    wallet: string
    venue_id: string | null
    created_at: Ts
    expires_at: Ts
    revoked_at: TsNull
  }
  markets: {
    id: string
    title: string
    outcomes: Json<{ label: string; displayLabel?: string }[]>
    nodes: Json<{ type: string; ref: string }[]>
    facet_type: string | null
    facet_ref: string | null
    series: string | null
    clob: boolean
    closes_at: TsNull
    decimals: number | null
    result: ColumnType<{ winner: number } | { void: true } | null, string | null, string | null>
    resolved_at: TsNull
    volume: Generated<number>
    created_at: Ts
  }
  market_nodes: { market_id: string; node_type: string; node_ref: string }
  prices: { market_id: string; side: number; price_bps: number; updated_at: Ts }
  positions: { wallet: string; market_id: string; side: number; size: ColumnType<string, string, string>; updated_at: Ts }
  trades: { id: string; wallet: string; market_id: string; side: number; size: string; price_bps: number | null; at: Ts }
  venues: {
    id: string
    owner_account_id: string | null
    created_at: Ts
    sponsorship_grant: boolean
    policy: Json<unknown> | null
    origins: ColumnType<string[], string | undefined, string>
  }
  venue_keys: {
    id: string
    venue_id: string
    key_hash: string
    scopes: Json<string[]>
    label: string
    created_by: string | null
    created_at: Ts
    revoked_at: TsNull
  }
  venue_usage: { venue_id: string; day: ColumnType<Date | string, string, string>; reads: Generated<number>; writes: Generated<number> }
  rooms: {
    id: string
    venue_id: string
    subject_type: string
    subject_ref: string
    visibility: 'public' | 'private'
    title: string
    is_self: Generated<boolean>
    created_at: Ts
  }
  room_members: { room_id: string; account_id: string; joined_at: Ts; left_at: TsNull }
  posts: {
    id: string
    subject_type: string
    subject_ref: string
    account_id: string
    author: string
    body: string
    parent_id: string | null
    room_id: string | null
    room_private: Generated<boolean>
    market_id: string | null
    facet_type: string | null
    facet_ref: string | null
    stance_side: number | null
    stance_size: string | null
    stance_price_bps: number | null
    created_at: Ts
    edited_at: TsNull
    deleted_at: TsNull
    state: Generated<'visible' | 'hidden' | 'removed'>
    report_count: Generated<number>
    agrees: Generated<number>
    /** Its replies shown by their own columns (not deleted, state visible); kept by a trigger (migration 010). */
    replies: Generated<number>
    score: number
    /** The author's positive record score at the post's facet, else 0 (top-level posts; migration 007). */
    record_score: Generated<number>
    pinned_at: TsNull
    /**
     * A reply's parent is shown (not deleted, state visible); true on a top-level post. Set by triggers
     * (migration 010), never written by the service.
     */
    parent_shown: Generated<boolean>
  }
  post_nodes: { post_id: string; node_type: string; node_ref: string; score: number; record_score: Generated<number> }
  reactions: { post_id: string; account_id: string; kind: string; created_at: Ts }
  reports: {
    post_id: string
    account_id: string
    reason: string
    /** The venue whose queue the report went to: the post's room's venue, else the venue it was made on. */
    venue_id: string | null
    created_at: Ts
    /** Set when that venue settled it (keep, clear); the platform still counts it (migration 009). */
    settled_at: TsNull
    /**
     * Set when the platform settled it (keep, clear): the threshold no longer counts it and it leaves the
     * platform's queue, while a venue that has not settled it still reviews it with its reason (migration 011).
     */
    platform_settled_at: TsNull
  }
  blocks: { account_id: string; blocked_account_id: string; created_at: Ts }
  follows: { account_id: string; subject_type: string; subject_ref: string; created_at: Ts }
  venue_hides: { venue_id: string; post_id: string; by_account: string; at: Ts }
  bans: { scope: string; account_id: string; by_account: string; at: Ts }
  mod_items: {
    post_id: string
    scope: string
    state: 'open' | 'actioned'
    last_action: string | null
    last_actor: string | null
    updated_at: Ts
  }
  mod_audit: {
    id: string
    scope: string
    actor_account: string
    actor_wallet: string
    action: string
    post_id: string | null
    target_account: string | null
    at: Ts
  }
  records: {
    account_id: string
    facet_type: string
    facet_ref: string
    right_count: number
    wrong_count: number
    void_count: number
    odds_sum: number
    score: number
    updated_at: Ts
  }
  rate_counters: { bucket: string; window_start: Ts; hits: Generated<number> }
  market_take_counts: { market_id: string; side: number; n: Generated<number> }
}
