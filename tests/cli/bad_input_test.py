#!/usr/bin/env python3
"""Bad input through the `parallax` binary: each case must exit 2 with a message that names the
file (and line, where there is one), never crash (exit 1, a signal) or succeed silently. A few
inputs that look odd but are valid (CRLF, a UTF-8 BOM, Unicode labels, unordered start times)
must succeed. Two cases check scale: a transfer CSV of ROWS rows (1,000,000 by default; set
PARALLAX_SCALE_ROWS=10000000 for the 10-million-row manual check) whose last row is bad must be
refused naming that line, and a valid one of ROWS/10 rows in start order must run, each within a
fixed memory bound (100 MiB of peak RSS, whatever ROWS is).

Usage: bad_input_test.py PARALLAX_BINARY
"""
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from bounded_run import bounded_run  # noqa: E402

HEADER = "name: bad\nhardware: dgx-h100\nworkload:\n  kind: transfers\n"


def scenario_with_csv(csv_name):
    return HEADER + f"  transfers_csv: {csv_name}\n"


class Cases:
    def __init__(self, parallax, tmp):
        self.parallax, self.tmp, self.failures = parallax, Path(tmp), 0

    def write(self, name, content):
        p = self.tmp / name
        p.parent.mkdir(parents=True, exist_ok=True)
        (p.write_bytes if isinstance(content, bytes) else lambda c: p.write_bytes(c.encode()))(content)
        return p

    def run(self, args, timeout=120):
        """Runs `parallax run ARGS --quiet`; self.last_rss_mb is that process's own peak RSS."""
        r = bounded_run([self.parallax, "run", *args, "--quiet"], timeout)
        if r.returncode is None:
            raise subprocess.TimeoutExpired(["parallax", "run", *args], timeout)
        self.last_rss_mb = r.peak_rss_mib
        return subprocess.CompletedProcess(args, r.returncode, r.stdout, r.stderr)

    def expect(self, label, args, rc, pattern=None):
        try:
            r = self.run([str(a) for a in args])
        except subprocess.TimeoutExpired:
            print(f"FAIL {label}: timed out")
            self.failures += 1
            return None
        err = r.stderr.decode(errors="replace")
        ok = r.returncode == rc and (pattern is None or re.search(pattern, err))
        if rc == 2 and "\r" in err:
            ok = False
            err += " [message holds a carriage return]"
        print(f"{'ok  ' if ok else 'FAIL'} {label}: exit {r.returncode}: {err.strip()[:300]}")
        if not ok:
            print(f"     wanted exit {rc}" + (f" and stderr matching {pattern!r}" if pattern else ""))
            self.failures += 1
        return r

    def bad_yaml(self, label, name, content, pattern):
        self.expect(label, [self.write(name, content)], 2, pattern)

    def bad_csv(self, label, name, content, pattern):
        self.write(name, content)
        self.expect(label, [self.write(name + ".yaml", scenario_with_csv(name))], 2, pattern)


def bomb(levels=9, width=10):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return HEADER + "\n".join(lines) + "\n"


def main():
    parallax = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        c = Cases(parallax, tmp)
        # Empty and missing files.
        c.bad_yaml("empty scenario", "empty.yaml", "", r"empty\.yaml")
        c.bad_yaml("comments-only scenario", "comments.yaml", "# nothing\n\n", r"comments\.yaml")
        c.bad_csv("empty CSV", "empty.csv", "", r"empty\.csv")
        c.bad_csv("blank-lines CSV", "blank.csv", "\n\n  \n", r"blank\.csv")
        c.expect("missing scenario", [Path(tmp) / "no-such.yaml"], 2, r"no-such\.yaml")
        c.bad_yaml("missing CSV", "missing-csv.yaml", scenario_with_csv("no-such.csv"), r"no-such\.csv")
        # Directories given as files.
        (Path(tmp) / "adir").mkdir()
        c.expect("directory as scenario", [Path(tmp) / "adir"], 2, r"adir")
        c.bad_yaml("directory as transfers_csv", "dir-csv.yaml", scenario_with_csv("adir"), r"adir")
        # NaN, infinite, negative and huge sizes and times.
        for label, row in [("NaN bytes", "gpu0,gpu1,nan,0"), ("negative bytes", "gpu0,gpu1,-5,0"),
                           ("infinite bytes", "gpu0,gpu1,inf,0"), ("huge bytes", "gpu0,gpu1,1e30,0"),
                           ("NaN start", "gpu0,gpu1,1MiB,nan"), ("negative start", "gpu0,gpu1,1MiB,-1"),
                           ("huge start", "gpu0,gpu1,1MiB,1e300"), ("unknown node", "gpu0,gpu99,1MiB,0")]:
            name = re.sub(r"\W", "-", label) + ".csv"
            c.bad_csv(f"CSV {label}", name, "src,dst,bytes,start_s\ngpu0,gpu1,1KiB,0\n" + row + "\n",
                      re.escape(name) + r":3\b")
        for label, item in [("NaN bytes", "bytes: .nan"), ("negative bytes", "bytes: -1"),
                            ("infinite start", "bytes: 1, start_s: .inf"), ("negative start", "bytes: 1, start_s: -2"),
                            ("NaN start", "bytes: 1, start_s: .nan")]:
            name = re.sub(r"\W", "-", label) + ".yaml"
            c.bad_yaml(f"YAML {label}", name, HEADER + "  transfers:\n    - {src: gpu0, dst: gpu1, " + item + "}\n",
                       re.escape(name) + r":6:\d+")
        # Unicode and CRLF.
        c.bad_csv("CSV Unicode node name", "uni.csv", "src,dst,bytes,start_s\ngpü0,gpu1,1KiB,0\n", r"uni\.csv:2\b")
        c.bad_yaml("YAML Unicode key", "unikey.yaml", HEADER.replace("name:", "nämé:"), r"unikey\.yaml:1:1")
        c.bad_csv("CSV CRLF bad row", "crlf-bad.csv", "src,dst,bytes,start_s\r\ngpu0,gpu1,1KiB,0\r\ngpu0,gpu1,x,0\r\n",
                  r"crlf-bad\.csv:3\b")
        c.bad_yaml("YAML CRLF bad value", "crlf-bad.yaml",
                   (HEADER + "  transfers:\n    - {src: gpu0, dst: gpu1, bytes: lots}\n").replace("\n", "\r\n"),
                   r"crlf-bad\.yaml:6:\d+")
        c.bad_yaml("binary garbage", "garbage.yaml", bytes(range(256)) * 4, r"garbage\.yaml")
        c.bad_yaml("deep nesting", "deep.yaml", "a: " + "[" * 100000 + "]" * 100000 + "\n", r"deep\.yaml")
        # A YAML alias bomb: 10^9 nodes once expanded.
        c.bad_yaml("YAML alias bomb", "bomb.yaml", bomb(), r"bomb\.yaml.*expands to more than")
        # Odd but valid.
        good = "src,dst,bytes,start_s,name\n"
        c.write("crlf.csv", good.replace("\n", "\r\n") + "gpu0,gpu1,1MiB,0.5,ä→ü 漢字\r\ngpu1,gpu0,1MiB,0,x\r\n")
        c.expect("valid CSV with CRLF, Unicode label, unordered starts",
                 [c.write("crlf.yaml", scenario_with_csv("crlf.csv").replace("\n", "\r\n"))], 0)
        c.write("bom.csv", "\ufeff" + good + "gpu0,gpu1,1MiB,0,x\n")
        c.expect("valid CSV with a UTF-8 BOM", [c.write("bom.yaml", "\ufeff" + scenario_with_csv("bom.csv"))], 0)
        # Scale: ROWS rows, the last one bad.
        rows = int(os.environ.get("PARALLAX_SCALE_ROWS", "1000000"))
        big = Path(tmp) / "big.csv"
        with big.open("w") as f:
            f.write("src,dst,bytes,start_s\n")
            chunk = "".join(f"gpu{i % 8},gpu{(i + 1) % 8},{1 + i % 1000}KiB,{i % 997}.25\n" for i in range(1000))
            for _ in range(rows // 1000):
                f.write(chunk)
            f.write("gpu0,gpu1,-1,0\n")
        # The CSV is read a line at a time (sim/scenario/transfer_csv.h): memory must not grow with
        # it, so the bound is fixed, not a multiple of the file (10 million rows were 2.3 GB before).
        limit_mb = int(os.environ.get("PARALLAX_SCALE_RSS_MB", "0")) or 100
        if "ASAN_OPTIONS" in os.environ and "PARALLAX_SCALE_RSS_MB" not in os.environ:
            limit_mb *= 3  # AddressSanitizer's shadow memory and (smaller) quarantine inflate RSS
        t0 = time.monotonic()
        c.expect(f"{rows}-row CSV, last row bad", [c.write("big.yaml", scenario_with_csv("big.csv"))], 2,
                 rf"big\.csv:{rows // 1000 * 1000 + 2}\b")
        took = time.monotonic() - t0
        size_mb = big.stat().st_size / 2**20
        print(f"     {rows} rows ({size_mb:.0f} MiB): {took:.1f} s, peak RSS {c.last_rss_mb:.0f} MiB (bound {limit_mb} MiB)")
        if c.last_rss_mb > limit_mb:
            print(f"FAIL scale: peak RSS {c.last_rss_mb:.0f} MiB over {limit_mb} MiB")
            c.failures += 1
        # A valid file in start order, simulated in full: the replay holds one chunk of rows at a time.
        valid_rows = rows // 10
        with (Path(tmp) / "valid.csv").open("w") as f:
            f.write("src,dst,bytes,start_s\n")
            for i in range(valid_rows):
                f.write(f"gpu{i % 8},gpu{(i + 3) % 8},{1 + i % 1000}KiB,{i * 1e-3:.3f}\n")
        t0 = time.monotonic()
        r = c.expect(f"valid {valid_rows}-row CSV in start order, simulated", [c.write("valid.yaml", scenario_with_csv("valid.csv"))], 0)
        took = time.monotonic() - t0
        print(f"     {valid_rows} transfers simulated: {took:.1f} s, peak RSS {c.last_rss_mb:.0f} MiB (bound {limit_mb} MiB)")
        if r is not None and c.last_rss_mb > limit_mb:
            print(f"FAIL scale: peak RSS {c.last_rss_mb:.0f} MiB over {limit_mb} MiB")
            c.failures += 1
    print(f"{c.failures} failure(s)")
    sys.exit(1 if c.failures else 0)


if __name__ == "__main__":
    main()
