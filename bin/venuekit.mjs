#!/usr/bin/env node
// `npx venuekit serve`: the reference service's CLI. The installed package runs its built JavaScript
// (dist/server/cli.js); a checkout without a build runs the TypeScript sources through tsx.
import console from 'node:console'
import { URL } from 'node:url'
import { existsSync } from 'node:fs'
import process from 'node:process'

const built = new URL('../dist/server/cli.js', import.meta.url)
let main
if (existsSync(built)) {
  ;({ main } = await import(built.href))
} else {
  try {
    const { register } = await import('tsx/esm/api')
    register()
  } catch {
    console.error("venuekit: dist/ is missing (run 'npm run build'), and running the sources needs 'tsx'")
    process.exit(1)
  }
  ;({ main } = await import('../src/server/cli.ts'))
}
process.exit(await main(process.argv.slice(2)))
