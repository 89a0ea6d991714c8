/**
 * `venuekit serve` (src/server/cli.ts) as a real child process: banner, seeding only an empty store,
 * restarts that keep data, graceful stop on SIGINT / SIGTERM (lock released), clear start-up failures.
 */
import { after, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { privateKeyToAccount } from 'viem/accounts'
import { PATHS, SERVICE_PATHS } from '../../src/contract/paths.ts'
import { DEV_PATHS } from '../../src/server/routes/dev.ts'
import { DEMO_KEYS, DEMO_MARKET_IDS } from '../../src/server/seed.ts'
import { parseServeFlags, UsageError } from '../../src/server/serve-cli.ts'
import { call, ON_POSTGRES, signIn, startTestService } from '../helpers/service.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const tmpDirs: string[] = []
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'vk-cli-'))
  tmpDirs.push(d)
  return d
}
const running = new Set<ChildProcess>()
after(() => {
  for (const p of running) p.kill('SIGKILL')
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true })
})

interface Cli {
  proc: ChildProcess
  out: () => string
  err: () => string
  exited: Promise<number | null>
}

function runCli(args: string[], env: Record<string, string | undefined> = {}, entry = ['--import', 'tsx', 'src/server/cli.ts']): Cli {
  const childEnv = { ...process.env, DATABASE_URL: undefined, ...env }
  const proc = spawn(process.execPath, [...entry, ...args], { cwd: ROOT, env: childEnv as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  running.add(proc)
  let out = ''
  let err = ''
  proc.stdout!.on('data', (d) => (out += d))
  proc.stderr!.on('data', (d) => (err += d))
  const exited = new Promise<number | null>((resolve) =>
    proc.on('exit', (code) => {
      running.delete(proc)
      resolve(code)
    }),
  )
  return { proc, out: () => out, err: () => err, exited }
}

/** Waits for the banner; returns the URLs it prints. */
async function ready(cli: Cli, timeoutMs = 60_000): Promise<{ url: string; streamUrl: string }> {
  const deadline = Date.now() + timeoutMs
  let done = false
  cli.exited.then(() => (done = true))
  while (!cli.out().includes('press Ctrl+C to stop')) {
    if (done) throw new Error(`cli exited before it was ready:\n${cli.out()}\n${cli.err()}`)
    if (Date.now() > deadline) throw new Error(`cli not ready in ${timeoutMs} ms:\n${cli.out()}\n${cli.err()}`)
    await new Promise((r) => setTimeout(r, 50))
  }
  const url = /url:\s+(http:\/\/\S+)/.exec(cli.out())![1]
  const streamUrl = /stream:\s+(ws:\/\/\S+)/.exec(cli.out())![1]
  return { url, streamUrl }
}

async function stop(cli: Cli, signal: NodeJS.Signals) {
  cli.proc.kill(signal)
  const code = await cli.exited
  assert.equal(code, 0, `exit code after ${signal}\n${cli.out()}\n${cli.err()}`)
  assert.match(cli.out(), new RegExp(`${signal} received, stopping`))
  assert.match(cli.out(), /venuekit: stopped/)
}

const btc = DEMO_MARKET_IDS['btc-150k']
const threadCount = async (svc: { url: string }) => {
  const r = await call(svc, 'GET', `${PATHS.posts}?subjectType=event&subjectRef=${btc}&limit=100`)
  assert.equal(r.status, 200)
  return r.body.posts.length as number
}

describe('cli: serve flags', () => {
  it('defaults: port 8787, host 127.0.0.1, in memory, seeded, dev off, stream pings every 30 s', () => {
    assert.deepEqual(parseServeFlags([], {}, true), {
      port: 8787,
      host: '127.0.0.1',
      dataDir: null,
      databaseUrl: null,
      seed: true,
      dev: false,
      operators: [],
      streamPingSeconds: 30,
      log: 'off',
      help: false,
    })
  })

  it('--log json|off (default off) and VK_LOG switch the access log; the flag wins over VK_LOG', () => {
    assert.equal(parseServeFlags(['--log', 'json'], {}, true).log, 'json')
    assert.equal(parseServeFlags(['--log=off'], {}, true).log, 'off')
    assert.equal(parseServeFlags([], { VK_LOG: 'json' }, true).log, 'json')
    assert.equal(parseServeFlags(['--log', 'off'], { VK_LOG: 'json' }, true).log, 'off')
    assert.equal(parseServeFlags(['--log', 'json'], { VK_LOG: 'nope' }, true).log, 'json')
    assert.throws(() => parseServeFlags([], { VK_LOG: 'verbose' }, true), (e: Error) => e instanceof UsageError && e.message === "VK_LOG must be json or off (got 'verbose')")
  })

  it('--port / --host / --data-dir / --no-seed / --dev / repeated --operator, with `--flag value` and `--flag=value`', () => {
    const w1 = '0x' + 'AB'.repeat(20)
    const w2 = '0x' + '12'.repeat(20)
    const f = parseServeFlags(['--port=0', '--host', '0.0.0.0', '--data-dir', '/tmp/x', '--no-seed', '--dev', '--operator', w1, `--operator=${w2}`, '--stream-ping', '0'], {}, true)
    assert.equal(f.port, 0)
    assert.equal(f.host, '0.0.0.0')
    assert.equal(f.dataDir, '/tmp/x')
    assert.equal(f.seed, false)
    assert.equal(f.dev, true)
    assert.deepEqual(f.operators, [w1.toLowerCase(), w2])
    assert.equal(f.streamPingSeconds, 0)
    assert.equal(parseServeFlags(['--stream-ping=3600'], {}, true).streamPingSeconds, 3600)
  })

  it('DATABASE_URL switches the store to PostgreSQL; with --data-dir as well it is a usage error', () => {
    assert.equal(parseServeFlags([], { DATABASE_URL: 'postgres://x@h/db' }, true).databaseUrl, 'postgres://x@h/db')
    assert.throws(() => parseServeFlags(['--data-dir', 'd'], { DATABASE_URL: 'postgres://x@h/db' }, true), UsageError)
  })

  it('bad flags are usage errors naming the flag', () => {
    for (const [args, msg] of [
      [['--port', '99999'], /--port must be/],
      [['--port', 'eighty'], /--port must be/],
      [['--port'], /--port needs a value/],
      [['--operator', 'alice'], /--operator must be a wallet/],
      [['--stream-ping', '3601'], /--stream-ping must be a whole number of seconds/],
      [['--stream-ping', '1.5'], /--stream-ping must be a whole number of seconds/],
      [['--stream-ping', '-1'], /--stream-ping must be a whole number of seconds/],
      [['--stream-ping'], /--stream-ping needs a value/],
      [['--log', 'nope'], /^--log must be json or off \(got 'nope'\)$/],
      [['--log', 'JSON'], /^--log must be json or off/],
      [['--log'], /--log needs a value/],
      [['--verbose'], /unknown option '--verbose'/],
    ] as const) {
      assert.throws(() => parseServeFlags(args, {}, true), (e: Error) => e instanceof UsageError && msg.test(e.message))
    }
  })

  it('the Deno entry seeds only with --seed; the Node CLI seeds unless --no-seed', () => {
    assert.equal(parseServeFlags([], {}, false).seed, false)
    assert.equal(parseServeFlags(['--seed'], {}, false).seed, true)
    assert.equal(parseServeFlags([], {}, true).seed, true)
  })

  it('a usage error exits 2 with the message and the usage text; an unknown command too', async () => {
    const a = runCli(['serve', '--verbose'])
    assert.equal(await a.exited, 2)
    assert.match(a.err(), /unknown option '--verbose'/)
    assert.match(a.err(), /usage: venuekit serve/)
    const b = runCli(['launch'])
    assert.equal(await b.exited, 2)
    assert.match(b.err(), /unknown command 'launch'/)
  })

  it('`serve --log nope` is a usage error: exit 2, the message and the usage text naming --log', async () => {
    const c = runCli(['serve', '--log', 'nope'])
    assert.equal(await c.exited, 2)
    assert.match(c.err(), /--log must be json or off \(got 'nope'\)/)
    assert.match(c.err(), /--log json\|off/)
  })

  it('bin/venuekit.mjs runs the same CLI (`npx venuekit serve --help` exits 0 with the usage)', async () => {
    const c = runCli(['serve', '--help'], {}, ['bin/venuekit.mjs'])
    assert.equal(await c.exited, 0)
    assert.match(c.out(), /usage: venuekit serve/)
  })
})

describe('cli: serve with a data directory', () => {
  const dir = tmp()
  const lock = path.join(dir, 'venuekit.lock')
  let postsBefore = 0

  it('prints the URL, the stream URL, the store kind and the demo wallets; seeds the empty store; dev routes stay off; a stale lock is taken over', async () => {
    // A lock left by a process that is gone (one we ran and waited for) does not block the start.
    const gone = spawn(process.execPath, ['-e', ''])
    await new Promise((r) => gone.on('exit', r))
    fs.writeFileSync(lock, String(gone.pid))
    const cli = runCli(['serve', '--port', '0', '--data-dir', dir])
    try {
      const svc = await ready(cli)
      const out = cli.out()
      assert.match(out, /stream:\s+ws:\/\/127\.0\.0\.1:\d+\/v1\/stream/)
      assert.match(out, new RegExp(`store:\\s+pglite, data directory ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
      assert.match(out, /seed:\s+demo data seeded/)
      assert.match(out, /ada\s+Ada Park\s+0x67A52161587c98b53079385678078959F252633D/)
      assert.doesNotMatch(out, /dev:/)
      const h = await call(svc, 'GET', SERVICE_PATHS.health)
      assert.deepEqual(h.body, { ok: true, store: 'pglite' })
      assert.equal(fs.readFileSync(lock, 'utf8'), String(cli.proc.pid), 'the lock now names the running CLI')
      postsBefore = await threadCount(svc)
      assert.ok(postsBefore >= 3)
      assert.equal((await call(svc, 'POST', DEV_PATHS.markets, { body: { title: 'x' } })).status, 404)

      // A second process on the same directory is refused with a clear message; the first keeps running.
      const second = runCli(['serve', '--port', '0', '--data-dir', dir])
      assert.equal(await second.exited, 1)
      assert.match(second.err(), new RegExp(`cannot start: data directory .* is in use by process ${cli.proc.pid}.*another --data-dir`))
      assert.equal((await call(svc, 'GET', SERVICE_PATHS.health)).status, 200)
    } finally {
      await stop(cli, 'SIGTERM')
    }
    assert.equal(fs.existsSync(lock), false, 'SIGTERM releases the PGlite lock file')
  })

  it('a restart keeps the data and does not seed again; SIGINT stops it cleanly', async () => {
    const cli = runCli(['serve', '--port', '0', '--data-dir', dir])
    try {
      const svc = await ready(cli)
      assert.match(cli.out(), /seed:\s+store already has data; not seeded/)
      assert.equal(await threadCount(svc), postsBefore)
      const ada = await signIn(svc, privateKeyToAccount(DEMO_KEYS.ada))
      const me = await call(svc, 'GET', PATHS.me, { token: ada.token })
      assert.equal(me.body.profile.name, 'Ada Park')
    } finally {
      await stop(cli, 'SIGINT')
    }
    assert.equal(fs.existsSync(lock), false, 'SIGINT releases the PGlite lock file')
  })

  it('a port in use is a clear message (exit 1), and the data directory is released', async () => {
    const blocker = net.createServer()
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()))
    const port = (blocker.address() as net.AddressInfo).port
    try {
      const cli = runCli(['serve', '--port', String(port), '--data-dir', dir])
      assert.equal(await cli.exited, 1)
      assert.match(cli.err(), new RegExp(`cannot start: port ${port} on 127\\.0\\.0\\.1 is already in use`))
      assert.equal(fs.existsSync(lock), false)
    } finally {
      blocker.close()
    }
  })
})

describe('cli: in memory', () => {
  it('--no-seed starts empty and lists no demo wallets; --dev mounts the dev routes', async () => {
    const cli = runCli(['serve', '--port', '0', '--no-seed', '--dev'])
    try {
      const svc = await ready(cli)
      assert.match(cli.out(), /store:\s+pglite, in memory/)
      assert.match(cli.out(), /seed:\s+off/)
      assert.match(cli.out(), /dev:\s+\/v1\/dev\/\* fixture-chain routes are ON/)
      assert.doesNotMatch(cli.out(), /demo wallets/)
      assert.equal(await threadCount(svc), 0)
      assert.equal((await call(svc, 'POST', DEV_PATHS.markets, { body: { title: 'dev market' } })).status, 201)
      assert.doesNotMatch(cli.out(), /"id":/, 'no access log by default')
    } finally {
      await stop(cli, 'SIGTERM')
    }
  })

  it('--log json: one JSON line per request on stdout, with the request id the answer carries; a query value is not in it', async () => {
    const cli = runCli(['serve', '--port', '0', '--no-seed', '--log', 'json'])
    try {
      const svc = await ready(cli)
      const r = await call(svc, 'GET', `${PATHS.posts}?subjectType=topic&subjectRef=cli-secret-ref`, { headers: { 'x-request-id': 'cli-log-1' } })
      assert.equal(r.status, 200)
      assert.equal(r.headers.get('x-request-id'), 'cli-log-1')
      const found = () => cli.out().split('\n').filter((l) => l.includes('"cli-log-1"'))
      for (let i = 0; i < 100 && !found().length; i++) await new Promise((res) => setTimeout(res, 20))
      assert.equal(found().length, 1, cli.out())
      const line = JSON.parse(found()[0])
      assert.deepEqual({ ...line, t: typeof line.t, ms: typeof line.ms }, { t: 'string', id: 'cli-log-1', method: 'GET', path: PATHS.posts, status: 200, ms: 'number' })
      assert.doesNotMatch(cli.out(), /cli-secret-ref/)
    } finally {
      await stop(cli, 'SIGTERM')
    }
  })

  it('DATABASE_URL runs on PostgreSQL: seeded once, kept on restart', { skip: !ON_POSTGRES && 'needs PostgreSQL (set VK_TEST_DATABASE_URL)' }, async () => {
    // A fresh database from the harness (dropped when it closes); the CLI runs beside it on the same database.
    const holder = await startTestService()
    try {
      const env = { DATABASE_URL: holder.databaseUrl! }
      const first = runCli(['serve', '--port', '0'], env)
      try {
        const svc = await ready(first)
        assert.match(first.out(), /store:\s+postgres \(DATABASE_URL\)/)
        assert.doesNotMatch(first.out(), new RegExp(holder.databaseUrl!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the URL (credentials) is not printed')
        assert.match(first.out(), /seed:\s+demo data seeded/)
        assert.deepEqual((await call(svc, 'GET', SERVICE_PATHS.health)).body, { ok: true, store: 'postgres' })
      } finally {
        await stop(first, 'SIGTERM')
      }
      const second = runCli(['serve', '--port', '0'], env)
      try {
        const svc = await ready(second)
        assert.match(second.out(), /seed:\s+store already has data; not seeded/)
        assert.ok((await threadCount(svc)) >= 3)
      } finally {
        await stop(second, 'SIGTERM')
      }
      assert.equal((await holder.chain.markets([btc])).size, 1)
    } finally {
      await holder.close()
    }
  })
})
