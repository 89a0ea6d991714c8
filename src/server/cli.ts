/**
 * `venuekit serve` (also `npm run serve`): the reference service on Node, seeded with demo data.
 * PGlite in memory by default, a data directory with `--data-dir`, PostgreSQL with `DATABASE_URL`.
 * Stops cleanly on SIGINT / SIGTERM (sockets closed, store closed, data-directory lock released).
 */
import process from 'node:process'
import { pathToFileURL } from 'node:url'
import { flagsOrExit, SERVE_USAGE, serveUntilStopped } from './serve-cli.ts'

const USAGE = `${SERVE_USAGE}\n\ncommands: serve`

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<number> {
  const [command, ...rest] = argv
  if (command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE)
    return 0
  }
  if (command !== 'serve') {
    console.error(command ? `venuekit: unknown command '${command}'\n\n${USAGE}` : USAGE)
    return 2
  }
  const flags = flagsOrExit(rest, process.env, true, USAGE)
  if (typeof flags === 'number') return flags
  const { startReferenceService } = await import('./node.ts')
  return await serveUntilStopped(flags, {
    name: `node ${process.version}`,
    start: startReferenceService,
    onSignal: (signal, fn) => process.on(signal, fn),
    exit: (code) => process.exit(code),
  })
}

const isEntry = !!process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href
if (isEntry) {
  main().then(
    (code) => process.exit(code),
    (e) => {
      console.error('venuekit: unexpected failure', e)
      process.exit(1)
    },
  )
}
