/**
 * Statements built and compiled once per shape, for the hot read pages (feed and thread pages).
 *
 * Building a page's statement with Kysely's builders and compiling it to SQL cost ~0.15 ms of CPU a request:
 * about a fifth of what a PGlite feed page spends outside its SQL (docs/PERFORMANCE.md, service overhead).
 * Yet a page's SQL text depends only on its shape: which scope and order, whether there is a cursor, a
 * reader, a venue, a room. Everything else (the ids, the cursor's keys, the limit) only becomes parameters.
 *
 * A `StatementShapes` is given a `shapeOf` that copies an input, replacing each value with `value(x)`: a
 * slot that records x and stands in for it. What `shapeOf` copies unchanged, and where it keeps null, is
 * the shape. The builder runs once per shape on the slotted copy; the compiled text is kept, with the
 * places its slots landed among the parameters. Every later input of that shape only fills in its values.
 *
 * A builder must not read a slotted value in JavaScript: a slot throws when it is turned into a string or
 * a number, so such a builder fails where it is tested. `test/server/statement-shapes.test.ts` compiles
 * every shape both ways and compares the text and the parameters.
 *
 * A Kysely instance with plugins is compiled per call (a plugin may rewrite each query as it goes).
 */
import { createQueryId, type CompiledQuery, type Kysely, type RawBuilder } from 'kysely'

class Slot {
  constructor(readonly index: number) {}
  [Symbol.toPrimitive](): never {
    throw new TypeError(`statement-shapes: slot ${this.index}'s value was read while its statement was built; keep it in the shape instead`)
  }
  /** In the shape's key: a marker no validated input holds (a NUL, then the slot's place). */
  toJSON() {
    return `\u0000${this.index}`
  }
}

/** Records `v` among the call's values; answers the slot that stands for it in the shape. */
export type Valuer = <T>(v: T) => T

/** The distinct shapes kept per Kysely instance; past this, a new shape is compiled per call (a guard, not a path). */
const MAX_SHAPES = 256

export class StatementShapes<A> {
  readonly #byDb = new WeakMap<object, Map<string, CompiledQuery>>()

  constructor(private readonly shapeOf: (input: A, value: Valuer) => A) {}

  /** The compiled statement for `input`: built by `build` from its shape once, then only filled in. */
  compile<R, DB>(db: Kysely<DB>, input: A, build: (input: A) => RawBuilder<R>): CompiledQuery<R> {
    if (db.getExecutor().plugins.length) return build(input).compile(db)
    const values: unknown[] = []
    const shape = this.shapeOf(input, <T>(v: T) => new Slot(values.push(v) - 1) as T)
    const key = JSON.stringify(shape)
    let kept = this.#byDb.get(db)
    if (!kept) this.#byDb.set(db, (kept = new Map()))
    let template = kept.get(key)
    if (!template) {
      template = build(shape).compile(db)
      if (kept.size < MAX_SHAPES) kept.set(key, template)
    }
    return {
      query: template.query,
      queryId: createQueryId(),
      sql: template.sql,
      parameters: template.parameters.map((p) => (p instanceof Slot ? values[p.index] : p)),
    }
  }

  /** How many shapes are kept for `db` (tests). */
  size<DB>(db: Kysely<DB>): number {
    return this.#byDb.get(db)?.size ?? 0
  }
}
