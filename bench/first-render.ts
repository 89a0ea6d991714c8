/**
 * Hook for the elements' first-render benchmark (issue 9: "first render is for a later worker"). `npm run
 * bench` calls `firstRender()` after the service figures and prints its rows; until it is built it answers
 * null and the table shows a "not measured yet" row. The rows it returns use the table's shape:
 * `{ store: 'elements', figure, value, budget, verdict }`.
 */
import type { BenchRow } from './run.ts'

export async function firstRender(): Promise<BenchRow[] | null> {
  return null
}
