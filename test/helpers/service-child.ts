/**
 * A reference service in its own process, for tests that kill it (crash test). argv[2] is JSON:
 * `{ dataDir?, databaseUrl?, markets?: string[], positions?: [wallet, marketId, side, size][] }`.
 * Rate limits are off. Markets and positions are added through the fixture chain (when not there yet).
 * Prints one JSON line `{ url, pid }` when it listens; stops cleanly on SIGTERM.
 */
import process from 'node:process'
import { startReferenceService } from '../../src/server/node.ts'

interface ChildOptions {
  dataDir?: string
  databaseUrl?: string
  markets?: string[]
  positions?: [string, string, number, string][]
}

const o = JSON.parse(process.argv[2] ?? '{}') as ChildOptions
const svc = await startReferenceService({ port: 0, dataDir: o.dataDir ?? null, databaseUrl: o.databaseUrl ?? null, rateLimits: false })
for (const id of o.markets ?? []) {
  if (await svc.ctx.db.selectFrom('markets').select('id').where('id', '=', id).executeTakeFirst()) continue
  await svc.chain.addMarket({ id, title: `Crash market ${id.slice(0, 8)}`, nodes: [{ type: 'category', ref: 'crash' }, { type: 'topic', ref: 'durability' }], closesAt: new Date(Date.now() + 86400_000) })
  await svc.chain.setPrice(id, 0, 4000)
  await svc.chain.setPrice(id, 1, 6000)
}
for (const [wallet, market, side, size] of o.positions ?? []) await svc.chain.setPosition(wallet, market, side, size)
process.stdout.write(`${JSON.stringify({ url: svc.url, pid: process.pid })}\n`)
process.on('SIGTERM', () => {
  svc.close().then(
    () => process.exit(0),
    () => process.exit(1),
  )
})
