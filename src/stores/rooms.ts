/**
 * `vk.roomMembership(room)` (§2.8, §3.3) and `vk.roomBoard(room)` (§2.9). Rooms default to `'self'`.
 * - `member` is null while unknown AND after a failed read (§4.5.3: never draw Join on null).
 * - `refused` is set only by the private-room join answer ('this room is not open to join'); every other
 *   failure goes in `error`, and the action throws.
 */
import { atom, computed, type ReadableAtom } from 'nanostores'
import type { BoardEntry, JoinResult, Membership, NodeRef, RoomInfo } from '../contract/types.ts'
import { forViewer, loaded, codeOf, type Ctx } from './ctx.ts'
import { membershipQuery } from './feeds.ts'

export interface MembershipValue {
  room: RoomInfo | null
  member: boolean | null
  /** Headcount; null (never 0) for a private room seen by an outsider. */
  members: number | null
  joinedAt: string | null
  left: boolean
  loading: boolean
  readError: unknown
  pending: boolean
  refused: boolean
  error: unknown
  join(): Promise<JoinResult>
  leave(): Promise<Membership>
  /** Reads the membership again (Retry after `readError`). */
  refresh(): void
}

export interface BoardValue {
  board: BoardEntry[]
  population: number | null
  facet: NodeRef | null
  room: RoomInfo | null
  /** Active members (the board's length over all pages). */
  members: number | null
  /** A private board requested by an outsider (404). */
  notFound: boolean
  loading: boolean
  error: unknown
}

export function rooms(ctx: Ctx) {
  const roomMembership = (room = 'self'): ReadableAtom<MembershipValue> =>
    ctx.keep(`membership:${room}`, () => {
      const q = membershipQuery(ctx, room)
      const $w = atom({ key: undefined as string | undefined, pending: false, refused: false, error: null as unknown })
      const write = async <T>(fn: () => Promise<T>, done: (r: T) => boolean) => {
        const key = ctx.$viewer.get()
        $w.set({ key, pending: true, refused: false, error: null })
        // Settles this write's state, unless another reader has written since.
        const settle = (refused: boolean, error: unknown) => $w.get().key === key && $w.set({ key, pending: false, refused, error })
        try {
          const r = await fn()
          // An answer that comes after a login or logout is the previous reader's: it changes nothing shown.
          settle(ctx.$viewer.get() === key && done(r), null)
          ctx.revalidate('membership|', 'feed|', 'thread|')
          return r
        } catch (e) {
          settle(false, e)
          throw e
        }
      }
      const join = () => write(() => ctx.client.rooms.join(room), (r) => r.refused)
      const leave = () =>
        write(
          () => ctx.client.rooms.leave(room),
          (r) => (q.mutate({ ...loaded(Date.now(), r), who: ctx.$viewer.get() }), false),
        )
      return computed([q, $w, ctx.$viewer], (f, w0, who): MembershipValue => {
        const w = w0.key === who ? w0 : { pending: false, refused: false, error: null }
        const m = f.error ? null : (forViewer(f.data, who) ?? null)
        return {
          room: f.data?.v.room ?? null,
          member: m ? m.member : null,
          members: m ? m.members : null,
          joinedAt: m ? m.joinedAt : null,
          left: m ? m.left : false,
          loading: !!f.loading && !f.data,
          readError: f.error ?? null,
          pending: w.pending,
          refused: w.refused,
          error: w.error,
          join,
          leave,
          refresh: () => q.revalidate(),
        }
      })
    })

  const roomBoard = (room = 'self'): ReadableAtom<BoardValue> =>
    ctx.keep(`board:${room}`, () =>
      computed(
        ctx.query(`board|${room}|`, () => ctx.client.rooms.board(room)),
        (f): BoardValue => {
          const notFound = codeOf(f.error) == 'room-not-found'
          return {
            board: [],
            population: null,
            facet: null,
            room: null,
            members: null,
            ...(f.error ? null : f.data?.v),
            notFound,
            loading: !!f.loading && !f.data,
            error: notFound ? null : (f.error ?? null),
          }
        },
      ),
    )

  return { roomMembership, roomBoard }
}
