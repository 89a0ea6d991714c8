/**
 * The SDK fixture service (test/helpers/sdk-fixture.ts) in a child process, for Deno tests: served by Node
 * (test/helpers/sdk-fixture-server.ts) or by Deno (test/deno/fixture-server.ts, src/server/deno.ts). Its store:
 * PGlite in memory, or a fresh PostgreSQL database when VK_TEST_DATABASE_URL is set (the child inherits it).
 * `stop()` closes its stdin (the child stops on that) and waits for it; a child still running after 10 s, or one
 * that prints no address within 60 s, is killed.
 */
export type ServiceRuntime = 'node' | 'deno'

const root = new URL('../../', import.meta.url)

export interface Fixture {
  env: { url: string; streamUrl: string }
  /** The child's exit code. */
  stop(): Promise<number>
}

export async function startFixture(runtime: ServiceRuntime): Promise<Fixture> {
  const [cmd, ...args] = runtime === 'deno'
    ? [Deno.execPath(), 'run', '-A', 'test/deno/fixture-server.ts']
    : ['node', '--import', 'tsx', 'test/helpers/sdk-fixture-server.ts']
  const child = new Deno.Command(cmd, { args, cwd: root, stdin: 'piped', stdout: 'piped', stderr: 'inherit' }).spawn()
  // A service that never prints its address is killed, which ends its stdout and fails the run below.
  const deadline = setTimeout(() => child.kill(), 60_000)
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader()
  let buf = ''
  try {
    while (!buf.includes('\n')) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`the fixture service (${runtime}) exited before printing its address`)
      buf += value
    }
  } finally {
    clearTimeout(deadline)
    reader.releaseLock()
  }
  const env = JSON.parse(buf.slice(0, buf.indexOf('\n'))) as Fixture['env']
  return {
    env,
    async stop() {
      const kill = setTimeout(() => child.kill('SIGKILL'), 10_000)
      try {
        await child.stdin.close().catch(() => {})
        return (await child.status).code
      } finally {
        clearTimeout(kill)
        await child.stdout.cancel().catch(() => {})
      }
    },
  }
}
