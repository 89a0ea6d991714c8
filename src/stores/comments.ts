/**
 * `vk.comments(...)` (hook `useComments`, §2.7): one thread, newest first, replies folded under their
 * parents. It refetches when the thread changes (`client.onComments`, §6.1). Posts that arrive live are
 * held back as `newCount` until `showNew()` (posts written on this page show at once). Loaded posts are
 * merged by id: a refetched first page replaces its own range (a post gone from it was deleted or
 * hidden) and keeps the older posts it pushed out.
 */
import { atom, computed, onMount } from 'nanostores'
import type { SubjectType } from '../contract/ids.ts'
import { LIMITS } from '../contract/limits.ts'
import type { Labels, Post, ThreadPage, Titles } from '../contract/types.ts'
import { keyOf, loaded, type Ctx, type Loaded } from './ctx.ts'
import type { PagedTail } from './paged.ts'
import type { PostOverlay } from './posts.ts'
import { setReadOf } from './reads.ts'
import type { EarlierReplies, RepliesReader } from './replies.ts'

export interface CommentsOptions {
  includeReplies?: boolean
  includeSeries?: boolean
  limit?: number
  venue?: string
  room?: string
}

export interface CommentsValue extends PagedTail {
  posts: Post[]
  threads: Record<string, Post[]>
  /** "Show earlier replies" for a post whose earlier replies are not all shown, else null (replies.ts). */
  earlier(p: Post): EarlierReplies | null
  /** For a recurring market: the durable series thread its rounds roll into. */
  series: string | null
  labels: Labels
  titles: Titles
  loading: boolean
  refreshing: boolean
  /** Posts that arrived live and are not shown yet. */
  newCount: number
  showNew(): void
}

interface Held {
  post: Post
  at: number
}
interface State {
  key: string | undefined
  byId: Map<string, Held>
  threads: Record<string, Loaded<Post[]>>
  seen: Set<string>
  labels: Labels
  titles: Titles
  series: string | null
  cursor: string | null
  /** Pages beyond the first were loaded: the cursor is theirs. */
  extra: boolean
  moreLoading: boolean
  moreError: unknown
  showAll: boolean
}
const blank = (key?: string): State => ({
  key,
  byId: new Map(),
  threads: {},
  seen: new Set(),
  labels: {},
  titles: {},
  series: null,
  cursor: null,
  extra: false,
  moreLoading: false,
  moreError: null,
  showAll: true,
})

/** Merges one page into the state; the first page also drops posts of its range that are gone. */
function merge(s: State, page: Loaded<ThreadPage>, first: boolean): State {
  const byId = new Map(s.byId)
  const ids = page.v.posts.map((p) => p.id)
  if (first) {
    const min = page.v.hasMore ? ids.reduce((a, b) => (b < a ? b : a), ids[0] ?? '\uffff') : ''
    const inPage = new Set(ids)
    for (const id of byId.keys()) if (id >= min && !inPage.has(id)) byId.delete(id)
  }
  const threads = { ...s.threads }
  for (const p of page.v.posts) {
    byId.set(p.id, { post: p, at: page.at })
    threads[p.id] = loaded(page.at, page.v.threads[p.id] ?? [])
  }
  const seen = s.showAll || !first ? new Set([...s.seen, ...(s.showAll ? byId.keys() : ids)]) : s.seen
  const keepCursor = first && s.extra
  return {
    ...s,
    byId,
    threads,
    seen,
    labels: { ...s.labels, ...page.v.labels },
    titles: { ...s.titles, ...page.v.titles },
    series: page.v.series ?? s.series,
    cursor: keepCursor ? s.cursor : page.v.nextCursor,
    extra: s.extra || !first,
    showAll: false,
  }
}

export function comments(ctx: Ctx, overlay: PostOverlay, replies: RepliesReader, onLive: (topic: { subjectType: SubjectType; subjectRef: string }) => void) {
  return (subjectType: SubjectType, subjectRef: string, o?: CommentsOptions | null) => {
    const ref = subjectType === 'event' ? String(subjectRef).toLowerCase() : subjectRef
    const key = `thread|${subjectType}|${ref}|${keyOf({ ...o })}`
    return ctx.keep(key, () => {
      const load = (cursor?: string) => ctx.client.posts(subjectType, ref, { ...o, cursor })
      const $s = atom<State>(blank())
      // The first page is read again as far as the loaded rows go (up to LIMITS.pageMax): the rows Load more added and
      // those live re-reads pushed below page 1. A live change or a refresh then shows an edit, a delete or a removal
      // among them too (§6.1). Never less than the page asked for, which the service checks (a bad one is its 400).
      const first = ctx.query(key, () => ctx.client.posts(subjectType, ref, { ...o, limit: Math.max(o?.limit ?? LIMITS.pageDefault, Math.min(LIMITS.pageMax, $s.get().byId.size)) }))

      const loadMore = async () => {
        const s = $s.get()
        if (s.moreLoading || !s.cursor || s.key !== first.key) return
        $s.set({ ...s, moreLoading: true, moreError: null })
        const at = Date.now()
        try {
          const v = await load(s.cursor)
          ctx.readSucceeded()
          if ($s.get().key === s.key) $s.set({ ...merge($s.get(), loaded(at, v), false), moreLoading: false })
        } catch (e) {
          if ($s.get().key === s.key) $s.set({ ...$s.get(), moreLoading: false, moreError: e })
        }
      }
      const showNew = () => {
        const s = $s.get()
        $s.set({ ...s, seen: new Set(s.byId.keys()) })
      }
      const refresh = () => {
        $s.set({ ...$s.get(), showAll: true })
        first.revalidate()
      }

      const $value = computed([first, $s, overlay.$agreed, overlay.$own, overlay.$replies], (f, s, agreed, own, kept): CommentsValue => {
        const current = s.key === first.key
        const posts: Post[] = []
        let newCount = 0
        // Only what is newer than every post already shown is new: an older row that a longer re-read brings
        // (the next after a deleted one) takes its place at the bottom.
        let older = false
        if (current)
          for (const id of [...s.byId.keys()].sort().reverse()) {
            const h = s.byId.get(id)!
            if ((older ||= s.seen.has(id)) || own.has(id)) posts.push(...overlay.apply([h.post], h.at, agreed))
            else newCount++
          }
        const read: Record<string, Loaded<Post[]>> = {}
        for (const p of posts) if (s.threads[p.id]) read[p.id] = s.threads[p.id]
        return {
          posts,
          ...replies.fold(read, agreed, kept, o?.venue),
          series: current ? s.series : null,
          labels: current ? s.labels : {},
          titles: current ? s.titles : {},
          loading: !!f.loading && !f.data,
          refreshing: !!f.loading && !!f.data,
          error: f.error ?? (current ? s.moreError : null) ?? null,
          loadMoreError: f.error ? null : ((current ? s.moreError : null) ?? null),
          hasMore: current && !!s.cursor,
          loadingMore: current && s.moreLoading,
          loadMore,
          refresh,
          newCount,
          showNew,
        }
      })

      onMount($value, () => {
        let last: Loaded<ThreadPage> | undefined
        // The thread's live changes: a room's thread follows the room's topic (a private room's needs the
        // session): at once for a room id, and for `self` once the first page names it (`roomId`).
        let offLive = () => {}
        let live: string | undefined
        const changed = () => {
          onLive({ subjectType, subjectRef: ref })
          first.revalidate()
          // A market's thread changed: its take counts may have (§2.6), on this page too, and so may its
          // result (a resolution fires every thread of the market: its receipts move, §3.2).
          if (subjectType == 'event') {
            ctx.client.takeCounts.clear()
            ctx.revalidate(setReadOf('counts', ref), setReadOf('markets', ref))
          }
        }
        // With includeSeries, once the first page names the series: the series thread's topic instead, which the
        // service fires for a change on any of its rounds, this one included.
        const listen = (room: string | null | undefined, type: SubjectType = subjectType, on = ref) => {
          if (room + type + on == live) return
          live = room + type + on
          // The new topic first: the socket, shared by every subscription, stays open through the swap.
          const was = offLive
          try {
            offLive = ctx.client.onComments(type, on, changed, { room })
          } catch {
            // No WebSocket in this runtime: the thread still reads over HTTP, without live updates (§6.2).
          }
          was()
        }
        if (o?.room != 'self') listen(o?.room || null)
        const offData = first.subscribe((f) => {
          if (!f.data || f.data === last) return
          last = f.data
          const { roomId, series } = f.data.v
          // A room read names its room (`self` resolved); for any other room that is the topic already followed.
          if (o?.includeSeries && series) listen(roomId, 'series', series)
          else if (roomId) listen(roomId)
          const s = $s.get()
          $s.set(merge(s.key === first.key ? s : blank(first.key), f.data, true))
        })
        return () => {
          offData()
          offLive()
        }
      })
      return $value
    })
  }
}
