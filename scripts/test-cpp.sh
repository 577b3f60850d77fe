#!/usr/bin/env bash
# The doctest suites three ways: in wasm (SIMD128, under node), natively with
# ASan+UBSan (vector code through the emulated SIMD layer), and natively with
# the scalar-only kernels.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-wasm.sh
(cd build/wasm && ctest --output-on-failure)
for variant in sanitize scalar; do
  dir=build/native-$variant
  if [ ! -f $dir/CMakeCache.txt ]; then
    flags=(-DONNX_OPS_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O1)
    [ $variant = scalar ] && flags+=(-DONNX_OPS_SCALAR=ON)
    cmake -S . -B $dir "${flags[@]}" >/dev/null
  fi
  cmake --build $dir -j"$(nproc)"
  (cd $dir && ctest --output-on-failure)
done
