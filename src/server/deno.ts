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
import type { Hub } from './realtime/hub.ts'
import { PATHS } from '../contract/paths.ts'
import { socketsPerAddress } from './realtime/sockets-per-address.ts'
import { flagsOrExit, SERVE_USAGE, serveUntilStopped } from './serve-cli.ts'

export type DenoServiceOptions = ListenOptions

export type DenoService = RunningService

export async function startDenoService(opts: DenoServiceOptions = {}): Promise<DenoService> {
  // Deno pings and closes an unanswering socket itself (`idleTimeout`, seconds; 0 is off).
  const { svc, app, hub, pingSeconds: idleTimeout } = await listeningParts(opts)
  const perAddress = socketsPerAddress(svc.ctx)
  const host = opts.host ?? '127.0.0.1'

  const handler = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>): Response | Promise<Response> => {
    const { pathname } = new URL(req.url)
    // The peer's address reaches the app as `env.remoteAddr` (per-address rate limits, §issue 9).
    if (pathname !== PATHS.stream || req.headers.get('upgrade')?.toLowerCase() !== 'websocket') return app.fetch(req, { remoteAddr: info.remoteAddr })
    // Stream sockets per client address are bounded (realtime/sockets-per-address.ts).
    const { refusal, release } = perAddress.admit(info.remoteAddr.hostname, req.headers.get('x-forwarded-for') ?? undefined)
    if (refusal) return new Response(refusal.body, { status: refusal.status, headers: { 'content-type': 'application/json' } })
    const { socket, response } = Deno.upgradeWebSocket(req, { idleTimeout })
    socket.binaryType = 'arraybuffer'
    let h: ReturnType<Hub['attach']> | null = null
    socket.onopen = () => {
      h = hub.attach({ send: (t) => socket.send(t), close: (code, reason) => socket.close(code, reason), unread: () => socket.bufferedAmount })
    }
    socket.onmessage = (e: MessageEvent) => {
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
  return runningService(svc, hub, host, server.addr.port, () => server.shutdown())
}

async function main(args: string[]): Promise<number> {
  const flags = flagsOrExit(args, { DATABASE_URL: Deno.env.get('DATABASE_URL') }, false, SERVE_USAGE)
  if (typeof flags === 'number') return flags
  return await serveUntilStopped(flags, {
    name: `deno ${Deno.version.deno}`,
    start: startDenoService,
    onSignal: (signal, fn) => Deno.addSignalListener(signal, fn),
    exit: (code) => Deno.exit(code),
  })
}

if (import.meta.main) Deno.exit(await main(Deno.args))
