/**
 * The page size rule every cursor-paged read shares (§4.1; LIMITS.pageDefault 20, LIMITS.pageMax 100): over 21 entries,
 * no `limit` reads 20 and says more exist, `limit=100` reads all 21 and says none are left, `limit=101` is refused.
 * "More exist" is a `nextCursor` on every page, and `hasMore` too where the page has one (`withHasMore`: threads, feeds,
 * profiles; the boards and moderation reads have none).
 */
import assert from 'node:assert/strict'
import { call, expectError, type TestService } from './service.ts'

export async function expectDefaultAndMaxPage(svc: TestService, path: string, list: string, o: { token?: string; withHasMore?: boolean } = {}) {
  const { token, withHasMore } = o
  const sep = path.includes('?') ? '&' : '?'
  const first = await call(svc, 'GET', path, { token })
  assert.equal(first.status, 200, JSON.stringify(first.body))
  assert.equal(first.body[list].length, 20, 'the default page')
  assert.equal(typeof first.body.nextCursor, 'string', 'more pages exist')
  if (withHasMore) assert.equal(first.body.hasMore, true)
  const max = await call(svc, 'GET', `${path}${sep}limit=100`, { token })
  assert.equal(max.status, 200, JSON.stringify(max.body))
  assert.equal(max.body[list].length, 21, 'limit=100: every entry')
  assert.equal(max.body.nextCursor, null)
  if (withHasMore) assert.equal(max.body.hasMore, false)
  expectError(await call(svc, 'GET', `${path}${sep}limit=101`, { token }), 400, 'validation-failed', "'limit' must be from 1 to 100")
}
