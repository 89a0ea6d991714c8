/**
 * The store of a test service, whatever runtime serves it (Node: service.ts `startTestService`; Deno:
 * test/deno/fixture-server.ts): PGlite in memory from the migrated template by default; when
 * VK_TEST_DATABASE_URL names a PostgreSQL server, a fresh database there, dropped on close.
 */
import { freshPgDatabase } from '../../scripts/lib/pg-database.ts'
import { pgliteTemplate } from './pglite-template.ts'
import type { ListenOptions, RunningService } from '../../src/server/service.ts'

export const ON_POSTGRES = !!process.env.VK_TEST_DATABASE_URL

const freshDatabase = () => freshPgDatabase(process.env.VK_TEST_DATABASE_URL!, 'vk_test')

export interface TestService extends RunningService {
  /** Same database, for a second instance (realtime fan-out tests). */
  databaseUrl: string | null
}

/** A runtime's `start` (node.ts `startReferenceService`, deno.ts `startDenoService`). */
export type StartService = (opts: ListenOptions) => Promise<RunningService>

/** Starts a service through `start` on a free port, on the test store, write rate limits off unless asked for. */
export async function startOnTestStore(start: StartService, opts: ListenOptions = {}): Promise<TestService> {
  let drop = async () => {}
  let databaseUrl: string | null = opts.databaseUrl ?? null
  if (ON_POSTGRES && !opts.databaseUrl && !opts.dataDir) {
    const db = await freshDatabase()
    databaseUrl = db.url
    drop = db.drop
  }
  // In memory: from a migrated template (pglite-template.ts) unless the test brings its own start.
  const initialData = !databaseUrl && !opts.dataDir && !opts.initialData ? await pgliteTemplate() : opts.initialData
  // Write rate limits are off unless a test asks for them: suites write a lot from 127.0.0.1.
  const svc = await start({ port: 0, rateLimits: false, ...opts, databaseUrl, initialData })
  const close = svc.close
  return Object.assign(svc, {
    databaseUrl,
    async close() {
      await close()
      await drop()
    },
  })
}
