/**
 * A Kysely dialect for PGlite. PGlite serves one connection at a time, so the driver hands out its
 * single connection under a queue: a transaction holds it until commit or rollback.
 */
import type { PGlite } from '@electric-sql/pglite'
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely'

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    const res = await this.pg.query<R>(q.sql, q.parameters as any[], { rowMode: 'object' })
    const affected = res.affectedRows ?? 0
    const isWrite = /^\s*(insert|update|delete|merge)/i.test(q.sql)
    return { rows: res.rows, ...(isWrite ? { numAffectedRows: BigInt(affected) } : {}) }
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect does not stream')
  }
}

class PGliteDriver implements Driver {
  private queue: Promise<void> = Promise.resolve()
  private release: (() => void) | null = null
  private readonly conn: PGliteConnection
  constructor(private readonly pg: PGlite) {
    this.conn = new PGliteConnection(pg)
  }
  async init() {
    await this.pg.waitReady
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const prev = this.queue
    let release!: () => void
    this.queue = new Promise<void>((r) => (release = r))
    await prev
    this.release = release
    return this.conn
  }
  async beginTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('begin'))
  }
  async commitTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('commit'))
  }
  async rollbackTransaction(c: DatabaseConnection) {
    await c.executeQuery(CompiledQuery.raw('rollback'))
  }
  async releaseConnection() {
    const r = this.release
    this.release = null
    r?.()
  }
  async destroy() {
    await this.pg.close()
  }
}

export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}
  createAdapter() {
    return new PostgresAdapter()
  }
  createDriver() {
    return new PGliteDriver(this.pg)
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler()
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db)
  }
}
