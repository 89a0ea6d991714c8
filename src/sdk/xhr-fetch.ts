/**
 * `xhrFetch`: a `fetch` for browsers made on `XMLHttpRequest`, in the shape of `createClient({ fetchImpl })`.
 * The page context (`createVenuekit`) uses it when its config gives no `fetchImpl` and the runtime has
 * `XMLHttpRequest`. Not part of the SDK's entry, so Node and Deno builds do not carry it.
 *
 * Why: with `fetch`, a page gets an answer in two main-thread tasks, the response and then its body
 * (`text()`). On a page that is still starting up, each of them waits behind the page's own work. An
 * XHR's `load` hands over status, headers and the whole body in one task, and the `Response` it resolves
 * with gives that text back at once. In A/B runs of the first-render bench this made the first take card
 * paint 20–40 ms sooner on the demo page (docs/PERFORMANCE.md, session 7).
 *
 * It behaves as `fetch` does where the SDK relies on it: it resolves for every HTTP status, rejects with a
 * `TypeError` when the network fails, and rejects with the signal's reason when aborted (and aborts the
 * request). No cookies cross origins, as with `fetch`'s default `credentials: 'same-origin'`.
 */

/** Statuses whose response can carry no body (the `Response` constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304])

/** A real `Response` whose body was already read: `text()` (all the SDK reads) answers from it without a task. */
class ReadResponse extends Response {
  readonly #text: string
  constructor(text: string, init: ResponseInit) {
    super(NULL_BODY.has(init.status!) ? null : text, init)
    this.#text = text
  }
  override text() {
    return Promise.resolve(this.#text)
  }
}

const headersOf = (raw: string) => {
  const h = new Headers()
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const i = line.indexOf(':')
    if (i > 0) h.append(line.slice(0, i).trim(), line.slice(i + 1).trim())
  }
  return h
}

/** For a `Request` object (whose body may be a stream) it hands over to `fetch`. */
export const xhrFetch: typeof fetch = (input, init = {}) => (input instanceof Request ? fetch(input, init) : send(String(input), init))

const send = (url: string, init: RequestInit) =>
  new Promise<Response>((resolve, reject) => {
    const { method = 'GET', signal } = init
    if (signal?.aborted) return reject(signal.reason)
    const x = new XMLHttpRequest()
    const onAbort = () => x.abort()
    const settle = () => signal?.removeEventListener('abort', onAbort)
    x.open(method, url)
    new Headers(init.headers).forEach((v, k) => x.setRequestHeader(k, v))
    x.onload = () => {
      settle()
      try {
        // fetch hands over any status a server sends; the Response constructor takes only 200–599.
        const { status } = x
        const res = new ReadResponse(x.responseText, { status: Math.min(status, 599), statusText: x.statusText, headers: headersOf(x.getAllResponseHeaders()) })
        Object.defineProperties(res, { url: { value: x.responseURL }, ...(status > 599 && { status: { value: status }, ok: { value: false } }) })
        resolve(res)
      } catch (e) {
        // An answer no Response can hold (a header value it refuses, say) fails as a network error, never hangs.
        reject(new TypeError(`unusable response to ${method} ${url}: ${(e as Error).message}`))
      }
    }
    x.onerror = x.ontimeout = () => {
      settle()
      reject(new TypeError(`network error: ${method} ${url}`))
    }
    x.onabort = () => {
      settle()
      reject(signal?.reason ?? new DOMException('the request was aborted', 'AbortError'))
    }
    signal?.addEventListener('abort', onAbort)
    x.send((init.body as XMLHttpRequestBodyInit | null | undefined) ?? null)
  })
