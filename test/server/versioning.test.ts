/** §9 Versioning: what the wire promises across versions. */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { PATHS } from '../../src/contract/paths.ts'
import { createApp } from '../../src/server/app.ts'
import type { ServiceContext } from '../../src/server/context.ts'

/** Every wire path of the contract, functions called with sample arguments. */
const contractPaths = () =>
  Object.entries(PATHS).map(([name, p]) => [name, typeof p === 'function' ? (p as (...a: string[]) => string)('a', 'b', 'c') : p] as const)

describe('§9 versioning', () => {
  it('§9.1 "Wire paths carry the prefix /v1": every path of the contract and every route the service mounts, but the key issuance that §4.1 names as POST /admin/keys', () => {
    for (const [name, path] of contractPaths()) {
      if (name === 'adminKeys') assert.equal(path, '/admin/keys')
      else assert.match(path, /^\/v1\//, name)
    }
    // Building the app touches no store: routes are registered, not run.
    const routes = createApp({} as ServiceContext).routes.filter((r) => r.path !== '/*')
    assert.ok(routes.length > 30, 'the routes are listed')
    for (const r of routes) {
      if (r.path === '/admin/keys') assert.equal(r.method, 'POST')
      else assert.match(r.path, /^\/v1\//, `${r.method} ${r.path}`)
    }
  })
})
