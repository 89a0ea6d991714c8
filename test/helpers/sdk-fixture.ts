/**
 * The reference service as the SDK's contract suite needs it, in any runtime that reaches it over HTTP:
 * the dev fixture-chain routes (`dev: true`) and a known operator wallet (test/sdk/harness.ts OPERATOR_KEY).
 * Venues, keys and rooms are made through the public API (`POST /admin/keys`, `POST /v1/rooms`).
 * Served by Node (node.ts) unless a `start` is given: test/deno/fixture-server.ts serves it with deno.ts.
 * Deno and the browser reach it through a process (`serveSdkFixture`) / the test-runner plugin.
 */
import { privateKeyToAccount } from 'viem/accounts'
import { startOnTestStore, type StartService, type TestService } from './test-store.ts'
import { OPERATOR_KEY } from '../sdk/harness.ts'

/**
 * `streamReplayMs`: the stores' and elements' tests write a thread and read it within milliseconds, so the stream's
 * replay (realtime/hub.ts REPLAY_MS) would follow each read with one more, at a moment the test does not control
 * (inside a window of injected failures, or between two counted requests). It is off here; the replay's own tests
 * run on services with it on (test/server/realtime*.test.ts, and one store test: comments.test.ts).
 */
export async function startSdkFixture(o: { streamReplayMs?: number } = {}, start?: StartService): Promise<TestService> {
  start ??= (await import('../../src/server/node.ts')).startReferenceService
  return startOnTestStore(start, { dev: true, operators: [privateKeyToAccount(OPERATOR_KEY).address], streamReplayMs: 0, ...o })
}

/**
 * The fixture service as a process (sdk-fixture-server.ts on Node, test/deno/fixture-server.ts on Deno): prints one
 * JSON line `{url, streamUrl}` on stdout once it listens; stops when stdin closes (its parent ended, however) or on
 * SIGTERM / SIGINT.
 */
export async function serveSdkFixture(start?: StartService): Promise<void> {
  const svc = await startSdkFixture({}, start)
  process.stdout.write(`${JSON.stringify({ url: svc.url, streamUrl: svc.streamUrl })}\n`)
  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await svc.close()
    process.exit(0)
  }
  process.stdin.on('end', stop)
  process.stdin.on('close', stop)
  process.stdin.resume()
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}
