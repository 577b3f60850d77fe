#!/usr/bin/env bash
# The doctest suites four ways (CMakePresets.json): in wasm (SIMD128, under
# node), in the scalar wasm fallback (under a node without SIMD128), natively
# with ASan+UBSan (vector code through the emulated SIMD layer), and natively
# with the scalar-only kernels. The builds come first; the suites, each one
# process on one core, then run side by side. Before them, no #include cycle
# in the C++ (the check checked first).
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/check-includes.mjs --self-test src bindings tests/cpp tests/fuzz bench
bash scripts/build-wasm.sh
for preset in native-sanitize native-scalar; do
  cmake --preset $preset >/dev/null
  cmake --build --preset $preset -j"$(nproc)"
done
logs=$(mktemp -d)
pids=()
for preset in wasm wasm-scalar native-sanitize native-scalar; do
  ctest --preset $preset >"$logs/$preset.log" 2>&1 &
  pids+=($!)
done
failed=0
for i in 0 1 2 3; do
  wait "${pids[$i]}" || failed=1
done
for preset in wasm wasm-scalar native-sanitize native-scalar; do
  echo "== ctest --preset $preset"
  cat "$logs/$preset.log"
done
rm -rf "$logs"
exit $failed
