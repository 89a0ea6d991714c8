/**
 * `vk.moderationQueue` (§2.10) and `vk.moderate` (hook `useModerate`). A reader who cannot moderate
 * the venue gets `forbidden` (403), its own state, never an empty queue. Moderation writes are not
 * optimistic (§4.2): the queue and the post lists are re-read after the service answered; a failure
 * is kept in `error` and thrown.
 */
import { atom, computed, type ReadableAtom } from 'nanostores'
import type { ModActionResult, ModQueueItem, ModQueuePage, ModState } from '../contract/types.ts'
import type { ModOptions } from '../sdk/client.ts'
import { VenuekitError } from '../sdk/errors.ts'
import { POST_READS } from './actions.ts'
import { keyOf, codeOf, type Ctx } from './ctx.ts'
import { paged, type PagedTail } from './paged.ts'

/** A paged list's tail, whose `nextCursor` says whether more pages remain. */
export interface ModerationQueueValue extends Omit<PagedTail, 'hasMore'> {
  items: ModQueueItem[]
  nextCursor: string | null
  loading: boolean
  /** The reader cannot moderate this venue (or the platform): "you can't moderate this venue". */
  forbidden: boolean
}

type PostAct = (postId: string) => Promise<ModActionResult>
export interface ModerateValue {
  keep: PostAct
  hide: PostAct
  pin(postId: string, pinned?: boolean): Promise<ModActionResult>
  clear: PostAct
  remove: PostAct
  restore: PostAct
  /** Bans a wallet; with `postId` (the reported post) its queue item is actioned too. */
  ban(wallet: string, postId?: string): Promise<ModActionResult>
  unban(wallet: string, postId?: string): Promise<ModActionResult>
  pending: boolean
  error: unknown
}

/** Where the page's context keeps its internal `Ctx` for `withModeration` (shared by every copy of venuekit). */
export const MODERATION_CTX = Symbol.for('venuekit.moderation-ctx')

/**
 * The page's context with the moderation stores: as it is when it has them, else with them attached now.
 * The readers' script bundle makes the context without them; the operator's script, loaded after it on the
 * operator screen, attaches them here (one context per page, §4.5.5).
 */
export function withModeration<V extends { moderationQueue?: unknown }>(vk: V): V & ReturnType<typeof moderation> {
  if (vk.moderationQueue) return vk as V & ReturnType<typeof moderation>
  const ctx = (vk as { [MODERATION_CTX]?: Ctx })[MODERATION_CTX]
  if (!ctx) throw new VenuekitError('version-mismatch', "the page's venuekit context has no moderation stores: load venuekit.js and venuekit-operator.js of the same release")
  return Object.assign(vk, moderation(ctx))
}

export function moderation(ctx: Ctx) {
  const moderationQueue = (o?: { venueId?: string; state?: ModState } | null): ReadableAtom<ModerationQueueValue> => {
    const args = { venueId: o?.venueId, state: o?.state }
    return ctx.keep(`modq:${keyOf(args)}`, () => {
      const p = paged<ModQueuePage>(ctx, `modq|${keyOf(args)}`, (cursor) => ctx.client.mod.queue({ ...args, cursor }))
      return computed([p.first, p.$more], (f, m): ModerationQueueValue => {
        const pages = p.pagesOf(f, m)
        const st = p.status(f, m)
        // Not a moderator of this venue (not any 403: an origin the venue does not list is an error).
        const forbidden = codeOf(f.error) == 'forbidden'
        const seen = new Set<string>()
        return {
          items: pages.flatMap((x) => x.v.items).filter((i) => !seen.has(i.post.id) && !!seen.add(i.post.id)),
          nextCursor: pages[pages.length - 1]?.v.nextCursor ?? null,
          loading: st.loading,
          loadingMore: st.loadingMore,
          loadMore: p.loadMore,
          forbidden,
          error: forbidden ? null : st.error,
          loadMoreError: st.loadMoreError,
          refresh: p.refresh,
        }
      })
    })
  }

  /**
   * `pending` and `error` are the current reader's (as `roomMembership`'s are): after a sign-out or another
   * sign-in the previous moderator's failure is never shown, and their writes still in flight leave the new
   * reader's state alone.
   */
  const moderate = (o?: ModOptions | null): ReadableAtom<ModerateValue> =>
    ctx.keep(`moderate:${o?.venueId ?? ''}`, () => {
      const idle = (who: string) => ({ who, pending: 0, error: null as unknown })
      const $s = atom(idle(ctx.$viewer.get()))
      const mo = { venueId: o?.venueId }
      const run = async (fn: () => Promise<ModActionResult>) => {
        const who = ctx.$viewer.get()
        const mine = () => ($s.get().who === who ? $s.get() : idle(who))
        $s.set({ who, pending: mine().pending + 1, error: null })
        try {
          const r = await fn()
          if ($s.get().who === who) $s.set({ ...$s.get(), pending: $s.get().pending - 1 })
          ctx.revalidate(...POST_READS)
          return r
        } catch (e) {
          if ($s.get().who === who) $s.set({ who, pending: $s.get().pending - 1, error: e })
          throw e
        }
      }
      const mod = ctx.client.mod
      const actions = {
        keep: (id: string) => run(() => mod.keep(id, mo)),
        hide: (id: string) => run(() => mod.hide(id, mo)),
        pin: (id: string, pinned?: boolean) => run(() => mod.pin(id, { ...mo, pinned })),
        clear: (id: string) => run(() => mod.clear(id, mo)),
        remove: (id: string) => run(() => mod.remove(id, mo)),
        restore: (id: string) => run(() => mod.restore(id, mo)),
        ban: (w: string, postId?: string) => run(() => mod.ban(w, { ...mo, postId })),
        unban: (w: string, postId?: string) => run(() => mod.unban(w, { ...mo, postId })),
      }
      return computed([$s, ctx.$viewer], (s0, who): ModerateValue => {
        const s = s0.who === who ? s0 : idle(who)
        return { ...actions, pending: s.pending > 0, error: s.error }
      })
    })

  return { moderationQueue, moderate }
}
