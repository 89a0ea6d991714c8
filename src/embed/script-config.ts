/**
 * The script-tag bundle's configuration: read from `data-*` attributes on its own `<script>` tag.
 *
 *   <script src="…/venuekit.js" data-base-url="https://api.example" data-api-key="pck_…"
 *           data-venue-id="my-venue" data-network="testnet" data-stream-url="wss://…"></script>
 *
 * Relative addresses (`data-base-url="/"`) resolve against the page. `data-api-key="none"` (or empty)
 * states that keyless is deliberate (§5.4); leaving it out warns once. Pure: no globals at import time.
 */
import type { ClientConfig } from '../sdk/index.ts'

/** The attributes the bundle reads (besides `data-venuekit`, which only marks the tag). */
export const SCRIPT_ATTRIBUTES = ['data-base-url', 'data-network', 'data-api-key', 'data-venue-id', 'data-stream-url'] as const

/** The script file names the bundle is published under (`venuekit.js`, `venuekit.min.js`, `venuekit.iife.js`). */
const BUNDLE_FILE = /(?:^|\/)venuekit(?:\.min|\.iife)?\.js(?:[?#]|$)/

/**
 * The bundle's own `<script>`: `document.currentScript` while a classic script runs; otherwise (a
 * `type="module"` tag, or a call after load) the tag marked `data-venuekit`, else one whose `src` is the
 * bundle's file name and that carries configuration.
 */
export function findOwnScript(doc: Document): HTMLScriptElement | null {
  const current = doc.currentScript
  if (current && current.tagName === 'SCRIPT') return current as HTMLScriptElement
  const marked = doc.querySelector<HTMLScriptElement>('script[data-venuekit]')
  if (marked) return marked
  for (const s of Array.from(doc.scripts)) {
    if (BUNDLE_FILE.test(s.getAttribute('src') ?? '') && (s.hasAttribute('data-base-url') || s.hasAttribute('data-network'))) return s
  }
  return null
}

/** A relative address made absolute against the page; a stream address in http(s) becomes ws(s). */
function absolute(value: string, baseURI: string, stream = false): string {
  const u = new URL(value, baseURI)
  if (stream && (u.protocol === 'http:' || u.protocol === 'https:')) u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:'
  return u.href.replace(/\/+$/, '')
}

/**
 * The client configuration on a script tag, or null when it names neither a base address nor a network
 * (the page then configures the client itself with `window.venuekit.configure(…)`).
 */
export function configFromScript(script: Element, baseURI: string): ClientConfig | null {
  const attr = (name: (typeof SCRIPT_ATTRIBUTES)[number]) => {
    const v = script.getAttribute(name)
    return v == null ? undefined : v.trim()
  }
  const baseUrl = attr('data-base-url')
  const network = attr('data-network')
  if (!baseUrl && !network) return null
  const config: ClientConfig = {}
  if (baseUrl) config.baseUrl = absolute(baseUrl, baseURI)
  if (network) config.network = network as ClientConfig['network']
  const streamUrl = attr('data-stream-url')
  if (streamUrl) config.streamUrl = absolute(streamUrl, baseURI, true)
  const apiKey = attr('data-api-key')
  if (apiKey !== undefined) config.apiKey = apiKey === '' || apiKey === 'none' ? null : apiKey
  const venueId = attr('data-venue-id')
  if (venueId) config.venueId = venueId
  return config
}
