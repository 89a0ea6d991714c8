/**
 * The SDK contract suite (test/sdk/contract-suite.ts) in Chromium, with the browser's own fetch and
 * WebSocket, against the reference service the test runner started (web-test-runner.config.mjs).
 */
import { contractCases } from '../sdk/contract-suite.ts'
import { harness, type Harness } from '../sdk/harness.ts'

declare const describe: (name: string, fn: () => void) => void
declare const it: (name: string, fn: () => Promise<void>) => void
declare const before: (fn: () => Promise<void>) => void

let h: Harness

describe('SDK contract (Chromium)', () => {
  before(async () => {
    const env = (await (await fetch('/__vk/config.json')).json()) as { url: string; streamUrl: string }
    h = harness(env)
  })
  it('runs in a browser: no Node globals, native fetch and WebSocket', async () => {
    if (typeof (globalThis as { process?: unknown }).process !== 'undefined') throw new Error('process is defined')
    if (typeof WebSocket !== 'function' || typeof fetch !== 'function') throw new Error('no native fetch / WebSocket')
  })
  for (const c of contractCases) it(c.name, () => c.run(h))
})
