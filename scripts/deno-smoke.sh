#!/usr/bin/env bash
# Deno smoke test (CI): type-checks the Deno entry and test/deno/, then runs test/deno/smoke.ts under Deno. The test
# starts src/server/deno.ts on a free port (PGlite in a temporary data directory; also PostgreSQL when
# VK_TEST_DATABASE_URL or VK_PG_URL names a server), signs in, posts a take and reads it in the feed, checks the stream's keep-alive,
# then stops the server. (smoke.ts is not named *.test.ts, so `deno test test/deno/` does not run it twice.)
# Deno comes from the `deno` npm package (no download). Exits non-zero on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."

DENO="$(node -p "require('path').join(require('path').dirname(require.resolve('deno/package.json')), 'deno')" 2>/dev/null || true)"
if [ -z "$DENO" ] || [ ! -x "$DENO" ]; then
  # The package's postinstall did not place the binary (e.g. --ignore-scripts): its launcher resolves it.
  DENO="node node_modules/deno/bin.cjs"
fi

export VK_TEST_DATABASE_URL="${VK_TEST_DATABASE_URL:-${VK_PG_URL:-}}"
trap 'echo "deno smoke: FAIL" >&2' ERR
echo "deno smoke: $($DENO --version | sed -n 1p)"
# Also the other Deno files (scripts/test.sh runs them with --no-check).
$DENO check src/server/deno.ts test/deno/*.ts
$DENO test --allow-run --allow-net --allow-env --allow-read --allow-write --allow-sys test/deno/smoke.ts
echo "deno smoke: PASS (Deno.serve + Deno.upgradeWebSocket, PGlite$([ -n "${VK_TEST_DATABASE_URL:-}" ] && echo ' and PostgreSQL'); SIWE sign-in, take with proven stance read in the feed, stream event, clean stop)"
