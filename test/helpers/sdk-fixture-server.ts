/**
 * Starts the SDK fixture service (sdk-fixture.ts) on Node in its own process, for runtimes that cannot host it
 * (the Deno contract run). Prints one JSON line `{url, streamUrl}` on stdout; stops when stdin closes or on
 * SIGTERM / SIGINT. test/deno/fixture-server.ts is the same service served by Deno.
 */
import { serveSdkFixture } from './sdk-fixture.ts'

await serveSdkFixture()
