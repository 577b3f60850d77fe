#!/usr/bin/env bash
# The whole package: wasm module, then the TypeScript API into dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-wasm.sh
node scripts/build-js.mjs
