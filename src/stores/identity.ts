/**
 * Identity (§2.12): profiles (every wallet asked for on the page within one tick goes out as ONE
 * batched read, deduplicated and lowercased; each store keyed on its set of wallets), me, follow and
 * canPost. Follow's `refreshKey` bumps on every login and logout and the state is re-read for the new
 * reader, so a latched 'Follow' never acts on the previous reader's state. canPost reads the client
 * session, not a wallet.
 */
import { atom, computed, type ReadableAtom } from 'nanostores'
import { isWallet, type SubjectType } from '../contract/ids.ts'
import { LIMITS } from '../contract/limits.ts'
import type { FollowState, MeResult, Profile } from '../contract/types.ts'
import { VenuekitError } from '../sdk/errors.ts'
import { tickBatcher } from './batch.ts'
import { forViewer, idsOf, loaded, type Ctx } from './ctx.ts'

export interface ProfilesValue {
  /** Keyed by lowercased wallet. */
  profiles: Record<string, Profile>
  loading: boolean
  error: unknown
}
export interface ProfileValue {
  profile: Profile | null
  loading: boolean
  error: unknown
}
export interface MeValue {
  /** Null when signed out (no request is made). */
  me: MeResult | null
  loading: boolean
  error: unknown
}
export interface FollowValue {
  /** Null while unknown (loading, failed read, or just after a login or logout). */
  following: boolean | null
  loading: boolean
  pending: boolean
  error: unknown
  /** Bumps on every login and logout; key a Follow button on it. */
  refreshKey: number
  /** Reads the state again (the Retry of a failed read). */
  refresh(): void
  /** Follows; refused (`stale-follow`) when called on a value read before the last login or logout. */
  follow(): Promise<FollowState>
  unfollow(): Promise<FollowState>
}

export function identity(ctx: Ctx) {
  const batch = tickBatcher<Profile>(async (ids) => (await ctx.client.profiles(ids)).profiles, LIMITS.walletsPerBatch)
  const $refreshKey = atom(0)
  let token = ctx.$session.get()?.token
  ctx.onDispose(
    ctx.$session.listen((s) => {
      if (s?.token === token) return
      token = s?.token
      $refreshKey.set($refreshKey.get() + 1)
    }),
  )

  const profiles = (wallets: readonly string[]): ReadableAtom<ProfilesValue> => {
    const set = idsOf(wallets, isWallet)
    return ctx.keep(`profiles:${set}`, () =>
      computed(ctx.query(`profiles|${set}|`, () => batch(set), { viewer: false, recover: true }), (f) => ({
        profiles: f.error ? {} : (f.data?.v ?? {}),
        loading: !!f.loading && !f.data,
        error: f.error ?? null,
      })),
    )
  }
  const profile = (wallet: string): ReadableAtom<ProfileValue> => {
    const w = String(wallet).toLowerCase()
    return ctx.keep(`profile:${w}`, () => computed(profiles([w]), (v) => ({ profile: v.profiles[w] ?? null, loading: v.loading, error: v.error })))
  }
  const me = (): ReadableAtom<MeValue> =>
    ctx.keep('me', () =>
      computed([ctx.query('me|', () => ctx.client.auth.me(), { signedIn: true }), ctx.$viewer], (f, who) => ({
        me: f.error ? null : (forViewer(f.data, who) ?? null),
        loading: !!f.loading && !f.data,
        error: f.error ?? null,
      })),
    )

  const follow = (subjectType: SubjectType, subjectRef: string): ReadableAtom<FollowValue> => {
    const ref = subjectType === 'event' ? String(subjectRef).toLowerCase() : subjectRef
    return ctx.keep(`follow:${subjectType}:${ref}`, () => {
      const q = ctx.query(`follow|${subjectType}|${ref}|`, () => ctx.client.followState(subjectType, ref))
      // The write state belongs to the reader who wrote: another reader sees none of it (§4.5 rule 3).
      const $w = atom({ who: null as string | null, pending: 0, error: null as unknown })
      const write = async (fn: () => Promise<FollowState>) => {
        const who = ctx.$viewer.get()
        const w = $w.get()
        $w.set({ who, pending: (w.who === who ? w.pending : 0) + 1, error: null })
        /** Settles this write's share of the state, unless another reader has written since. */
        const settle = (error: unknown) => {
          const now = $w.get()
          if (now.who === who) $w.set({ who, pending: now.pending - 1, error: error ?? now.error })
        }
        try {
          const r = await fn()
          // An answer that comes after a login or logout is the previous reader's: never shown as the new one's.
          if (ctx.$viewer.get() === who) q.mutate({ ...loaded(Date.now(), r), who })
          settle(null)
          ctx.revalidate('follow|', 'foryou|')
          return r
        } catch (e) {
          settle(e)
          throw e
        }
      }
      /** An action of a value read before the last login or logout is refused, never applied to the new reader. */
      const latched = (key: number, fn: () => Promise<FollowState>) => () =>
        key === $refreshKey.get()
          ? write(fn)
          : Promise.reject(new VenuekitError('stale-follow', 'the reader changed since this follow state was read; read it again'))
      const on = () => ctx.client.follow(subjectType, ref)
      const off = () => ctx.client.unfollow(subjectType, ref)
      return computed([q, $w, $refreshKey, ctx.$viewer], (f, w0, refreshKey, who): FollowValue => {
        const w = w0.who === who ? w0 : { pending: 0, error: null }
        return {
          following: f.error ? null : (forViewer(f.data, who)?.following ?? null),
          loading: !!f.loading && !f.data,
          pending: w.pending > 0,
          error: w.error ?? f.error ?? null,
          refreshKey,
          refresh: () => q.revalidate(),
          follow: latched(refreshKey, on),
          unfollow: latched(refreshKey, off),
        }
      })
    })
  }

  const $canPost = computed(ctx.$session, (s) => s != null)
  return { profiles, profile, me, follow, canPost: (): ReadableAtom<boolean> => $canPost, $refreshKey }
}
