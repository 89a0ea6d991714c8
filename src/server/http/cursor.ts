/** Opaque keyset cursors: base64url of a JSON tuple. Never an offset. */
import { Buffer } from 'node:buffer'
import { ApiError } from './errors.ts'

export function encodeCursor(values: (string | number)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url')
}

export function decodeCursor(cursor: string | undefined, shape: ('string' | 'number')[]): (string | number)[] | null {
  if (!cursor) return null
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    // Members go to SQL as parameters: a NUL (refused by PostgreSQL text) or a non-finite number is never issued.
    const member = (x: unknown, i: number) =>
      typeof x === shape[i] && (typeof x === 'number' ? Number.isFinite(x) : typeof x === 'string' && x.length <= 200 && !x.includes('\u0000'))
    if (Array.isArray(v) && v.length === shape.length && v.every(member)) return v
  } catch {}
  throw new ApiError(400, 'validation-failed', "'cursor' is not a cursor this service issued", { param: 'cursor' })
}
