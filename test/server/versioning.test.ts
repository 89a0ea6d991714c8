/** §9 Versioning: what the wire promises across versions. */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { PATHS } from '../../src/contract/paths.ts'
import { createApp } from '../../src/server/app.ts'
import type { ServiceContext } from '../../src/server/context.ts'
import type { ChainController } from '../../src/server/chain/source.ts'
import { DEV_PATHS, devRoutes } from '../../src/server/routes/dev.ts'

/** Every wire path of the contract, functions called with sample arguments. */
const contractPaths = () =>
  Object.entries(PATHS).map(([name, p]) => [name, typeof p === 'function' ? (p as (...a: string[]) => string)('a', 'b', 'c') : p] as const)

/** A context with its configuration and no store: building the app registers routes and reads the configuration only. */
const noStore = { config: {} } as ServiceContext

describe('§9 versioning', () => {
  it('§9.1 "Wire paths carry the prefix /v1": every path of the contract and every route the service mounts, but the key issuance that §4.1 names as POST /admin/keys', () => {
    for (const [name, path] of contractPaths()) {
      if (name === 'adminKeys') assert.equal(path, '/admin/keys')
      else assert.match(path, /^\/v1\//, name)
    }
    // Building the app touches no store: routes are registered, not run (it reads the configuration only).
    const routes = createApp(noStore).routes.filter((r) => r.path !== '/*')
    assert.ok(routes.length > 30, 'the routes are listed')
    for (const r of routes) {
      if (r.path === '/admin/keys') assert.equal(r.method, 'POST')
      else assert.match(r.path, /^\/v1\//, `${r.method} ${r.path}`)
    }
  })

  it('§9.1 "Wire paths carry the prefix /v1": the development routes too, mounted as a service with `dev: true` mounts them', () => {
    for (const [name, path] of Object.entries(DEV_PATHS)) assert.match(path, /^\/v1\//, name)
    const routes = createApp(noStore, (app) => app.route('/', devRoutes(noStore, {} as ChainController))).routes
    const dev = routes.filter((r) => r.path.includes('/dev/'))
    assert.equal(dev.length, Object.keys(DEV_PATHS).length, 'every development route is mounted')
    for (const r of dev) assert.match(r.path, /^\/v1\/dev\//, `${r.method} ${r.path}`)
  })
})
