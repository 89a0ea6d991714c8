/**
 * The SDK contract suite in Deno: `npx deno test -A test/deno/sdk.test.ts`.
 * The reference service (with the dev fixture routes) runs in a Node child process
 * (test/helpers/sdk-fixture-server.ts); the SDK runs here on Deno's own fetch and WebSocket.
 */
import { contractCases } from '../sdk/contract-suite.ts'
import { harness, type Harness } from '../sdk/harness.ts'

const root = new URL('../../', import.meta.url)

async function startFixture() {
  const child = new Deno.Command('node', {
    args: ['--import', 'tsx', 'test/helpers/sdk-fixture-server.ts'],
    cwd: root,
    stdin: 'piped',
    stdout: 'piped',
    stderr: 'inherit',
  }).spawn()
  // A service that never prints its address is killed, which ends its stdout and fails the run below.
  const deadline = setTimeout(() => child.kill(), 60_000)
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader()
  let buf = ''
  while (!buf.includes('\n')) {
    const { value, done } = await reader.read()
    if (done) throw new Error('the fixture service exited before printing its address')
    buf += value
  }
  clearTimeout(deadline)
  reader.releaseLock()
  const env = JSON.parse(buf.slice(0, buf.indexOf('\n'))) as { url: string; streamUrl: string }
  return {
    env,
    async stop() {
      await child.stdin.close()
      await child.status
      await child.stdout.cancel().catch(() => {})
    },
  }
}

const fixture = await startFixture()
const h: Harness = harness(fixture.env)

Deno.test({
  name: 'SDK contract (Deno)',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    try {
      for (const c of contractCases) await t.step(c.name, () => c.run(h))
    } finally {
      await fixture.stop()
    }
  },
})
