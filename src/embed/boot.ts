/**
 * The script-tag bundle's start-up, evaluated BEFORE the elements are defined (see src/bundle.ts), so
 * elements already on the page find the context when they upgrade: reads the tag's `data-*`, creates the
 * page's context unless one exists (a second copy of the bundle, or the ESM build, made it), and installs
 * `window.venuekit`. Never throws: a bad configuration is reported on the console and the page goes on.
 */
import { createVenuekit, getVenuekit } from '../stores/index.ts'
import { configFromScript, findOwnScript } from './script-config.ts'
import { installGlobal } from './global.ts'

declare const __VENUEKIT_VERSION__: string

const version = typeof __VENUEKIT_VERSION__ === 'string' ? __VENUEKIT_VERSION__ : 'dev'

if (typeof window !== 'undefined' && typeof document !== 'undefined') {
  try {
    const script = findOwnScript(document)
    const config = script ? configFromScript(script, document.baseURI) : null
    if (config && !getVenuekit()) createVenuekit({ config })
  } catch (e) {
    console.error(`[venuekit] the <script> tag's configuration was refused: ${(e as Error).message}`)
  }
  installGlobal(window, version)
}
