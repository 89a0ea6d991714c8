/**
 * The demo pages: `vite build --config demo/vite.config.ts` → demo/dist, served by demo/server.ts.
 * - index, market, room, profile, operator: plain HTML; venuekit comes from the script tag
 *   (/venuekit.js, built by the root vite.config.ts), plus the demo's own chrome (shared/plain.ts).
 * - vue/, svelte/, react/: the market page as a Vue 3, a Svelte 5 and a React 19 app, importing the
 *   package's ESM entries (`venuekit/stores`, `venuekit/elements/<name>`), resolved here to the sources.
 */
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import vue from '@vitejs/plugin-vue'
import { svelte } from '@sveltejs/vite-plugin-svelte'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))
const src = (p: string) => fileURLToPath(new URL(`../src/${p}`, import.meta.url))

export default defineConfig({
  root: here('.'),
  publicDir: false,
  logLevel: 'warn',
  resolve: {
    alias: [
      // What an app writes (`venuekit/…`), served from this checkout's sources.
      { find: /^venuekit\/elements\/(.+)$/, replacement: src('elements/$1/$1.ts') },
      { find: /^venuekit\/(sdk|stores|elements|contract|core)$/, replacement: src('$1/index.ts') },
    ],
  },
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith('vk-') } } }), svelte({ configFile: false })],
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: here('dist'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    rollupOptions: {
      input: {
        home: here('index.html'),
        market: here('market.html'),
        room: here('room.html'),
        profile: here('profile.html'),
        operator: here('operator.html'),
        vue: here('vue/index.html'),
        svelte: here('svelte/index.html'),
        react: here('react/index.html'),
      },
    },
  },
})
