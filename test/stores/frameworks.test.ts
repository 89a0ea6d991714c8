/**
 * The framework examples in docs/frameworks/ (Vue 3 with @nanostores/vue, Svelte 5 with `$store`,
 * React 19 with @nanostores/react), each rendered on the server against the reference service: first
 * while the stores load, then once they have loaded.
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createElement } from 'react'
import { renderToString as renderReact } from 'react-dom/server'
import type { Component } from 'svelte'
import { compile } from 'svelte/compiler'
import { render as renderSvelte } from 'svelte/server'
import { createSSRApp, h } from 'vue'
import { renderToString as renderVue } from 'vue/server-renderer'
import type { Venuekit } from '../../src/stores/index.ts'
import { ReactComments } from '../../docs/frameworks/ReactComments.tsx'
import VueComments from '../../docs/frameworks/VueComments.ts'
import { mount, page, startEnv, until, type Env } from './helpers.ts'

let env: Env
before(async () => {
  env = await startEnv()
})
after(() => env.svc.close())

/** Visible text of server-rendered markup: tags and comments dropped, whitespace collapsed. */
const text = (html: string) =>
  html
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()

/** Compiles the Svelte 5 example for the server and loads it. */
async function svelteComponent(): Promise<Component<{ vk: Venuekit; marketId: string }>> {
  const src = fileURLToPath(new URL('../../docs/frameworks/SvelteComments.svelte', import.meta.url))
  const { js } = compile(await readFile(src, 'utf8'), { generate: 'server', filename: 'SvelteComments.svelte' })
  // Under node_modules so the compiled module resolves `svelte/internal/server` from the project.
  const dir = fileURLToPath(new URL('../../node_modules/.cache/venuekit-frameworks/', import.meta.url))
  await mkdir(dir, { recursive: true })
  const out = `${dir}SvelteComments-${process.pid}.js`
  await writeFile(out, js.code)
  return (await import(pathToFileURL(out).href)).default
}

type Renderer = (vk: Venuekit, marketId: string) => Promise<string>

describe('framework examples (docs/frameworks)', () => {
  let Svelte: Component<{ vk: Venuekit; marketId: string }>
  before(async () => {
    Svelte = await svelteComponent()
  })
  const renderers: [string, Renderer][] = [
    ['Vue 3 + @nanostores/vue (VueComments.ts)', (vk, marketId) => renderVue(createSSRApp({ render: () => h(VueComments, { vk, marketId }) }))],
    ['Svelte 5 $store (SvelteComments.svelte)', async (vk, marketId) => renderSvelte(Svelte, { props: { vk, marketId } }).body],
    ['React 19 + @nanostores/react (ReactComments.tsx)', async (vk, marketId) => renderReact(createElement(ReactComments, { vk, marketId }))],
  ]

  for (const [name, renderTo] of renderers)
    it(`${name}: renders the thread and its take count from the stores; prints no count while it is null (§4.5.4)`, async (t) => {
      const vk = page(env)
      t.after(() => vk.dispose())
      const m = await env.h.addMarket()
      const taker = await env.h.signedIn()
      await env.h.setPosition(taker.w.wallet, m.id, 0, '10')
      await taker.createPost('event', m.id, 'Yes, clearly')
      await taker.createPost('event', m.id, 'and a second thought')

      const thread = vk.comments('event', m.id)
      const counts = vk.takeCounts([m.id])
      const offs = [thread, counts].map(mount)
      const loading = text(await renderTo(vk, m.id))
      assert.equal(loading, 'Loading…', 'while loading: the busy line, and no count at all')

      await until(thread, (v) => v.posts.length === 2)
      await until(counts, (v) => v.countOf(m.id) !== null)
      const done = text(await renderTo(vk, m.id))
      assert.equal(done, '2 takes, 2 posts and a second thought Yes, clearly')
      offs.forEach((off) => off())
    })
})
