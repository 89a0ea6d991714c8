#!/usr/bin/env bash
# `npm test`: every test, on a fresh machine too. Installs what is missing, then runs:
# build (dist/: what the package ships), type check, lint, node tests on PGlite, the same tests on
# PostgreSQL, Deno tests (the SDK contract suite against the service on Node and on Deno), browser tests,
# and the end-to-end demo test (npm run demo in headless Chromium).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

vk_ensure_deps
vk_ensure_postgres

failed=()
run() {
  local name="$1"; shift
  vk_step "$name"
  if "$@"; then :; else failed+=("$name"); fi
}

# The package build comes first: the README's SDK example (test/sdk/readme.test.ts) and the locale-script
# browser test use dist/.
run "build" bash scripts/build.sh
run "type check" npx tsc --noEmit -p tsconfig.json
run "lint" npx eslint --max-warnings=0 .

# A test file that waits forever (a socket that never closes, a message that never comes) fails after 15
# minutes instead of holding CI until its own limit. Node 20 applies --test-timeout to each file as a whole;
# the slowest file (the fuzz: 15,000 requests) takes 1.5 to 3 minutes. test/helpers/assert-messages.ts makes a
# failing `assert.ok` without a message fail at once (Node 20 would read the .ts source for one, and can spin).
NODE_TEST=(node --import tsx --import ./test/helpers/assert-messages.ts --test --test-timeout=900000 --test-reporter=spec)
NODE_TESTS=$(ls test/server/*.test.ts test/sdk/*.test.ts test/stores/*.test.ts test/core/*.test.ts 2>/dev/null || true)
run "node tests on PGlite" "${NODE_TEST[@]}" --test-concurrency=2 $NODE_TESTS
run "node tests on PostgreSQL" env VK_TEST_DATABASE_URL="$VK_PG_URL" "${NODE_TEST[@]}" --test-concurrency=2 $NODE_TESTS

if [ -f scripts/deno-smoke.sh ]; then run "Deno smoke test" bash scripts/deno-smoke.sh; fi
if ls test/deno/*.test.ts >/dev/null 2>&1; then
  # test/deno/: the SDK contract suite against the Node-served service, and the entries' own answers on both runtimes.
  run "Deno tests" npx deno test -A --no-check test/deno/
  # The same contract suite against the service served by Deno (src/server/deno.ts), on both stores (~10 s).
  run "SDK contract, service on Deno (PGlite)" env VK_SDK_SERVICE=deno npx deno test -A --no-check test/deno/sdk.test.ts
  run "SDK contract, service on Deno (PostgreSQL)" env VK_SDK_SERVICE=deno VK_TEST_DATABASE_URL="$VK_PG_URL" npx deno test -A --no-check test/deno/sdk.test.ts
fi
if ls test/browser/*.test.ts >/dev/null 2>&1; then
  vk_ensure_chromium
  run "browser tests (Chromium)" npx web-test-runner --config web-test-runner.config.mjs
fi
# Once, on the embedded database: `npm run demo` (it builds its pages) driven by playwright-core.
vk_ensure_chromium
run "end-to-end demo test" "${NODE_TEST[@]}" test/e2e/*.test.ts

if [ ${#failed[@]} -gt 0 ]; then
  echo "venuekit: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "venuekit: all tests passed"
