#!/usr/bin/env node
/* global process, console, URL */
/**
 * Bundle size per public entry: esbuild bundles each entry (minified, ESM, browser platform), then the
 * table shows minified and minified+gzipped bytes against its budget. Exit 1 when an entry is over.
 * Add entries (elements, stores, script-tag bundle) to ENTRIES.
 */
import { build } from 'esbuild'
import { gzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

/** name, source entry, budget in min+gzip bytes (null: no budget). */
export const ENTRIES = [{ name: 'venuekit/sdk', entry: 'src/sdk/index.ts', budget: 6 * 1024 }]

export async function measure({ entry, external = [] }) {
  const r = await build({
    absWorkingDir: root,
    entryPoints: [entry],
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
