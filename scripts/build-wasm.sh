#!/usr/bin/env bash
# Builds the wasm module (build/wasm/module/esm/onnx-ops-wasm.js) and the
# wasm doctest suite, from the `wasm` preset (CMakePresets.json).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset wasm >/dev/null
cmake --build --preset wasm -j"$(nproc)"
