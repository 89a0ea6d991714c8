/** The service's one error type. Every refusal is `{ error: { code, message } }` with a fitting status. */
import type { ErrorCode } from '../../contract/errors.ts'

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 422 | 429 | 431 | 500 | 503,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message)
  }
  toBody() {
    return { error: { code: this.code, message: this.message, ...this.extra } }
  }
}

export const badRequest = (message: string, extra: Record<string, unknown> = {}) =>
  new ApiError(400, 'validation-failed', message, extra)
export const unauthenticated = (message = 'sign in to do this') => new ApiError(401, 'unauthenticated', message)
export const forbidden = (message: string, code: ErrorCode = 'forbidden') => new ApiError(403, code, message)
export const notFound = (message: string, code: ErrorCode = 'not-found') => new ApiError(404, code, message)

/**
 * Refusals a runtime entry answers itself, for requests that never reach the app (node.ts, deno.ts), in the
 * same shape on both runtimes.
 */
/** Request line and headers larger than this are refused (Node's own parser limit, 16 KB; deno.ts counts it). */
export const HEADERS_MAX_BYTES = 16 * 1024
export const headersTooLarge = () =>
  new ApiError(431, 'payload-too-large', `the request line and headers are larger than this service accepts (${HEADERS_MAX_BYTES / 1024} KB)`)
export const notHttp = () => new ApiError(400, 'bad-request', 'the request is not valid HTTP')
