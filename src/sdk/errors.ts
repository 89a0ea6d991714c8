/**
 * SDK errors. Every failure the client reports is a `VenuekitError` carrying a `code`:
 * the server's error code for an HTTP refusal (`http-<status>` when its answer names none), otherwise
 * one of the client's own codes (`timeout`, `network`, `validation`, `unauthenticated`,
 * `invalid-response`, `no-websocket`).
 *
 * Not wrapped, since they are not the client's failures: a request aborted through the caller's own
 * `signal` rejects with the signal's `reason` (transport.ts), and a wallet's `signMessage` rejection
 * passes through `auth.signIn` / `auth.linkWallet` unchanged (client.ts).
 */
export class VenuekitError extends Error {
  override name = 'VenuekitError'
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/**
 * The service answered with a non-2xx status, or a success that is not the JSON expected (code `invalid-response`:
 * not JSON, or no object with fields). `message` is the server's sentence, unchanged. `requestId` is the answer's
 * `X-Request-Id`, the id the service's logs name: what a venue's support asks a user for.
 */
export class HttpError extends VenuekitError {
  override name = 'HttpError'
  constructor(
    readonly status: number,
    code: string,
    /** The parsed error body (or the raw text when it was not JSON). */
    readonly body: unknown,
    /** The server's own sentence, word for word; equal to `message`. */
    readonly serverMessage: string,
    /** The answer's `X-Request-Id` (undefined when it carried none, e.g. from a proxy in front of the service). */
    readonly requestId?: string,
  ) {
    super(code, serverMessage)
  }
}

/** `timeoutMs` passed before the whole answer arrived. */
export class TimeoutError extends VenuekitError {
  override name = 'TimeoutError'
  constructor(readonly timeoutMs: number) {
    super('timeout', `no answer within ${timeoutMs} ms`)
  }
}

/** The request got no answer: offline, DNS, refused connection, CORS. The underlying failure is `cause`. */
export class NetworkError extends VenuekitError {
  override name = 'NetworkError'
  constructor(cause: unknown) {
    super('network', `the service could not be reached (${(cause as Error)?.message ?? cause})`)
    this.cause = cause
  }
}

/** An argument was refused before any request was made. `argument` names it. */
export class ValidationError extends VenuekitError {
  override name = 'ValidationError'
  constructor(
    readonly argument: string,
    message: string,
  ) {
    super('validation', `${argument} ${message}`)
  }
}
