/**
 * `vite build`: the script-tag bundle, ONE classic script (IIFE) that defines every reader-facing `vk-*` element (the operator's
 * `<vk-moderation-queue>` is `VK_BUNDLE=operator vite build`: dist/venuekit-operator.js), with
 * lit, the stores and the SDK inside: dist/venuekit.js. It reads its configuration from the `data-*`
 * attributes of its own `<script>` tag (src/embed/script-config.ts). Everything else in dist/ (the ESM
 * entries and their .d.ts) comes from `tsc -p tsconfig.build.json`; scripts/build.sh runs both.
 */
import { readFileSync } from 'node:fs'
import { defineConfig } from 'vite'
import { minifyLitTemplates } from './scripts/vite-minify-templates.ts'

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string }

export default defineConfig({
  publicDir: false,
  plugins: [minifyLitTemplates()],
  // Class fields compiled as the language defines them (tsconfig.bundle.json), not as assignments in the
  // constructor: a field's initializer stays in the class body (`vk=new …;`, `static styles=…`), 66 B less gzipped.
  // The shared controllers assign their constructor's arguments themselves (`declare`d fields), so they need no
  // field declarations either.
  tsconfig: 'tsconfig.bundle.json',
  define: {
    __VENUEKIT_VERSION__: JSON.stringify(pkg.version),
    // The script bundle is a production build: development-only checks (src/sdk/config.ts) are dropped.
    __VENUEKIT_DEV__: 'false',
    // The readers' bundle leaves the moderation stores out: the operator's script attaches them to the page's
    // context (src/stores/moderation.ts `withModeration`), or makes a context with them when it is alone.
    __VENUEKIT_MODERATION__: process.env.VK_BUNDLE === 'operator' ? 'true' : 'false',
    'process.env.NODE_ENV': JSON.stringify('production'),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    sourcemap: true,
    reportCompressedSize: false,
    // terser: ~0.6 KB gzipped smaller than the default minifier on this bundle with two compress passes; a
    // third pass, 15 B more; a fourth, 5 B more (a fifth, none). `pure_getters`: no property read in this code base has a side effect (none is
    // read for one, none to throw); `unsafe`: rewrites such as `String(x)` to `""+x`, the same for every
    // value this code passes them: 39 B more. `unsafe_comps`: `a < b` written `b > a`, which terser does only
    // when a side is a constant or neither side has a side effect; it is unsafe only for objects whose `valueOf`
    // has one, and this code compares numbers, strings and dates: 22 B more. Not `inline: 1` (smaller still):
    // terser then compiled lit's `directive(Busy)` in the
    // operator's script to `(()=>{})(class …)`, so `busy()` was "not a function" (the end-to-end test).
    // `keep_fargs: false`: unused trailing parameters are dropped (17 B); only code that reads a function's
    // `length` could tell, and neither this code nor lit nor nanostores does. `unsafe_symbols`: `Symbol("x")` is
    // written `Symbol()` (lit's `Symbol.metadata` polyfill; 5 B): nothing here reads a symbol's description.
    // `safari10: false`: vite turns terser's Safari 10/11 workarounds on by default (they keep loop variables
    // and `await` names apart); this es2022 bundle cannot run on those browsers anyway (class fields, `#private`,
    // static blocks): 92 B.
    minify: 'terser',
    terserOptions: { safari10: false, ecma: 2020, compress: { passes: 4, pure_getters: true, unsafe: true, unsafe_comps: true, keep_fargs: false, unsafe_symbols: true } },
    // VK_LOCALE=es builds dist/venuekit-es.js instead: a small classic script that registers Spanish.
    lib: process.env.VK_LOCALE
      ? {
          entry: `src/elements/locales/${process.env.VK_LOCALE}.ts`,
          name: `venuekitLocale_${process.env.VK_LOCALE}`,
          formats: ['iife'],
          fileName: () => `venuekit-${process.env.VK_LOCALE}.js`,
        }
      : process.env.VK_BUNDLE === 'operator'
        ? // VK_BUNDLE=operator builds dist/venuekit-operator.js: the operator screen's <vk-moderation-queue>.
          {
            entry: 'src/bundle-operator.ts',
            name: 'venuekitOperator',
            formats: ['iife'],
            fileName: () => 'venuekit-operator.js',
          }
        : {
            entry: 'src/bundle.ts',
            name: 'venuekitBundle',
            formats: ['iife'],
            fileName: () => 'venuekit.js',
          },
  },
})
