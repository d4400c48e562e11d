#!/usr/bin/env bash
# File: tools/device-check.sh
# The hardware check for a session that is lent the GPU machine (one H200, CUDA 13; no apt, no
# network, no Debian yaml-cpp/fmt/CLI11 there). It runs a `parallax` binary built HERE and
# carried over (tools/build-device-binary.sh: static yaml-cpp, fmt (tools/fmt_library.cpp),
# libstdc++ and cudart; at run time it needs only glibc, and dlopens libcublasLt.so.13 from the
# machine's CUDA toolkit). Steps, within 8 minutes in total:
#   1. preflight: the binary starts, its shared libraries resolve, `parallax hw info`
#   2. `parallax hw calibrate --out $OUT/calibration` (the whole sweep; --quick for a short one)
#   3. `parallax fit $OUT/calibration --out $OUT/calibration.yaml`
#   4. `parallax validate $OUT/calibration`
#   5. $OUT/summary.md: versions, GPU, the calibration summary, the fit and validation tables,
#      each step's exit code and seconds.
# Every step runs under `timeout` so one hung step cannot eat the device time; later steps still
# run if an earlier one failed (the summary says which failed). docs/hardware.md tells how to
# commit the results under results/hw/<gpu>/<date>/.
#
# Usage: tools/device-check.sh [--dry-run] [--quick] [--bin PATH] [--out DIR]
#   --dry-run  print the plan (steps, commands, the sweep's cases and time estimate) and check
#              what can be checked without a GPU; measure nothing. Works on any machine.
#   --bin      the parallax binary (default: $PARALLAX_BIN, else build-device/tools/parallax)
#   --out      where results go (default: $OUT, else ./device-check-out)
# Exit code: 0 when every step succeeded, 1 when one failed, 2 on bad usage.
set -u -o pipefail

dry_run=0
quick=""
bin="${PARALLAX_BIN:-}"
out="${OUT:-./device-check-out}"
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1 ;;
    --quick) quick="--quick" ;;
    --bin) bin="${2:?--bin needs a path}"; shift ;;
    --out) out="${2:?--out needs a folder}"; shift ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "device-check.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
here="$(cd "$(dirname "$0")/.." && pwd)"
[ -n "$bin" ] || bin="$here/build-device/tools/parallax"
if [ ! -x "$bin" ]; then
  echo "device-check.sh: no parallax binary at $bin (build it with tools/build-device-binary.sh)" >&2
  exit 2
fi

# Time limits (seconds) of each step; their sum stays under 8 minutes.
t_info=60
t_calibrate=330
t_fit=30
t_validate=60

# The toolkit's libraries (cuBLASLt) are dlopen'ed by soname or from /usr/local/cuda/lib64.
export LD_LIBRARY_PATH="${CUDA_HOME:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

cal="$out/calibration"
steps=(
  "info|$t_info|$bin hw info"
  "calibrate|$t_calibrate|$bin hw calibrate --out $cal $quick"
  "fit|$t_fit|$bin fit $cal --out $out/calibration.yaml"
  "validate|$t_validate|$bin validate $cal"
)

if [ "$dry_run" = 1 ]; then
  echo "device-check plan (dry run; nothing is measured)"
  echo "binary: $bin"
  "$bin" --version || { echo "device-check.sh: the binary does not start" >&2; exit 1; }
  missing="$(ldd "$bin" 2>/dev/null | grep 'not found' || true)"
  [ -z "$missing" ] && echo "shared libraries: all resolve" || echo "shared libraries missing here: $missing"
  total=0
  for s in "${steps[@]}"; do
    IFS='|' read -r name limit cmd <<<"$s"
    total=$((total + limit))
    printf '  %-10s timeout %4ss  %s\n' "$name" "$limit" "$cmd"
  done
  echo "  total limit ${total}s (budget 480s)"
  echo "sweep plan:"
  "$bin" hw calibrate --dry-run $quick | sed 's/^/  /'
  exit 0
fi

mkdir -p "$out"
summary="$out/summary.md"
failed=0
{
  echo "# parallax device check"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- binary: $("$bin" --version 2>&1)"
  echo "- host: $(uname -srm)"
  command -v nvidia-smi >/dev/null && echo "- nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader 2>&1 | head -1)"
  echo
  echo "| step | exit | seconds | command |"
  echo "|---|---|---|---|"
} > "$summary"
for s in "${steps[@]}"; do
  IFS='|' read -r name limit cmd <<<"$s"
  echo "== $name: $cmd (limit ${limit}s)"
  t0=$(date +%s)
  # shellcheck disable=SC2086  # the command is split into words on purpose
  timeout --kill-after=10 "$limit" $cmd > "$out/$name.log" 2>&1
  rc=$?
  t1=$(date +%s)
  tail -n 20 "$out/$name.log"
  [ "$rc" = 0 ] || failed=1
  [ "$rc" = 124 ] && echo "== $name timed out after ${limit}s"
  echo "| $name | $rc | $((t1 - t0)) | \`$cmd\` |" >> "$summary"
done
{
  echo
  echo "## GPU"
  echo '```'
  cat "$out/info.log"
  echo '```'
  echo
  echo "## Calibration summary"
  echo '```'
  cat "$cal/summary.txt" 2>/dev/null || echo "(no summary: see calibrate.log)"
  echo '```'
  [ -f "$cal/failures.txt" ] && { echo; echo "## Failed cases"; echo '```'; cat "$cal/failures.txt"; echo '```'; }
  echo
  echo "## Fit"
  echo '```'
  tail -n 40 "$out/fit.log"
  echo '```'
  echo
  echo "## Validation"
  echo '```'
  tail -n 60 "$out/validate.log"
  echo '```'
} >> "$summary"
echo "== summary: $summary"
exit $failed
