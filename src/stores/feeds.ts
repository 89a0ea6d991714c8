/**
 * Ranked reads: `vk.feed` (useFeed), `vk.forYou` (useForYou) and `vk.roomFeed` (useRoomFeed).
 * A ranked feed is rendered in the order the service gave: pages are appended, never re-sorted (§4.5.1).
 */
import { atom, computed, type ReadableAtom } from 'nanostores'
import type { FetcherValue } from './query.ts'
import type { SubjectType } from '../contract/ids.ts'
import { LIMITS } from '../contract/limits.ts'
import type { FeedPage, FeedScope, FeedSort, ForYouItem, ForYouRail, Labels, Market, Membership, Post, RoomInfo, Signal, Titles } from '../contract/types.ts'
import type { FeedOptions as ClientFeedOptions } from '../sdk/client.ts'
import { warnOnce } from '../sdk/config.ts'
import { ValidationError } from '../sdk/errors.ts'
import { keyOf, loaded, codeOf, readState, type Ctx, type Loaded } from './ctx.ts'
import { paged, type PagedTail } from './paged.ts'
import { concatPosts, type AgreedOverride, type KeptReplies, type PostOverlay } from './posts.ts'
import type { MarketCache } from './reads.ts'
import type { EarlierReplies, RepliesReader } from './replies.ts'

/** The feed a store reads: the SDK's options without paging (the store pages itself) or scope. */
export type FeedOptions = Pick<ClientFeedOptions, 'subjectType' | 'subjectRef' | 'venue' | 'room' | 'sort' | 'limit'>

/** The pages read so far, merged; `sort` is the order the service answered ('record' reads "ranked by record", §4.4.8). */
export interface FeedValue extends Pick<FeedPage, 'posts' | 'signals' | 'settlements' | 'threads' | 'labels' | 'titles' | 'sort'>, PagedTail {
  /** "Show earlier replies" for a post whose earlier replies are not all shown, else null (replies.ts). */
  earlier(p: Post): EarlierReplies | null
  loading: boolean
  refreshing: boolean
  /**
   * Scope `following` read signed out: nothing is requested (§4.1 rule 4 "Scope following needs a session");
   * the feed is read as soon as the reader signs in.
   */
  needsSession: boolean
}

export interface ForYouOptions {
  room?: string
  subjectType?: SubjectType
  subjectRef?: string
  limit?: number
}
export interface ForYouValue {
  items: ForYouItem[]
  markets: Record<string, Market>
  personalized: boolean
  loading: boolean
  error: unknown
  refresh(): void
}

export type RoomTarget = string | { subjectType: SubjectType; subjectRef: string }
export interface RoomFeedOptions {
  sort?: FeedSort
  limit?: number
  /** How many closing-soon markets (and For-you items) to read. */
  marketLimit?: number
}
export interface RoomFeedValue extends FeedValue {
  /** The room (null for a taxonomy-node section, which reads a subject, not a room). */
  room: RoomInfo | null
  /** The room's markets closing soon. */
  markets: Market[]
  /** The closing-soon markets are being read (none read yet). */
  marketsLoading: boolean
  /** Their read failed and none are shown: an error state with Retry (`refresh()`), never "none closing soon". */
  marketsError: unknown
  forYou: ForYouRail | null
  /** A private room read by an outsider (404, §7). */
  notFound: boolean
}

type Agreed = Record<string, AgreedOverride | undefined>
type Kept = Record<string, KeptReplies | undefined>

/**
 * A room's closing-soon rail (§4.4 rule 5): the rail's markets (all on the room's node) that are open and close
 * within LIMITS.closingSoonMs, soonest first, whatever reason listed them: a market the reader holds or follows
 * is listed as that, and closes soon all the same.
 */
function closingSoon(rail: ForYouRail, now: number): Market[] {
  const closes = (m: Market) => Date.parse(m.closesAt ?? '')
  return rail.items
    .map((i) => rail.markets[i.marketId])
    .filter((m) => m && !m.result && closes(m) > now && closes(m) <= now + LIMITS.closingSoonMs)
    .sort((a, b) => closes(a) - closes(b) || (a.id < b.id ? -1 : 1))
}

type FeedArgs = FeedOptions & { scope?: FeedScope }

/**
 * The paged feed read of one set of arguments; its first page is shared by `vk.feed` and `vk.roomFeed`.
 * Scope `following` is read only when signed in (§4.1 rule 4), and again at every sign-in.
 */
const pagedFeed = (ctx: Ctx, markets: MarketCache, args: FeedArgs) =>
  paged(
    ctx,
    `feed|${keyOf({ ...args })}`,
    async (cursor) => {
      const page = await ctx.client.postFeed({ ...args, cursor })
      // A settlement on the page says how its market ended: the page's copy of that market follows (§3.2).
      markets.settle(Object.fromEntries(page.settlements.map((s) => [s.marketId, s.result])))
      return page
    },
    args.scope === 'following' ? { signedIn: true } : undefined,
    true,
  )

/**
 * The signals of the loaded pages, in order. A quiet row a page places after its last post (`before: null`)
 * stays at the end of its own page: once a later page is loaded, it is placed before that page's first new
 * post, never below posts that came after it (§2.2 `before`).
 */
function pinQuietRows(pages: Loaded<FeedPage>[]): Signal[] {
  const seen = new Set<string>()
  const firstNew = pages.map((p) => {
    const first = p.v.posts.find((x) => !seen.has(x.id))
    for (const x of p.v.posts) seen.add(x.id)
    return first?.id ?? null
  })
  return pages.flatMap((p, i) => {
    const next = firstNew.slice(i + 1).find((id) => id !== null) ?? null
    return next === null ? p.v.signals : p.v.signals.map((s) => (s.attachTo === null && s.before === null ? { ...s, before: next } : s))
  })
}

/** Folds the loaded pages of a feed into one value, overrides applied, order kept. */
function feedValue(pages: Loaded<FeedPage>[], overlay: PostOverlay, agreed: Agreed, fallbackSort: FeedSort, replies: RepliesReader, kept: Kept, venue?: string) {
  const read: Record<string, Loaded<Post[]>> = {}
  const labels: Labels = {}
  const titles: Titles = {}
  for (const p of pages) {
    for (const id in p.v.threads) read[id] = loaded(p.at, p.v.threads[id])
    Object.assign(labels, p.v.labels)
    Object.assign(titles, p.v.titles)
  }
  return {
    posts: concatPosts(pages.map((p) => overlay.apply(p.v.posts, p.at, agreed))),
    signals: pinQuietRows(pages),
    settlements: pages.flatMap((p) => p.v.settlements),
    ...replies.fold(read, agreed, kept, venue, true),
    labels,
    titles,
    sort: pages[0]?.v.sort ?? fallbackSort,
  }
}

const subjectRefOf = (t: SubjectType | undefined, r: string | undefined) => (t === 'event' && r ? r.toLowerCase() : r)

export function feeds(ctx: Ctx, overlay: PostOverlay, markets: MarketCache, replies: RepliesReader) {
  const feed = (scope?: FeedScope, o?: FeedOptions | null): ReadableAtom<FeedValue> => {
    let { subjectType, subjectRef } = o ?? {}
    if ((scope === 'global' || scope === 'following') && (subjectType != null || subjectRef != null)) {
      // §4.1 rule 3: the service ignores a subject with these scopes; say so instead of sending it.
      warnOnce(`feed: a subject (${subjectType}:${subjectRef}) is ignored with scope '${scope}'; use scope 'subject' to read it`)
      subjectType = subjectRef = undefined
    }
    const args: FeedArgs = { ...o, scope, subjectType, subjectRef: subjectRefOf(subjectType, subjectRef) }
    return ctx.keep(`feed:${keyOf({ ...args })}`, () => {
      const p = pagedFeed(ctx, markets, args)
      return computed([p.first, p.$more, overlay.$agreed, ctx.$session, overlay.$replies], (f, m, agreed, session, kept): FeedValue => ({
        ...feedValue(p.pagesOf(f, m), overlay, agreed, o?.sort ?? 'live', replies, kept, args.venue),
        ...p.status(f, m),
        needsSession: scope === 'following' && !session,
        loadMore: p.loadMore,
        refresh: p.refresh,
      }))
    })
  }

  const forYouQuery = (o: ForYouOptions) => {
    const args = { ...o, subjectRef: subjectRefOf(o.subjectType, o.subjectRef) }
    return ctx.query(`foryou|${keyOf(args)}`, async () => {
      const r = await ctx.client.forYou(args)
      markets.put(r.markets)
      return r
    })
  }
  const forYou = (o?: ForYouOptions | null): ReadableAtom<ForYouValue> =>
    ctx.keep(`foryou:${keyOf({ ...o })}`, () => {
      const q = forYouQuery({ ...o })
      return computed(q, (f): ForYouValue => ({
        items: [],
        markets: {},
        personalized: false,
        ...f.data?.v,
        ...readState(f, q),
      }))
    })

  const roomFeed = (target: RoomTarget, o?: RoomFeedOptions | null): ReadableAtom<RoomFeedValue> => {
    const isRoom = typeof target === 'string'
    // No target (or not one of its two shapes) is refused now, not a TypeError; a bad room id or subject is the read's.
    if (!isRoom && !target?.subjectType) throw new ValidationError('target', 'must be a room id or a subject')
    const sort = o?.sort ?? 'record'
    const args: FeedArgs = isRoom
      ? { room: target, sort, limit: o?.limit }
      : { scope: 'subject', subjectType: target.subjectType, subjectRef: subjectRefOf(target.subjectType, target.subjectRef), sort, limit: o?.limit }
    return ctx.keep(`roomfeed:${keyOf({ ...args, marketLimit: o?.marketLimit })}`, () => {
      const p = pagedFeed(ctx, markets, args)
      const fy = forYouQuery(isRoom ? { room: target, limit: o?.marketLimit } : { subjectType: args.subjectType, subjectRef: args.subjectRef as string, limit: o?.marketLimit })
      const ms = isRoom ? membershipQuery(ctx, target) : null
      const noRoom = atom<FetcherValue<Loaded<Membership>>>({ loading: false })
      return computed([p.first, p.$more, overlay.$agreed, fy, ms ?? noRoom, overlay.$replies], (f, m, agreed, y, r, kept): RoomFeedValue => {
        // §7: a private room read by an outsider is 404 room-not-found (any other 404, a wrong address, is an error).
        const notFound = codeOf(f.error) == 'room-not-found' || codeOf(r.error) == 'room-not-found'
        const rail = y.data?.v ?? null
        const st = p.status(f, m)
        return {
          ...feedValue(p.pagesOf(f, m), overlay, agreed, sort, replies, kept),
          ...st,
          error: notFound ? null : st.error,
          loadMoreError: notFound ? null : st.loadMoreError,
          needsSession: false,
          room: r.data?.v.room ?? null,
          markets: rail ? closingSoon(rail, Date.now()) : [],
          marketsLoading: !!y.loading && !y.data,
          marketsError: rail ? null : (y.error ?? null),
          forYou: rail,
          notFound,
          loadMore: p.loadMore,
          refresh: () => {
            p.refresh()
            fy.revalidate()
            ms?.revalidate()
          },
        }
      })
    })
  }

  return { feed, forYou, roomFeed }
}

/** The membership read of a room, shared by `vk.roomMembership` and `vk.roomFeed`. */
export const membershipQuery = (ctx: Ctx, room: string) => ctx.query(`membership|${room}|`, () => ctx.client.rooms.membership(room))
