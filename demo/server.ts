/**
 * `npm run demo` (scripts/demo.sh builds the pages, then runs this): ONE process on ONE port — the
 * reference service (embedded PGlite, seeded with the demo story, dev fixture-chain routes on) and the
 * demo venue's pages (demo/dist, built by `vite build --config demo/vite.config.ts`, plus the script-tag
 * bundle dist/venuekit.js at /venuekit.js).
 *
 * At start it claims the demo venue `harbor-markets` the way a venue would (Ada signs in with SIWE and
 * calls POST /admin/keys), so the pages carry a real venue key and the venue's own room exists. Ada is
 * the venue's owner (she moderates its queue) and a platform operator.
 *
 *   node --import tsx demo/server.ts [--port N] [--host H]     (default 127.0.0.1:8787; --port 0 picks one)
 */
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, sep } from 'node:path'
import process from 'node:process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { privateKeyToAccount } from 'viem/accounts'
import type { Hono } from 'hono'
import { startReferenceService } from '../src/server/node.ts'
import { seedDemo } from '../src/server/seed.ts'
import { DEMO_KEYS, DEMO_WALLETS, type DemoHandle } from '../src/server/demo-wallets.ts'
import { createClient } from '../src/sdk/index.ts'
import { SERVICE_PATHS } from '../src/contract/paths.ts'
import type { DemoConfig } from './shared/config.ts'

export const DEMO_VENUE_ID = 'harbor-markets'
/** The demo wallet that owns the venue and is a platform operator. */
export const DEMO_OPERATOR = 'ada' as const

const root = fileURLToPath(new URL('..', import.meta.url))
const pagesDir = join(root, 'demo', 'dist')

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
}

function parseArgs(argv: string[]) {
  const o = { port: Number(process.env.PORT ?? 8787), host: '127.0.0.1' }
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split('=', 2)
    const value = () => inline ?? argv[++i]
    if (name === '--port') o.port = Number(value())
    else if (name === '--host') o.host = value()
    else throw new Error(`unknown option '${argv[i]}' (options: --port N, --host H)`)
  }
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) throw new Error('--port must be a whole number from 0 to 65535')
  return o
}

async function file(path: string): Promise<Buffer | null> {
  try {
    if (!(await stat(path)).isFile()) return null
    return await readFile(path)
  } catch {
    return null
  }
}

/** The demo pages: static files from demo/dist; in HTML, `__VK_API_KEY__` becomes the demo venue's key. */
function pages(config: () => DemoConfig | null) {
  return (app: Hono) => {
    app.get('/demo/config.json', (c) => {
      const cfg = config()
      return cfg ? c.json(cfg) : c.json({ error: { code: 'unavailable', message: 'the demo is still starting' } }, 503)
    })
    // The script-tag bundle, and the operator screen's script (VK_BUNDLE=operator vite build).
    for (const name of ['venuekit.js', 'venuekit-operator.js']) {
      const bundle = join(root, 'dist', name)
      app.get(`/${name}`, async (c) => {
        const body = await file(bundle)
        if (!body) return c.text(`dist/${name} is missing: run 'npm run build' (npm run demo builds it)`, 404)
        return c.body(new Uint8Array(body), 200, { 'content-type': TYPES['.js'], 'cache-control': 'no-cache' })
      })
      app.get(`/${name}.map`, async (c) => {
        const body = await file(`${bundle}.map`)
        return body ? c.body(new Uint8Array(body), 200, { 'content-type': TYPES['.map'] }) : c.notFound()
      })
    }
    app.get('*', async (c, next) => {
      const url = new URL(c.req.url)
      if (url.pathname.startsWith('/v1/') || url.pathname.startsWith('/admin/')) return next()
      let rel = decodeURIComponent(url.pathname)
      if (rel.endsWith('/')) rel += 'index.html'
      const path = normalize(join(pagesDir, rel))
      if (!path.startsWith(pagesDir + sep)) return next()
      let body = await file(path)
      let type = TYPES[extname(path)] ?? 'application/octet-stream'
      if (!body && !extname(path)) {
        body = await file(`${path}.html`)
        type = TYPES['.html']
      }
      if (!body) return next()
      if (type === TYPES['.html']) {
        const html = body.toString('utf8').replaceAll('__VK_API_KEY__', config()?.apiKey ?? 'none')
        return c.body(html, 200, { 'content-type': type, 'cache-control': 'no-cache' })
      }
      return c.body(new Uint8Array(body), 200, { 'content-type': type, 'cache-control': 'no-cache' })
    })
  }
}

/**
 * Sets up the demo venue through the public API, as a venue would: the owner signs in (SIWE), claims the
 * venue id and mints its browser key (POST /admin/keys), then opens a public room on the crypto category.
 */
async function setUpVenue(baseUrl: string): Promise<{ apiKey: string; roomId: string }> {
  const owner = privateKeyToAccount(DEMO_KEYS[DEMO_OPERATOR])
  const client = createClient({ baseUrl, apiKey: null })
  const session = await client.auth.signIn({ address: owner.address, signMessage: (message) => owner.signMessage({ message }) })
  const r = await fetch(`${baseUrl}${SERVICE_PATHS.adminKeys}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ venueId: DEMO_VENUE_ID, scopes: ['read', 'trade'], label: 'demo pages' }),
  })
  const body = (await r.json()) as { key?: string; error?: { message: string } }
  if (!r.ok || !body.key) throw new Error(`claiming the demo venue failed: ${body.error?.message ?? r.status}`)
  const rr = await fetch(`${baseUrl}${SERVICE_PATHS.rooms}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.token}` },
    body: JSON.stringify({ venueId: DEMO_VENUE_ID, subjectType: 'category', subjectRef: 'crypto', visibility: 'public', title: 'Harbor crypto room' }),
  })
  const room = (await rr.json()) as { room?: { id: string }; error?: { message: string } }
  if (!rr.ok || !room.room) throw new Error(`opening the demo room failed: ${room.error?.message ?? rr.status}`)
  return { apiKey: body.key, roomId: room.room.id }
}

/** A little discussion in the room: members join and write takes on the room's markets (stances from their seeded positions). */
async function seedRoom(baseUrl: string, roomId: string, markets: Record<string, string>) {
  const talk: [DemoHandle, string, string][] = [
    ['farah', 'btc-up-or-down-day-3', 'Third rejection at the same level today. Still Down.'],
    ['ben', 'btc-150k', 'Halving cycles peak early; $150k by December needs a miracle.'],
    ['dmitri', 'eth-4k-friday', 'Options expiry pins it above 4k into Friday.'],
    ['ada', 'eth-staking-etf', 'Staking inside the trust is the last open question, and it looks answered.'],
  ]
  for (const [handle, slug, text] of talk) {
    const account = privateKeyToAccount(DEMO_KEYS[handle])
    const client = createClient({ baseUrl, apiKey: null, venueId: DEMO_VENUE_ID })
    await client.auth.signIn({ address: account.address, signMessage: (message) => account.signMessage({ message }) })
    if (handle !== DEMO_OPERATOR) await client.rooms.join(roomId)
    await client.createPost('event', markets[slug], text, null, { room: roomId })
  }
}

export async function startDemo(opts: { port?: number; host?: string } = {}) {
  let config: DemoConfig | null = null
  const operator = DEMO_WALLETS.find((w) => w.handle === DEMO_OPERATOR)!
  const svc = await startReferenceService({
    port: opts.port ?? 8787,
    host: opts.host ?? '127.0.0.1',
    dev: true,
    operators: [operator.address],
    // A demo visitor switches wallets and posts quickly; the production write limits would get in the way.
    rateLimits: false,
    mount: pages(() => config),
  })
  try {
    const seed = await seedDemo(svc)
    const { apiKey, roomId } = await setUpVenue(svc.url)
    await seedRoom(svc.url, roomId, seed.markets)
    config = {
      venueId: DEMO_VENUE_ID,
      apiKey,
      roomId,
      operator: operator.address.toLowerCase(),
      markets: seed.markets,
      wallets: DEMO_WALLETS.map((w) => ({ handle: w.handle, name: w.name, address: w.address.toLowerCase() })),
    }
  } catch (e) {
    await svc.close()
    throw e
  }
  return { svc, config: config! }
}

const isEntry = !!process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href
if (isEntry) {
  const args = parseArgs(process.argv.slice(2))
  const { svc, config } = await startDemo(args)
  const pagesBuilt = !!(await file(join(pagesDir, 'index.html')))
  console.log(
    [
      `venuekit demo: ${svc.url}/`,
      `  pages:    ${svc.url}/ (home), /market.html, /room.html, /profile.html, /operator.html, /vue/, /svelte/, /react/`,
      `  service:  ${svc.url}/v1 (PGlite in memory, seeded; dev fixture-chain routes ON — never expose this)`,
      `  venue:    ${config.venueId}, key ${config.apiKey}`,
      `  operator: ${DEMO_OPERATOR} (${config.operator})`,
      ...(pagesBuilt ? [] : ["  warning:  demo/dist is missing; run 'npm run demo' to build the pages"]),
      'press Ctrl+C to stop',
    ].join('\n'),
  )
  let stopping = false
  const stop = async () => {
    if (stopping) process.exit(130)
    stopping = true
    await svc.close()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
