/**
 * Strict input parsing. Query strings: unknown parameters are refused, each value is checked.
 * Bodies: must be a JSON object, unknown fields refused. Every failure is a 4xx naming the input.
 */
import type { Context } from 'hono'
import { z } from 'zod'
import { LIMITS, hasVisibleText } from '../../contract/limits.ts'
import { ApiError } from './errors.ts'

export const noNul = (s: string) => !s.includes('\u0000')
/**
 * No unpaired UTF-16 surrogate (`"\ud800"` in JSON): it has no UTF-8 form, so the database would store U+FFFD
 * instead, a text other than the one acknowledged. Refused rather than changed.
 */
export const wellFormed = (s: string) => !/\p{Cs}/u.test(s)
export const WELL_FORMED = 'must be valid Unicode text (no unpaired surrogate)'

/**
 * A user's short text (a room title, a key label, a display name, a report reason): trimmed, with at least one
 * visible character (whitespace and invisible format characters alone are empty), at most `max`, no NUL.
 */
export const zText = (max: number) =>
  z
    .string()
    .trim()
    .refine(hasVisibleText, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine(noNul, 'must not contain NUL characters')
    .refine(wellFormed, WELL_FORMED)

const article = (t: string) => (/^[aeiou]/.test(t) ? `an ${t}` : `a ${t}`)

/** What a value is, in the words of the messages: `number`, `array`, `null`, `nothing` (absent). */
function kindOf(v: unknown): string {
  if (v === undefined) return 'nothing'
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'an array'
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`
}

const sized: Record<string, [string, string]> = { string: ['character', 'characters'], array: ['item', 'items'], set: ['item', 'items'] }

/**
 * The service's wording for Zod's issues, used where a schema gives no message of its own (a schema's own
 * message wins over this map). Every message reads as a rule about the named input.
 */
function issueMessage(iss: z.core.$ZodRawIssue): string | undefined {
  const i = iss as z.core.$ZodRawIssue & Record<string, any>
  switch (i.code) {
    case 'invalid_type': {
      const expected = i.expected === 'int' ? 'integer' : String(i.expected)
      return i.input === undefined ? 'is required' : `must be ${article(expected)} (got ${kindOf(i.input)})`
    }
    case 'too_small':
    case 'too_big': {
      const small = i.code === 'too_small'
      const bound = Number(small ? i.minimum : i.maximum)
      const units = sized[i.origin as string]
      if (units) {
        if (small && bound === 1) return 'must not be empty'
        return `must ${i.origin === 'string' ? 'be' : 'have'} ${small ? 'at least' : 'at most'} ${bound} ${bound === 1 ? units[0] : units[1]}`
      }
      const op = small ? (i.inclusive === false ? 'greater than' : 'at least') : i.inclusive === false ? 'less than' : 'at most'
      return `must be ${op} ${bound}`
    }
    case 'invalid_value':
      return Array.isArray(i.values) ? `must be one of ${i.values.map(String).join(', ')}` : undefined
    case 'invalid_format':
      return i.format === 'regex' ? 'is not in the accepted form' : `must be a valid ${i.format}`
    case 'not_multiple_of':
      return `must be a multiple of ${i.divisor}`
    case 'invalid_union':
      return 'is not any of the accepted forms'
    default:
      return undefined
  }
}

/** Parse options of every request input: the service's messages, and the input on each issue. */
const PARSE = { error: issueMessage, reportInput: true } as const

function describe(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.join('.') : 'body'
  if (issue.code === 'unrecognized_keys') return `unknown field ${issue.keys.map((k) => `'${k}'`).join(', ')}`
  return `'${where}' ${issue.message}`
}

function fail(err: z.ZodError, code: 'validation-failed' | 'unsupported-param' = 'validation-failed'): never {
  const first = err.issues[0]
  throw new ApiError(400, code, describe(first), { param: first.path.join('.') || undefined })
}

/**
 * Parses the query string. `allowed` lists the accepted names: any other gives `unknownCode`
 * (400 `unsupported-param` on the ranked feed, §4.1 rule 1), checked for every name before a repeated
 * parameter is refused (`validation-failed`).
 */
export function parseQuery<S extends z.ZodType>(
  c: Context,
  allowed: readonly string[],
  schema: S,
): z.output<S> {
  const params = [...new URL(c.req.url).searchParams]
  // Every name is checked before any repeat: an unknown one is `unsupported-param` wherever it stands.
  const unknown = params.find(([k]) => !allowed.includes(k))?.[0]
  if (unknown !== undefined) {
    const accepted = allowed.length ? `accepted: ${allowed.join(', ')}` : 'this endpoint takes no query parameters'
    throw new ApiError(400, 'unsupported-param', `unsupported query parameter '${unknown}'; ${accepted}`, { param: unknown })
  }
  const raw: Record<string, string> = {}
  for (const [k, v] of params) {
    if (k in raw) throw new ApiError(400, 'validation-failed', `query parameter '${k}' is given more than once`, { param: k })
    raw[k] = v
  }
  return parseValues(schema, raw)
}

/** Parses values already taken from a request (a part of a query checked only in some cases): 400 as `parseQuery`. */
export function parseValues<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const r = schema.safeParse(raw, PARSE)
  if (!r.success) fail(r.error)
  return r.data
}

const tooLarge = () => new ApiError(413, 'payload-too-large', `request body is larger than ${LIMITS.bodyMaxBytes} bytes`)

/** Node's request stream, which @hono/node-server passes as `c.env.incoming`. */
interface IncomingBody {
  on(event: 'data', fn: (chunk: Uint8Array) => void): unknown
  on(event: 'end', fn: () => void): unknown
  on(event: 'error', fn: (e: Error) => void): unknown
  resume(): unknown
  readableEnded?: boolean
}

/**
 * The request body as text, read no further than the byte limit. On Node it is read from the request
 * stream itself: `c.req.text()` there first builds a web `Request` (its `AbortSignal` and body stream cost
 * about as much as the rest of a post write's JavaScript). Elsewhere (Deno, `app.request`), the web body.
 */
function bodyText(c: Context): Promise<string> {
  const incoming = (c.env as { incoming?: IncomingBody } | undefined)?.incoming
  if (!incoming || typeof incoming.on !== 'function' || incoming.readableEnded) return webBodyText(c.req.raw)
  return new Promise((resolve, reject) => {
    const body = limitedText()
    let done = false
    const finish = (e: Error | null) => {
      if (done) return
      done = true
      if (e) {
        incoming.resume() // discard the rest; the answer is already decided
        reject(e)
      } else {
        try {
          resolve(body.text())
        } catch (err) {
          reject(err)
        }
      }
    }
    incoming.on('data', (chunk) => {
      try {
        if (!done && !body.add(chunk)) finish(tooLarge())
      } catch (err) {
        finish(err as Error)
      }
    })
    incoming.on('end', () => finish(null))
    incoming.on('error', (e) => finish(new ApiError(400, 'invalid-json', `request body could not be read: ${e.message}`)))
  })
}

/** The web body (Deno, `app.request`) as text, read no further than the byte limit. */
async function webBodyText(req: Request): Promise<string> {
  if (!req.body) return ''
  const reader = req.body.getReader()
  const body = limitedText()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return body.text()
    if (!body.add(value)) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
  }
}

/**
 * UTF-8 text decoded chunk by chunk (a character split across chunks arrives whole), no further than
 * LIMITS.bodyMaxBytes counted in bytes: `add` answers false once a chunk takes it past the limit.
 */
function limitedText() {
  // Fatal: bytes that are not UTF-8 are refused, not stored as U+FFFD (a text other than the one sent).
  const decoder = new TextDecoder('utf-8', { fatal: true })
  const decode = (chunk?: Uint8Array) => {
    try {
      return decoder.decode(chunk, { stream: !!chunk })
    } catch {
      throw new ApiError(400, 'invalid-json', 'request body is not valid UTF-8')
    }
  }
  let text = ''
  let size = 0
  return {
    /** False once past the byte limit; throws the 400 on bytes that are not UTF-8. */
    add(chunk: Uint8Array): boolean {
      size += chunk.byteLength
      if (size > LIMITS.bodyMaxBytes) return false
      text += decode(chunk)
      return true
    },
    text: () => text + decode(),
  }
}

/** Reads a JSON object body: malformed JSON is 400 `invalid-json`, a too-large body is 413. */
export async function readJson(c: Context): Promise<unknown> {
  const len = Number(c.req.header('content-length') ?? 0)
  if (len > LIMITS.bodyMaxBytes) throw tooLarge()
  const text = await bodyText(c)
  if (!text.trim()) throw new ApiError(400, 'invalid-json', 'request body must be a JSON object')
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch {
    throw new ApiError(400, 'invalid-json', 'request body is not valid JSON')
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ApiError(400, 'invalid-json', 'request body must be a JSON object')
  return v
}

export async function parseBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  const v = await readJson(c)
  const r = schema.safeParse(v, PARSE)
  if (!r.success) fail(r.error)
  return r.data
}

/** Parses a path parameter with a schema; failure is 400 naming it. */
export function parseParam<S extends z.ZodType>(c: Context, name: string, schema: S): z.output<S> {
  const r = schema.safeParse(c.req.param(name), PARSE)
  if (!r.success) throw new ApiError(400, 'validation-failed', `'${name}' ${r.error.issues[0].message}`, { param: name })
  return r.data
}

// Reusable field schemas.
import { MARKET_ID_RE, NODE_REF_RE, POST_ID_RE, ROOM_ID_RE, SUBJECT_TYPES, VENUE_ID_RE, WALLET_RE } from '../../contract/ids.ts'

export const zWallet = z.string().regex(WALLET_RE, 'must be a wallet address (0x and 40 hex characters)').transform((s) => s.toLowerCase())
export const zMarketId = z.string().regex(MARKET_ID_RE, 'must be a market id (0x and 64 hex characters)').transform((s) => s.toLowerCase())
export const zSubjectType = z.enum(SUBJECT_TYPES, { message: `must be one of ${SUBJECT_TYPES.join(', ')}` })
/** A subject's ref before `checkSubject` reads it against its type. */
export const zSubjectRef = z.string().max(200, 'must be at most 200 characters')
export const zNodeRef = z.string().regex(NODE_REF_RE, 'must be a node key (lowercase letters, digits, . _ : -)')
export const zPostId = z.string().regex(POST_ID_RE, 'must be a post id')
export const zVenueId = z.string().regex(VENUE_ID_RE, 'must be a venue id (6 to 64 lowercase letters, digits and hyphens, with at least one letter or digit)')
export const zRoom = z.string().regex(ROOM_ID_RE, "must be a room id or 'self'")
export const zBoolParam = z.enum(['true', 'false'], { message: "must be 'true' or 'false'" }).transform((v) => v === 'true')
export const zLimit = z
  .string()
  .regex(/^\d{1,4}$/, 'must be a whole number')
  .transform(Number)
  .pipe(z.number().int().min(1, `must be from 1 to ${LIMITS.pageMax}`).max(LIMITS.pageMax, `must be from 1 to ${LIMITS.pageMax}`))
export const zCursor = z.string().min(1).max(200).regex(/^[A-Za-z0-9_-]+$/, 'is not a cursor this service issued')
/** A query that takes no parameters (`parseQuery(c, [], zNoQuery)`). */
export const zNoQuery = z.object({})

/** A subject: type + ref, where an `event` ref must be a market id (lowercased) and others node keys. */
export function checkSubject(subjectType: string, subjectRef: string, field = 'subjectRef'): string {
  if (subjectType === 'event') {
    if (!MARKET_ID_RE.test(subjectRef)) throw new ApiError(400, 'validation-failed', `'${field}' must be a market id (0x and 64 hex characters) for subject type event`, { param: field })
    return subjectRef.toLowerCase()
  }
  if (!NODE_REF_RE.test(subjectRef)) throw new ApiError(400, 'validation-failed', `'${field}' must be a node key (lowercase letters, digits, . _ : -)`, { param: field })
  return subjectRef
}
