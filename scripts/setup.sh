#!/usr/bin/env bash
# Installs what building and testing need, on a fresh Debian 12 machine:
# Emscripten, doctest, CMake, a C++ compiler, clang with libFuzzer, Zopfli,
# Chromium, Firefox ESR, WebKitGTK's WebDriver and Xvfb, cog (WPE WebKit) and
# its WebDriver from Debian; the npm devDependencies, the engines of
# tests/engines/package.json (Node versions, Deno, Bun, puppeteer-core), the
# hosts of tests/hosts/package.json (Metro, Hermes, QuickJS), the benchmark's
# peers of bench/package.json (onnxruntime-web, which the demo's e2e tests load
# too) and the bundlers of tests/bundlers/package.json (webpack,
# rspack, Parcel, Rollup: tests/package/bundlers.mjs builds apps with them) and
# the hosts of tests/deploy/package.json (wrangler, workerd, Next.js, React:
# tests/deploy/edge.mjs deploys apps to them).
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
[ -x /usr/bin/chromium ] || need+=(chromium)   # the browser tests (tests/browsers/drivers.mjs)
[ -x /usr/bin/firefox-esr ] || need+=(firefox-esr)
command -v WebKitWebDriver >/dev/null 2>&1 || need+=(webkit2gtk-driver)
command -v Xvfb >/dev/null 2>&1 || need+=(xvfb)   # MiniBrowser has no headless mode
[ -x /usr/bin/cog ] || need+=(cog)   # WPE WebKit 2.38: an engine without SIMD128 for the tests
command -v WPEWebDriver >/dev/null 2>&1 || need+=(wpewebkit-driver)
command -v clang++ >/dev/null 2>&1 || need+=(clang)   # the fuzzers (libFuzzer)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need+=(libclang-rt-14-dev)
if [ "${#need[@]}" -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${need[@]}"
fi

# npm devDependencies, the engines', the hosts', the benchmark's, the bundlers' and Vite 8's packages, when
# missing or older than their lock files: side by side, as they do not depend on each other.
pids=()
for dir in . tests/engines tests/hosts bench tests/bundlers tests/vite8 tests/deploy; do
  if [ ! -d $dir/node_modules ] || [ $dir/package-lock.json -nt $dir/node_modules/.package-lock.json ]; then
    echo "setup: npm ci in $dir"
    npm ci --prefix $dir --no-audit --no-fund &
    pids+=($!)
  fi
done
for pid in "${pids[@]}"; do wait "$pid"; done
