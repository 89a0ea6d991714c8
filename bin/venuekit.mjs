#!/usr/bin/env node
// `npx venuekit serve`: runs the TypeScript CLI through tsx's loader (the package ships its sources).
import console from 'node:console'
import process from 'node:process'

let register
try {
  ;({ register } = await import('tsx/esm/api'))
} catch {
  console.error("venuekit: the CLI runs its TypeScript sources through 'tsx'; install it next to venuekit (npm i -D tsx)")
  process.exit(1)
}
register()
const { main } = await import('../src/server/cli.ts')
process.exit(await main(process.argv.slice(2)))
