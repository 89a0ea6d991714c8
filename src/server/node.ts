/** The Node entry: serves the app with @hono/node-server and the stream with `ws`. */
import { serve } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { type IncomingMessage, STATUS_CODES } from 'node:http'
import { WebSocketServer } from 'ws'
import { listeningParts, type ListenOptions, type RunningService, runningService } from './service.ts'
import { MAX_FRAME_BYTES } from './realtime/hub.ts'
import { ApiError, headersTooLarge, notHttp } from './http/errors.ts'
import { REQUEST_ID_HEADER, requestIdOf } from './http/request-id.ts'
import { logAccess } from './http/access-log.ts'
import { requestLineOf } from './http/request-line.ts'
import { watchSockets } from './realtime/keepalive.ts'
import { socketsPerAddress } from './realtime/sockets-per-address.ts'
import { PATHS } from '../contract/paths.ts'

export type ReferenceServiceOptions = ListenOptions

export type ReferenceService = RunningService

export async function startReferenceService(opts: ReferenceServiceOptions = {}): Promise<ReferenceService> {
  const { svc, app, hub, pingSeconds } = await listeningParts(opts)
  const host = opts.host ?? '127.0.0.1'
  let server: ReturnType<typeof serve>
  try {
    server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
      const s = serve({ fetch: app.fetch, port: opts.port ?? 8787, hostname: host }, () => resolve(s))
      s.once('error', reject)
    })
  } catch (e) {
    // The port is taken (EADDRINUSE) or not ours to bind: release the store (and its lock) before failing.
    hub.close()
    await svc.close()
    throw e
  }
  const log = svc.ctx.config.accessLog
  // A request Node's HTTP parser refuses (headers or URL over 16 KB, malformed request line) never reaches
  // the app; answer it in the service's error shape instead of Node's bare status line. It carries a fresh
  // request id, as every answer does, and is logged with the method and path of its request line when the
  // refused bytes hold a whole, readable one (http/request-line.ts), else with both empty.
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    const startedAt = Date.now()
    const started = performance.now()
    const e = err.code === 'HPE_HEADER_OVERFLOW' ? headersTooLarge() : notHttp()
    const id = requestIdOf(null)
    refuseOnSocket(socket, e, { [REQUEST_ID_HEADER]: id })
    if (log) {
      const { method, path } = requestLineOf(err.rawPacket)
      logAccess(log, id, method, path, e.status, startedAt, started)
    }
  })
  // Frames up to MAX_FRAME_BYTES reach the hub, which answers oversized messages with an error message; a larger
  // frame closes the socket (1009).
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES })
  const keepalive = watchSockets(pingSeconds)
  const perAddress = socketsPerAddress(svc.ctx)
  // The stream's upgrade never reaches the app: it carries a request id and is logged (once answered) here.
  const upgrades = new WeakMap<IncomingMessage, { id: string; path: string; startedAt: number; started: number }>()
  const answered = (req: IncomingMessage, status: number) => {
    const u = upgrades.get(req)
    if (log && u) logAccess(log, u.id, req.method ?? '', u.path, status, u.startedAt, u.started)
  }
  const refuseUpgrade = (req: IncomingMessage, socket: Duplex, e: ApiError, headers: Record<string, string> = {}) => {
    // As `ws` does: the socket is destroyed once the answer is out.
    socket.once('finish', () => socket.destroy())
    refuseOnSocket(socket, e, { [REQUEST_ID_HEADER]: upgrades.get(req)!.id, ...headers })
    answered(req, e.status)
  }
  // `ws` refuses a handshake it cannot take (no Sec-WebSocket-Key, another version, …) through this event when it has a
  // listener: in the service's error shape, as deno.ts does, instead of `ws`'s plain text.
  wss.on('wsClientError', (err: Error, socket: Duplex, req: IncomingMessage) =>
    refuseUpgrade(req, socket, new ApiError(400, 'bad-request', `not a WebSocket handshake this service takes: ${err.message}`), { 'Sec-WebSocket-Version': '13, 8' }),
  )
  wss.on('headers', (headers: string[], req: IncomingMessage) => {
    headers.push(`${REQUEST_ID_HEADER}: ${upgrades.get(req)!.id}`)
    answered(req, 101)
  })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (req.url ?? '').split('?')[0]
    const header = req.headers['x-request-id']
    upgrades.set(req, { id: requestIdOf(typeof header === 'string' ? header : null), path, startedAt: Date.now(), started: performance.now() })
    if (path !== PATHS.stream) {
      socket.write(`HTTP/1.1 404 Not Found\r\n${REQUEST_ID_HEADER}: ${upgrades.get(req)!.id}\r\nConnection: close\r\n\r\n`)
      socket.destroy()
      return answered(req, 404)
    }
    // As on Deno: the handshake is a GET.
    if (req.method !== 'GET') return refuseUpgrade(req, socket, new ApiError(405, 'method-not-allowed', `the stream is opened with GET, not ${req.method}`), { Allow: 'GET' })
    const fwd = req.headers['x-forwarded-for']
    const { refusal, release } = perAddress.admit(req.socket.remoteAddress, Array.isArray(fwd) ? fwd.join(',') : fwd)
    if (refusal) return refuseUpgrade(req, socket, refusal)
    socket.once('close', release)
    wss.handleUpgrade(req, socket, head, (ws) => {
      const h = hub.attach({ send: (t) => ws.send(t), close: (code, reason) => ws.close(code, reason), unread: () => ws.bufferedAmount })
      ws.on('message', (data) => h.onMessage(String(data)))
      ws.on('close', h.onClose)
      ws.on('error', h.onClose)
      keepalive.watch(ws)
    })
  })
  return runningService(svc, hub, host, (server.address() as AddressInfo).port, () => {
    keepalive.stop()
    for (const c of wss.clients) c.terminate()
    wss.close()
    const closed = new Promise<void>((r) => server.close(() => r()))
    // Idle keep-alive sockets would hold the server open; in-flight requests still finish.
    ;(server as { closeIdleConnections?: () => void }).closeIdleConnections?.()
    return closed
  })
}

/**
 * Answers a request the app never sees (the parser's refusals, a stream upgrade over its limit) on its raw socket, in
 * the service's error shape, and closes it. Any origin may read it (the service's CORS answers carry no
 * credentials): the request's Origin is not read.
 */
function refuseOnSocket(socket: Duplex, e: ApiError, headers: Record<string, string>) {
  const body = JSON.stringify(e.toBody())
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')
  socket.end(
    `HTTP/1.1 ${e.status} ${STATUS_CODES[e.status]}\r\nContent-Type: application/json\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Expose-Headers: ${REQUEST_ID_HEADER}\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
