/**
 * The custom-elements manifest (dist/custom-elements.json, built by `cem analyze` from the elements' JSDoc:
 * `npm test` builds it first; alone, run `bash scripts/build.sh`) carries every element's documented surface.
 * The framework types (dist/types) are generated from it, so a tag the analyzer misses (a second JSDoc block
 * between the class's and the class, say) leaves that element's events untyped in React, Vue and Svelte.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
const manifest = JSON.parse(readFileSync(join(root, 'dist/custom-elements.json'), 'utf8'))
const declared = new Map<string, { summary?: string; cssParts?: { name: string }[]; events?: { name: string }[]; cssProperties?: { name: string }[] }>()
for (const mod of manifest.modules) for (const d of mod.declarations ?? []) if (d.tagName) declared.set(d.tagName, d)

/** The names after each `@<tag>` in an element's class source. */
const tagged = (source: string, tag: string) => [...source.matchAll(new RegExp(`^\\s*\\*\\s*@${tag}\\s+(\\S+)`, 'gm'))].map((m) => m[1]).sort()

describe('custom-elements manifest', () => {
  const folders = readdirSync(join(root, 'src/elements'), { withFileTypes: true }).filter((e) => e.isDirectory() && !['shared', 'locales'].includes(e.name))
  for (const { name } of folders) {
    it(`vk-${name}: its summary, and every @csspart, @event and @cssproperty of its source, are in the manifest`, () => {
      const source = readFileSync(join(root, 'src/elements', name, `${name}.element.ts`), 'utf8')
      const d = declared.get(`vk-${name}`)
      assert.ok(d, `vk-${name} is in the manifest`)
      assert.ok(d.summary, 'summary')
      // What the class documents must all be there; a subclass also inherits its base element's (market comments').
      const missing = (have: { name: string }[] | undefined, tag: string) => tagged(source, tag).filter((n) => !(have ?? []).some((x) => x.name === n))
      assert.deepEqual(missing(d.cssParts, 'csspart'), [], 'parts')
      assert.deepEqual(missing(d.events, 'event'), [], 'events')
      assert.deepEqual(missing(d.cssProperties, 'cssproperty'), [], 'custom properties')
    })
  }
})
