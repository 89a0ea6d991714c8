/** The service's one error type. Every refusal is `{ error: { code, message } }` with a fitting status. */
import type { ErrorCode } from '../../contract/errors.ts'

export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 422 | 429 | 500 | 503,
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
