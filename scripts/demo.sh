#!/usr/bin/env bash
# `npm run demo`: the demo venue on one port, one process, from a fresh machine too.
# Installs what is missing (npm ci), builds the script-tag bundle (dist/venuekit.js) and the demo pages
# (demo/dist), then starts the seeded reference service with the pages mounted (demo/server.ts).
#   npm run demo                   http://127.0.0.1:8787/
#   npm run demo -- --port 0       any free port (printed)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

vk_ensure_deps
vk_step "building the script-tag bundle (vite build)"
npx vite build --logLevel error
VK_BUNDLE=operator npx vite build --logLevel error
vk_step "building the demo pages (vite build --config demo/vite.config.ts)"
npx vite build --config demo/vite.config.ts --logLevel error
vk_step "starting the demo"
exec node --import tsx demo/server.ts "$@"
