/** Percentiles and medians for benchmark samples. */
export function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b)
  if (!s.length) return NaN
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))
  return s[i]
}
export const median = (xs: number[]) => percentile(xs, 50)
export const fmt = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(2) : 'n/a')
