/**
 * Starts the SDK fixture service (sdk-fixture.ts) in its own process for runtimes that cannot host it
 * (the Deno contract run). Prints one JSON line `{url, streamUrl}` on stdout; stops when stdin closes
 * or on SIGTERM / SIGINT.
 */
import { startSdkFixture } from './sdk-fixture.ts'

const svc = await startSdkFixture()
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
