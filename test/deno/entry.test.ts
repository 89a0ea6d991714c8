/**
 * What the runtime entries answer themselves, before the app (src/server/node.ts, src/server/deno.ts), the same on
 * both: the fixture service (fixture.ts) is started on Node and on Deno, and each gets the same requests over raw
 * TCP and a WebSocket. (The app's answers are the same code on both; the SDK contract suite, sdk.test.ts, runs
 * against either.) Each case here once differed on Deno.
 */
import assert from 'node:assert/strict'
import { PATHS, SERVICE_PATHS } from '../../src/contract/paths.ts'
import { MAX_FRAME_BYTES, MAX_MESSAGE_CHARS } from '../../src/server/realtime/hub.ts'
import { type ServiceRuntime, startFixture } from './fixture.ts'

/** One request over a fresh connection: the status, the status line and headers, and the body (JSON when it parses). */
async function raw(url: string, head: string): Promise<{ status: number; head: string; body: any }> {
  const u = new URL(url)
  const conn = await Deno.connect({ hostname: u.hostname, port: Number(u.port) })
  const timer = setTimeout(() => conn.close(), 5000)
  let text = ''
  try {
    await conn.write(new TextEncoder().encode(head))
    const buf = new Uint8Array(65536)
    // Until the headers and the body Content-Length names have come (or the server closes).
    for (;;) {
      const n = await conn.read(buf).catch(() => null)
      if (n === null) break
      text += new TextDecoder().decode(buf.subarray(0, n))
      const at = text.indexOf('\r\n\r\n')
      const len = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, at))
      if (at >= 0 && (!len || text.length - at - 4 >= Number(len[1]))) break
    }
  } finally {
    clearTimeout(timer)
    try {
      conn.close()
    } catch { /* closed by the timer */ }
  }
  const body = text.slice(text.indexOf('\r\n\r\n') + 4)
  let parsed: unknown = body
  try {
    parsed = JSON.parse(body)
  } catch { /* not JSON */ }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), head: text.slice(0, Math.max(0, text.indexOf('\r\n\r\n'))), body: parsed }
}

const request = (method: string, path: string, headers: Record<string, string> = {}) =>
  `${method} ${path} HTTP/1.1\r\n${Object.entries({ Host: 'localhost', Connection: 'close', ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`
const HANDSHAKE = { Upgrade: 'websocket', Connection: 'Upgrade', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==' }

/** An open stream socket whose messages and close are recorded. */
async function open(url: string) {
  const ws = new WebSocket(url)
  const messages: any[] = []
  ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)))
  const closed = new Promise<CloseEvent>((resolve) => ws.addEventListener('close', resolve))
  await new Promise((resolve, reject) => {
    ws.onopen = resolve
    ws.onerror = () => reject(new Error(`could not open ${url}`))
  })
  return { ws, messages, closed }
}

const within = <T>(p: Promise<T>, ms: number, what: string) => {
  let timer: ReturnType<typeof setTimeout> | undefined
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms)))]).finally(() => clearTimeout(timer))
}

for (const runtime of ['node', 'deno'] as ServiceRuntime[]) {
  Deno.test({
    name: `service entry on ${runtime === 'deno' ? 'Deno' : 'Node'}: refusals before the app, stream frames, stop`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn(t) {
      const fixture = await startFixture(runtime)
      const { url, streamUrl } = fixture.env
      let stopped = false
      try {
        await t.step('a request line and headers over 16 KB: 431 payload-too-large, in the error shape, readable by any origin', async () => {
          for (const head of [request('GET', SERVICE_PATHS.health, { 'X-Big': 'y'.repeat(17_000) }), request('GET', `${PATHS.feed}?${'a'.repeat(17_000)}`)]) {
            const r = await raw(url, head)
            assert.equal(r.status, 431, JSON.stringify(r.body))
            assert.equal(r.body?.error?.code, 'payload-too-large')
            assert.match(r.head, /\r\naccess-control-allow-origin: \*\r?$/im)
          }
          // Under the limit, the app answers.
          assert.equal((await raw(url, request('GET', SERVICE_PATHS.health, { 'X-Big': 'y'.repeat(15_000) }))).status, 200)
        })

        await t.step('a stream handshake without Sec-WebSocket-Key is a 400, not a 500', async () => {
          const { 'Sec-WebSocket-Key': _, ...noKey } = HANDSHAKE
          assert.equal((await raw(url, request('GET', PATHS.stream, noKey))).status, 400)
        })

        await t.step('a stream handshake that is not a GET is a 405, never upgraded', async () => {
          assert.equal((await raw(url, request('POST', PATHS.stream, HANDSHAKE))).status, 405)
        })

        await t.step(`a message over ${MAX_MESSAGE_CHARS} characters is answered; one over ${MAX_FRAME_BYTES} bytes closes the socket (1009)`, async () => {
          const s = await open(streamUrl)
          s.ws.send('x'.repeat(MAX_MESSAGE_CHARS + 1))
          s.ws.send(JSON.stringify({ type: 'ping' }))
          await within((async () => { while (s.messages.length < 2) await new Promise((r) => setTimeout(r, 20)) })(), 5000, 'answers')
          assert.equal(s.messages[0].code, 'payload-too-large')
          assert.equal(s.ws.readyState, WebSocket.OPEN)
          s.ws.send('x'.repeat(MAX_FRAME_BYTES + 1))
          assert.equal((await within(s.closed, 5000, 'close')).code, 1009)
        })

        await t.step('stop: an open socket is closed with 1001 "service stopping", and the service exits 0', async () => {
          const s = await open(streamUrl)
          const code = await fixture.stop()
          stopped = true
          const ev = await within(s.closed, 5000, 'close')
          assert.deepEqual([ev.code, ev.reason], [1001, 'service stopping'])
          assert.equal(code, 0)
        })
      } finally {
        if (!stopped) await fixture.stop()
      }
    },
  })
}
