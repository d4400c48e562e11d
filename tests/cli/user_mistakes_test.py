#!/usr/bin/env python3
"""User mistakes through the `parallax` binary: every class of bad input issue 21 found ending in
"internal error" (exit 1), a wrapped clock or a hang must exit 2 with a message naming the key and
file:line:col (scenario values), the file and line (data files) or the flag (command line), and
never print "internal error". The classes: times, rates and sizes past the clock's range
(sim/scenario/input_limits.h), arrival processes that draw nothing or without end, collectives
over one GPU, fits from too few rows or from absurd measurements, and numeric flags out of range
(negative seeds and counts) on every subcommand that takes one.

Usage: user_mistakes_test.py PARALLAX_BINARY SOURCE_DIR
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# Scenario templates; a case replaces one "KEY: VALUE" text with its own, so the value sits in a
# file and the message must name that file, line and column.
LINKS = """name: links
hardware:
  gpu: {sms: 132, peak_tflops: 989, hbm_GBps: 3350, memory_GiB: 80, kernel_launch_us: 1}
  gpus: 2
  hosts: 0
  links:
    - {a: gpu0, b: gpu1, GBps: 100, latency_us: 1}
workload:
  kind: transfers
  transfers:
    - {src: gpu0, dst: gpu1, bytes: 1GiB, start_s: 0}
  collectives:
    - {op: all_reduce, group: all, bytes: 1MiB}
"""
COLOCATE = """name: colocate
hardware: {preset: h200x1, gpu: {kernel_launch_us: 3, peak_tflops: 989}}
workload:
  kind: colocate
  ls: {model: resnet50, batch: 8, slo_ms: 0.65, arrivals: {kind: poisson, rate_per_s: 1000}}
  be: {model: resnet152, batch: 64}
  duration_s: 2
  policies: [mps]
"""
MULTIPLEX = """name: multiplex
hardware: h200x1
workload:
  kind: multiplex
  duration_s: 2
  services:
    - {name: a, model: resnet50, max_batch: 32, timeout_ms: 1, slo_ms: 4, arrivals: {kind: gamma, rate_per_s: 1000, cv: 4}}
    - {name: b, model: bert_base, max_batch: 16, timeout_ms: 1, slo_ms: 6,
       arrivals: {kind: mmpp, rate_on_per_s: 2400, rate_off_per_s: 200, mean_on_s: 0.02, mean_off_s: 0.08}}
  policies: [elastic]
  elastic_resize_cost_us: 0
"""
OVERLAP = """name: overlap
hardware: {preset: a6000x8-nvlink-pairs, gpu: {peak_tflops: 150}}
workload:
  kind: overlap
  ops: [gemm_ar]
  tp: [2]
  hidden: [4096]
  tokens: [8192]
  layers: [fc1]
"""
OVERLAP_E2E = """name: overlap-e2e
hardware: a6000x8-nvlink-pairs
workload:
  kind: overlap
  mode: end_to_end
  tp: [2]
  seq_len: 2048
  micro_batch: 2
  models: [{name: big, hidden: 1048576, heads: 16, layers: 1}]
"""

NCCL_HEADER = """# nccl-tests all_reduce_perf
#  Rank  0 Group  0 Pid 1 on host device  0 [0x00] NVIDIA H200
#  Rank  1 Group  0 Pid 1 on host device  1 [0x00] NVIDIA H200
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
"""

MEASUREMENT_HEADER = ("family,case,config,value,unit,reps,stdev,gpu_name,sm_count,driver,cuda,sm_clock_mhz,"
                      "mem_clock_mhz,date,git_commit\n")
MEASUREMENT_TAIL = ",s,50,1.1e-06,NVIDIA H200,132,550.54.15,12.4,1980,2619,2026-11-30T08:00:00Z,cc6c272\n"


def main():
    parallax, src = sys.argv[1], Path(sys.argv[2])
    failures = 0
    tmp = Path(tempfile.mkdtemp(prefix="parallax-mistakes-"))
    links = tmp / "links.yaml"
    links.write_text(LINKS)

    def at(path):  # file:line:col of a scenario value
        return re.escape(str(path)) + r":\d+:\d+: "

    def expect(label, args, pattern, timeout=60):
        nonlocal failures
        try:
            r = subprocess.run([parallax, *map(str, args)], capture_output=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            print(f"FAIL {label}: no answer within {timeout} s")
            failures += 1
            return
        err = r.stderr.decode(errors="replace")
        ok = r.returncode == 2 and re.search(pattern, err) and "internal error" not in err
        print(f"{'ok  ' if ok else 'FAIL'} {label}: exit {r.returncode}: {err.strip()[-300:]}")
        if not ok:
            print(f"     wanted exit 2, stderr matching {pattern!r}, no 'internal error'")
            failures += 1

    count = [0]

    def scenario(label, template, edits, key, where=None):
        """Writes TEMPLATE with each (old, new) text of EDITS replaced; the run must name KEY there
        (or in the file WHERE)."""
        text = template
        for old, new in edits:
            assert old in text, (label, old)
            text = text.replace(old, new, 1)
        count[0] += 1
        path = tmp / f"case{count[0]}.yaml"
        path.write_text(text)
        expect(label, ["run", path, "--quiet"], at(where or path) + r".*'" + re.escape(key) + r"'")

    # 1. Times, rates and sizes past what the clock holds over a run.
    lat, gbps = "latency_us: 1}", "GBps: 100,"
    scenario("link latency 1e13 us", LINKS, [(lat, "latency_us: 1e13}")], "hardware.links.0.latency_us")
    scenario("link GBps 1e308", LINKS, [(gbps, "GBps: 1e308,")], "hardware.links.0.GBps")
    scenario("link GBps 1e-300", LINKS, [(gbps, "GBps: 1e-300,")], "hardware.links.0.GBps")
    scenario("8e18 bytes over a 1 kB/s link", LINKS, [(gbps, "GBps: 1e-6,"), ("bytes: 1GiB", "bytes: 8e18")],
             "workload.transfers.0")
    # A ring whose neighbours sit at the two ends of a line of 3000 switches 1 s apart: each step
    # crosses 3001 s of latency, 1398 steps one after another.
    line = ["name: line", "hardware:", "  gpu: {sms: 132, peak_tflops: 989, hbm_GBps: 3350, memory_GiB: 80}",
            "  gpus: 700", "  hosts: 0", "  switches:"]
    line += [f"    - {{name: s{i}, kind: network_switch}}" for i in range(3000)]
    line += ["  links:"] + [f"    - {{a: s{i}, b: s{i + 1}, GBps: 100, latency_us: 1e6}}" for i in range(2999)]
    line += [f"    - {{a: gpu{g}, b: s{0 if g % 2 == 0 else 2999}, GBps: 100, latency_us: 0}}" for g in range(700)]
    line += ["workload:", "  kind: transfers", "  collectives:", "    - {op: all_reduce, group: all, bytes: 1MiB}", ""]
    scenario("ring latency x steps", "\n".join(line), [], "workload.collectives.0")
    scenario("start_s 1e7", LINKS, [("start_s: 0", "start_s: 1e7")], "workload.transfers.0.start_s")
    scenario("kernel launch 1e13 us", LINKS, [("kernel_launch_us: 1", "kernel_launch_us: 1e13")],
             "hardware.gpu.kernel_launch_us")
    scenario("peak_tflops 1e-300", COLOCATE, [("peak_tflops: 989", "peak_tflops: 1e-300")], "hardware.gpu.peak_tflops")
    scenario("colocate duration 1e7 s", COLOCATE, [("duration_s: 2", "duration_s: 1e7")], "workload.duration_s")
    scenario("multiplex duration 1e7 s", MULTIPLEX, [("duration_s: 2", "duration_s: 1e7")], "workload.duration_s")
    scenario("resize cost 1e13 us", MULTIPLEX, [("resize_cost_us: 0", "resize_cost_us: 1e13")],
             "workload.elastic_resize_cost_us")
    scenario("resize cost x requests", MULTIPLEX, [("resize_cost_us: 0", "resize_cost_us: 1e6"),
                                                   ("duration_s: 2", "duration_s: 10000")],
             "workload.elastic_resize_cost_us")
    # Per kernel: 10 s of these two services is ~34,000 requests of ~170 kernels each; at 1 s a resize
    # that passes the clock, though one resize per request (the old count) would have fitted.
    scenario("resize cost x kernels", MULTIPLEX, [("resize_cost_us: 0", "resize_cost_us: 1e6"),
                                                  ("duration_s: 2", "duration_s: 10")],
             "workload.elastic_resize_cost_us")
    scenario("slo 1e13 ms", MULTIPLEX, [("slo_ms: 4", "slo_ms: 1e13")], "workload.services.0.slo_ms")
    # Arrival processes that draw nothing, or without end, per simulated second.
    scenario("mmpp sojourns 1e-300 s", MULTIPLEX, [("duration_s: 2", "duration_s: 1e-6"),
                                                   ("mean_on_s: 0.02", "mean_on_s: 1e-300")],
             "workload.services.1.arrivals.mean_on_s")
    scenario("poisson 1e308/s", COLOCATE, [("rate_per_s: 1000", "rate_per_s: 1e308")], "workload.ls.arrivals.rate_per_s")
    scenario("poisson 1e-300/s", COLOCATE, [("rate_per_s: 1000", "rate_per_s: 1e-300")],
             "workload.ls.arrivals.rate_per_s")
    scenario("1e9/s over 1e6 s", COLOCATE, [("rate_per_s: 1000", "rate_per_s: 1e9"), ("duration_s: 2", "duration_s: 1e6")],
             "workload.ls.arrivals")
    # Runs too short for one request: they measured nothing and read as 100 % within the SLO.
    scenario("colocate duration 1e-12 s", COLOCATE, [("duration_s: 2", "duration_s: 1e-12")], "workload.ls.arrivals")
    scenario("multiplex duration 1e-9 s", MULTIPLEX, [("duration_s: 2", "duration_s: 1e-9")],
             "workload.services.0.arrivals")
    scenario("gamma cv 1e-300", MULTIPLEX, [("cv: 4", "cv: 1e-300")], "workload.services.0.arrivals.cv")
    # Overlap layers whose GEMM alone outlasts the clock: at the largest documented sizes, or on a slow GPU.
    scenario("overlap grid at the largest sizes on a slow GPU", OVERLAP,
             [("peak_tflops: 150", "peak_tflops: 1e-3"), ("hidden: [4096]", "hidden: [1048576]"),
              ("tokens: [8192]", "tokens: [16777216]")], "workload.tokens")
    scenario("overlap end_to_end at the largest sizes", OVERLAP_E2E,
             [("seq_len: 2048", "seq_len: 1048576"), ("micro_batch: 2", "micro_batch: 4096")], "workload.seq_len")

    # 3. Data files: too few rows to fit, absurd measurements.
    short_log = tmp / "all_reduce_perf.log"
    short_log.write_text(NCCL_HEADER + "".join(
        f"  {s}  {s // 4}  float  sum  -1  {10 + i}.0  0.1  0.1  0  {10 + i}.0  0.1  0.1  0\n"
        for i, s in enumerate([1024, 2048, 4096])))
    expect("nccl-tests log of 3 rows", ["fit", "--nccl-tests", short_log, "--hardware", "dgx-h100",
                                        "--out", tmp / "cal.yaml"], re.escape(str(short_log)) + r":\d+: .*at least 4")
    d = tmp / "meas-value"
    d.mkdir()
    (d / "measurements.csv").write_text(MEASUREMENT_HEADER + "gemm,gemm/bf16/x,dtype=bf16;m=4096;n=4096;k=4096,"
                                        "9223372036854775807" + MEASUREMENT_TAIL)
    for cmd in (["fit", d, "--hardware", "dgx-h100", "--out", d / "cal.yaml"], ["validate", d, "--hardware", "dgx-h100"]):
        expect(f"{cmd[0]}: a measured time of int64-max seconds", cmd, re.escape(str(d / "measurements.csv")) + r":2: ")
    # A calibration file whose figures take the clock out of its range (here: a 9.2e18 s launch).
    cal = tmp / "cal-launch.yaml"
    cal.write_text('format: parallax-calibration/1\ngpu: "NVIDIA H200"\nprovenance: {source: "x", rows: 1}\n'
                   "launch:\n  - {what: launch, seconds: 9.223372036854776e+18, rows: 1}\n")
    scenario("calibration launch of 9.2e18 s", COLOCATE.replace("name: colocate\n", f"name: colocate\ncalibration: {cal}\n"),
             [], "launch.0.seconds", where=cal)

    # Numeric flags out of range, on every subcommand that takes one.
    flags = [
        (["run", links, "--seed", "-1"], "--seed"),
        (["run", links, "--seed", "18446744073709551616"], "--seed"),
        (["run", links, "--seed", "0x10"], "--seed"),
        (["predict", "collective", "--hardware", "dgx-h100", "--op", "all_reduce", "--gpus", "1", "--bytes", "1MiB"],
         "--gpus"),
        (["predict", "collective", "--hardware", "dgx-h100", "--op", "all_reduce", "--gpus", "-8", "--bytes", "1MiB"],
         "--gpus"),
        (["predict", "overlap", "--hardware", "dgx-h100", "--op", "ag_gemm", "--m", "0", "--n", "4096", "--k", "4096",
          "--tp", "4"], "--m"),
        (["predict", "overlap", "--hardware", "dgx-h100", "--op", "ag_gemm", "--m", "4096", "--n", "4096", "--k",
          "4096", "--tp", "-1"], "--tp"),
        (["predict", "schedule", "--hardware", "a6000x8-nvlink-pairs", "--op", "all_gather", "--gpus", "0,8"], "--gpus"),
        (["predict", "schedule", "--hardware", "a6000x8-nvlink-pairs", "--op", "all_gather", "--gpus", "1,1"], "--gpus"),
        (["predict", "schedule", "--hardware", "a6000x8-nvlink-pairs", "--op", "all_gather", "--gpus", "0,1",
          "--bytes", "0"], "--bytes"),
        (["predict", "schedule", "--hardware", "a6000x8-nvlink-pairs", "--op", "all_reduce", "--gpus", "0,1"], "--op"),
        (["predict", "swap", "--hardware", "dgx-h100", "--model", "resnet152", "--gpu", "-1"], "--gpu"),
        (["predict", "model", "--hardware", "h200x1", "--model", "resnet50", "--sms", "133"], "--sms"),
        (["predict", "model", "--hardware", "h200x1", "--model", "resnet50", "--bandwidth-share", "0"],
         "--bandwidth-share"),
        (["predict", "model", "--hardware", "h200x1", "--model", "resnet50", "--batch", "0"], "--batch"),
        (["predict", "model", "--hardware", "h200x1", "--model", "gpt2", "--sequence", "2000"], "sequence"),
        (["predict", "gemm", "--hardware", "dgx-h100", "--m", "0", "--n", "1", "--k", "1"], "--m"),
        (["predict", "gemm", "--hardware", "dgx-h100", "--m", "1", "--n", "1", "--k", "2147483648"], "--k"),
        (["predict", "gemm", "--hardware", "dgx-h100", "--m", "1", "--n", "1", "--k", "1", "--dtype", "fp8"], "dtype"),
        (["bench", "engine", "--events", "-1"], "--events"),
        (["bench", "flows", "--max-flows", "0"], "--max-flows"),
        (["bench", "flows", "--events", "0"], "--events"),
        (["bench", "overlap", "--repeat", "0"], "--repeat"),
        (["bench", "serverless", "--functions", "-1"], "--functions"),
        (["bench", "serverless", "--nodes", "0"], "--nodes"),
        (["bench", "serverless", "--hours", "0"], "--hours"),
        (["bench", "serverless", "--hours", "1e9"], "--hours"),
        (["bench", "serverless", "--seed", "-1"], "--seed"),
        (["bench", "serverless", "--policy", "bogus"], "--policy"),
        (["sweep", src / "scenarios/sweeps/ring-64.yaml", "-j", "0", "--list"], "--jobs"),
        (["sweep", src / "scenarios/sweeps/ring-64.yaml", "-j", "-2", "--list"], "--jobs"),
        (["fit", "--nccl-tests", short_log, "--hardware", "dgx-h100", "--gpus", "-4", "--out", tmp / "c.yaml"],
         "--gpus"),
        (["hw", "calibrate", "--device", "-1", "--dry-run"], "--device"),
    ]
    for args, flag in flags:
        expect(" ".join(map(str, args[:2])) + f" {flag} {args[args.index(flag) + 1] if flag in args else args[-2]}",
               args, re.escape(flag))

    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
