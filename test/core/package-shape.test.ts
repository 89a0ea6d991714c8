/**
 * §1.9 "ESM only (no CommonJS build)" and §9.6 "the packages ship without client-boundary directives", checked
 * on what the package ships: package.json, and every file under its `files` entries (dist/, src/, bin/).
 * dist/ is the build's output: `npm test` (scripts/test.sh) builds it before the tests; alone, run
 * `bash scripts/build.sh` first.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))

const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))

/**
 * What the package ships, relative to the root: everything under each `files` entry, plus what npm always
 * packs (package.json, the README, and the `main` and `bin` files). A superset of `npm pack`'s list (npm
 * leaves out a few junk names), so a rule broken in any shipped file is caught; read from disk, so the check
 * does not depend on npm or on how long `npm pack` takes on a loaded machine.
 */
function shippedFiles(): string[] {
  const out = new Set<string>()
  for (const entry of pkg.files as string[]) {
    const at = join(root, entry)
    assert.ok(existsSync(at), `"files" names ${entry}, which is missing${entry === 'dist' ? ': run `bash scripts/build.sh` first' : ''}`)
    for (const f of statSync(at).isDirectory() ? walk(at) : [at]) out.add(relative(root, f).split(sep).join('/'))
  }
  for (const f of readdirSync(root)) if (f === 'package.json' || /^readme/i.test(f)) out.add(f)
  const bins = typeof pkg.bin === 'string' ? [pkg.bin] : Object.values((pkg.bin ?? {}) as Record<string, string>)
  for (const f of [...bins, pkg.main].filter((x): x is string => typeof x === 'string')) out.add(f.replace(/^\.\//, ''))
  return [...out]
}

/** Every condition name used anywhere in an `exports` map. */
function conditionsOf(exportsMap: unknown): string[] {
  if (typeof exportsMap !== 'object' || exportsMap === null) return []
  return Object.entries(exportsMap).flatMap(([k, v]) => [...(k.startsWith('.') ? [] : [k]), ...conditionsOf(v)])
}

/** Every target path in an `exports` map. */
function targetsOf(exportsMap: unknown): string[] {
  if (typeof exportsMap === 'string') return [exportsMap]
  if (typeof exportsMap !== 'object' || exportsMap === null) return []
  return Object.values(exportsMap).flatMap(targetsOf)
}

const CODE = /\.(?:[cm]?js|[cm]?ts|[jt]sx)$/
const DIRECTIVE = /use client/

/**
 * The directives of a module: the string-literal statements of its prologue (after a hashbang, comments and
 * whitespace), which is where a bundler or a framework reads 'use client'. Minified output included.
 */
function prologueDirectives(text: string): string[] {
  let s = text.replace(/^#![^\n]*\n/, '')
  const found: string[] = []
  for (;;) {
    const skipped = s.replace(/^(?:\s+|\/\/[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)+/, '')
    const m = /^(['"])((?:(?!\1)[^\\\n]|\\.)*)\1\s*(?:;|\n|$)/.exec(skipped)
    if (!m) return found
    found.push(m[2])
    s = skipped.slice(m[0].length)
  }
}

/** A 'use client' written as a statement anywhere (start of a line, or after `;`, `{` or `}`), not in prose. */
const DIRECTIVE_STATEMENT = /(?:^|[;{}])\s*(['"])use client\1\s*(?:;|$)/m

function clientDirectiveIn(text: string): boolean {
  return prologueDirectives(text).some((d) => DIRECTIVE.test(d)) || DIRECTIVE_STATEMENT.test(text)
}

describe('package shape', () => {
  it('§9.6 "without client-boundary directives": the check used below finds a \'use client\' directive in the forms tsc, bundlers and people write, and not in prose', () => {
    for (const src of [
      "'use client'\nimport x from 'y'\n",
      '"use client";import{a as b}from"./c.js";',
      "#!/usr/bin/env node\n/** a header */\n// more\n'use strict'\n\"use client\"\nexport {}\n",
      'export const a = 1;\n"use client";\n',
    ])
      assert.equal(clientDirectiveIn(src), true, src)
    for (const src of ["// add 'use client' yourself at the provider file\nexport {}\n", "/**\n * 'use client' goes in your app\n */\nexport {}\n", "const note = \"add 'use client' yourself\"\n"])
      assert.equal(clientDirectiveIn(src), false, src)
  })

  it('§1.9 "ESM only (no CommonJS build)": package.json says "type": "module", its exports carry no "require" condition and no CommonJS target, and it ships no .cjs file and no CommonJS output', () => {
    assert.equal(pkg.type, 'module')
    const conditions = conditionsOf(pkg.exports)
    assert.ok(conditions.includes('default'), 'the exports map is read (it has conditions)')
    assert.deepEqual(conditions.filter((c) => c === 'require'), [], 'no "require" condition')
    const targets = targetsOf(pkg.exports)
    const entries = [...targets, ...['main', 'module', 'browser'].map((k) => pkg[k]).filter((v) => typeof v === 'string')]
    assert.deepEqual(entries.filter((t) => /\.c[jt]s$/.test(t)), [], 'no .cjs / .cts entry')

    const files = shippedFiles()
    // Not vacuous: the build is there and is what ships (every plain export target is among the shipped files).
    const plain = targets.filter((t) => !t.includes('*')).map((t) => t.replace(/^\.\//, ''))
    const missing = plain.filter((t) => !files.includes(t))
    assert.deepEqual(missing, [], 'every export target ships (run `bash scripts/build.sh` first if dist/ is missing)')
    assert.ok(files.some((f) => f.startsWith('dist/')) && files.some((f) => f.startsWith('src/')))

    assert.deepEqual(files.filter((f) => /\.(?:cjs|cts)(?:\.map)?$|\.d\.cts$/.test(f)), [], 'no .cjs or .cts file ships')
    // A nested package.json could switch a folder back to CommonJS.
    assert.deepEqual(files.filter((f) => f !== 'package.json' && f.endsWith('package.json')), [], 'no nested package.json ships')
    // CommonJS output (tsc or a bundler) always writes module.exports or marks exports.__esModule.
    const cjs = files.filter((f) => /\.m?js$/.test(f) && /\bmodule\.exports\b|\b__esModule\b/.test(readFileSync(join(root, f), 'utf8')))
    assert.deepEqual(cjs, [], 'no shipped JavaScript is CommonJS')
  })

  it('§9.6 "the packages ship without client-boundary directives": no \'use client\' in src/ or dist/, nor in any code file the package ships', () => {
    assert.ok(existsSync(join(root, 'dist')), 'dist/ is missing: run `bash scripts/build.sh` first')
    const files = new Set([...walk(join(root, 'src')), ...walk(join(root, 'dist'))].map((f) => f.slice(root.length)))
    for (const f of shippedFiles()) files.add(f)
    const code = [...files].filter((f) => CODE.test(f))
    assert.ok(code.some((f) => f.startsWith('dist/')) && code.some((f) => f.startsWith('src/')), 'both src/ and dist/ are read')
    const withDirective = code.filter((f) => clientDirectiveIn(readFileSync(join(root, f), 'utf8')))
    assert.deepEqual(withDirective, [])
  })

  it('§9.5 "a development build warns when an explicit host contradicts the named network": the script bundles are production builds and carry no such check; the ESM SDK keeps it', () => {
    for (const f of ['dist/venuekit.js', 'dist/venuekit-operator.js']) {
      const code = readFileSync(join(root, f), 'utf8')
      assert.ok(code.includes('no apiKey: reads are unattributed'), `${f} holds the SDK's configuration`)
      assert.ok(!code.includes('contradicts network'), `${f} carries no development-only check`)
    }
    assert.ok(readFileSync(join(root, 'dist/sdk/config.js'), 'utf8').includes('contradicts network'), 'the ESM SDK decides at run time')
  })

  it("the readers' bundle leaves out the moderation stores; the operator's script carries them (and attaches them to the page's context: e2e demo)", () => {
    const has = (f: string) => readFileSync(join(root, f), 'utf8').includes('modq:')
    assert.equal(has('dist/venuekit.js'), false, 'venuekit.js')
    assert.equal(has('dist/venuekit-operator.js'), true, 'venuekit-operator.js')
    assert.equal(has('dist/stores/moderation.js'), true, 'the ESM stores')
  })
})
