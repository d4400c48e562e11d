#!/usr/bin/env bash
# Side-by-side benchmark against the SimGrid 3.32 anchor (../shared/anchors/simgrid): the same
# workloads, the same sizes, one after the other on this machine. Prints a CSV
#     workload,param,simgrid_simulated_s,parallax_simulated_s,rel_diff,simgrid_wall_s,parallax_wall_s,speedup
# wall = the whole process (start-up, parsing, simulation, output), taken with bash's
# $EPOCHREALTIME around each (no process of its own: `date +%s.%N` before and after added the
# exit of one date and the fork and exec of the next to every wall, 10-12 ms on 2026-12-06's VM,
# where /bin/true itself measured 17-19 ms that way and 5.5-7 ms this way).
#
# Needs: Debian's libsimgrid-dev, a built parallax (build/tools/parallax), python3, and the anchor's
# sources (ANCHOR=path, default ../shared/anchors/simgrid beside the checkout).
#   scenarios/bench/compare-simgrid.sh            sizes where SimGrid takes < 60 s
#   FULL=1 scenarios/bench/compare-simgrid.sh     adds ring P=4096 (~4 min of SimGrid) and random N=30000
#   PARALLAX_ONLY=1 ...                           skips SimGrid (random N=100000 is parallax-only anyway)
#   BEFORE=path/to/parallax ...                   also times another parallax binary (a baseline) in the
#                                                 same rounds: columns before_wall_s, before_speedup
#   REPEAT=3 ...                                  runs each side 3 times, alternately, and keeps each
#                                                 side's least wall (on a noisy VM one run's walls move
#                                                 by 30-50 %: docs/performance.md "Against SimGrid")
#   WORKLOADS="random" RANDOM_SIZES="5000 10000 15000" ...
#                                                 only those workloads (default: ring hybrid random) and
#                                                 those transfer counts (default: 1000 10000 20000, and
#                                                 100000 parallax-only): where the ratio moves with N
set -eu
LC_NUMERIC=C  # $EPOCHREALTIME with a point as its decimal separator
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
anchor=${ANCHOR:-$root/../shared/anchors/simgrid}
parallax=${PARALLAX:-$root/build/tools/parallax}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x "$parallax" ] || { echo "build parallax first: $parallax" >&2; exit 1; }
if [ "${PARALLAX_ONLY:-0}" != 1 ]; then
  cp "$anchor/flows.cpp" "$work/" && g++ -std=c++17 -O2 -o "$work/flows" "$work/flows.cpp" -lsimgrid
fi
GiB=1073741824; MiB=1048576

# row WORKLOAD PARAM "FLOWS ARGS" "PARALLAX ARGS" [random]
row() {
  local w=$1 p=$2 fargs=$3 pargs=$4
  local s_sim=nan s_wall=nan p_wall=inf b_wall=inf
  local t0 t1 i
  for ((i = 0; i < ${REPEAT:-1}; ++i)); do
    if [ "${PARALLAX_ONLY:-0}" != 1 ] && [ -n "$fargs" ]; then
      t0=$EPOCHREALTIME; "$work/flows" $fargs > "$work/sg.txt" 2>&1; t1=$EPOCHREALTIME
      s_sim=$(sed -n 's/^simulated_s=//p' "$work/sg.txt")
      if [ "${5:-}" = random ]; then s_sim="$s_sim/$(sed -n 's/^sum_completion_s=//p' "$work/sg.txt")"; fi
      s_wall=$(python3 -c "print(f'{min(float(\"$s_wall\".replace(\"nan\", \"inf\")), $t1-$t0):.3f}')")
    fi
    if [ -n "${BEFORE:-}" ]; then
      t0=$EPOCHREALTIME; "$BEFORE" run $pargs --out "$work/before" --quiet; t1=$EPOCHREALTIME
      b_wall=$(python3 -c "print(min(float('$b_wall'), $t1-$t0))")
    fi
    t0=$EPOCHREALTIME; "$parallax" run $pargs --out "$work/px" --quiet; t1=$EPOCHREALTIME
    p_wall=$(python3 -c "print(min(float('$p_wall'), $t1-$t0))")
  done
  local p_sim
  p_sim=$(python3 - "$work/px/summary.json" "${5:-}" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
out = f"{s['makespan_s']:.12e}"
if sys.argv[2] == "random":
    out += f"/{s['transfers']['sum_completion_s']:.12e}"
print(out)
PY
)
  python3 - "$w" "$p" "$s_sim" "$p_sim" "$s_wall" "$p_wall" "${BEFORE:+$b_wall}" <<'PY'
import sys
w, p, s_sim, p_sim, s_wall, p_wall, b_wall = sys.argv[1:]
def rel(a, b):
    try:
        return max(abs(float(x) / float(y) - 1) for x, y in zip(a.split("/"), b.split("/")))
    except ValueError:
        return float("nan")
speed = float(s_wall) / float(p_wall) if s_wall != "nan" else float("nan")
row = f"{w},{p},{s_sim},{p_sim},{rel(s_sim, p_sim):.1e},{s_wall},{float(p_wall):.3f},{speed:.1f}"
if b_wall:
    before = float(s_wall) / float(b_wall) if s_wall != "nan" else float("nan")
    row += f",{float(b_wall):.3f},{before:.1f}"
print(row)
PY
}

echo "workload,param,simgrid_simulated_s,parallax_simulated_s,rel_diff,simgrid_wall_s,parallax_wall_s,speedup${BEFORE:+,before_wall_s,before_speedup}"
wants() { [[ " ${WORKLOADS:-ring hybrid random} " == *" $1 "* ]]; }
if wants ring; then
  for P in 8 64 512 2048 ${FULL:+4096}; do
    row ring "P=$P" "ring $P $GiB" "$here/ring.yaml --set hardware.gpus=$P"
  done
fi
if wants hybrid; then
  for B in $MiB $((64 * MiB)) $GiB; do
    row hybrid "bytes=$B" "hybrid 8 $B" "$here/hybrid.yaml --set workload.collectives.0.bytes=$B --set output.trace=false --set output.activities_csv=false"
    row hybrid_shared_uplink "bytes=$B" "hybrid 8 $B shared" "$here/hybrid.yaml --set workload.collectives.0.bytes=$B --set hardware.topology.uplink.duplex=half --set output.trace=false --set output.activities_csv=false"
  done
fi
if wants random; then
  for N in ${RANDOM_SIZES:-1000 10000 20000 ${FULL:+30000} 100000}; do
    python3 "$here/random_transfers.py" "$N" 1 "$work/random_$N.csv"
    fargs="random $N 1"
    [ "$N" = 100000 ] && fargs=""   # SimGrid did not finish N=100000 in 15 min
    row random "N=$N" "$fargs" "$here/random.yaml --set workload.transfers_csv=$work/random_$N.csv" random
  done
fi
