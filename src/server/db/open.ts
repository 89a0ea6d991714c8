/**
 * Opens the store: PGlite (in memory, or a data directory guarded by a lock file) by default,
 * PostgreSQL through `pg` when a database URL is given. Runs the migrations either way.
 */
import { Kysely, Migrator, PostgresDialect } from 'kysely'
import fs from 'node:fs'
import path from 'node:path'
import process from 'node:process'
import type { Database } from './schema.ts'
import { migrationProvider } from './migrations.ts'
import { PGliteDialect } from './pglite-dialect.ts'
import { preparePlanCached } from './plan-cache.ts'

export interface Store {
  db: Kysely<Database>
  kind: 'pglite' | 'postgres'
  databaseUrl: string | null
  close(): Promise<void>
}

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(`data directory ${dir} is in use by process ${pid}; two processes never open one directory`)
  }
}

const LOCK_NAME = 'venuekit.lock'

/**
 * Whether the lock's process may still run. Only ESRCH ("no such process") proves it is gone: any other
 * failure (EPERM, or Deno without --allow-run refusing the probe) counts as alive, so two processes never
 * share a directory.
 */
function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e: any) {
    return e?.code !== 'ESRCH'
  }
}

/** Takes the data directory's lock file, or throws when a live process holds it. A stale lock is taken over. */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, LOCK_NAME)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx')
      fs.writeSync(fd, String(process.pid))
      fs.closeSync(fd)
      return () => {
        try {
          if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file)
        } catch {}
      }
    } catch (e: any) {
      if (e?.code !== 'EEXIST') throw e
      const pid = Number(fs.readFileSync(file, 'utf8'))
      if (pid && pid !== process.pid && pidAlive(pid)) throw new DataDirLockedError(dir, pid)
      if (pid === process.pid) throw new DataDirLockedError(dir, pid)
      fs.unlinkSync(file) // stale: its process is gone
    }
  }
  throw new Error(`could not lock data directory ${dir}`)
}

export async function openStore(opts: { dataDir?: string | null; databaseUrl?: string | null; initialData?: Blob }): Promise<Store> {
  let db: Kysely<Database>
  let unlock = () => {}
  if (opts.databaseUrl) {
    const pg = (await import('pg')).default
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: Number(process.env.VK_PG_POOL ?? 10) })
    // An idle client dropped by the server (restart, failover, admin kill) is removed by the pool; without a
    // listener its 'error' event would be an uncaught exception that ends the process.
    pool.on('error', (e) => console.error('[venuekit] idle database connection lost:', e.message))
    // The hot fixed-shape statements keep their plans per connection (plan-cache.ts).
    pool.on('connect', (client) => preparePlanCached(client))
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  } else {
    const { PGlite } = await import('@electric-sql/pglite')
    let dir: string | undefined
    if (opts.dataDir) {
      dir = path.resolve(opts.dataDir)
      unlock = lockDataDir(dir)
    }
    try {
      const pglite = dir ? new PGlite(path.join(dir, 'pgdata')) : new PGlite(opts.initialData ? { loadDataDir: opts.initialData } : {})
      db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) })
    } catch (e) {
      unlock()
      throw e
    }
  }
  try {
    const migrator = new Migrator({ db, provider: migrationProvider })
    const { error } = await migrator.migrateToLatest()
    if (error) throw error
  } catch (e) {
    await db.destroy().catch(() => {})
    unlock()
    throw e
  }
  return {
    db,
    kind: opts.databaseUrl ? 'postgres' : 'pglite',
    databaseUrl: opts.databaseUrl ?? null,
    async close() {
      await db.destroy()
      unlock()
    },
  }
}
