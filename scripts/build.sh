#!/usr/bin/env bash
# `npm run build`: everything the npm package ships, in dist/.
#   1. tsc -p tsconfig.build.json   ESM JavaScript + .d.ts for every entry (sdk, stores, elements, server, contract, core)
#   2. vite build                   dist/venuekit.js, the script-tag bundle (one classic script, every reader-facing
#                                   element), dist/venuekit-operator.js (<vk-moderation-queue>), dist/venuekit-es.js
#   3. cem analyze                  dist/custom-elements.json from the elements' JSDoc
#   4. gen-framework-types          dist/types/{vue,svelte,react}.d.ts from the manifest
set -euo pipefail
cd "$(dirname "$0")/.."

rm -rf dist
echo "==> build: ESM entries and declarations (tsc)"
npx tsc -p tsconfig.build.json
# Declarations keep the sources' `.ts` specifiers; consumers resolve `.js`.
node -e '
const fs = require("node:fs"), path = require("node:path")
const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(d, e.name)) : [path.join(d, e.name)]))
for (const f of walk("dist").filter((f) => f.endsWith(".d.ts"))) {
  const s = fs.readFileSync(f, "utf8")
  const t = s.replace(/((?:from|import)\s*\(?\s*["\x27])(\.\.?\/[^"\x27]+)\.ts(["\x27])/g, "$1$2.js$3")
  if (t !== s) fs.writeFileSync(f, t)
}'
echo "==> build: script-tag bundle (vite)"
npx vite build --logLevel warn
echo "==> build: the operator screen's script (vite): dist/venuekit-operator.js"
VK_BUNDLE=operator npx vite build --logLevel warn
echo "==> build: locale scripts (vite): dist/venuekit-es.js"
VK_LOCALE=es npx vite build --logLevel warn
echo "==> build: custom-elements.json"
npx cem analyze --config custom-elements-manifest.config.mjs >/dev/null
echo "==> build: framework types"
node scripts/gen-framework-types.mjs
