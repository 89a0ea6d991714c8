/**
 * The SDK contract suite in Deno: `npx deno test -A test/deno/sdk.test.ts`.
 * The reference service (with the dev fixture routes) runs in a child process (fixture.ts): on Node, or with
 * VK_SDK_SERVICE=deno on Deno (src/server/deno.ts, the service's own Deno entry), so the same cases show that both
 * runtimes serve the same contract. Its store: PGlite in memory, or PostgreSQL when VK_TEST_DATABASE_URL is set.
 * The SDK runs here on Deno's own fetch and WebSocket.
 */
import { contractCases } from '../sdk/contract-suite.ts'
import { harness, type Harness } from '../sdk/harness.ts'
import { startFixture } from './fixture.ts'

const runtime = Deno.env.get('VK_SDK_SERVICE') === 'deno' ? 'deno' : 'node'
const store = Deno.env.get('VK_TEST_DATABASE_URL') ? 'PostgreSQL' : 'PGlite'

const fixture = await startFixture(runtime)
const h: Harness = harness(fixture.env)

Deno.test({
  name: `SDK contract (Deno), service on ${runtime === 'deno' ? 'Deno' : 'Node'} (${store})`,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    // A case that never settles (a stream message that never comes) fails the run instead of holding CI.
    const watchdog = setTimeout(async () => {
      console.error('SDK contract: still running after 5 minutes; stopping the service and failing')
      await fixture.stop()
      Deno.exit(1)
    }, 300_000)
    try {
      for (const c of contractCases) await t.step(c.name, () => c.run(h))
    } finally {
      clearTimeout(watchdog)
      await fixture.stop()
    }
  },
})
