/**
 * The demo wallets: FIXED private keys so the demo pages (and anyone running `venuekit serve`) can sign
 * in as the seeded people. Each key is keccak256("venuekit local demo wallet <handle>").
 * LOCAL TEST KEYS ONLY: they are public; never fund them or use them on a real chain.
 * No imports: a demo page can load this file without the server.
 */
export interface DemoWallet {
  handle: string
  name: string
  /** Checksummed address of the key. */
  address: `0x${string}`
  privateKey: `0x${string}`
}

export const DEMO_WALLETS: readonly DemoWallet[] = [
  {
    handle: 'ada',
    name: 'Ada Park',
    address: '0x67A52161587c98b53079385678078959F252633D',
    privateKey: '0xcf8c6bd2c0c01d8d2ee2fee816fffcbe0bf3dfd0020d0966c475e7a6e6e7bc42',
  },
  {
    handle: 'ben',
    name: 'Ben Ortiz',
    address: '0x7d900152AB74475dBF42CD3a14ed64FBc1BcAB8E',
    privateKey: '0xcda9ecf7ddf8af0f9303dd5845fa36036d457869f5ae19d0d4007a410b523fe1',
  },
  {
    handle: 'chloe',
    name: 'Chloé Martin',
    address: '0x9a86B9fA536476413c8d0cBdEf6d1b68081d33Cc',
    privateKey: '0xc2b33e1de692c8a4b0e29dbe2cb447742cf23d4d094c10b2f83372b0f3fd868d',
  },
  {
    handle: 'dmitri',
    name: 'Dmitri Volkov',
    address: '0xC7Dd01f881F9A605553129b5885eD38B00f74552',
    privateKey: '0x57e3bab9b53d28f9786cda188a92548c4f0c289803acb4f221637c0c5ddee8bd',
  },
  {
    handle: 'emeka',
    name: 'Emeka Obi',
    address: '0x55dB8d3FF815A6f5D3Ee6E054706E72B6F337299',
    privateKey: '0xc273ba5f1400538c1ad47cfabf331a9af0dc17709ad92a9307de183195d4af4a',
  },
  {
    handle: 'farah',
    name: 'Farah Haddad',
    address: '0xE2e50caC9F344F66B7303f2aaD5b4348f177f4a7',
    privateKey: '0x482bceb85196b1a8e931dedf5c0bdd53ce4a68cae598f4eb5469d8d543f4b8e5',
  },
]

export type DemoHandle = 'ada' | 'ben' | 'chloe' | 'dmitri' | 'emeka' | 'farah'

/** Private key per handle (local test keys only). */
export const DEMO_KEYS = Object.fromEntries(DEMO_WALLETS.map((w) => [w.handle, w.privateKey])) as Record<DemoHandle, `0x${string}`>
