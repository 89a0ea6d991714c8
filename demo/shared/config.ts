/**
 * What the demo pages need to know that only exists once the demo service runs (`GET /demo/config.json`,
 * written by demo/server.ts). Demo code; type only, so the pages and the Node side share it.
 */
export interface DemoConfig {
  venueId: string
  apiKey: string
  /** The venue's public room on the crypto category. */
  roomId: string
  operator: string
  markets: Record<string, string>
  wallets: { handle: string; name: string; address: string }[]
}
