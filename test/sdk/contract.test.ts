/** The SDK contract suite (contract-suite.ts) in Node, against a reference service started in process. */
import { after, before, describe, it } from 'node:test'
import WebSocket from 'ws'
import type { SocketConstructor } from '../../src/sdk/index.ts'
import { startSdkFixture } from '../helpers/sdk-fixture.ts'
import type { TestService } from '../helpers/service.ts'
import { contractCases } from './contract-suite.ts'
import { harness, type Harness } from './harness.ts'

let svc: TestService
let h: Harness
before(async () => {
  svc = await startSdkFixture()
  // Node 20 has no global WebSocket: the SDK takes `ws` through WebSocketImpl.
  h = harness({ url: svc.url, streamUrl: svc.streamUrl, WebSocketImpl: WebSocket as unknown as SocketConstructor })
})
after(() => svc.close())

describe('SDK contract (Node)', () => {
  for (const c of contractCases) it(c.name, () => c.run(h))
})
