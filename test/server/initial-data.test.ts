/** `initialData`: an in-memory service that starts from a dump of a data directory (PGlite `dumpDataDir()`). */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, Migrator, sql } from 'kysely'
import { migrationProvider } from '../../src/server/db/migrations.ts'
import { PGliteDialect } from '../../src/server/db/pglite-dialect.ts'
import type { Database } from '../../src/server/db/schema.ts'
import { startReferenceService } from '../../src/server/node.ts'
import { call, ON_POSTGRES } from '../helpers/service.ts'

describe('initialData', { skip: ON_POSTGRES && 'an embedded-store option' }, () => {
  it('an in-memory service started from a dump holds what the dump holds, and brings an older dump up to date (its migrations run)', async () => {
    // A dump made before the last migration, holding one post.
    const pg = new PGlite()
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pg) })
    const names = Object.keys(await migrationProvider.getMigrations()).sort()
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateTo(names[names.length - 2])
    if (error) throw error
    await sql`insert into accounts (id) values ('a1')`.execute(db)
    await sql`insert into posts (id, subject_type, subject_ref, account_id, author, body, created_at, score)
      values ('p_0000000000001', 'topic', 'initial-data', 'a1', ${'0x' + '1'.repeat(40)}, 'from the dump', now(), 1)`.execute(db)
    const dump = await pg.dumpDataDir('none')
    await db.destroy()

    const svc = await startReferenceService({ port: 0, rateLimits: false, initialData: dump })
    try {
      const r = await call(svc, 'GET', '/v1/social/posts?subjectType=topic&subjectRef=initial-data')
      assert.equal(r.status, 200, JSON.stringify(r.body))
      assert.deepEqual(r.body.posts.map((p: { body: string }) => p.body), ['from the dump'])
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(svc.ctx.db)
      assert.deepEqual(applied.rows.map((x) => x.name), names, 'every migration applied, the last one on start')
    } finally {
      await svc.close()
    }
  })
})
