#!/usr/bin/env bash
# Every test: installs what is missing, builds, then the C++ suites (wasm,
# native sanitized), a 20-second fuzzing run, the benchmark's
# workload check, the performance page's size and links, the Jest suites, the
# browser drivers' own test, the demo's end-to-end tests in Chromium, Firefox
# and WebKit, the packed package in throwaway consumer projects, in apps
# built by six bundlers and in hosts without the web's APIs (a React Native
# bundle on Hermes, QuickJS, a bare Node vm context), where apps are deployed
# (Bun's bundler and executables, a service worker, Vite 8), the portable suite in
# every engine (Node 20-26, Deno, Bun, the three browsers' pages and workers),
# and through the worker form in each.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
step() { # runs a step and says how long it took (npm test stays under 18 minutes on a fresh machine)
  local t=$SECONDS
  "$@"
  echo "test.sh: $* took $((SECONDS - t)) s (total $((SECONDS - started)) s)"
}
step bash scripts/setup.sh
step bash scripts/build.sh
step bash scripts/test-cpp.sh
step bash tests/fuzz/run.sh 20   # 20 s of the default 60 keeps npm test under 18 minutes on a fresh machine
step node bench/check.mjs   # every benchmark workload, checked against the oracle (the tests' reference)
step node --test tests/docs/docs.test.mjs   # docs/PERFORMANCE.md's size and the links into it
step npx tsc -p tsconfig.json
step npx jest --ci --maxWorkers=2   # both cores: on two, Jest would run its suites one by one
step node --test tests/browsers/drivers.test.mjs
step node --test tests/e2e/demo.e2e.mjs
step node --test tests/package/run.mjs
step node --test tests/package/bundlers.mjs   # webpack, rspack, Parcel, Rollup, esbuild, Vite apps in Chromium
# Hosts without the web's APIs (React Native on Hermes, QuickJS, a bare vm context) and where apps are deployed
# (tests/deploy/): a Cloudflare Worker in workerd, a Next.js app (edge and Node routes, client page), Bun's browser
# bundle and executable, a Chromium service worker, Vite 8; the five files side by side.
step node --test --test-concurrency=5 tests/hosts/run.mjs tests/deploy/edge.mjs tests/deploy/bun.mjs tests/deploy/service-worker.mjs tests/deploy/vite8.mjs
step node tests/engines/run.mjs
