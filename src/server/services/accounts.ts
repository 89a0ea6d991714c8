/** Accounts own wallets (§2.1). One place creates them, whoever meets a wallet first. */
import { sql, type Kysely, type Transaction } from 'kysely'
import { timeId } from '../../core/ids.ts'
import type { Database } from '../db/schema.ts'

/**
 * The account that owns `wallet`, creating it (account + wallet row) when the wallet is new.
 * Runs on whatever executor it is given, so it can join a caller's transaction. A concurrent creator of
 * the same wallet wins the wallet row; this call then answers that account. The wallet's row is held
 * (FOR SHARE) until the transaction ends, so a `linkWallet` of it waits for the caller's write, or the
 * caller waits for the link and gets the account the wallet was linked into: a write naming the wallet
 * never lands on an account the link is deleting.
 */
export async function ensureAccount(db: Kysely<Database> | Transaction<Database>, wallet: string, now: Date): Promise<string> {
  const existing = await walletOwner(db, wallet)
  if (existing) return existing
  const id = timeId('a_')
  await db.insertInto('accounts').values({ id, created_at: now }).execute()
  const ins = await db
    .insertInto('wallets')
    .values({ address: wallet, account_id: id, linked_at: now })
    .onConflict((oc) => oc.column('address').doNothing())
    .returning('account_id')
    .executeTakeFirst()
  if (ins) return id
  await db.deleteFrom('accounts').where('id', '=', id).execute()
  return (await walletOwner(db, wallet))!
}

/** The account that owns `wallet`, or null; holds the wallet's row until the transaction ends (see `ensureAccount`). */
export async function walletOwner(db: Kysely<Database> | Transaction<Database>, wallet: string): Promise<string | null> {
  const w = await db.selectFrom('wallets').select('account_id').where('address', '=', wallet).forShare().executeTakeFirst()
  return w?.account_id ?? null
}

/**
 * Runs `write` in one transaction with the account of `wallet` (created when new), holding the wallet's row
 * so that a concurrent link of the wallet cannot delete that account under the write.
 */
export function withWalletAccount<T>(db: Kysely<Database>, wallet: string, now: Date, write: (tx: Transaction<Database>, accountId: string) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => write(tx, await ensureAccount(tx, wallet, now)))
}

/**
 * Links `wallet` to account `into` (`POST /v1/auth/link`), in one transaction. A wallet nobody owns is added.
 * A wallet met before its holder ever signed in (another account blocked it, a room's owner added it, a
 * moderator banned it, an operator claimed a venue for it) has an account its holder never used: never signed
 * into, no post, reaction, report, follow, block or profile, and no other wallet. Linking proves the linker holds
 * that wallet, so what others did to it (blocks, memberships, bans, venues owned, audit entries) moves onto
 * `into` and the unused account goes (§2.1 "posts belong to the account": anyone could otherwise stop a
 * wallet from ever joining its owner's account). An account that was used stays its own: false (409).
 * `first` runs first in the link's transaction (the route consumes the signed message's nonce there).
 */
export async function linkWallet(db: Kysely<Database>, wallet: string, into: string, now: Date, first?: (tx: Transaction<Database>) => Promise<void>): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    await first?.(tx)
    const owner = await tx.selectFrom('wallets').select('account_id').where('address', '=', wallet).forUpdate().executeTakeFirst()
    if (!owner) {
      await tx.insertInto('wallets').values({ address: wallet, account_id: into, linked_at: now }).execute()
      return true
    }
    const from = owner.account_id
    if (from === into) return true
    if (!(await unused(tx, from))) return false
    // Rows `into` already has (the same room, blocker, ban scope) keep theirs; a block of itself goes; a room
    // `into` left gives way to the membership an owner granted the wallet (the newer word).
    await tx.deleteFrom('blocks').where('blocked_account_id', '=', from).where('account_id', '=', into).execute()
    await sql`delete from room_members m where m.account_id = ${into} and m.left_at is not null
      and exists (select 1 from room_members f where f.account_id = ${from} and f.room_id = m.room_id and f.left_at is null)`.execute(tx)
    for (const [t, col, key] of MOVED_ROWS) {
      await sql`update ${sql.table(t)} set ${sql.ref(col)} = ${into} where ${sql.ref(col)} = ${from}
        and not exists (select 1 from ${sql.table(t)} x where ${sql.ref(`x.${key}`)} = ${sql.ref(`${t}.${key}`)} and ${sql.ref(`x.${col}`)} = ${into})`.execute(tx)
      await sql`delete from ${sql.table(t)} where ${sql.ref(col)} = ${from}`.execute(tx)
    }
    await tx.updateTable('venues').set({ owner_account_id: into }).where('owner_account_id', '=', from).execute()
    await tx.updateTable('venue_keys').set({ created_by: into }).where('created_by', '=', from).execute()
    await tx.updateTable('mod_audit').set({ target_account: into }).where('target_account', '=', from).execute()
    await tx.updateTable('wallets').set({ account_id: into, linked_at: now }).where('address', '=', wallet).execute()
    await tx.deleteFrom('accounts').where('id', '=', from).execute()
    return true
  })
}

/** What others did to an account, moved by `linkWallet`: table, the account's column, the row's other key column. */
const MOVED_ROWS = [
  ['blocks', 'blocked_account_id', 'account_id'],
  ['room_members', 'account_id', 'room_id'],
  ['bans', 'account_id', 'scope'],
] as const

/** The tables of what an account does itself (`account_id` is the doer). */
const OWN_ROWS = ['posts', 'reactions', 'reports', 'follows', 'profiles', 'records', 'blocks'] as const

/**
 * An account its holder never used (see `linkWallet`): one wallet, never signed into (`signed_in_at`: its session
 * rows go once they end, services/sign-in-sweep.ts), and nothing it did itself.
 */
async function unused(tx: Transaction<Database>, id: string): Promise<boolean> {
  const did = OWN_ROWS.map((t) => sql`exists (select 1 from ${sql.table(t)} where account_id = ${id})`)
  const r = await sql<{ used: boolean }>`select (select count(*) from wallets where account_id = ${id}) <> 1
    or exists (select 1 from accounts where id = ${id} and signed_in_at is not null) or ${sql.join(did, sql` or `)} as used`.execute(tx)
  return r.rows[0]?.used === false
}
