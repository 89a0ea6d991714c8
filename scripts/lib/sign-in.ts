/** Signs a wallet in to a running service over its HTTP API (SIWE): the session token. For bench and load scripts. */
import { privateKeyToAccount } from 'viem/accounts'
import { PATHS } from '../../src/contract/paths.ts'

export async function signIn(url: string, key: `0x${string}`): Promise<string> {
  const account = privateKeyToAccount(key)
  const json = { 'content-type': 'application/json' }
  const n = await (await fetch(url + PATHS.authNonce, { method: 'POST', headers: json, body: JSON.stringify({ address: account.address }) })).json()
  const signature = await account.signMessage({ message: n.message })
  const v = await (await fetch(url + PATHS.authVerify, { method: 'POST', headers: json, body: JSON.stringify({ message: n.message, signature }) })).json()
  if (!v.token) throw new Error(`sign-in failed: ${JSON.stringify(v)}`)
  return v.token
}
