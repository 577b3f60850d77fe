#!/usr/bin/env bash
# The doctest suites three ways (CMakePresets.json): in wasm (SIMD128, under
# node), in the scalar wasm fallback (under a node without SIMD128), and
# natively with ASan+UBSan (vector code through the emulated SIMD layer). The
# builds come first; the suites, each in two shards (CMakeLists.txt), then run
# side by side. Before them, no #include cycle in the C++ (the check checked
# first). The native-scalar preset runs the suite the wasm-scalar one runs over
# the same scalar kernels: it is left to run by hand (`cmake --preset
# native-scalar && cmake --build --preset native-scalar && ctest --preset
# native-scalar`), as its build cost npm test about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
node scripts/check-includes.mjs --self-test src bindings tests/cpp tests/fuzz bench
bash scripts/build-wasm.sh
cmake --preset native-sanitize >/dev/null
cmake --build --preset native-sanitize -j"$(nproc)"
logs=$(mktemp -d)
pids=()
for preset in wasm wasm-scalar native-sanitize; do
  ctest --preset $preset -j2 >"$logs/$preset.log" 2>&1 &
  pids+=($!)
done
failed=0
for i in 0 1 2; do
  wait "${pids[$i]}" || failed=1
done
for preset in wasm wasm-scalar native-sanitize; do
  echo "== ctest --preset $preset"
  cat "$logs/$preset.log"
done
rm -rf "$logs"
exit $failed
