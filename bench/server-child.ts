/**
 * Benchmark and load service process: starts the reference service on a free port (rate limits off),
 * bulk-seeds it, prepares writer wallets holding a position on every writer market (so writes carry a
 * stance), prints one JSON line `{url, keys, markets, seedMs, posts}` and runs until killed.
 * argv[2] is JSON: `{ kind: 'pglite'|'postgres', posts, databaseUrl?, writers?, writerMarkets? }`.
 *
 * Over IPC (when spawned with an 'ipc' channel) it answers:
 * - `{ id, cmd: 'raw-feed', page, what, samples }`: times the SQL of a feed page, captured from the
 *   service's own code (once per page) and run straight on the store's connection, `samples` times back to
 *   back: `what: 'rows'` the query that produces the page's rows, `what: 'page'` every statement the page
 *   issues;
 * - `{ id, cmd: 'rate-limits', value }`: sets the service's rate limits (null: off).
 */
import process from 'node:process'
import type { CompiledQuery, KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startReferenceService } from '../src/server/node.ts'
import { decodeCursor } from '../src/server/http/cursor.ts'
import { CURSOR_SHAPE, rankedRows, type FeedRequest } from '../src/server/services/feed-source.ts'
import { readFeed } from '../src/server/services/feed.ts'
import { FixtureChain } from '../src/server/chain/fixture.ts'
import { resolveRateLimits, type RateLimits } from '../src/server/services/rate-limits.ts'
import { bulkSeed } from './bulk-seed.ts'

export interface ChildOptions {
  kind: 'pglite' | 'postgres'
  posts: number
  databaseUrl?: string
  /** Signed-in writers the parent will use (default 16). */
  writers?: number
  /** Markets every writer holds a position on (default 50). */
  writerMarkets?: number
}

/** A feed page, as the bench names it: the same request the HTTP endpoint builds. */
export interface FeedPageSpec {
  subject: { type: 'category' | 'event'; ref: string } | null
  /** `live` unless given. */
  sort?: 'live' | 'record'
  cursor: string | null
  limit: number
}

const o = JSON.parse(process.argv[2] ?? '{}') as ChildOptions
const svc = await startReferenceService({ port: 0, databaseUrl: o.kind === 'postgres' ? o.databaseUrl : null, rateLimits: false })
const t0 = Date.now()
await bulkSeed(svc.ctx.db, { posts: o.posts, progress: (n) => process.stderr.write(`\r  seeding ${o.kind}: ${n.toLocaleString('en')} / ${o.posts.toLocaleString('en')} posts`) })
process.stderr.write('\n')
const seedMs = Date.now() - t0
const markets = (await svc.ctx.db.selectFrom('markets').select('id').orderBy('id').limit(o.writerMarkets ?? 50).execute()).map((m) => m.id)
const keys: string[] = []
for (let i = 0; i < (o.writers ?? 16); i++) {
  const key = generatePrivateKey()
  keys.push(key)
  const wallet = privateKeyToAccount(key).address
  for (const m of markets) await svc.chain.setPosition(wallet, m, i % 2, 1_000_000n)
}

/** Records the statements a call executes (a subquery built apart is transformed but never executed alone). */
class Capture implements KyselyPlugin {
  private seen = new Map<PluginTransformQueryArgs['queryId'], PluginTransformQueryArgs>()
  nodes: PluginTransformQueryArgs[] = []
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.seen.set(args.queryId, args)
    return args.node
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const q = this.seen.get(args.queryId)
    if (q) this.nodes.push(q)
    return args.result
  }
}

/**
 * The compiled SQL the service runs for a feed page (signed out, no venue, `live`): `rows` is the query
 * that produces the page's rows; `page` is every statement the page issues (a `live` page: one).
 */
async function feedSql(page: FeedPageSpec, what: 'rows' | 'page'): Promise<CompiledQuery[]> {
  const req: FeedRequest = {
    scope: page.subject ? 'subject' : 'global',
    subject: page.subject,
    room: null,
    sort: page.sort ?? 'live',
    limit: page.limit,
    cursor: decodeCursor(page.cursor ?? undefined, CURSOR_SHAPE[page.sort ?? 'live']),
    reader: null,
    venue: null,
  }
  const cap = new Capture()
  const db = svc.ctx.db.withPlugin(cap)
  if (what === 'rows') await rankedRows({ ...svc.ctx, db }, req, page.limit + 1)
  else await readFeed({ ...svc.ctx, db, chain: new FixtureChain(db) }, req)
  return cap.nodes.map((n) => svc.ctx.db.getExecutor().compileQuery(n.node, n.queryId))
}

/** Compiled statements per page and kind, captured once (capturing runs the page). */
const compiled = new Map<string, CompiledQuery[]>()
async function statementsOf(page: FeedPageSpec, what: 'rows' | 'page') {
  const key = JSON.stringify([page, what])
  let qs = compiled.get(key)
  if (!qs) compiled.set(key, (qs = await feedSql(page, what)))
  return qs
}

process.on('message', async (m: { id: number; cmd: string; page?: FeedPageSpec; what?: 'rows' | 'page'; samples?: number; value?: Partial<RateLimits> | null }) => {
  try {
    if (m.cmd === 'raw-feed') {
      // Each message times `samples` runs back to back; the bench asks for one sample per message, so the
      // process waits for each run as it waits for each HTTP request (bench/run.ts, "paced").
      const queries = await statementsOf(m.page!, m.what ?? 'rows')
      const ms: number[] = []
      let rows = 0
      for (let i = 0; i < m.samples!; i++) {
        const t = performance.now()
        for (const q of queries) rows = (await svc.ctx.db.executeQuery(q)).rows.length
        ms.push(performance.now() - t)
      }
      process.send!({ id: m.id, ms, rows, statements: queries.length, sql: queries[0]?.sql })
    } else if (m.cmd === 'rate-limits') {
      svc.ctx.config.rateLimits = m.value ? resolveRateLimits(m.value) : null
      process.send!({ id: m.id, ok: true })
    }
  } catch (e) {
    process.send!({ id: m.id, error: String(e) })
  }
})

process.stdout.write(JSON.stringify({ url: svc.url, keys, markets, seedMs, posts: o.posts }) + '\n')
const stop = async () => {
  await svc.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
