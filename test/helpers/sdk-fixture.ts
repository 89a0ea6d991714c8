/**
 * The reference service as the SDK's contract suite needs it, in any runtime that reaches it over HTTP:
 * the dev fixture-chain routes (`dev: true`) and a known operator wallet (test/sdk/harness.ts OPERATOR_KEY).
 * Venues, keys and rooms are made through the public API (`POST /admin/keys`, `POST /v1/rooms`).
 * Node only; Deno and the browser reach it through `sdk-fixture-server.ts` / the test-runner plugin.
 */
import { privateKeyToAccount } from 'viem/accounts'
import { startTestService, type TestService } from './service.ts'
import { OPERATOR_KEY } from '../sdk/harness.ts'

export function startSdkFixture(): Promise<TestService> {
  return startTestService({ dev: true, operators: [privateKeyToAccount(OPERATOR_KEY).address] })
}
