#!/usr/bin/env bash
# Builds the libFuzzer harnesses into build/fuzz/ (the `fuzz` preset) and runs them.
#
#   tests/fuzz/run.sh [SECONDS]     SECONDS: total fuzzing time, default 60 (two harnesses at a time)
#
# Harnesses (clang, -fsanitize=fuzzer,address,undefined):
#   fuzz_ops         onnx_ops::max / relu vs a naive reference, bit for bit
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

# The harnesses: the `fuzz` preset (CMakePresets.json; clang with libFuzzer,
# which scripts/setup.sh installs). FUZZ_CXXFLAGS goes into CMAKE_CXX_FLAGS.
cmake --preset fuzz -DCMAKE_CXX_FLAGS="${FUZZ_CXXFLAGS:-}" >"$OUT/logs/configure.log" 2>&1 ||
  { cat "$OUT/logs/configure.log" >&2; echo "run.sh: configuring the fuzz preset failed (clang and libclang-rt-14-dev: bash scripts/setup.sh)" >&2; exit 1; }
cmake --build --preset fuzz -j"$(nproc)" >"$OUT/logs/build.log" 2>&1 ||
  { cat "$OUT/logs/build.log" >&2; exit 1; }

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

# fuzz BIN CORPUS SECONDS: one harness; its summary line goes to $WORK/BIN.summary
# (harnesses run side by side, in subshells); fails when it found a crash.
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
    {
      echo "fuzz    $bin: CRASH after ${execs:-?} execs (log: build/fuzz/logs/$bin.log)"
      grep -m3 -E 'runtime error|ERROR: AddressSanitizer|ERROR: libFuzzer|FUZZ CHECK FAILED' "$log" | sed 's/^/    /'
      grep -m1 'Test unit written to' "$log" | sed 's/^/    /'
    } >"$WORK/$bin.summary"
    return 1
  fi
  echo "fuzz    $bin: ok, ${execs:-?} execs, ${rate:-?} exec/s, ${secs}s" >"$WORK/$bin.summary"
}

# Each harness is one process on one core: the vector one beside the other two.
fuzz fuzz_ops ops "$t_ops" &
p_ops=$!
{ r=0; fuzz fuzz_ops_scalar ops "$t_scalar" || r=1; fuzz fuzz_shapes shapes "$t_shapes" || r=1; exit $r; } &
p_rest=$!
wait $p_ops || failed=1
wait $p_rest || failed=1
for bin in fuzz_ops fuzz_ops_scalar fuzz_shapes; do
  [ -f "$WORK/$bin.summary" ] && SUMMARY+=("$(cat "$WORK/$bin.summary")")
done

echo
echo "== fuzz summary =="
printf '%s\n' "${SUMMARY[@]}"
exit $failed
