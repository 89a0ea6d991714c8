/**
 * The SDK fixture service (test/helpers/sdk-fixture.ts) served by Deno (src/server/deno.ts: Deno.serve and
 * Deno.upgradeWebSocket), in its own process: `deno run -A test/deno/fixture-server.ts`. Prints one JSON line
 * `{url, streamUrl}`; stops when stdin closes or on SIGTERM / SIGINT. test/deno/sdk.test.ts runs the SDK contract
 * suite against it when VK_SDK_SERVICE=deno. (Not named *.test.ts: `deno test test/deno/` does not run it.)
 */
import { startDenoService } from '../../src/server/deno.ts'
import { serveSdkFixture } from '../helpers/sdk-fixture.ts'

await serveSdkFixture(startDenoService)
