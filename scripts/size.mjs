#!/usr/bin/env node
/* global process, console, URL, Buffer */
/**
 * Bundle size per public entry: esbuild bundles each entry (minified, ESM, browser platform), then the
 * table shows minified and minified+gzipped bytes against its budget. Exit 1 when an entry is over.
 * Add entries (elements, stores, script-tag bundle) to ENTRIES.
 */
import { build } from 'esbuild'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { existsSync, readdirSync } from 'node:fs'

const root = fileURLToPath(new URL('..', import.meta.url))

/** name, source entry, budget in min+gzip bytes (null: no budget). */
export const ENTRIES = [
  { name: 'venuekit/sdk', entry: 'src/sdk/index.ts', budget: 6 * 1024 },
  // The script-tag bundle as it ships (vite.config.ts, one IIFE): every element, the stores, the SDK and lit.
  { name: 'script bundle (dist/venuekit.js)', entry: 'src/bundle.ts', vite: true, budget: 45 * 1024 },
  // The operator screen's script (VK_BUNDLE=operator): <vk-moderation-queue>, with its own lit and stores.
  { name: 'operator script (dist/venuekit-operator.js)', entry: 'src/bundle-operator.ts', vite: 'operator', budget: null },
  // Elements: each element entry on its own (with lit, the stores and the SDK it pulls in), then together.
  ...['market-comments', 'comments', 'take-card', 'feed', 'community-takes', 'take-count', 'for-you-rail'].map((n) => ({
    name: `vk-${n}`,
    entry: `src/elements/${n}/${n}.ts`,
    budget: null,
  })),
  // Elements II (issue 7).
  ...[
    'room-feed',
    'take-prompt',
    'platform-provider',
    'moderation-queue',
    'author-takes',
    'leaderboard',
    'mini-leaderboard',
    'record-chip',
    'market-verdict',
    'market-verdict-counts',
    'follow-button',
  ].map((n) => ({ name: `vk-${n}`, entry: `src/elements/${n}/${n}.ts`, budget: null })),
  { name: 'all elements together', entries: elementEntries(), budget: null },
]

/** Every element entry: `src/elements/<name>/<name>.ts` for each element folder. */
function elementEntries() {
  const dir = `${root}src/elements`
  return readdirSync(dir)
    .filter((n) => existsSync(`${dir}/${n}/${n}.ts`))
    .sort()
    .map((n) => `src/elements/${n}/${n}.ts`)
}

/**
 * A script exactly as `vite build` emits it (root vite.config.ts), without writing it: the script-tag
 * bundle, or with `which` = 'operator' the operator screen's script (VK_BUNDLE=operator).
 */
async function measureViteBundle(which) {
  const { build: viteBuild } = await import('vite')
  const before = process.env.VK_BUNDLE
  if (which === 'operator') process.env.VK_BUNDLE = 'operator'
  let out
  try {
    out = await viteBuild({ root, configFile: `${root}vite.config.ts`, logLevel: 'silent', build: { write: false, sourcemap: false } })
  } finally {
    if (before === undefined) delete process.env.VK_BUNDLE
    else process.env.VK_BUNDLE = before
  }
  const fileName = which === 'operator' ? 'venuekit-operator.js' : 'venuekit.js'
  const chunk = [out].flat().flatMap((o) => o.output).find((o) => o.type === 'chunk' && o.fileName === fileName)
  const code = Buffer.from(chunk.code)
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length }
}

export async function measure({ entry, entries, external = [], vite = false }) {
  if (vite) return measureViteBundle(vite)
  const r = await build({
    absWorkingDir: root,
    // Several entries measure as one bundle: a module importing each of them.
    ...(entries
      ? { stdin: { contents: entries.map((e) => `import './${e}'`).join('\n'), resolveDir: root, loader: 'js' } }
      : { entryPoints: [entry] }),
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    external,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  })
  const code = r.outputFiles[0].contents
  return { min: code.length, gzip: gzipSync(code, { level: 9 }).length }
}

const kb = (n) => `${(n / 1024).toFixed(2)} KB`
const pad = (s, n) => String(s).padEnd(n)
const lpad = (s, n) => String(s).padStart(n)

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const only = process.argv.slice(2)
  const rows = []
  let over = false
  for (const e of ENTRIES.filter((e) => !only.length || only.includes(e.name))) {
    const { min, gzip } = await measure(e)
    const ok = e.budget == null || gzip <= e.budget
    over ||= !ok
    rows.push([e.name, `${min} B`, `${gzip} B (${kb(gzip)})`, e.budget == null ? '-' : `${kb(e.budget)} ${ok ? 'ok' : 'OVER'}`])
  }
  const head = ['entry', 'min', 'min+gzip', 'budget']
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (r) => r.map((c, i) => (i === 0 ? pad(c, w[i]) : lpad(c, w[i]))).join('  ')
  console.log(line(head))
  console.log(w.map((n) => '-'.repeat(n)).join('  '))
  for (const r of rows) console.log(line(r))
  if (over) process.exitCode = 1
}
