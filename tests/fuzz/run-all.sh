#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each and prints one line per target with its executions.
# Usage: tests/fuzz/run-all.sh SECONDS [BUILD_DIR] [TARGET...]
#   BUILD_DIR defaults to build-fuzz; it is set up with clang++-14 and -Dfuzz=true when missing.
#   PARALLAX_FUZZ_JOBS targets run at once (default 1; CI uses one per core). The lines come out
#   in target order whatever the order the targets finish in.
#   The seed corpus (tests/fuzz/corpus/TARGET) is copied to a scratch folder first; a crash or hang
#   leaves its input in $PARALLAX_FUZZ_OUT (default: a temporary folder), named after the target.
# Exit 0 when no target found anything; 1 otherwise (the failing targets are listed).
set -u
cd "$(dirname "$0")/../.."
seconds=${1:?usage: tests/fuzz/run-all.sh SECONDS [BUILD_DIR] [TARGET...]}
build=${2:-build-fuzz}
shift $(( $# >= 2 ? 2 : 1 ))
if [ ! -f "$build/build.ninja" ]; then
  CXX=${CXX_FUZZ:-clang++-14} meson setup "$build" -Dfuzz=true -Dtests=false -Dbenchmarks=false \
      -Dcuda=disabled -Db_sanitize=address,undefined -Dbuildtype=debugoptimized -Db_lundef=false || exit 1
fi
ninja -C "$build" $(for t in "$@"; do echo "tests/fuzz/fuzz_$t"; done) > "$build/fuzz-ninja.log" 2>&1 \
  || { tail -30 "$build/fuzz-ninja.log"; exit 1; }
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for d in tests/fuzz/corpus/*/; do targets+=("$(basename "$d")"); done
fi
out=${PARALLAX_FUZZ_OUT:-$(mktemp -d -t parallax-fuzz.XXXXXX)}
mkdir -p "$out"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
jobs=${PARALLAX_FUZZ_JOBS:-1}
# One target: its result line goes to $out/$t.result (a crash's details after it).
fuzz_one() {
  local t=$1 work="$out/$1.corpus"
  mkdir -p "$work"
  cp tests/fuzz/corpus/"$t"/* "$work"/ 2>/dev/null
  rm -f "$work/README.md"
  # -timeout: one input running past 10 s is a hang; -rss_limit_mb: bounded memory is a requirement.
  "$build/tests/fuzz/fuzz_$t" "$work" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=8192 -print_final_stats=1 -artifact_prefix="$out/$t-" > "$out/$t.log" 2>&1
  local rc=$? execs
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log" | tail -1)
  if [ $rc -eq 0 ]; then
    echo "fuzz $t: ${execs:-?} executions in ${seconds} s, nothing found" > "$out/$t.result"
  else
    { echo "fuzz $t: FOUND something after ${execs:-?} executions (exit $rc); log $out/$t.log"
      grep -E "ERROR|SUMMARY|Test unit written|uncaught|what\(\)" "$out/$t.log" | head -8; } > "$out/$t.result"
  fi
}
for t in "${targets[@]}"; do
  rm -f "$out/$t.result"
  fuzz_one "$t" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
done
wait
failed=()
for t in "${targets[@]}"; do
  if [ -f "$out/$t.result" ]; then cat "$out/$t.result"; else echo "fuzz $t: FOUND no result (the run did not finish)"; fi
  grep -q "nothing found$" "$out/$t.result" 2>/dev/null || failed+=("$t")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]} (inputs in $out)"
  exit 1
fi
