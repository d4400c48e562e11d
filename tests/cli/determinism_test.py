#!/usr/bin/env python3
"""Determinism: one scenario and seed, run twice through `parallax run --out`, writes the same files,
byte-identical, summary.json included (activities.csv, trace.json, report.html, ...). The one file
allowed to differ is timing.json, which holds the wall-clock figures (wall_s, sim_to_wall_ratio, ...:
they measure this machine, not the simulation; docs/reliability.md); it must exist, and no other
file may carry a wall-clock key. One scenario per kind of workload.

Usage: determinism_test.py PARALLAX_BINARY SOURCE_DIR [--against OTHER_PARALLAX_BINARY]
With --against the second run of each case uses the other binary (CI: the release g++ build
against the clang ASan + UBSan build), so the check is across compilers, optimisation levels and
unity chunking, and the build identity (git_commit, parallax_version) is ignored as well.
The second run of each case also sets PARALLAX_HUGE_PAGES=0 (tools/huge_page_heap.cpp): the heap
then has other addresses and page sizes, and no output may depend on where a block was allocated.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# The transfer workload's timing.json has these (the first three cases); every run's has wall_s.
REQUIRED_TIMING_KEYS = ("wall_s", "sim_to_wall_ratio")
TRANSFER_CASES = ("quickstart", "quickstart-seed7", "random-1000")
WALL_CLOCK_KEY = re.compile(r'"(\w*wall_s|sim_to_wall_ratio|events_per_s)":')
BUILD_KEY = re.compile(r'^\s*"(git_commit|parallax_version)":')


def without(text: str, *patterns) -> str:
    """summary.json minus the lines of the given fields (the writer puts one key per line)."""
    return "\n".join(l for l in text.splitlines() if not any(p.match(l) for p in patterns))


def run(parallax, args, out, env=None):
    r = subprocess.run([parallax, "run", *args, "--out", str(out), "--quiet"],
                       capture_output=True, text=True, timeout=600, env=env)
    if r.returncode != 0:
        sys.exit(f"FAIL: {parallax} run {' '.join(args)} exited {r.returncode}: {r.stderr}")


def main():
    args = sys.argv[1:]
    other = None
    if "--against" in args:
        i = args.index("--against")
        other = args[i + 1]
        del args[i:i + 2]
    parallax, source = args[0], Path(args[1])
    second = other or parallax
    cases = {
        "quickstart": [],
        "quickstart-seed7": ["--seed", "7"],
        "random-1000": [str(source / "tests/data/reliability/random_1000.yaml")],
        "overlap-end-to-end": [str(source / "scenarios/overlap/end-to-end.yaml")],
        # The overlap grid (report.html's strategy map), cut to 48 of compass-288's configurations.
        "overlap-grid": [str(source / "scenarios/overlap/compass-288.yaml"), "--set", "workload.tp=[2, 8]",
                         "--set", "workload.hidden=[2048]", "--set", "workload.trace_config=3"],
        "serverless-2-nodes": [str(source / "scenarios/serverless/small-2nodes.yaml")],
        "colocate-bursty": [str(source / "tests/data/colocate/small-bursty.yaml")],
        "multiplex-bursty": [str(source / "tests/data/multiplex/small-bursty.yaml")],
    }
    ignored = [BUILD_KEY] if other else []
    between = f"{parallax} and {other}" if other else "two runs"
    small_pages = dict(os.environ, PARALLAX_HUGE_PAGES="0")
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, case_args in cases.items():
            a, b = Path(tmp) / name / "a", Path(tmp) / name / "b"
            run(parallax, case_args, a)
            run(second, case_args, b, small_pages)
            names_a, names_b = sorted(p.name for p in a.iterdir()), sorted(p.name for p in b.iterdir())
            if names_a != names_b:
                print(f"FAIL {name}: {between} wrote different files: {names_a} vs {names_b}")
                failures += 1
            timing = json.loads((a / "timing.json").read_text()) if (a / "timing.json").exists() else {}
            for k in ("wall_s",) + (REQUIRED_TIMING_KEYS if name in TRANSFER_CASES else ()):
                if k not in timing:
                    print(f"FAIL {name}: timing.json has no '{k}'")
                    failures += 1
            for f in names_a:
                if f == "timing.json":
                    continue  # the wall-clock figures: the one file that differs
                ta, tb = (a / f).read_bytes(), (b / f).read_bytes() if (b / f).exists() else b""
                if f.endswith(".json") and f != "trace.json" and WALL_CLOCK_KEY.search(ta.decode()):
                    print(f"FAIL {name}: {f} carries a wall-clock field (it belongs in timing.json)")
                    failures += 1
                if f == "summary.json" and ignored:
                    ta, tb = without(ta.decode(), *ignored), without(tb.decode(), *ignored)
                if ta != tb:
                    print(f"FAIL {name}: {f} differs between {between}")
                    failures += 1
                else:
                    print(f"ok   {name}: {f} identical ({(a / f).stat().st_size} bytes)")
    print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
