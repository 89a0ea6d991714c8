/**
 * Message formatting for the strings: `{name}` placeholders, numbers through Intl.NumberFormat, and
 * `{n, plural, one {# take} other {# takes}}` through Intl.PluralRules. Times through
 * Intl.RelativeTimeFormat and Intl.DateTimeFormat. No HTML: the result is text.
 */
import { cached } from '../../core/cached.ts'
import { formatAmount } from '../../core/money.ts'

export type Params = Record<string, string | number | null | undefined>

// One formatter per locale and options: building an Intl formatter costs far more than using one (a
// thread of 20 cards formats ~80 strings on its first render).
const nf = new Map<string, Intl.NumberFormat>()
const pr = new Map<string, Intl.PluralRules>()
const rt = new Map<string, Intl.RelativeTimeFormat>()
const dt = new Map<string, Intl.DateTimeFormat>()

export function formatNumber(n: number, locale?: string, opts?: Intl.NumberFormatOptions): string {
  return cached(nf, `${locale}|${JSON.stringify(opts ?? {})}`, () => new Intl.NumberFormat(locale, opts)).format(n)
}

/** Finds the matching close brace of the `{` at `start`. */
function closing(s: string, start: number): number {
  let depth = 0
  for (let i = start; i < s.length; i++) {
    if (s[i] === '{') depth++
    else if (s[i] === '}' && --depth === 0) return i
  }
  return -1
}

/** `plurals`: the language whose plural rules pick the case (the template's own; `locale` by default). */
export function formatMessage(template: string, params: Params = {}, locale?: string, plurals = locale): string {
  let out = ''
  let i = 0
  while (i < template.length) {
    const open = template.indexOf('{', i)
    if (open < 0) break
    out += template.slice(i, open)
    const end = closing(template, open)
    if (end < 0) break
    const inner = template.slice(open + 1, end)
    const comma = inner.indexOf(',')
    if (comma < 0) {
      const v = params[inner.trim()]
      // Text placed in a sentence is isolated (as Fluent does): a name, title or label of the other direction keeps
      // its own order and cannot reorder the sentence around it.
      out += v == null ? '' : typeof v === 'number' ? formatNumber(v, locale) : isolate(v)
    } else {
      const name = inner.slice(0, comma).trim()
      const rest = inner.slice(comma + 1)
      const n = Number(params[name] ?? 0)
      const cases: Record<string, string> = {}
      const body = rest.slice(rest.indexOf(',') + 1)
      const re = /\s*(=?\w+)\s*\{/g
      let m: RegExpExecArray | null
      while ((m = re.exec(body))) {
        const s = m.index + m[0].length - 1
        const e = closing(body, s)
        cases[m[1]] = body.slice(s + 1, e)
        re.lastIndex = e + 1
      }
      const cat = cached(pr, plurals ?? '', () => new Intl.PluralRules(plurals)).select(n)
      const chosen = cases[`=${n}`] ?? cases[cat] ?? cases.other ?? ''
      out += formatMessage(chosen.replaceAll('#', formatNumber(n, locale)), params, locale, plurals)
    }
    i = end + 1
  }
  return out + template.slice(i)
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['week', 7 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
]

/** "3 minutes ago", "in 2 days" for the locale. */
export function relativeTime(iso: string | Date, locale?: string, now = Date.now()): string {
  const t = typeof iso === 'string' ? Date.parse(iso) : iso.getTime()
  const secs = Math.round((t - now) / 1000)
  const rtf = cached(rt, locale ?? '', () => new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }))
  for (const [unit, size] of UNITS) {
    if (Math.abs(secs) >= size || unit === 'second') return rtf.format(Math.trunc(secs / size), unit)
  }
  return rtf.format(0, 'second')
}

export function absoluteTime(iso: string | Date, locale?: string): string {
  return cached(dt, locale ?? '', () => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' })).format(typeof iso === 'string' ? new Date(iso) : iso)
}

/**
 * Text placed inside a translated sentence (a market's title, a room's or a person's name, an outcome label),
 * isolated (FSI … PDI; `formatMessage` does it for every text parameter): text in the other direction keeps its own
 * order and punctuation and cannot reorder the sentence around it ("حول: Will BTC hit 100k?" would otherwise draw its
 * '?' at the Arabic end). The isolates are invisible, and screen readers skip them.
 */
const isolate = (text: string): string => `\u2068${text}\u2069`

/** Basis points as a percentage, e.g. 4000 → "40%". */
export function formatBps(bps: number, locale?: string): string {
  return formatNumber(bps / 10_000, locale, { style: 'percent', maximumFractionDigits: 1 })
}

const warmed = new Set<string>()
/**
 * Builds the formatters a take card uses (times, percentages, amounts, counts, plurals) for `locale` ahead of their
 * first use, one per task. A page's first Intl formatter loads ICU's locale data (25 to 40 ms in a fresh
 * Chromium renderer; the next kinds cost 1 to 4 ms each). A thread calls this as it sends its read, so
 * that cost is paid while the answer is on its way instead of between the answer and the first paint.
 * Ordinary timer tasks, queued behind what the page already has: not idle callbacks or background tasks,
 * which a loading page rarely gets before the answer arrives. Once per locale; nothing changes what is
 * formatted.
 */
export function warmFormatters(locale?: string): void {
  const key = locale ?? ''
  if (warmed.has(key) || typeof setTimeout !== 'function') return
  warmed.add(key)
  const steps = [
    () => relativeTime(new Date(0), locale),
    () => absoluteTime(new Date(0), locale),
    () => formatBps(0, locale),
    () => formatAmount(1234n, 0, { locale }),
    () => formatMessage('{n, plural, one {#} other {#}}', { n: 1 }, locale),
  ]
  const next = () => {
    const step = steps.shift()
    if (!step) return
    try {
      step()
    } catch {
      // An unsupported locale fails the same way at render time, where it is handled; nothing to warm.
      return
    }
    setTimeout(next, 0)
  }
  setTimeout(next, 0)
}
