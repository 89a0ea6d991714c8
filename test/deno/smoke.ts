/**
 * Deno smoke test (run by scripts/deno-smoke.sh, used by CI): the reference service under Deno
 * (src/server/deno.ts) on a free port with PGlite in a temporary data directory, seeded, dev routes on.
 * Signs in with SIWE (viem account), adds a market and a position through the dev routes, watches the
 * thread on the stream, posts a take, reads it back in the ranked FEED with its proven stance, then
 * stops the server with SIGTERM and checks it exits cleanly and releases the data-directory lock.
 */
import assert from 'node:assert/strict'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { PATHS, SERVICE_PATHS, threadTopic } from '../../src/contract/paths.ts'

const ROOT = new URL('../../', import.meta.url).pathname
const PERMS = ['--allow-net', '--allow-env', '--allow-read', '--allow-write', '--allow-sys', '--allow-run']

interface Json {
  status: number
  body: any
}

async function call(base: string, method: string, path: string, body?: unknown, token?: string): Promise<Json> {
  const headers: Record<string, string> = {}
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (token) headers.authorization = `Bearer ${token}`
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await res.text()
  try {
    return { status: res.status, body: JSON.parse(text) }
  } catch {
    return { status: res.status, body: text }
  }
}

/** Collects a child's output in the background. */
function collect(stream: ReadableStream<Uint8Array>) {
  const state = { text: '' }
  const done = (async () => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) state.text += chunk
  })()
  return { state, done }
}

/** A stream socket that queues server messages. */
function openStream(url: string): Promise<{ ws: WebSocket; next(): Promise<any> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    const queue: any[] = []
    const waiters: ((m: any) => void)[] = []
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data))
      const w = waiters.shift()
      if (w) w(m)
      else queue.push(m)
    }
    const next = () =>
      queue.length
        ? Promise.resolve(queue.shift())
        : new Promise((res, rej) => {
            const t = setTimeout(() => rej(new Error('no stream message within 10 s')), 10_000)
            waiters.push((m) => {
              clearTimeout(t)
              res(m)
            })
          })
    ws.onopen = () => resolve({ ws, next })
    ws.onerror = () => reject(new Error(`could not open ${url}`))
  })
}

interface Store {
  /** Extra flags for the server. */
  args: string[]
  env: Record<string, string>
  kind: 'pglite' | 'postgres'
  /** PGlite data directory whose lock file is checked. */
  dataDir: string | null
}

async function smoke(t: Deno.TestContext, store: Store) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ['run', ...PERMS, 'src/server/deno.ts', '--port', '0', '--seed', '--dev', '--stream-ping', '1', ...store.args],
    cwd: ROOT,
    stdout: 'piped',
    stderr: 'piped',
    env: store.env,
  }).spawn()
  const out = collect(child.stdout)
  const err = collect(child.stderr)
  let stopped = false
  let exited = false
  child.status.then(() => (exited = true))
  try {
    const deadline = Date.now() + 90_000
    while (!out.state.text.includes('press Ctrl+C to stop')) {
      if (Date.now() > deadline) throw new Error(`server not ready:\n${out.state.text}\n${err.state.text}`)
      if (exited) throw new Error(`server exited before it was ready:\n${out.state.text}\n${err.state.text}`)
      await new Promise((r) => setTimeout(r, 100))
    }
    const base = /url:\s+(http:\/\/\S+)/.exec(out.state.text)![1]
    const streamUrl = /stream:\s+(ws:\/\/\S+)/.exec(out.state.text)![1]
    assert.match(out.state.text, /venuekit reference service \(deno /)
    assert.match(out.state.text, /seed:\s+demo data seeded/)

    await t.step(`health: ${store.kind} store under Deno`, async () => {
      const h = await call(base, 'GET', SERVICE_PATHS.health)
      assert.deepEqual(h.body, { ok: true, store: store.kind })
      if (store.dataDir) assert.equal(await Deno.readTextFile(`${store.dataDir}/venuekit.lock`), String(child.pid), 'data-directory lock taken (a stale one taken over)')
    })

    const account = privateKeyToAccount(generatePrivateKey())
    const wallet = account.address.toLowerCase()
    let token = ''
    await t.step('sign in with SIWE (viem account)', async () => {
      const n = await call(base, 'POST', PATHS.authNonce, { address: account.address })
      assert.equal(n.status, 200)
      const signature = await account.signMessage({ message: n.body.message })
      const v = await call(base, 'POST', PATHS.authVerify, { message: n.body.message, signature })
      assert.equal(v.status, 200, JSON.stringify(v.body))
      assert.equal(v.body.wallet, wallet)
      token = v.body.token
    })

    let marketId = ''
    await t.step('add a market and a position through the dev routes', async () => {
      const m = await call(base, 'POST', '/v1/dev/markets', {
        title: 'Deno smoke: will the smoke test pass?',
        nodes: [{ type: 'category', ref: 'crypto' }],
        prices: [6100, 3900],
      })
      assert.equal(m.status, 201, JSON.stringify(m.body))
      marketId = m.body.market.id
      const p = await call(base, 'POST', '/v1/dev/positions', { wallet, marketId, side: 0, size: '2500000' })
      assert.equal(p.status, 200, JSON.stringify(p.body))
    })

    let postId = ''
    await t.step('post a take: the server proves the stance; the stream (Deno.upgradeWebSocket) says the thread changed', async () => {
      const topic = threadTopic('event', marketId)
      const s = await openStream(streamUrl)
      s.ws.send(JSON.stringify({ type: 'subscribe', topic }))
      assert.deepEqual(await s.next(), { type: 'subscribed', topic })
      const r = await call(base, 'POST', PATHS.posts, { subjectType: 'event', subjectRef: marketId, body: 'Yes, it runs on Deno.' }, token)
      assert.equal(r.status, 201, JSON.stringify(r.body))
      assert.deepEqual(r.body.post.stance, { side: 0, size: '2500000', priceBps: 6100 })
      postId = r.body.post.id
      assert.deepEqual(await s.next(), { type: 'changed', topic })
      s.ws.send('not json')
      assert.equal((await s.next()).code, 'invalid-json')
      s.ws.close()
    })

    await t.step('keep-alive (--stream-ping 1): a socket that never answers a ping is closed; one that answers stays open', async () => {
      const live = await openStream(streamUrl)
      const { hostname, port } = new URL(streamUrl)
      const raw = await Deno.connect({ hostname, port: Number(port) })
      const upgrade = `GET ${PATHS.stream} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`
      await raw.write(new TextEncoder().encode(upgrade))
      const started = Date.now()
      const buf = new Uint8Array(4096)
      let head = ''
      let frames = new Uint8Array(0)
      let ended: 'close frame' | 'eof' | null = null
      let pings = 0
      const deadline = setTimeout(() => raw.close(), 8000)
      try {
        // Read what the service sends, answering nothing: the 101, then pings (opcode 0x9), then its close (0x8).
        while (!ended) {
          const n = await raw.read(buf).catch(() => null)
          if (n === null) {
            ended = 'eof'
            break
          }
          let bytes = buf.slice(0, n)
          if (!head.includes('\r\n\r\n')) {
            const text = new TextDecoder('latin1').decode(bytes)
            const at = (head + text).indexOf('\r\n\r\n')
            if (at < 0) {
              head += text
              continue
            }
            bytes = bytes.slice(at + 4 - head.length)
            head = (head + text).slice(0, at + 4)
            assert.match(head, /^HTTP\/1\.1 101/)
          }
          frames = new Uint8Array([...frames, ...bytes])
          // Server frames are unmasked: opcode in the first byte's low bits, then a 7-bit (or 16-bit) length.
          while (frames.length >= 2) {
            let len = frames[1] & 0x7f
            let at = 2
            if (len === 126) {
              if (frames.length < 4) break
              len = (frames[2] << 8) | frames[3]
              at = 4
            }
            if (frames.length < at + len) break
            const opcode = frames[0] & 0x0f
            if (opcode === 0x9) pings++
            if (opcode === 0x8) ended = 'close frame'
            frames = frames.slice(at + len)
          }
        }
      } finally {
        clearTimeout(deadline)
        try {
          raw.close()
        } catch {}
      }
      const took = Date.now() - started
      assert.ok(ended && took < 7500, `the silent socket was closed (${ended}) after ${took} ms, within 7.5 s`)
      assert.ok(pings >= 1, `it was pinged first (${pings} pings)`)
      assert.equal(live.ws.readyState, WebSocket.OPEN, 'the socket that answers pings is still open')
      live.ws.close()
    })

    await t.step('read the take in the ranked feed (subject scope and global), stance intact', async () => {
      const subject = await call(base, 'GET', `${PATHS.feed}?subjectType=event&subjectRef=${marketId}`)
      assert.equal(subject.status, 200, JSON.stringify(subject.body))
      const mine = subject.body.posts.find((p: any) => p.id === postId)
      assert.ok(mine, 'the take is in the subject feed')
      assert.deepEqual(mine.stance, { side: 0, size: '2500000', priceBps: 6100 })
      assert.equal(mine.author, wallet)
      assert.equal(subject.body.titles[marketId], 'Deno smoke: will the smoke test pass?')
      const global = await call(base, 'GET', `${PATHS.feed}?limit=100`)
      assert.equal(global.status, 200)
      assert.ok(global.body.posts.some((p: any) => p.id === postId), 'the take is in the global feed')
      assert.ok(global.body.posts.filter((p: any) => p.stance && p.id !== postId).length >= 5, 'seeded takes are in the global feed')
    })

    await t.step('stop with SIGTERM: clean exit' + (store.dataDir ? ', lock released' : ''), async () => {
      child.kill('SIGTERM')
      const status = await child.status
      stopped = true
      await out.done
      assert.equal(status.code, 0, `exit ${status.code}\n${out.state.text}\n${err.state.text}`)
      assert.match(out.state.text, /SIGTERM received, stopping/)
      assert.match(out.state.text, /venuekit: stopped/)
      if (store.dataDir) await assert.rejects(Deno.stat(`${store.dataDir}/venuekit.lock`))
    })
  } finally {
    if (!stopped) {
      try {
        child.kill('SIGKILL')
      } catch {}
      await child.status
    }
  }
}

Deno.test({
  name: 'deno smoke (PGlite data directory, stale lock taken over): serve, sign in (SIWE), market + position via dev routes, take with a proven stance read in the feed, stream event, clean stop',
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dataDir = await Deno.makeTempDir({ prefix: 'vk-deno-smoke-' })
    // A stale lock left by a process that is gone (one we ran and waited for) is taken over.
    const gone = new Deno.Command(Deno.execPath(), { args: ['--version'], stdout: 'null' }).spawn()
    await gone.status
    await Deno.writeTextFile(`${dataDir}/venuekit.lock`, String(gone.pid))
    try {
      await smoke(t, { args: ['--data-dir', dataDir], env: { DATABASE_URL: '' }, kind: 'pglite', dataDir })
    } finally {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {})
    }
  },
})

const ADMIN_URL = Deno.env.get('VK_TEST_DATABASE_URL')

Deno.test({
  name: 'deno smoke (PostgreSQL via DATABASE_URL, `pg` and LISTEN/NOTIFY under Deno): the same path',
  ignore: !ADMIN_URL,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const { default: pg } = await import('pg')
    const name = `vk_deno_smoke_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`
    const admin = new pg.Client({ connectionString: ADMIN_URL })
    await admin.connect()
    await admin.query(`create database ${name}`)
    const url = new URL(ADMIN_URL!)
    url.pathname = `/${name}`
    try {
      await smoke(t, { args: [], env: { DATABASE_URL: url.toString() }, kind: 'postgres', dataDir: null })
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`)
      await admin.end()
    }
  },
})
