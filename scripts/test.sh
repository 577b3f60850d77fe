#!/usr/bin/env bash
# Every test: installs what is missing, builds, then the C++ suites (wasm,
# native sanitized, native scalar) and the Jest suites.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
bash scripts/test-cpp.sh
npx tsc -p tsconfig.json
npx jest --ci
