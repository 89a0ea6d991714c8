/**
 * Benchmark service process: starts the reference service on a free port, bulk-seeds it, prepares
 * writer wallets with positions, prints one JSON line `{url, keys, markets}` and runs until killed.
 * argv: <pglite|postgres> <posts> [databaseUrl]
 */
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { startReferenceService } from '../src/server/node.ts'
import { bulkSeed } from './bulk-seed.ts'

const [kind, postsArg, databaseUrl] = process.argv.slice(2)
const svc = await startReferenceService({ port: 0, databaseUrl: kind === 'postgres' ? databaseUrl : null })
const t0 = Date.now()
await bulkSeed(svc.ctx.db, { posts: Number(postsArg) })
const seedMs = Date.now() - t0
const markets = (await svc.ctx.db.selectFrom('markets').select('id').orderBy('id').limit(50).execute()).map((m) => m.id)
const keys: string[] = []
for (let i = 0; i < 16; i++) {
  const key = generatePrivateKey()
  keys.push(key)
  const wallet = privateKeyToAccount(key).address
  for (const m of markets) await svc.chain.setPosition(wallet, m, i % 2, 1_000_000n)
}
process.stdout.write(JSON.stringify({ url: svc.url, keys, markets, seedMs }) + '\n')
const stop = async () => {
  await svc.close()
  process.exit(0)
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
