/**
 * The one request function every operation goes through: URL and query, venue key, session header,
 * deadline (`timeoutMs`) combined with the caller's own signal, and error mapping.
 */
import { isErrorBody } from '../contract/errors.ts'
import { HEADERS } from '../contract/paths.ts'
import { warnOnce, type ResolvedConfig } from './config.ts'
import { HttpError, NetworkError, TimeoutError, VenuekitError } from './errors.ts'

export type QueryValue = string | number | boolean | null | undefined | readonly string[]
export type Query = Record<string, QueryValue>

export interface RequestOptions {
  query?: Query
  /** JSON body. */
  body?: unknown
  /** Session use: 0 never, 1 when one exists (reads), 2 required (writes: throws before any request). */
  auth?: 0 | 1 | 2
  /** Send to the gateway address (login) instead of the base address. */
  gateway?: boolean
  signal?: AbortSignal
}

export type Request = <T>(method: string, path: string, o?: RequestOptions) => Promise<T>

export const noSession = () => new VenuekitError('unauthenticated', 'sign in first: this action needs a session')

export function createRequest(cfg: ResolvedConfig, fetchImpl: typeof fetch | undefined, token: () => string | null | undefined): Request {
  const doFetch = fetchImpl ?? ((u: string, i?: RequestInit) => fetch(u, i))
  return async <T>(method: string, path: string, o: RequestOptions = {}): Promise<T> => {
    // Already aborted: nothing is sent (a fetchImpl that ignores signals would still make the request).
    o.signal?.throwIfAborted()
    const t = o.auth ? token() : null
    if (o.auth == 2 && !t) throw noSession()
    const qs = new URLSearchParams()
    for (const k in o.query) {
      const v = o.query[k]
      if (v != null) qs.set(k, Array.isArray(v) ? v.join(',') : String(v))
    }
    const q = String(qs)
    const url = (o.gateway ? cfg.gatewayUrl : cfg.baseUrl) + path + (q ? `?${q}` : '')
    const headers: Record<string, string> = {}
    if (cfg.apiKey) headers[HEADERS.venueKey] = cfg.apiKey
    if (t) headers[HEADERS.authorization] = `Bearer ${t}`
    if (o.body !== undefined) headers['Content-Type'] = 'application/json'

    const ctl = new AbortController()
    // Raced with the fetch and the body read, so a deadline holds even for a fetchImpl that ignores signals.
    const stop = new Promise<never>((_, no) => ctl.signal.addEventListener('abort', no))
    stop.catch(() => {})
    const own = o.signal
    let late = false
    const timer = cfg.timeoutMs && setTimeout(() => ((late = true), ctl.abort()), cfg.timeoutMs)
    const onAbort = () => ctl.abort(own!.reason)
    own?.addEventListener('abort', onAbort)
    let res: Response
    let text: string
    try {
      res = await Promise.race([doFetch(url, { method, headers, body: JSON.stringify(o.body), signal: ctl.signal }), stop])
      text = await Promise.race([res.text(), stop])
    } catch (e) {
      if (late) throw new TimeoutError(cfg.timeoutMs!)
      if (own?.aborted) throw own.reason
      throw new NetworkError(e)
    } finally {
      clearTimeout(timer || undefined)
      own?.removeEventListener('abort', onAbort)
    }
    let data: any
    const id = res.headers?.get(HEADERS.requestId) ?? undefined
    try {
      data = text ? JSON.parse(text) : undefined
      // Every success is a JSON object with fields: a 204, `null`, `{}`, `[]`, a number or a boolean is no answer
      // (`invalid-response`), and failing here keeps the caller and the stores from taking it apart (a TypeError
      // far from the cause, or a write that resolves with nothing, §7.1).
      if (res.ok && !Object.keys(data ?? 0).length) throw 0
    } catch {
      throw new HttpError(res.status, res.ok ? 'invalid-response' : `http-${res.status}`, text, `the service answered ${res.status} without the JSON expected`, id)
    }
    // A read went on without the key (unknown, revoked or trade-only): say so once, since nothing else fails
    // (§5.1). Reads of posts name the client's `venueId` themselves, so its overlay holds when one is set.
    if (cfg.apiKey && res.headers?.get(HEADERS.venueKeyStatus) == 'refused')
      warnOnce(
        `the service refused this client's apiKey for reads (unknown, revoked, or without the 'read' scope): ${
          cfg.venueId ? `reads of posts keep venue '${cfg.venueId}'s moderation overlay (venueId)` : "reads go on without the venue's moderation overlay (set venueId to keep it)"
        }; room 'self' fails, and writes fail with invalid-venue-key when the key is not live`,
      )
    if (!res.ok) {
      const e = isErrorBody(data) ? data.error : null
      throw new HttpError(res.status, e ? e.code : `http-${res.status}`, data, e ? e.message : `the service answered ${res.status}`, id)
    }
    return data as T
  }
}
