#!/usr/bin/env bash
# The doctest suites three ways (CMakePresets.json): in wasm (SIMD128, under
# node), natively with ASan+UBSan (vector code through the emulated SIMD
# layer), and natively with the scalar-only kernels.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-wasm.sh
ctest --preset wasm
for preset in native-sanitize native-scalar; do
  cmake --preset $preset >/dev/null
  cmake --build --preset $preset -j"$(nproc)"
  ctest --preset $preset
done
