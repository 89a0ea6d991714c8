/**
 * Text without the invisible bidi isolates (FSI … PDI, LRI, RLI) that wrap every text placed in a sentence
 * (src/elements/shared/format.ts `formatMessage`): what a reader sees, for exact comparisons. Shared by the
 * browser tests (elements-env.ts) and the end-to-end test.
 */
export const plain = (s: string | null | undefined) => (s ?? '').replace(/[\u2066-\u2069]/g, '')
