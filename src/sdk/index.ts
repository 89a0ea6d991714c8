/**
 * venuekit/sdk: the runtime-neutral client (browsers, Node, Deno, workers). No DOM, no storage;
 * `fetchImpl` and `WebSocketImpl` are injectable.
 */
export { createClient } from './client.ts'
export type {
  VenuekitClient,
  ReadOptions,
  WriteOptions,
  ThreadOptions,
  FeedOptions,
  AuthorPostsOptions,
  ForYouOptions,
  ModQueueOptions,
  ModOptions,
  PageOptions,
  WalletSigner,
  SessionListener,
} from './client.ts'
export type { ClientConfig, ResolvedConfig, SocketConstructor, SocketLike } from './config.ts'
export { VenuekitError, HttpError, TimeoutError, NetworkError, ValidationError } from './errors.ts'
export { TAKE_COUNTS_TTL_MS } from './take-counts.ts'
export type * from '../contract/types.ts'
export type { SubjectType, NodeType } from '../contract/ids.ts'
