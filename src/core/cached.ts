/**
 * One value per key, made on first use and kept: how the Intl formatters are kept (building one costs
 * far more than using it, and a page formats a few strings per card). Internal; not part of `venuekit/core`.
 */
export function cached<T>(m: Map<string, T>, key: string, make: () => T): T {
  let v = m.get(key)
  if (v === undefined) m.set(key, (v = make()))
  return v
}
