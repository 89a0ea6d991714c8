/**
 * Test harness: a real reference service on a free port. PGlite in memory by default; when
 * VK_TEST_DATABASE_URL names a PostgreSQL server, each call gets a fresh database there, dropped on close.
 */
import './assert-messages.ts'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { startReferenceService, type ReferenceService, type ReferenceServiceOptions } from '../../src/server/node.ts'
import { randomHex } from '../../src/core/ids.ts'
import { startOnTestStore, type TestService } from './test-store.ts'

export { ON_POSTGRES, type TestService } from './test-store.ts'

/** A reference service on Node (node.ts) on the test store (test-store.ts). */
export function startTestService(opts: ReferenceServiceOptions = {}): Promise<TestService> {
  return startOnTestStore(startReferenceService, opts)
}

export const newMarketId = () => `0x${randomHex(32)}`

export interface TestUser {
  account: PrivateKeyAccount
  wallet: string
  token: string
}

export function newWallet(): PrivateKeyAccount {
  return privateKeyToAccount(generatePrivateKey())
}

/** Signs in through the real SIWE flow: nonce, signature, verify. */
export async function signIn(svc: { url: string }, account = newWallet(), venueId?: string): Promise<TestUser> {
  const n = await call(svc, 'POST', '/v1/auth/nonce', { body: { address: account.address } })
  if (n.status !== 200) throw new Error(`nonce failed ${n.status} ${JSON.stringify(n.body)}`)
  const signature = await account.signMessage({ message: n.body.message })
  const v = await call(svc, 'POST', '/v1/auth/verify', { body: { message: n.body.message, signature, ...(venueId ? { venueId } : {}) } })
  if (v.status !== 200) throw new Error(`verify failed ${v.status} ${JSON.stringify(v.body)}`)
  return { account, wallet: account.address.toLowerCase(), token: v.body.token }
}

/** A test service with one platform operator (a fresh wallet), signed in. */
export async function startWithOperator(opts: ReferenceServiceOptions = {}): Promise<{ svc: TestService; operator: TestUser }> {
  const op = newWallet()
  const svc = await startTestService({ ...opts, operators: [op.address] })
  return { svc, operator: await signIn(svc, op) }
}

export interface CallResult {
  status: number
  body: any
  headers: Headers
}

/** One HTTP call; `body` may be an object (sent as JSON) or a raw string. */
export async function call(
  svc: { url: string },
  method: string,
  path: string,
  opts: { body?: unknown; token?: string; key?: string; headers?: Record<string, string> } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) }
  if (opts.body !== undefined) headers['content-type'] = 'application/json'
  if (opts.token) headers.authorization = `Bearer ${opts.token}`
  if (opts.key) headers['x-venue-key'] = opts.key
  const res = await fetch(svc.url + path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
  })
  const text = await res.text()
  let body: any = text
  try {
    body = JSON.parse(text)
  } catch {}
  return { status: res.status, body, headers: res.headers }
}

/** Asserts a spec-shaped error: status, code, and a human message. */
export function expectError(r: CallResult, status: number, code?: string, message?: string | RegExp) {
  const ok =
    r.status === status &&
    r.body?.error &&
    typeof r.body.error.message === 'string' &&
    r.body.error.message.length > 0 &&
    (!code || r.body.error.code === code) &&
    (!message || (typeof message === 'string' ? r.body.error.message === message : message.test(r.body.error.message)))
  if (!ok) throw new Error(`expected ${status} ${code ?? ''} ${message ?? ''}, got ${r.status} ${JSON.stringify(r.body)}`)
}

/** A market with prices, added through the fixture chain. */
export async function addMarket(svc: ReferenceService, over: Partial<Parameters<ReferenceService['chain']['addMarket']>[0]> = {}) {
  const m = await svc.chain.addMarket({
    id: newMarketId(),
    title: 'Will it rain tomorrow?',
    nodes: [{ type: 'category', ref: 'weather' }],
    closesAt: new Date(Date.now() + 86400_000),
    ...over,
  })
  await svc.chain.setPrice(m.id, 0, 4000)
  await svc.chain.setPrice(m.id, 1, 6000)
  return m
}
