export * from './ids.ts'
export * from './ranking.ts'
export * from './receipt.ts'
