#!/usr/bin/env bash
# Builds the wasm modules and their doctest suites from the `wasm` and
# `wasm-scalar` presets (CMakePresets.json): build/wasm/module/esm/ (SIMD128)
# and build/wasm-scalar/module/esm/ (the fallback for engines without it).
set -euo pipefail
cd "$(dirname "$0")/.."
for preset in wasm wasm-scalar; do
  cmake --preset $preset >/dev/null
  cmake --build --preset $preset -j"$(nproc)"
done
