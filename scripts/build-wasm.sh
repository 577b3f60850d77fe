#!/usr/bin/env bash
# Builds the wasm module (build/wasm/module/{cjs,esm}/onnx-ops-wasm.js) and the wasm doctest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f build/wasm/CMakeCache.txt ]; then
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
fi
cmake --build build/wasm -j"$(nproc)"
