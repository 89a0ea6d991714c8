/**
 * Who wrote a post, as elements show it: the profile name (from the batched profiles store), else a
 * shortened wallet; avatars only from `https:` URLs. Ownership for edit/delete/report.
 */
import type { Profile, SessionInfo } from '../../contract/types.ts'

/** `0x1234…abcd`. */
export const shortWallet = (wallet: string): string => (wallet.length > 12 ? `${wallet.slice(0, 6)}…${wallet.slice(-4)}` : wallet)

export function displayName(profile: Pick<Profile, 'name'> | null | undefined, wallet: string): string {
  return profile?.name?.trim() || shortWallet(wallet)
}

/** The avatar URL when it is `https:`; null for anything else (`javascript:`, `data:`, `http:`, junk). */
export function safeAvatarUrl(url: string | null | undefined): string | null {
  if (!url) return null
  try {
    const u = new URL(url)
    return u.protocol === 'https:' ? u.href : null
  } catch {
    return null
  }
}

const same = (a: string | null | undefined, b: string | null | undefined) => !!a && !!b && a.toLowerCase() === b.toLowerCase()

/**
 * Whether `viewer` (a wallet the venue passed) wrote the post: the same wallet, or another wallet of the
 * signed-in account when the viewer is one of its wallets (posts belong to the account, §2.1).
 */
export function isViewersPost(author: string, viewer: string | null | undefined, session: SessionInfo | null | undefined): boolean {
  if (!viewer) return false
  if (same(author, viewer)) return true
  const wallets = session?.wallets ?? []
  return wallets.some((w) => same(w, viewer)) && wallets.some((w) => same(w, author))
}

/** Whether the signed-in account (any of its wallets) wrote the post. */
export function isSessionsPost(author: string, session: SessionInfo | null | undefined): boolean {
  return !!session && [session.wallet, ...(session.wallets ?? [])].some((w) => same(w, author))
}
