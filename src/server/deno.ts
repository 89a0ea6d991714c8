/**
 * The Deno entry: the same service and app as on Node (createService + createApp), served with
 * `Deno.serve`; the stream is upgraded with `Deno.upgradeWebSocket` and attached to the same Hub.
 * npm packages resolve from the project's node_modules (package.json is present, so Deno uses it).
 *
 *   deno run --allow-net --allow-env --allow-read --allow-write --allow-sys --allow-run src/server/deno.ts \
 *     [--port 8787] [--host 127.0.0.1] [--data-dir DIR] [--seed] [--dev] [--operator 0x…]
 *   DATABASE_URL=postgres://… switches the store to PostgreSQL.   (`npm run serve:deno -- …` does the same.)
 *
 * `--allow-run` only lets the data-directory lock probe whether the process named in a lock file is alive
 * (Deno gates `process.kill(pid, 0)` behind it). Without it a lock is always treated as held, so a lock
 * left by a crashed process must then be deleted by hand (DIR/venuekit.lock).
 *
 * Excluded from the Node typecheck (tsconfig); `deno check src/server/deno.ts` checks it.
 */
import { listeningParts, type ListenOptions, type RunningService, runningService } from './service.ts'
import { type Hub, MAX_FRAME_BYTES } from './realtime/hub.ts'
import { ApiError, HEADERS_MAX_BYTES, headersTooLarge } from './http/errors.ts'
import { PATHS } from '../contract/paths.ts'
import { socketsPerAddress } from './realtime/sockets-per-address.ts'
import { flagsOrExit, SERVE_USAGE, serveUntilStopped } from './serve-cli.ts'
import { REQUEST_ID_HEADER, requestIdOf } from './http/request-id.ts'
import { logAccess } from './http/access-log.ts'

export type DenoServiceOptions = ListenOptions

export type DenoService = RunningService

export async function startDenoService(opts: DenoServiceOptions = {}): Promise<DenoService> {
  // Deno pings and closes an unanswering socket itself (`idleTimeout`, seconds; 0 is off).
  const { svc, app, hub, pingSeconds: idleTimeout } = await listeningParts(opts)
  const perAddress = socketsPerAddress(svc.ctx)
  const host = opts.host ?? '127.0.0.1'

  // Every socket's close, so a stop waits for the hub's close frames to go out (below).
  const closing = new Set<Promise<void>>()

  const log = svc.ctx.config.accessLog
  const handler = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>): Response | Promise<Response> => {
    // Node's HTTP parser refuses a request line and headers over 16 KB (node.ts answers 431, readable by any
    // origin); Deno's takes far more.
    const tooLarge = headBytes(req) > HEADERS_MAX_BYTES
    const { pathname } = new URL(req.url)
    // The peer's address reaches the app as `env.remoteAddr` (per-address rate limits, §issue 9).
    if (!tooLarge && (pathname !== PATHS.stream || req.headers.get('upgrade')?.toLowerCase() !== 'websocket')) return app.fetch(req, { remoteAddr: info.remoteAddr })
    // The app's answers carry a request id and are logged by the app (app.ts); the entry's own answers (its
    // refusals, the stream's upgrade) here, as node.ts does.
    const startedAt = Date.now()
    const started = performance.now()
    const id = requestIdOf(req.headers.get('x-request-id'))
    const res = tooLarge ? refuse(headersTooLarge()) : stream(req, info)
    res.headers.set(REQUEST_ID_HEADER, id)
    if (log) logAccess(log, id, req.method, pathname, res.status, startedAt, started)
    return res
  }

  /** The stream's upgrade, or its refusal. */
  const stream = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>): Response => {
    // As `ws` on Node: the handshake is a GET (Deno would upgrade any method), and one Deno cannot take (no
    // Sec-WebSocket-Key, …) is a 400 (Deno throws, which answered 500).
    if (req.method !== 'GET') return refuse(new ApiError(405, 'method-not-allowed', `the stream is opened with GET, not ${req.method}`), { Allow: 'GET' })
    // Stream sockets per client address are bounded (realtime/sockets-per-address.ts).
    const { refusal, release } = perAddress.admit(info.remoteAddr.hostname, req.headers.get('x-forwarded-for') ?? undefined)
    if (refusal) return refuse(refusal)
    let upgraded: ReturnType<typeof Deno.upgradeWebSocket>
    try {
      upgraded = Deno.upgradeWebSocket(req, { idleTimeout })
    } catch (e) {
      release()
      return refuse(new ApiError(400, 'bad-request', `not a WebSocket handshake this service takes: ${(e as Error).message}`))
    }
    const { socket, response } = upgraded
    socket.binaryType = 'arraybuffer'
    let h: ReturnType<Hub['attach']> | null = null
    const closed = new Promise<void>((resolve) => socket.addEventListener('close', () => resolve()))
    closing.add(closed)
    void closed.then(() => closing.delete(closed))
    socket.onopen = () => {
      h = hub.attach({ send: (t) => socket.send(t), close: (code, reason) => socket.close(code, reason), unread: () => socket.bufferedAmount })
    }
    socket.onmessage = (e: MessageEvent) => {
      // As `ws`'s maxPayload on Node: a message over MAX_FRAME_BYTES closes the socket (1009, message too big).
      if (frameTooBig(e.data as string | ArrayBuffer)) return socket.close(1009)
      // The hub refuses an oversized message before parsing it; a binary frame is read as text.
      h?.onMessage(typeof e.data === 'string' ? e.data : new TextDecoder().decode(e.data as ArrayBuffer))
    }
    socket.onclose = () => {
      release()
      h?.onClose()
    }
    socket.onerror = () => {
      release()
      h?.onClose()
    }
    return response
  }

  let server: Deno.HttpServer<Deno.NetAddr>
  try {
    server = await new Promise<Deno.HttpServer<Deno.NetAddr>>((resolve, reject) => {
      try {
        const s: Deno.HttpServer<Deno.NetAddr> = Deno.serve({ port: opts.port ?? 8787, hostname: host, onListen: () => queueMicrotask(() => resolve(s)) }, handler)
      } catch (e) {
        reject(e)
      }
    })
  } catch (e) {
    hub.close()
    await svc.close()
    throw e
  }
  return runningService(svc, hub, host, server.addr.port, async () => {
    // hub.close() has asked every socket to close (1001, 'service stopping'). Deno sends that frame later, and a
    // shutdown before it went out closed the socket with Deno's own reason ('Server shutting down'): wait for the
    // closes first, at most a second.
    let timer: ReturnType<typeof setTimeout> | undefined
    await Promise.race([Promise.all(closing), new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)))])
    clearTimeout(timer)
    await server.shutdown()
  })
}

/** A refusal the entry answers itself, in the service's error shape, readable by any origin (as node.ts's). */
function refuse(e: ApiError, headers: Record<string, string> = {}): Response {
  return Response.json(e.toBody(), { status: e.status, headers: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': REQUEST_ID_HEADER, ...headers } })
}

/** The request line and headers as sent, in bytes (near enough: Deno joins a repeated header's values). */
function headBytes(req: Request): number {
  const url = new URL(req.url)
  let n = `${req.method} ${url.pathname}${url.search} HTTP/1.1\r\n`.length
  for (const [k, v] of req.headers) n += k.length + v.length + 4
  return n
}

/** Whether a message is over MAX_FRAME_BYTES in bytes (a text is only encoded when its length could be). */
function frameTooBig(data: string | ArrayBuffer): boolean {
  if (typeof data !== 'string') return data.byteLength > MAX_FRAME_BYTES
  return data.length * 3 > MAX_FRAME_BYTES && new TextEncoder().encode(data).byteLength > MAX_FRAME_BYTES
}

async function main(args: string[]): Promise<number> {
  const flags = flagsOrExit(args, { DATABASE_URL: Deno.env.get('DATABASE_URL'), VK_LOG: Deno.env.get('VK_LOG') }, false, SERVE_USAGE)
  if (typeof flags === 'number') return flags
  return await serveUntilStopped(flags, {
    name: `deno ${Deno.version.deno}`,
    start: startDenoService,
    onSignal: (signal, fn) => Deno.addSignalListener(signal, fn),
    exit: (code) => Deno.exit(code),
  })
}

if (import.meta.main) Deno.exit(await main(Deno.args))
