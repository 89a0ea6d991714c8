/**
 * `vk.postActions()` (hook `usePostActions`, §4.2): create, edit, remove, react, report, block, unblock.
 * Every action throws on failure (§7.1). React is optimistic on every store holding the post (the page's
 * Agree overrides) and rolls back on failure. After a write the post lists and counts are re-read, keeping
 * what they show until the new answer arrives. A block or unblock changes which authors this reader sees
 * (the service's rule, visibility.ts): every read the page shows is read again, and the earlier replies kept for parents are dropped.
 */
import { atom, computed, type ReadableAtom } from 'nanostores'
import type { SubjectType } from '../contract/ids.ts'
import type { BlockResult, DeleteResult, Post, ReactResult, ReportResult } from '../contract/types.ts'
import { postId } from '../sdk/validate.ts'
import type { Ctx } from './ctx.ts'
import type { AgreedOverride, PostOverlay } from './posts.ts'
import type { RepliesReader } from './replies.ts'

export interface PostActionsValue {
  /** Writes a post (no stance is ever sent: the service proves it, §4.5.2). */
  create(subjectType: SubjectType, subjectRef: string, body: string, o?: { parentId?: string | null; room?: string } | null): Promise<Post>
  edit(postId: string, body: string): Promise<Post>
  remove(postId: string): Promise<DeleteResult>
  /** Agree (`active` true, the default) or take it back; optimistic, rolled back on failure. */
  react(post: Pick<Post, 'id' | 'agrees' | 'agreed'>, active?: boolean): Promise<ReactResult>
  report(postId: string, reason: string): Promise<ReportResult>
  /** Blocks a wallet's holder: their posts leave every list this reader sees, at once (every shown read is read again). */
  block(wallet: string): Promise<BlockResult>
  /** Takes a block back; the lists are read again, as after `block`. */
  unblock(wallet: string): Promise<BlockResult>
  /** A write is in flight. */
  pending: boolean
}

/** Post-list and count reads a post write can change. */
export const POST_READS = ['thread|', 'feed|', 'author|', 'counts|', 'modq|'] as const

export function postActions(ctx: Ctx, overlay: PostOverlay, replies: RepliesReader) {
  const $pending = atom(0)
  const track = async <T>(fn: () => Promise<T>): Promise<T> => {
    $pending.set($pending.get() + 1)
    try {
      return await fn()
    } finally {
      $pending.set($pending.get() - 1)
    }
  }
  const reread = () => ctx.revalidate(...POST_READS)

  const create: PostActionsValue['create'] = (subjectType, subjectRef, body, o) =>
    track(async () => {
      const p = await ctx.client.createPost(subjectType, subjectRef, body, o?.parentId, { room: o?.room })
      overlay.addOwn(p.id)
      reread()
      return p
    })

  /** A react's override; `to` is set once it failed after a later react replaced it: what it rolled back to. */
  type Write = AgreedOverride & { to?: Write | null }
  /** What a rollback to `w` shows: `w`, or what a failed `w` itself rolled back to (nothing: reads win). */
  const shown = (w?: Write | null): Write | undefined => (w?.to !== undefined ? shown(w.to) : (w ?? undefined))

  const react: PostActionsValue['react'] = (post, active = true) =>
    track(async () => {
      // A post that is no post (null, or without an id) is refused before any override or request.
      const id = postId(post?.id, 'post')
      const before: Write | undefined = overlay.$agreed.get()[id]
      const was = !!post.agreed
      const mine: Write = { agreed: !!active, agrees: Math.max(0, post.agrees + (active === was ? 0 : active ? 1 : -1)), at: Infinity }
      overlay.$agreed.setKey(id, mine)
      const current = () => overlay.$agreed.get()[id] === mine
      try {
        const r = await ctx.client.reactPost(id, active)
        // The service's answer: shown while `mine` is the override; else kept in `mine` for the later react
        // that replaced it, which rolls back to it on failure.
        const o = { agreed: r.agreed, agrees: r.agrees, at: Date.now() }
        if (current()) overlay.$agreed.setKey(id, o)
        else Object.assign(mine, o)
        return r
      } catch (e) {
        // Roll back to what the react before showed (followed through reacts that failed, never a copy of a
        // pending override, so every chain of reacts ends on the service's answers or its reads).
        if (current()) overlay.$agreed.setKey(id, shown(before))
        else mine.to = before ?? null
        throw e
      }
    })

  /** Block or unblock, then every shown read again (who is visible changed everywhere) and no kept earlier replies. */
  const blocking =
    (fn: (wallet: string) => Promise<BlockResult>) =>
    (wallet: string): Promise<BlockResult> =>
      track(async () => {
        const r = await fn(wallet)
        overlay.$replies.set({})
        // Every read: '' begins every key.
        ctx.revalidate('')
        return r
      })

  const value = computed($pending, (n): PostActionsValue => ({
    create,
    edit: (postId, body) =>
      track(async () => {
        const p = await ctx.client.editPost(postId, body)
        replies.patch(postId, p)
        reread()
        return p
      }),
    remove: (postId) =>
      track(async () => {
        const r = await ctx.client.deletePost(postId)
        replies.patch(postId, null)
        reread()
        return r
      }),
    react,
    report: (postId, reason) =>
      track(async () => {
        const r = await ctx.client.reportPost(postId, reason)
        reread()
        return r
      }),
    block: blocking(ctx.client.block),
    unblock: blocking(ctx.client.unblock),
    pending: n > 0,
  }))
  return { create, postActions: (): ReadableAtom<PostActionsValue> => value }
}
