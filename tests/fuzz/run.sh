#!/usr/bin/env bash
# Builds the libFuzzer harnesses into build/fuzz/ and runs them.
#
#   tests/fuzz/run.sh [SECONDS]     SECONDS: total fuzzing time, default 60
#
# Harnesses (clang, -fsanitize=fuzzer,address,undefined):
#   fuzz_ops         max_forward / relu_forward vs a naive reference, bit for bit
#                    (vector kernels through the emulated SIMD layer); 1/2 of the time
#   fuzz_ops_scalar  the same with -DONNX_OPS_SCALAR (kernels without vector path); 1/4
#   fuzz_shapes      broadcast_shape / element_count / plan_broadcast on wild shapes; 1/4
#
# First every file in tests/fuzz/regressions/<harness>/ is replayed (inputs
# that crashed once). Then each harness fuzzes a temporary copy of
# tests/fuzz/corpus/<harness>/ (the repo corpus is only read). Crash inputs
# go to build/fuzz/artifacts/, logs to build/fuzz/logs/. Exit status is
# non-zero when any replay or fuzzing run found a crash.
#
# Environment: FUZZ_CXXFLAGS adds compiler flags (e.g.
# FUZZ_CXXFLAGS=-fno-sanitize=signed-integer-overflow to fuzz past a known
# overflow); FUZZ_KEEP_CORPUS=1 keeps the temporary working corpus.
set -uo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
TOTAL=${1:-60}
if ! [[ $TOTAL =~ ^[0-9]+$ ]] || [ "$TOTAL" -lt 3 ]; then
  echo "usage: tests/fuzz/run.sh [SECONDS >= 3]" >&2
  exit 2
fi
OUT=$ROOT/build/fuzz
mkdir -p "$OUT/artifacts" "$OUT/logs"

CXX=${CXX_FUZZ:-clang++}
# The toolchain: clang with the libFuzzer runtime. Installed only when missing.
have_libfuzzer() {
  command -v "$CXX" >/dev/null 2>&1 || return 1
  local t
  t=$(mktemp -d)
  printf '#include <cstdint>\n#include <cstddef>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }\n' >"$t/t.cpp"
  "$CXX" -fsanitize=fuzzer "$t/t.cpp" -o "$t/t" >/dev/null 2>&1
  local rc=$?
  rm -rf "$t"
  return $rc
}
if ! have_libfuzzer; then
  echo "run.sh: clang++ or the libFuzzer runtime is missing; installing clang libclang-rt-14-dev" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y clang libclang-rt-14-dev || { apt-get update && apt-get install -y clang libclang-rt-14-dev; } || exit 1
  CXX=clang++
  have_libfuzzer || { echo "run.sh: still no working clang++ -fsanitize=fuzzer" >&2; exit 1; }
fi

BASE_FLAGS="-std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc -Itests/cpp -Itests/fuzz ${FUZZ_CXXFLAGS:-}"
SOURCES=(src/*.h src/*.cpp tests/cpp/support.h tests/fuzz/*.h tests/fuzz/*.cpp)

# build NAME MAIN [extra flags...]: rebuilds when a source or the flags changed.
build() {
  local name=$1 main=$2
  shift 2
  local bin=$OUT/$name flags="$BASE_FLAGS $*"
  if [ -x "$bin" ] && [ "$(cat "$bin.flags" 2>/dev/null)" = "$flags" ] &&
     [ -z "$(find "${SOURCES[@]}" -newer "$bin" 2>/dev/null | head -1)" ]; then
    return 0
  fi
  echo "run.sh: building $name"
  # shellcheck disable=SC2086
  if ! $CXX $flags src/broadcast.cpp src/ops.cpp "$main" -o "$bin" >"$OUT/logs/$name.build.log" 2>&1; then
    cat "$OUT/logs/$name.build.log" >&2
    return 1
  fi
  echo "$flags" >"$bin.flags"
}

build fuzz_ops tests/fuzz/fuzz_ops.cpp &
p1=$!
build fuzz_shapes tests/fuzz/fuzz_shapes.cpp &
p2=$!
wait $p1 || exit 1
wait $p2 || exit 1
build fuzz_ops_scalar tests/fuzz/fuzz_ops.cpp -DONNX_OPS_SCALAR || exit 1

failed=0
declare -a SUMMARY

# ---- regressions ---------------------------------------------------------------
for h in ops shapes; do
  dir=tests/fuzz/regressions/$h
  [ -d "$dir" ] || continue
  for f in "$dir"/*; do
    [ -f "$f" ] || continue
    bins=("fuzz_$h")
    [ $h = ops ] && bins+=(fuzz_ops_scalar)
    for b in "${bins[@]}"; do
      if "$OUT/$b" "$f" >"$OUT/logs/replay-$b-$(basename "$f").log" 2>&1; then
        SUMMARY+=("replay  $b $(basename "$f"): ok")
      else
        failed=1
        SUMMARY+=("replay  $b $(basename "$f"): CRASH (log: build/fuzz/logs/replay-$b-$(basename "$f").log)")
        grep -m3 -E 'runtime error|ERROR: AddressSanitizer|FUZZ CHECK FAILED' \
          "$OUT/logs/replay-$b-$(basename "$f").log" | sed 's/^/    /'
      fi
    done
  done
done

# ---- fuzzing -----------------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/onnx-ops-fuzz.XXXXXX")
cleanup() { [ "${FUZZ_KEEP_CORPUS:-0}" = 1 ] && echo "run.sh: working corpus kept in $WORK" || rm -rf "$WORK"; }
trap cleanup EXIT

t_ops=$((TOTAL / 2))
t_scalar=$((TOTAL / 4))
t_shapes=$((TOTAL - t_ops - t_scalar))

fuzz() {
  local bin=$1 corpus=$2 secs=$3
  [ "$secs" -ge 1 ] || return 0
  mkdir -p "$WORK/$bin"
  local log=$OUT/logs/$bin.log
  echo "run.sh: fuzzing $bin for ${secs}s"
  "$OUT/$bin" "$WORK/$bin" "tests/fuzz/corpus/$corpus" \
    -max_total_time="$secs" -timeout=20 -rss_limit_mb=2560 -max_len=4096 -print_final_stats=1 \
    -artifact_prefix="$OUT/artifacts/$bin-" >"$log" 2>&1
  local rc=$?
  local execs rate
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  if [ $rc -ne 0 ]; then
    failed=1
    SUMMARY+=("fuzz    $bin: CRASH after ${execs:-?} execs (log: build/fuzz/logs/$bin.log)")
    grep -m3 -E 'runtime error|ERROR: AddressSanitizer|ERROR: libFuzzer|FUZZ CHECK FAILED' "$log" | sed 's/^/    /'
    grep -m1 'Test unit written to' "$log" | sed 's/^/    /'
  else
    SUMMARY+=("fuzz    $bin: ok, ${execs:-?} execs, ${rate:-?} exec/s, ${secs}s")
  fi
}

fuzz fuzz_ops ops "$t_ops"
fuzz fuzz_ops_scalar ops "$t_scalar"
fuzz fuzz_shapes shapes "$t_shapes"

echo
echo "== fuzz summary =="
printf '%s\n' "${SUMMARY[@]}"
exit $failed
