/**
 * `venuekit serve` (also `npm run serve`): the reference service on Node, seeded with demo data.
 * PGlite in memory by default, a data directory with `--data-dir`, PostgreSQL with `DATABASE_URL`.
 * Stops cleanly on SIGINT / SIGTERM (sockets closed, store closed, data-directory lock released).
 */
import process from 'node:process'
import { pathToFileURL } from 'node:url'
import { banner, explainStartError, parseServeFlags, SERVE_USAGE, seedIfEmpty, UsageError, type ServeFlags } from './serve-cli.ts'

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
  let flags: ServeFlags
  try {
    flags = parseServeFlags(rest, process.env, true)
  } catch (e) {
    if (!(e instanceof UsageError)) throw e
    console.error(`venuekit: ${e.message}\n\n${USAGE}`)
    return 2
  }
  if (flags.help) {
    console.log(USAGE)
    return 0
  }

  const { startReferenceService } = await import('./node.ts')
  let svc: Awaited<ReturnType<typeof startReferenceService>>
  try {
    svc = await startReferenceService({
      port: flags.port,
      host: flags.host,
      dataDir: flags.dataDir,
      databaseUrl: flags.databaseUrl,
      operators: flags.operators,
      dev: flags.dev,
    })
  } catch (e) {
    console.error(`venuekit: cannot start: ${explainStartError(e, flags)}`)
    return 1
  }

  let stopping = false
  const stopped = new Promise<string>((resolve) => {
    const onSignal = (signal: string) => {
      if (stopping) {
        console.error(`venuekit: ${signal} again; exiting without a clean stop`)
        process.exit(130)
      }
      stopping = true
      resolve(signal)
    }
    process.on('SIGINT', () => onSignal('SIGINT'))
    process.on('SIGTERM', () => onSignal('SIGTERM'))
  })

  try {
    const seed = await seedIfEmpty(svc, flags.seed)
    console.log(banner({ url: svc.url, streamUrl: svc.streamUrl, storeKind: svc.ctx.store.kind, flags, seed, runtime: `node ${process.version}` }))
  } catch (e) {
    console.error(`venuekit: seeding the demo data failed: ${(e as Error).message}`)
    await svc.close()
    return 1
  }

  const signal = await stopped
  console.log(`venuekit: ${signal} received, stopping…`)
  await svc.close()
  console.log('venuekit: stopped')
  return 0
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
