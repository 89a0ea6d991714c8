/**
 * Named networks (§9.5): one name derives every address and the chain together. The stream address is derived
 * from the base address, as for any base address (§6.2: `wss://…/v1/stream`, sdk/config.ts).
 */
export interface NetworkConfig {
  chainId: number
  baseUrl: string
  gatewayUrl: string
  contracts: { collateral: string; exchange: string; conditionalTokens: string }
}

/** A network's name: the key of its entry. */
export type NetworkName = 'mainnet' | 'testnet'

export const NETWORKS: Record<NetworkName, NetworkConfig> = {
  mainnet: {
    chainId: 5031,
    baseUrl: 'https://api.venuekit.xyz',
    gatewayUrl: 'https://gateway.venuekit.xyz',
    contracts: {
      collateral: '0x28bec7e30e6faee657a03e19bf1128aad7632a00',
      exchange: '0x4bfb41d5b3570defd03c39a9a4d8de6bd8b8982e',
      conditionalTokens: '0x4d97dcd97ec945f40cf65f87097ace5ea0476045',
    },
  },
  testnet: {
    chainId: 50312,
    baseUrl: 'https://api.testnet.venuekit.xyz',
    gatewayUrl: 'https://gateway.testnet.venuekit.xyz',
    contracts: {
      collateral: '0x9f1ac54bef0dd2f6f3462ea0fa94fc62300d3a8e',
      exchange: '0xc5d563a36ae78145c45a50134d48a1215220f80a',
      conditionalTokens: '0x7d8146cf21e8d7cbe46054e01588207b51198729',
    },
  },
}
