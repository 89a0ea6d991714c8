/**
 * Following a subject (§2.12 `useFollow`): a market (`event`) or a taxonomy node. Org and brand nodes
 * have no follow path (§3.3); their rooms are joined explicitly. Follow and unfollow are idempotent.
 */
import { UNFOLLOWABLE_NODE_TYPES, type NodeType, type SubjectType } from '../../contract/ids.ts'
import type { FollowState } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError, notFound } from '../http/errors.ts'

export const isFollowable = (subjectType: SubjectType) => !UNFOLLOWABLE_NODE_TYPES.includes(subjectType as NodeType)

export async function followState(ctx: ServiceContext, account: string | null, subjectType: SubjectType, subjectRef: string): Promise<FollowState> {
  if (!account || !isFollowable(subjectType)) return { subjectType, subjectRef, following: false }
  const row = await ctx.db
    .selectFrom('follows')
    .select('account_id')
    .where('account_id', '=', account)
    .where('subject_type', '=', subjectType)
    .where('subject_ref', '=', subjectRef)
    .executeTakeFirst()
  return { subjectType, subjectRef, following: !!row }
}

export async function follow(ctx: ServiceContext, account: string, subjectType: SubjectType, subjectRef: string): Promise<FollowState> {
  if (!isFollowable(subjectType)) {
    throw new ApiError(400, 'not-followable', `${subjectType} nodes have no follow path; join the room on this ${subjectType} instead`, { param: 'subjectType' })
  }
  if (subjectType === 'event' && !(await ctx.chain.markets([subjectRef])).has(subjectRef)) {
    throw notFound('no market with this id', 'market-not-found')
  }
  await ctx.db
    .insertInto('follows')
    .values({ account_id: account, subject_type: subjectType, subject_ref: subjectRef, created_at: ctx.now() })
    .onConflict((oc) => oc.columns(['account_id', 'subject_type', 'subject_ref']).doNothing())
    .execute()
  return { subjectType, subjectRef, following: true }
}

export async function unfollow(ctx: ServiceContext, account: string, subjectType: SubjectType, subjectRef: string): Promise<FollowState> {
  await ctx.db
    .deleteFrom('follows')
    .where('account_id', '=', account)
    .where('subject_type', '=', subjectType)
    .where('subject_ref', '=', subjectRef)
    .execute()
  return { subjectType, subjectRef, following: false }
}
