#!/usr/bin/env python3
"""Determinism: one scenario and seed, run twice through `parallax run --out`, writes the same files,
byte-identical (activities.csv, trace.json, report.html, ...), with summary.json identical except for
the two wall-clock fields (wall_s and sim_to_wall_ratio: they measure this machine, not the
simulation; docs/reliability.md).

Usage: determinism_test.py PARALLAX_BINARY SOURCE_DIR
"""
import subprocess
import sys
import tempfile
from pathlib import Path

WALL_CLOCK_KEYS = ("wall_s", "sim_to_wall_ratio")


def without_wall_clock(text: str) -> str:
    """summary.json minus the lines of the wall-clock fields (the writer puts one key per line)."""
    return "\n".join(l for l in text.splitlines()
                     if not any(l.strip().startswith(f'"{k}":') for k in WALL_CLOCK_KEYS))


def run(parallax, args, out):
    r = subprocess.run([parallax, "run", *args, "--out", str(out), "--quiet"],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        sys.exit(f"FAIL: parallax run {' '.join(args)} exited {r.returncode}: {r.stderr}")


def main():
    parallax, source = sys.argv[1], Path(sys.argv[2])
    cases = {
        "quickstart": [],
        "quickstart-seed7": ["--seed", "7"],
        "random-1000": [str(source / "tests/data/reliability/random_1000.yaml")],
    }
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in cases.items():
            a, b = Path(tmp) / name / "a", Path(tmp) / name / "b"
            run(parallax, args, a)
            run(parallax, args, b)
            names_a, names_b = sorted(p.name for p in a.iterdir()), sorted(p.name for p in b.iterdir())
            if names_a != names_b:
                print(f"FAIL {name}: the runs wrote different files: {names_a} vs {names_b}")
                failures += 1
            for f in names_a:
                ta, tb = (a / f).read_bytes(), (b / f).read_bytes()
                if f == "summary.json":
                    ta, tb = without_wall_clock(ta.decode()), without_wall_clock(tb.decode())
                    for k in WALL_CLOCK_KEYS:
                        if f'"{k}":' not in (a / f).read_text():
                            print(f"FAIL {name}: summary.json has no '{k}' (update WALL_CLOCK_KEYS)")
                            failures += 1
                if ta != tb:
                    print(f"FAIL {name}: {f} differs between two runs")
                    failures += 1
                else:
                    print(f"ok   {name}: {f} identical ({(a / f).stat().st_size} bytes)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
