/** Names and avatars for many wallets in one read (§1.7): identity is hydrated, never embedded in posts. */
import type { Profile } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'

export async function profilesFor(ctx: ServiceContext, wallets: string[]): Promise<Record<string, Profile>> {
  const list = [...new Set(wallets.map((w) => w.toLowerCase()))]
  const out: Record<string, Profile> = {}
  for (const w of list) out[w] = { wallet: w, name: null, avatarUrl: null }
  if (!list.length) return out
  const rows = await ctx.db
    .selectFrom('wallets')
    .innerJoin('profiles', 'profiles.account_id', 'wallets.account_id')
    .select(['wallets.address', 'profiles.name', 'profiles.avatar_url'])
    .where('wallets.address', 'in', list)
    .execute()
  for (const r of rows) out[r.address] = { wallet: r.address, name: r.name, avatarUrl: r.avatar_url }
  return out
}
