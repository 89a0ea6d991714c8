/**
 * The method and path of a request the runtime's HTTP parser refused (node.ts logs its refusal with them), read from
 * the bytes it refused. Only a whole request line is read: `METHOD /path[?query] HTTP/1.x` and its line end, a method
 * of 1–16 capitals and a path of at most 2,048 characters, the query dropped as the access log drops it. Anything
 * else (no bytes, a line cut short, a URL over the parser's limit, bytes that are not HTTP) reads as both empty.
 */
const REQUEST_LINE = /^([A-Z]{1,16}) (\/[^\s?#]{0,2047})(?:[?#]\S*)? HTTP\/1\.[01]\r?\n/

export function requestLineOf(raw: Uint8Array | undefined): { method: string; path: string } {
  // latin1: one character per byte, so a path's UTF-8 never throws (a path is logged as sent, percent-encoded).
  const m = raw && REQUEST_LINE.exec(Buffer.from(raw.buffer, raw.byteOffset, Math.min(raw.byteLength, 4096)).toString('latin1'))
  return m ? { method: m[1]!, path: m[2]! } : { method: '', path: '' }
}
