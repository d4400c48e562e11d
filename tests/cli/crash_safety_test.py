#!/usr/bin/env python3
"""Nothing lost on a crash: `parallax run --out DIR` killed with SIGKILL at any moment leaves, under
each result name (summary.json, activities.csv, trace.json, report.html), either nothing or the
complete file;
only temporary files (NAME.tmp.PID) may be partial. The run is deterministic, so "complete" is
checked exactly: every result file present after a kill equals the one of an uninterrupted run
(summary.json included; timing.json, the wall-clock figures, must be whole JSON when present). Kills land at delays spread over one run's length,
into a fresh folder and into one that already holds a complete result; a final rerun into the
killed folder must complete and match, and remove the temporaries killed runs left there (and
nothing else: a file of the user's that merely looks alike stays).

Usage: crash_safety_test.py PARALLAX_BINARY SCENARIO [KILLS]
"""
import os
import json
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = ("summary.json", "activities.csv", "trace.json", "report.html")
# Written atomically too, just before summary.json, but its wall-clock figures differ per run: when
# present it must be whole JSON with wall_s, never compared with the reference.
TIMING = "timing.json"
TEMP = re.compile(r"^(summary\.json|activities\.csv|trace\.json|report\.html|timing\.json)\.tmp\.\d+$")


def normalized(path: Path) -> bytes:
    # Every result file is byte-identical for one seed (wall-clock figures are in timing.json).
    return path.read_bytes()


def start(parallax, scenario, out):
    return subprocess.Popen([parallax, "run", scenario, "--out", str(out), "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def main():
    parallax, scenario = sys.argv[1], sys.argv[2]
    kills = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        ref = Path(tmp) / "ref"
        t0 = time.monotonic()
        p = start(parallax, scenario, ref)
        _, err = p.communicate(timeout=600)
        length = time.monotonic() - t0
        if p.returncode != 0:
            sys.exit(f"FAIL: the reference run exited {p.returncode}: {err.decode()}")
        reference = {name: normalized(ref / name) for name in RESULTS}
        print(f"reference run: {length:.2f} s, " + ", ".join(f"{n} {len(b)} bytes" for n, b in reference.items()))

        states = {}
        for k in range(kills):
            out = Path(tmp) / ("fresh%d" % k if k % 2 == 0 else "reused")
            delay = length * (k + 0.5) / kills
            p = start(parallax, scenario, out)
            time.sleep(delay)
            p.send_signal(signal.SIGKILL)
            p.wait()
            present = sorted(f.name for f in out.iterdir()) if out.exists() else []
            state = []
            for name in present:
                if name in RESULTS:
                    if normalized(out / name) != reference[name]:
                        print(f"FAIL kill {k} at {delay:.3f} s: {name} is present but not complete")
                        failures += 1
                    state.append(name)
                elif name == TIMING:
                    try:
                        whole = "wall_s" in json.loads((out / name).read_text())
                    except ValueError:
                        whole = False
                    if not whole:
                        print(f"FAIL kill {k} at {delay:.3f} s: {name} is present but not complete")
                        failures += 1
                    state.append(name)
                elif TEMP.match(name):
                    state.append("tmp")  # left for the next run into this folder to remove
                else:
                    print(f"FAIL kill {k}: unexpected file {name}")
                    failures += 1
            key = "+".join(sorted(set(state))) or "(empty)"
            states[key] = states.get(key, 0) + 1
            if p.returncode != -signal.SIGKILL:  # finished before the kill: complete by construction
                states["finished before the kill"] = states.get("finished before the kill", 0) + 1
        print("states seen after kills: " + ", ".join(f"{k}: {v}" for k, v in sorted(states.items())))

        out = Path(tmp) / "reused"
        out.mkdir(exist_ok=True)
        (out / "trace.json.tmp.99999").write_text("[")  # as a killed run leaves it, in case no kill did
        (out / "notes.tmp.txt").write_text("the user's")
        leftovers = sorted(f.name for f in out.iterdir() if TEMP.match(f.name))
        p = start(parallax, scenario, out)
        _, err = p.communicate(timeout=600)
        if p.returncode != 0:
            print(f"FAIL: the rerun exited {p.returncode}: {err.decode()}")
            failures += 1
        for name in RESULTS:
            if not (out / name).exists() or normalized(out / name) != reference[name]:
                print(f"FAIL: after the rerun {name} differs from the reference")
                failures += 1
        left = sorted(f.name for f in out.iterdir())
        if left != sorted(RESULTS + (TIMING, "notes.tmp.txt")):
            print(f"FAIL: after the rerun the folder holds {left}")
            failures += 1
        else:
            print(f"ok   the rerun removed {len(leftovers)} leftover temporaries ({', '.join(leftovers)}), kept notes.tmp.txt")
    print(f"{failures} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
