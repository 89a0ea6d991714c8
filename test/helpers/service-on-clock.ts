/** A test file's reference service on a clock its tests set. */
import { after, before } from 'node:test'
import { startWithOperator, type TestService, type TestUser } from './service.ts'

/**
 * The file's service on a clock its tests set: started (with an operator) before the file's tests, handed to
 * `use`, and closed after them. The service reads `clock.ms` as now; it starts a minute ago.
 */
export function serviceOnClock(use: (started: { svc: TestService; operator: TestUser }) => void) {
  const clock = { ms: Date.now() - 60_000 }
  let svc: TestService | undefined
  before(async () => {
    const started = await startWithOperator({ now: () => new Date(clock.ms) })
    svc = started.svc
    use(started)
  })
  after(() => svc?.close())
  return clock
}
