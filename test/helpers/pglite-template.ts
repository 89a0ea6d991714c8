/**
 * A migrated, empty embedded database as a data-directory dump, for in-memory test services
 * (`startTestService`): starting from it skips creating a new cluster (initdb), most of an in-memory start
 * (about 2 s of CPU against 0.7 s here). Built once and kept on disk for every test process of the run, under
 * a name that changes with the migrations and the PGlite version, so an outdated dump is never used.
 */
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, Migrator } from 'kysely'
import { migrationProvider } from '../../src/server/db/migrations.ts'
import { PGliteDialect } from '../../src/server/db/pglite-dialect.ts'
import type { Database } from '../../src/server/db/schema.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))
const dir = join(root, 'node_modules', '.cache', 'venuekit-tests')

function templatePath(): string {
  const h = createHash('sha256')
  h.update(readFileSync(join(root, 'src/server/db/migrations.ts')))
  h.update(readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json')))
  return join(dir, `pglite-migrated-${h.digest('hex').slice(0, 16)}.tar`)
}

async function build(file: string): Promise<Blob> {
  const pg = new PGlite()
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pg) })
  const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest()
  if (error) throw error
  const dump = await pg.dumpDataDir('none')
  await db.destroy()
  // Written under a name of its own, then renamed: a process reading it never sees half a file. Where
  // node_modules cannot be written, this process keeps its dump in memory only.
  try {
    mkdirSync(dir, { recursive: true })
    const tmp = `${file}.${process.pid}.tmp`
    writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()))
    renameSync(tmp, file)
  } catch (e) {
    console.warn(`[venuekit tests] the migrated template is not kept on disk (${(e as Error).message})`)
  }
  return dump
}

let cached: Promise<Blob> | null = null
/** The dump (read from disk, or built and kept there the first time). */
export function pgliteTemplate(): Promise<Blob> {
  return (cached ??= (async () => {
    const file = templatePath()
    if (existsSync(file)) return new Blob([readFileSync(file)])
    return build(file)
  })())
}
