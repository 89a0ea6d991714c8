/** Accounts own wallets (§2.1). One place creates them, whoever meets a wallet first. */
import type { Kysely, Transaction } from 'kysely'
import { timeId } from '../../core/ids.ts'
import type { Database } from '../db/schema.ts'

/**
 * The account that owns `wallet`, creating it (account + wallet row) when the wallet is new.
 * Runs on whatever executor it is given, so it can join a caller's transaction. A concurrent creator of
 * the same wallet wins the wallet row; this call then answers that account.
 */
export async function ensureAccount(db: Kysely<Database> | Transaction<Database>, wallet: string, now: Date): Promise<string> {
  const existing = await db.selectFrom('wallets').select('account_id').where('address', '=', wallet).executeTakeFirst()
  if (existing) return existing.account_id
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
  return (await db.selectFrom('wallets').select('account_id').where('address', '=', wallet).executeTakeFirstOrThrow()).account_id
}
