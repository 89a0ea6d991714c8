/**
 * Failing `assert.ok(value)` calls without a message report at once, with the value, instead of hanging.
 *
 * Without a message, Node 20's `assert.ok` quotes the failing expression by reading the test's source file at the
 * failing call's position. Under tsx that position is the compiled code's, not the `.ts` file's, and on some of these
 * files the read spins: the test never fails, it hangs until `--test-timeout` (15 min in scripts/test.sh) with no
 * name and no message (test/server/moderation.test.ts did). So `assert.ok` and `assert.strict.ok` are wrapped once
 * per process: a falsy value without a message fails with a message that shows the value, and the source is never
 * read. Loaded by scripts/test.sh (`--import`) and by the shared test helpers, so a single file run by hand gets it
 * too.
 */
import assert, { AssertionError } from 'node:assert'
import { inspect } from 'node:util'

type Ok = ((value: unknown, message?: string | Error) => void) & { vkMessages?: true }

for (const target of [assert, assert.strict] as unknown as { ok: Ok }[]) {
  const ok = target.ok
  if (ok.vkMessages) continue
  const wrapped: Ok = function ok_(...args: unknown[]) {
    if (args.length === 1 && !args[0]) {
      throw new AssertionError({ message: `expected a truthy value, got ${inspect(args[0])}`, actual: args[0], expected: true, operator: '==', stackStartFn: wrapped })
    }
    return (ok as (...a: unknown[]) => void)(...args)
  }
  wrapped.vkMessages = true
  target.ok = wrapped
}
