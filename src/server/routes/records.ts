/**
 * Records, leaderboards and verdicts (§2.12):
 * - GET /v1/records?wallets=a,b&facet=<type>:<ref>  settled records of many wallets at one facet
 *   (absent facet = global), each with rank and population computed within that facet;
 * - GET /v1/leaderboard?scope=global|<type>:<ref>&limit&cursor  `scope` is required; every answer
 *   states its population;
 * - GET /v1/markets/verdicts?ids=a,b  right / wrong / undecided among each market's holders.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { NODE_TYPES, type NodeType } from '../../contract/ids.ts'
import { LIMITS } from '../../contract/limits.ts'
import { PATHS } from '../../contract/paths.ts'
import type { LeaderboardResult, NodeRef, RecordsResult, SettledRecord, VerdictsResult } from '../../contract/types.ts'
import type { ServiceContext } from '../context.ts'
import { ApiError } from '../http/errors.ts'
import { marketIds, walletList } from '../http/id-list.ts'
import { parseQuery, zCursor, zLimit, zNodeRef } from '../http/validate.ts'
import { boardPage } from '../services/leaderboard.ts'
import { populationAt, recordsFor } from '../services/records.ts'
import { verdictsFor } from '../services/verdicts.ts'

const FACET_HINT = `'<type>:<ref>' with type one of ${NODE_TYPES.join(', ')}`
const recordsQuery = z.object({ wallets: z.string().max(20_000).optional(), facet: z.string().max(200).optional() })
const leaderboardQuery = z.object({ scope: z.string().max(200).optional(), limit: zLimit.optional(), cursor: zCursor.optional() })
const verdictsQuery = z.object({ ids: z.string().max(20_000).optional() })

/** `<type>:<ref>` to a node; the ref may itself contain ':'. */
export function parseFacet(v: string, param: string): NodeRef {
  const i = v.indexOf(':')
  const type = i > 0 ? v.slice(0, i) : ''
  const ref = i > 0 ? v.slice(i + 1) : ''
  if (!(NODE_TYPES as readonly string[]).includes(type) || !zNodeRef.safeParse(ref).success) {
    throw new ApiError(400, 'validation-failed', `'${param}' must be ${FACET_HINT}`, { param })
  }
  return { type: type as NodeType, ref }
}

export function recordRoutes(ctx: ServiceContext) {
  const app = new Hono()

  app.get(PATHS.records, async (c) => {
    const q = parseQuery(c, ['wallets', 'facet'], recordsQuery)
    const wallets = walletList(q.wallets)
    const facet = q.facet ? parseFacet(q.facet, 'facet') : null
    const owners = await ctx.db.selectFrom('wallets').select(['address', 'account_id']).where('address', 'in', wallets).execute()
    const accountOf = new Map(owners.map((o) => [o.address, o.account_id]))
    const recs = await recordsFor(ctx, [...new Set(accountOf.values())], facet)
    // A wallet with no account or no settled take is unranked at the facet, never last.
    const blank: SettledRecord = { facet, right: 0, wrong: 0, void: 0, oddsBeatenBps: 0, rank: null, population: await populationAt(ctx, facet) }
    const records: Record<string, SettledRecord> = {}
    for (const w of wallets) {
      const a = accountOf.get(w)
      records[w] = (a && recs.get(a)) || blank
    }
    const body: RecordsResult = { facet, records }
    return c.json(body)
  })

  app.get(PATHS.leaderboard, async (c) => {
    const q = parseQuery(c, ['scope', 'limit', 'cursor'], leaderboardQuery)
    // `scope` is required (§9.3): 'global' is the global board, never a default.
    if (q.scope === undefined) throw new ApiError(400, 'validation-failed', `'scope' is required: 'global' or ${FACET_HINT}`, { param: 'scope' })
    const scope = q.scope === 'global' ? null : parseFacet(q.scope, 'scope')
    const page = await boardPage(ctx, scope, { limit: q.limit ?? LIMITS.pageDefault, cursor: q.cursor })
    const body: LeaderboardResult = { scope, population: page.population, entries: page.entries, nextCursor: page.nextCursor }
    return c.json(body)
  })

  app.get(PATHS.verdicts, async (c) => {
    const q = parseQuery(c, ['ids'], verdictsQuery)
    const ids = marketIds(q.ids, LIMITS.takeCountIdsPerRequest)
    const body: VerdictsResult = { verdicts: await verdictsFor(ctx, ids) }
    return c.json(body)
  })

  return app
}
