/**
 * The page's locale registry. It lives on `globalThis` (like the venuekit context), so a locale script
 * loaded next to the bundle, or an ESM copy, registers into the same table the elements read.
 */
import type { StringSlices } from './index.ts'

const KEY = Symbol.for('venuekit.locales')

export const LOCALES: Record<string, StringSlices> = ((globalThis as Record<symbol, unknown>)[KEY] ??= {}) as Record<string, StringSlices>

/**
 * Adds (or replaces) a complete locale. Elements already on the page show it on their next update. A key it
 * lacks (a locale script from an older release next to a newer bundle) reads in English.
 */
export function registerLocale(tag: string, slices: StringSlices): void {
  LOCALES[tag.toLowerCase()] = slices
}
