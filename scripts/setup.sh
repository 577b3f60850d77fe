#!/usr/bin/env bash
# Installs what building and testing need, on a fresh Debian 12 machine:
# Emscripten, doctest, CMake, a C++ compiler, clang with libFuzzer, Zopfli and
# Chromium from Debian; the npm devDependencies.
# Quick when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v emcc >/dev/null 2>&1 || need+=(emscripten)
[ -f /usr/include/doctest/doctest.h ] || need+=(doctest-dev)
command -v cmake >/dev/null 2>&1 || need+=(cmake)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v make >/dev/null 2>&1 || need+=(make)
command -v zopfli >/dev/null 2>&1 || need+=(zopfli)   # the embedded wasm's compression (scripts/build-js.mjs)
[ -x /usr/bin/chromium ] || need+=(chromium)   # the demo's end-to-end tests
command -v clang++ >/dev/null 2>&1 || need+=(clang)   # the fuzzers (libFuzzer)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
if [ "${#need[@]}" -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${need[@]}"
fi

# npm devDependencies, when missing or older than the lock file.
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund
fi
