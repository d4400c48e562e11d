#!/usr/bin/env python3
"""Hostile inputs and outputs through the `parallax` binary (issue 21, parts 2, 4 and 5;
docs/reliability.md "Bounded inputs" and "Outputs that never lie"). Every case must end within
its time bound with the exit code and message it names: exit 2 for a FIFO, a device or a
directory given as input, a file over the input limit, an over-long CSV line, a device or FIFO as
`--out`, results written to a failing stdout, a ring too large to simulate; a failed run into an
earlier result folder must leave no summary.json there.

Usage: hostile_io_test.py PARALLAX_BINARY SOURCE_DIR
"""
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from bounded_run import bounded_run  # noqa: E402

TRANSFERS = "name: t\nhardware: dgx-h100\nworkload:\n  kind: transfers\n"


class Cases:
    def __init__(self, parallax, source, tmp):
        self.parallax, self.source, self.tmp, self.failures = parallax, Path(source).resolve(), Path(tmp), 0

    def write(self, name, content):
        p = self.tmp / name
        p.write_bytes(content if isinstance(content, bytes) else content.encode())
        return p

    def run(self, args, timeout=30, stdout=None):
        """Runs parallax ARGS; returns (exit code, stderr + stdout text, peak RSS in MiB, wall s)."""
        r = bounded_run([self.parallax, *args], timeout, stdout)
        text = r.stderr.decode(errors="replace") + r.stdout.decode(errors="replace")
        return r.returncode, text, r.peak_rss_mib, r.wall_s

    def expect(self, name, args, code, needle, timeout=30, max_rss_mb=None, stdout=None):
        rc, text, rss, wall = self.run(args, timeout, stdout)
        problems = []
        if rc != code:
            problems.append(f"exit {rc}, expected {code}")
        if needle.lower() not in text.lower():
            problems.append(f"message lacks {needle!r}")
        if max_rss_mb is not None and rss > max_rss_mb:
            problems.append(f"peak RSS {rss:.0f} MiB > {max_rss_mb} MiB")
        if problems:
            self.failures += 1
            print(f"FAIL {name}: {'; '.join(problems)}\n  {text.strip()[:400]}")
        else:
            print(f"ok   {name} ({wall:.2f} s, {rss:.0f} MiB)")
        return text

    def check(self, name, condition, detail=""):
        if condition:
            print(f"ok   {name}")
        else:
            self.failures += 1
            print(f"FAIL {name} {detail}")


def inputs(c):
    fifo = c.tmp / "scenario.fifo"
    os.mkfifo(fifo)
    # Without the stat-first reader this open blocks forever (no writer ever comes).
    c.expect("FIFO as the scenario", ["run", fifo, "--quiet"], 2, "a FIFO", timeout=10)
    c.expect("/dev/zero as the scenario", ["run", "/dev/zero", "--quiet"], 2, "a character device", timeout=10,
             max_rss_mb=100)
    c.expect("a directory as the scenario", ["run", c.tmp, "--quiet"], 2, "a directory", timeout=10)
    big = c.tmp / "huge.yaml"
    with open(big, "wb") as f:  # sparse: nothing is written, the size alone is over the limit
        f.truncate(300 << 20)
    c.expect("a 300 MiB scenario", ["run", big, "--quiet"], 2, "the limit for an input file", timeout=10,
             max_rss_mb=100)
    c.expect("/dev/zero as the calibration", ["validate", c.tmp, "--calibration", "/dev/zero"], 2, "", timeout=10,
             max_rss_mb=100)
    c.expect("a FIFO as the nccl-tests log",
             ["fit", "--nccl-tests", fifo, "--hardware", "dgx-h100", "--out", c.tmp / "c.yaml"], 2, "a FIFO",
             timeout=10)
    # A 100 MB line of NUL bytes in a transfer CSV took 650 MB: now it stops at the line limit.
    csv = c.tmp / "nul.csv"
    with open(csv, "wb") as f:
        f.write(b"src,dst,bytes,start_s\n")
        for _ in range(100):  # in chunks: a child's peak RSS counts its parent's before the exec
            f.write(b"\0" * (1 << 20))
        f.write(b"\n")
    scenario = c.write("nul.yaml", TRANSFERS + "  transfers_csv: nul.csv\n")
    c.expect("a 100 MB NUL line in a transfer CSV", ["run", scenario, "--quiet"], 2, "nul.csv:2", timeout=60,
             max_rss_mb=100)
    trace_csv = c.tmp / "trace.csv"
    with open(trace_csv, "wb") as f:
        for _ in range(8):
            f.write(b"\0" * (1 << 20))
        f.write(b"\n")
    small = c.source / "scenarios/serverless/small.yaml"
    c.expect("an 8 MB line in a trace CSV",
             ["run", small, "--quiet", "--set", "workload.trace.format=azure2019", "--set",
              f"workload.trace.path={trace_csv}"], 2, "the limit for a CSV line", timeout=30, max_rss_mb=100)


def outputs(c):
    # A device or a FIFO as `fit --out` is refused before anything is read or written.
    log = c.source / "tests/data/nccl-tests/k80x4-all_reduce_perf-old.log"
    c.expect("fit --out /dev/null", ["fit", "--nccl-tests", log, "--hardware", "dgx-h100", "--out", "/dev/null"],
             2, "a character device", timeout=30)
    c.check("/dev/null is still a character device", stat.S_ISCHR(os.stat("/dev/null").st_mode))
    fifo = c.tmp / "out.fifo"
    os.mkfifo(fifo)
    c.expect("fit --out FIFO", ["fit", "--nccl-tests", log, "--hardware", "dgx-h100", "--out", fifo], 2, "a FIFO",
             timeout=10)
    c.check("the FIFO is still a FIFO", stat.S_ISFIFO(os.stat(fifo).st_mode))
    c.expect("fit --out DIR", ["fit", "--nccl-tests", log, "--hardware", "dgx-h100", "--out", c.tmp], 2,
             "a directory", timeout=30)
    # Results that cannot reach stdout are an error, not exit 0.
    if os.path.exists("/dev/full"):
        with open("/dev/full", "wb") as full:
            c.expect("run > /dev/full", ["run"], 2, "no space left on device", timeout=60, stdout=full)
            c.expect("predict > /dev/full",
                     ["predict", "collective", "--hardware", "dgx-h100", "--op", "all_reduce", "--gpus", "8",
                      "--bytes", "1GiB"], 2, "no space left on device", timeout=30, stdout=full)
    # A run into an earlier result folder that fails leaves no summary.json looking complete.
    folder = c.tmp / "result"
    rc, text, _, _ = c.run(["run", "--out", folder, "--quiet"], timeout=120)
    c.check("a first run writes summary.json", rc == 0 and (folder / "summary.json").exists(), text[:300])
    bad = c.write("bad.yaml", TRANSFERS + "  transfers: [{src: host0, dst: gpu0, bytes: -1, start_s: 0}]\n")
    c.expect("a failing run into that folder", ["run", bad, "--out", folder, "--quiet"], 2, "bad.yaml", timeout=30)
    c.check("the failed run left no summary.json", not (folder / "summary.json").exists())
    c.check("nor report.html", not (folder / "report.html").exists())
    a_file = c.write("a-file", "mine\n")
    c.expect("run --out naming a file", ["run", "--out", a_file, "--quiet"], 2, "is not a folder", timeout=30)
    c.check("that file is untouched", a_file.read_text() == "mine\n")
    c.expect("run --out under a file", ["run", "--out", str(a_file / "sub"), "--quiet"], 2,
             "cannot create the folder", timeout=30)
    c.expect("run --out where nothing can be made", ["run", "--out", "/proc/parallax-no-such-folder", "--quiet"],
             2, "cannot create the folder", timeout=30)
    sweep = c.write("s.yaml", f"base: {c.source / 'scenarios/quickstart.yaml'}\naxes: [{{cartesian: {{seed: [1, 2]}}}}]\n")
    c.expect("sweep --out naming a file", ["sweep", sweep, "--out", a_file, "--quiet"], 2, "is not a folder", timeout=30)
    c.check("that file is still untouched", a_file.read_text() == "mine\n")


def work(c):
    # A ring over 65,536 GPUs is 8.6 G hop transfers: refused at its group, with the limit.
    ring = c.write("ring.yaml", "name: r\nhardware: {preset: dgx-h100, gpus: 65536}\nworkload:\n  kind: transfers\n"
                                "  collectives: [{op: all_reduce, group: all, bytes: 1GiB, start_s: 0}]\n")
    c.expect("a ring over 65,536 GPUs", ["run", ring, "--quiet"], 2, "over the limit of 134217728", timeout=60)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        c = Cases(sys.argv[1], sys.argv[2], tmp)
        inputs(c)
        outputs(c)
        work(c)
    if c.failures:
        sys.exit(f"{c.failures} case(s) failed")
    print("all hostile I/O cases passed")


if __name__ == "__main__":
    main()
