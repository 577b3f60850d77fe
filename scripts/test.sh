#!/usr/bin/env bash
# Every test: installs what is missing, builds, then the C++ suites (wasm,
# native sanitized, native scalar), a one-minute fuzzing run, the benchmark's
# workload check, the Jest suites, the browser drivers' own test, the demo's
# end-to-end tests in Chromium, Firefox and WebKit, the packed package in
# throwaway consumer projects, and the portable suite in every engine
# (Node 20-26, Deno, Bun, the three browsers' pages and workers).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
bash scripts/test-cpp.sh
bash tests/fuzz/run.sh 60
node bench/check.mjs   # every benchmark workload, checked against the JS reference
npx tsc -p tsconfig.json
npx jest --ci
node --test tests/browsers/drivers.test.mjs
node --test tests/e2e/demo.e2e.mjs
node --test tests/package/run.mjs
node tests/engines/run.mjs
