/** Cursors over pages ordered by post id (newest first): the cursor carries the last id served. */
import { POST_ID_RE } from '../../contract/ids.ts'
import { decodeCursor } from './cursor.ts'
import { ApiError } from './errors.ts'

export function decodePostIdCursor(cursor: string | undefined): string | null {
  const v = decodeCursor(cursor, ['string'])
  if (!v) return null
  const id = v[0] as string
  if (!POST_ID_RE.test(id)) throw new ApiError(400, 'validation-failed', "'cursor' is not a cursor this service issued", { param: 'cursor' })
  return id
}
