import { createClient } from 'venuekit/sdk'
import { startReferenceService } from 'venuekit/server'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
const svc = await startReferenceService({ port: 0 })
const market = await svc.chain.addMarket({ id: `0x${'ab'.repeat(32)}`, title: 'Will it rain tomorrow?' })
const client = createClient({ baseUrl: svc.url, apiKey: null }) // null: keyless on purpose, no warning
const wallet = privateKeyToAccount(generatePrivateKey())
await client.auth.signIn({ address: wallet.address, signMessage: (message) => wallet.signMessage({ message }) })
console.log(await client.createPost('event', market.id, 'Rain is coming'), (await client.takeCounts([market.id])).counts)
await svc.close()
