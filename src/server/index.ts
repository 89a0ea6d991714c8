export { startReferenceService, type ReferenceService, type ReferenceServiceOptions } from './node.ts'
export { createService, type Service, type ServiceOptions } from './service.ts'
export { createApp } from './app.ts'
export type { ChainController, ChainSource, MarketInput } from './chain/source.ts'
