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

        await t.step('the entry\'s own answers carry X-Request-Id (a sane one sent is kept) and expose it: the upgrade (101), a refused handshake (400, 405), headers too large (431)', async () => {
          const { 'Sec-WebSocket-Key': _, ...noKey } = HANDSHAKE
          for (const [head, status] of [
            [request('GET', PATHS.stream, { ...HANDSHAKE, 'X-Request-Id': 'entry-1' }), 101],
            [request('GET', PATHS.stream, { ...noKey, 'X-Request-Id': 'entry-1' }), 400],
            [request('POST', PATHS.stream, { ...HANDSHAKE, 'X-Request-Id': 'entry-1' }), 405],
          ] as const) {
            const r = await raw(url, head)
            assert.equal(r.status, status, r.head)
            assert.match(r.head, /\r\nx-request-id: entry-1\r?$/im)
            if (status !== 101) assert.match(r.head, /\r\naccess-control-expose-headers: X-Request-Id\r?$/im)
          }
          // Node's parser refuses it before the id is read: a fresh one.
          const big = await raw(url, request('GET', SERVICE_PATHS.health, { 'X-Big': 'y'.repeat(17_000) }))
          assert.equal(big.status, 431)
          assert.match(big.head, /\r\nx-request-id: [0-9a-f-]{36}\r?$/im)
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

Deno.test({
  name: 'the Deno entry with --log json: one JSON line per request on stdout, the app\'s and the stream upgrade\'s, with the id the answer carries',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const child = new Deno.Command(Deno.execPath(), {
      args: ['run', '-A', 'src/server/deno.ts', '--port', '0', '--log', 'json'],
      cwd: new URL('../../', import.meta.url),
      env: { DATABASE_URL: '' },
      stdout: 'piped',
      stderr: 'inherit',
    }).spawn()
    const killer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    let out = ''
    const reading = (async () => {
      for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) out += chunk
    })()
    const until = async (what: () => boolean) => {
      for (let i = 0; i < 3000 && !what(); i++) await new Promise((r) => setTimeout(r, 20))
      assert.ok(what(), out)
    }
    try {
      await until(() => out.includes('press Ctrl+C to stop'))
      const url = /url:\s+(http:\/\/\S+)/.exec(out)![1]
      const r = await fetch(`${url}${SERVICE_PATHS.health}?probe=deno-secret`, { headers: { 'x-request-id': 'deno-log-1' } })
      await r.body?.cancel()
      assert.equal(r.headers.get('x-request-id'), 'deno-log-1')
      assert.equal((await raw(url, request('GET', PATHS.stream, { ...HANDSHAKE, 'X-Request-Id': 'deno-log-2' }))).status, 101)
      const lineOf = (id: string) => out.split('\n').filter((l) => l.includes(`"${id}"`)).map((l) => JSON.parse(l))
      await until(() => lineOf('deno-log-1').length > 0 && lineOf('deno-log-2').length > 0)
      const [app] = lineOf('deno-log-1')
      assert.deepEqual([app.method, app.path, app.status, typeof app.t, typeof app.ms], ['GET', SERVICE_PATHS.health, 200, 'string', 'number'])
      assert.deepEqual(lineOf('deno-log-2').map((l) => [l.method, l.path, l.status]), [['GET', PATHS.stream, 101]])
      assert.ok(!out.includes('deno-secret'), 'no query value')
    } finally {
      child.kill('SIGTERM')
      await child.status
      clearTimeout(killer)
      await reading.catch(() => {})
    }
  },
})
