/** Argument checks made before any request (each throws a ValidationError naming the argument). */
import { isMarketId, isWallet, NODE_REF_RE, NODE_TYPES, POST_ID_RE, ROOM_ID_RE, SUBJECT_TYPES, type SubjectType } from '../contract/ids.ts'
import { hasVisibleText } from '../contract/limits.ts'
import type { NodeRef } from '../contract/types.ts'
import { ValidationError } from './errors.ts'

const fail = (arg: string, msg: string): never => {
  throw new ValidationError(arg, msg)
}

export const oneOf = <T extends string>(v: T | null | undefined, list: readonly T[], arg: string) =>
  v == null || list.includes(v) ? v : fail(arg, `must be one of ${list.join(', ')}`)

export const wallet = (v: string, arg = 'wallet') => (isWallet(v) ? v.toLowerCase() : fail(arg, 'must be a wallet address (0x and 40 hex characters)'))
export const marketId = (v: string, arg = 'marketId') => (isMarketId(v) ? v.toLowerCase() : fail(arg, 'must be a market id (0x and 64 hex characters)'))
export const postId = (v: string, arg = 'postId') => (POST_ID_RE.test(v) ? v : fail(arg, 'must be a post id'))
export const room = (v: string) => (ROOM_ID_RE.test(v) ? v : fail('room', "must be a room id or 'self'"))
export const text = (v: string, arg: string) => (typeof v == 'string' && hasVisibleText(v) ? v : fail(arg, 'must not be empty'))
export const fn = <F>(f: F, arg: string) => (typeof f == 'function' ? f : fail(arg, 'must be a function'))

/** A lowercased, deduplicated, sorted list: the key of a set of ids in any order or casing. */
export const idSet = (ids: readonly string[], check: (v: string, arg: string) => string, arg: string) =>
  Array.isArray(ids) ? [...new Set(ids.map((v) => check(v, arg)))].sort() : fail(arg, 'must be an array')

/** A node key: a string (`RegExp#test` would read `undefined` or `123` as the text "undefined" or "123"). */
const isNodeRef = (v: unknown) => typeof v == 'string' && NODE_REF_RE.test(v)

/** A subject: known type; an `event` ref is a market id (lowercased), any other a node key. */
export function subject(type: SubjectType, ref: string): string {
  oneOf(type ?? ('' as SubjectType), SUBJECT_TYPES, 'subjectType')
  return type == 'event' ? marketId(ref, 'subjectRef') : isNodeRef(ref) ? ref : fail('subjectRef', 'must be a node key')
}

/** A node as `type:ref` for a query (records facet, leaderboard scope); null stays null. */
export const node = (n: NodeRef | null | undefined, arg: string) =>
  n == null ? n : NODE_TYPES.includes(n.type) && isNodeRef(n.ref) ? `${n.type}:${n.ref}` : fail(arg, 'must be a taxonomy node { type, ref }')
