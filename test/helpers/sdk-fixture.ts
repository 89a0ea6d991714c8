/**
 * The reference service as the SDK's contract suite needs it, in any runtime that reaches it over HTTP:
 * the dev fixture-chain routes (`dev: true`) and a known operator wallet (test/sdk/harness.ts OPERATOR_KEY).
 * Venues, keys and rooms are made through the public API (`POST /admin/keys`, `POST /v1/rooms`).
 * Node only; Deno and the browser reach it through `sdk-fixture-server.ts` / the test-runner plugin.
 */
import { privateKeyToAccount } from 'viem/accounts'
import { startTestService, type TestService } from './service.ts'
import { OPERATOR_KEY } from '../sdk/harness.ts'

/**
 * `streamReplayMs`: the stores' and elements' tests write a thread and read it within milliseconds, so the stream's
 * replay (realtime/hub.ts REPLAY_MS) would follow each read with one more, at a moment the test does not control
 * (inside a window of injected failures, or between two counted requests). It is off here; the replay's own tests
 * run on services with it on (test/server/realtime*.test.ts, and one store test: comments.test.ts).
 */
export function startSdkFixture(o: { streamReplayMs?: number } = {}): Promise<TestService> {
  return startTestService({ dev: true, operators: [privateKeyToAccount(OPERATOR_KEY).address], streamReplayMs: 0, ...o })
}
