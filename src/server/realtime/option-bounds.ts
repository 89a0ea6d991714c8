/**
 * A stream option of `ListenOptions` (`streamPingSeconds`, `streamReplayMs`), checked before anything starts:
 * `undefined` is its default, 0 turns it off, anything else must be a whole number up to `max`.
 */
export function wholeOption(name: string, v: number | undefined, fallback: number, max: number, unit = ''): number {
  if (v === undefined) return fallback
  if (!Number.isInteger(v) || v < 0 || v > max) throw new Error(`${name} must be a whole number${unit} from 0 (off) to ${max} (got ${v})`)
  return v
}
