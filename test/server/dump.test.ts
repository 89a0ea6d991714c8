/**
 * Secrets at rest (issue 9): "a dump of the database never contains a raw venue key or a session secret".
 * Real traffic with rate limits on (so counters are written): sign-ins, a linked wallet, a sign-out, minted
 * keys, keyed reads and writes (metered), origins, and a well-formed unknown key. Then the database is
 * dumped: every table as JSON (both stores), `pg_dump` on PostgreSQL, and on PGlite every byte of its
 * data directory on disk. Neither a raw key nor a raw token appears, nor their 64-hex secret parts.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { PATHS, SERVICE_PATHS } from '../../src/contract/paths.ts'
import { randomHex } from '../../src/core/ids.ts'
import { call, newWallet, ON_POSTGRES, signIn, startTestService, type TestService } from '../helpers/service.ts'
import { newVenueId } from '../helpers/venues.ts'

/** Writes keys and sessions through the API; answers every raw secret it saw. */
async function traffic(svc: TestService): Promise<string[]> {
  const secrets: string[] = []
  const venueId = newVenueId()
  const owner = await signIn(svc, undefined, venueId)
  secrets.push(owner.token)
  const keys: string[] = []
  for (const [id, label] of [
    [venueId, 'web'],
    [venueId, 'second'],
    [newVenueId(), 'other venue'],
  ]) {
    const r = await call(svc, 'POST', SERVICE_PATHS.adminKeys, { token: owner.token, body: { venueId: id, scopes: ['read', 'trade'], label } })
    assert.equal(r.status, 201, JSON.stringify(r.body))
    keys.push(r.body.key)
  }
  secrets.push(...keys)
  assert.equal((await call(svc, 'PUT', SERVICE_PATHS.venueOrigins(venueId), { token: owner.token, body: { origins: ['https://shop.example'] } })).status, 200)
  const users = [await signIn(svc), await signIn(svc), await signIn(svc, undefined, venueId)]
  secrets.push(...users.map((u) => u.token))
  // A second wallet linked to the first user.
  const extra = newWallet()
  const n = await call(svc, 'POST', PATHS.authNonce, { body: { address: extra.address } })
  const link = await call(svc, 'POST', PATHS.authLink, { token: users[0].token, body: { message: n.body.message, signature: await extra.signMessage({ message: n.body.message }) } })
  assert.equal(link.status, 200, JSON.stringify(link.body))
  for (const [i, u] of users.entries()) {
    const p = await call(svc, 'POST', PATHS.posts, { token: u.token, key: keys[i % 2], headers: { origin: 'https://shop.example' }, body: { subjectType: 'topic', subjectRef: 'secrets', body: `post ${i}` } })
    assert.equal(p.status, 201, JSON.stringify(p.body))
    assert.equal((await call(svc, 'GET', `${PATHS.feed}?limit=5`, { token: u.token, key: keys[i % 2] })).status, 200)
  }
  assert.equal((await call(svc, 'POST', PATHS.authSignOut, { token: users[1].token })).status, 200)
  // A revoked token and an unknown (well-formed) key are refused, and not recorded either.
  assert.equal((await call(svc, 'PUT', PATHS.follow('topic', 'secrets'), { token: users[1].token })).status, 401)
  const unknownKey = `pck_${randomHex(32)}`
  secrets.push(unknownKey)
  assert.equal((await call(svc, 'POST', PATHS.posts, { token: users[0].token, key: unknownKey, body: { subjectType: 'topic', subjectRef: 'secrets', body: 'x' } })).status, 401)
  const usage = await svc.ctx.db.selectFrom('venue_usage').selectAll().execute()
  assert.ok(usage.length > 0, 'keyed traffic was metered')
  const counters = await svc.ctx.db.selectFrom('rate_counters').selectAll().execute()
  assert.ok(counters.some((c) => c.bucket.startsWith('key:')), 'keyed writes were counted')
  return secrets
}

/** Every table of every schema but the catalogs, as JSON text. */
async function selectDump(svc: TestService): Promise<string> {
  const tables = await sql<{ s: string; t: string }>`select table_schema as s, table_name as t from information_schema.tables
    where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')`.execute(svc.ctx.db)
  assert.ok(tables.rows.length >= 25, `found ${tables.rows.length} tables`)
  let out = ''
  for (const { s, t } of tables.rows) {
    const r = await sql<{ j: string | null }>`select json_agg(x)::text as j from ${sql.table(`${s}.${t}`)} x`.execute(svc.ctx.db)
    out += `-- ${s}.${t}\n${r.rows[0].j ?? ''}\n`
  }
  assert.match(out, /token_hash/, 'the dump holds the sessions table')
  return out
}

function assertClean(dump: string, secrets: string[], where: string) {
  assert.ok(dump.length > 1000, `${where}: the dump is not empty`)
  for (const s of secrets) {
    assert.ok(!dump.includes(s), `${where} holds a raw secret ${s.slice(0, 8)}…`)
    assert.ok(!dump.includes(s.slice(4)), `${where} holds the secret part of ${s.slice(0, 8)}…`)
  }
  assert.doesNotMatch(dump, /pck_[0-9a-f]{64}/, `${where} holds something shaped like a venue key`)
  assert.doesNotMatch(dump, /vks_[0-9a-f]{64}/, `${where} holds something shaped like a session token`)
}

describe('secrets at rest', () => {
  it('"a dump of the database never contains a raw venue key or a session secret"', async () => {
    if (ON_POSTGRES) {
      const svc = await startTestService({ rateLimits: undefined })
      try {
        const secrets = await traffic(svc)
        assertClean(await selectDump(svc), secrets, 'the table dump')
        const dump = execFileSync('pg_dump', ['--no-owner', svc.databaseUrl!], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })
        assert.match(dump, /COPY public\.sessions/)
        assertClean(dump, secrets, 'pg_dump')
      } finally {
        await svc.close()
      }
      return
    }
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vk-dump-'))
    try {
      const svc = await startTestService({ dataDir: dir, rateLimits: undefined })
      let secrets: string[]
      try {
        secrets = await traffic(svc)
        assertClean(await selectDump(svc), secrets, 'the table dump')
      } finally {
        await svc.close()
      }
      // Every byte PGlite keeps on disk: heap files, indexes, the write-ahead log.
      let bytes = ''
      let files = 0
      for (const f of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!f.isFile()) continue
        bytes += fs.readFileSync(path.join(f.parentPath, f.name)).toString('latin1')
        files++
      }
      assert.ok(files > 100, `read ${files} files`)
      assert.ok(bytes.includes('token_hash'), 'the data directory holds the sessions table')
      assertClean(bytes, secrets, 'the PGlite data directory')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
