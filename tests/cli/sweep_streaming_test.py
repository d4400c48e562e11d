#!/usr/bin/env python3
"""Sweeps stream their points (issue 21): a sweep of 9.99 million points (two cartesian axes of
3,000 and 3,330 values on scenarios/quickstart.yaml; the cap is 10 million) is listed with
`--list | head -3`, and a `--shard` holding five of its points runs them and is resumed, each
within a time and a peak-RSS bound. Materialising every point as strings took several GB and died of bad_alloc before
writing anything; a point is now computed from the axes when it is needed (docs/sweeps.md,
"Memory"). The RSS is the children's peak (resource.getrusage(RUSAGE_CHILDREN).ru_maxrss), so each
measured command runs in its own fresh Python child that reports its own child's peak.

Usage: sweep_streaming_test.py PARALLAX_BINARY SOURCE_ROOT
"""
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

A, B = 3000, 3330
# Generous for a loaded 2-core machine; the streaming sweep needs about 1/50 of the RSS bound.
RSS_LIMIT_MIB = 200
TIME_LIMIT_S = 120

# Runs argv (optionally piped into `head -3`) in a child process and prints, as JSON, its exit
# status, stdout and the peak RSS of the processes it waited for.
MEASURE = r"""
import json, resource, subprocess, sys
argv, head = json.loads(sys.argv[1]), sys.argv[2] == "head"
if head:
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    h = subprocess.run(["head", "-3"], stdin=p.stdout, capture_output=True)
    p.stdout.close()
    err = p.stderr.read()
    rc = p.wait()
    out = h.stdout
else:
    r = subprocess.run(argv, capture_output=True)
    rc, out, err = r.returncode, r.stdout, r.stderr
print(json.dumps({"rc": rc, "out": out.decode(), "err": err.decode(),
                  "maxrss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def measured(argv, head=False):
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-c", MEASURE, json.dumps([str(a) for a in argv]),
                        "head" if head else "all"], capture_output=True, timeout=TIME_LIMIT_S * 2)
    wall = time.monotonic() - t0
    if r.returncode != 0:
        sys.exit(f"FAIL: the measuring child failed: {r.stderr.decode()}")
    result = json.loads(r.stdout)
    result["wall_s"] = wall
    return result


def check_bounds(what, r):
    rss_mib = r["maxrss_kib"] / 1024
    print(f"{what}: exit {r['rc']}, {r['wall_s']:.2f} s, peak RSS {rss_mib:.1f} MiB")
    failures = 0
    if "bad_alloc" in r["err"] or "internal error" in r["err"]:
        print(f"FAIL: {what}: {r['err']}")
        failures += 1
    if rss_mib > RSS_LIMIT_MIB:
        print(f"FAIL: {what}: peak RSS {rss_mib:.1f} MiB over {RSS_LIMIT_MIB} MiB")
        failures += 1
    if r["wall_s"] > TIME_LIMIT_S:
        print(f"FAIL: {what}: {r['wall_s']:.1f} s over {TIME_LIMIT_S} s")
        failures += 1
    return failures


def main():
    parallax, src = Path(sys.argv[1]), Path(sys.argv[2])
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        sweep = Path(tmp) / "huge.yaml"
        a = ", ".join(str(1000 + i) for i in range(A))
        b = ", ".join(str(1000 + i) for i in range(B))
        sweep.write_text(f"base: {src / 'scenarios/quickstart.yaml'}\n"
                         "set: {output.activities_csv: false}\n"
                         f"axes:\n  - cartesian: {{workload.transfers.0.bytes: [{a}]}}\n"
                         f"  - cartesian: {{workload.transfers.1.bytes: [{b}]}}\n")

        r = measured([parallax, "sweep", sweep, "--list"], head=True)
        failures += check_bounds("--list | head -3", r)
        lines = r["out"].splitlines()
        expected = [(0, 1000, 1000), (1, 1000, 1001), (2, 1000, 1002)]
        if len(lines) != 3:
            print(f"FAIL: --list printed {lines!r}")
            failures += 1
        for line, (index, x, y) in zip(lines, expected):
            fields = line.split(" ")
            want = [str(index), None, "output.activities_csv=false", f"workload.transfers.0.bytes={x}",
                    f"workload.transfers.1.bytes={y}"]
            if len(fields) != 5 or len(fields[1]) != 16 or [f for i, f in enumerate(fields) if i != 1] != \
                    [w for i, w in enumerate(want) if i != 1]:
                print(f"FAIL: --list line {line!r}, expected index {index} with bytes {x}, {y}")
                failures += 1

        # Shard 0 of 2,000,000 holds points 0, 2M, 4M, 6M and 8M: it runs them and writes the folder.
        out = Path(tmp) / "out"
        r = measured([parallax, "sweep", sweep, "--shard", "0/2000000", "--out", out, "-j", "2", "--quiet"])
        failures += check_bounds("--shard 0/2000000 (5 points)", r)
        if r["rc"] != 0:
            print(f"FAIL: the shard exited {r['rc']}: {r['err']}")
            failures += 1
        else:
            rows = (out / "results.csv").read_text().splitlines()
            points = [int(row.split(",")[0]) for row in rows[1:]]
            if points != [0, 2_000_000, 4_000_000, 6_000_000, 8_000_000]:
                print(f"FAIL: the shard ran points {points}")
                failures += 1
            meta = json.loads((out / "sweep.json").read_text())
            if meta["points"] != A * B or meta["shard"] != "0/2000000":
                print(f"FAIL: sweep.json says {meta}")
                failures += 1
            # Point 2,000,000 is a = 1000 + 2000000 // 3330, b = 1000 + 2000000 % 3330.
            row = dict(zip(rows[0].split(","), rows[2].split(",")))
            if (row["workload.transfers.0.bytes"], row["workload.transfers.1.bytes"]) != \
                    (str(1000 + 2_000_000 // B), str(1000 + 2_000_000 % B)):
                print(f"FAIL: point 2000000's axes are {row}")
                failures += 1

        # Resumed: the 5 finished points are placed in the plan (one pass over its hashes) and skipped.
        r = measured([parallax, "sweep", sweep, "--shard", "0/2000000", "--out", out, "-j", "2"])
        failures += check_bounds("the shard resumed", r)
        if r["rc"] != 0 or "5 done before, 0 to run" not in r["err"]:
            print(f"FAIL: the resumed shard: exit {r['rc']}: {r['err']}")
            failures += 1
    if failures:
        sys.exit(f"{failures} failures")
    print("ok")


if __name__ == "__main__":
    main()
