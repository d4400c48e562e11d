#!/usr/bin/env python3
# File: scenarios/colocate/what-binds.py
# Which resource binds each tenant, per kernel, under mps and sgdrc for one LS/BE pair of the
# paper mix (docs/colocate.md "What binds against MPS"). Runs the pair once per policy with
# that policy traced, reads its kernels.csv, and splits each tenant's time into
#   base      Σ the kernel's isolated time at its SM need with all the bandwidth (solo_s)
#   sm_cap    Σ T(sms given) − T(SM need): the SMs the policy did not give it (SGDRC's masks and
#             allocation); T from `parallax predict model --sms S --kernels`, the same kernel model
#   shared    Σ duration − T(sms given): what co-running cost it (HBM shared by max-min or cut to
#             its colours, SMs shared with the other tenant under MPS, the interference factor α)
#     of which alpha: Σ duration · (1 − 1/α)
#   launch    kernels × the preset's launch latency
#   waits     the rest of the gaps between its kernels: for LS, dispatch waits behind the other
#             tenant's resident blocks (MPS) and eviction waits (SGDRC, kernels.csv's
#             eviction_wait_s); for BE, dispatch waits (MPS) or admission holds (SGDRC's tide)
# LS per request (its kernels only; queueing and the first kernel's wait are apart: `queue`).
# BE over the run's first `duration` seconds.
#
#   scenarios/colocate/what-binds.py build/tools/parallax resnet50:8:225:4.4 resnet152:64
import csv
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict

HARDWARE = "h200x1"
LAUNCH_S = 4.2e-6  # the h200x1 preset's kernel_launch_us
HBM_BPS = 4.8e12   # its hbm_GBps
COLOURS = 8        # channel colours on the H200 (docs/colocate.md, an assumption)
DURATION_S = 1.0   # as in sgdrc-paper-mix.yaml


def predict(parallax, model, batch, sms):
    out = subprocess.run([parallax, "predict", "model", "--hardware", HARDWARE, "--model", model, "--batch",
                          str(batch), "--dtype", "fp16", "--sms", str(sms), "--kernels"],
                         check=True, capture_output=True, text=True).stdout
    return {k["name"]: (k["time_s"] - LAUNCH_S, k["sm_need"], k["kind"]) for k in json.loads(out)["kernels"]}


def run(parallax, ls, be, policy, out):
    lm, lb, rate, slo = ls.split(":")
    bm, bb = be.split(":")
    subprocess.run([parallax, "run", "scenarios/colocate/sgdrc-h200.yaml", "--out", out,
                    "--set", f"workload.ls.model={lm}", "--set", f"workload.ls.batch={lb}",
                    "--set", f"workload.ls.slo_ms={slo}", "--set", f"workload.ls.arrivals.rate_per_s={rate}",
                    "--set", f"workload.be.model={bm}", "--set", f"workload.be.batch={bb}",
                    "--set", f"workload.duration_s={DURATION_S}", "--set", f"workload.policies=[{policy}]",
                    "--set", f"workload.trace_policy={policy}", "--set", "output.trace_limit=0"], check=True, capture_output=True)
    with open(os.path.join(out, "kernels.csv")) as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)["policies"][policy]
    return rows, summary


def request_bytes(parallax, model, batch):
    out = subprocess.run([parallax, "predict", "model", "--hardware", HARDWARE, "--model", model, "--batch",
                          str(batch), "--dtype", "fp16"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)["dram_bytes"]


def times(parallax, model, batch, sms, cache):
    if (model, sms) not in cache:
        cache[(model, sms)] = predict(parallax, model, batch, sms)
    return cache[(model, sms)]


def split(parallax, model, batch, rows, cache):
    """Time buckets of one tenant's kernels (rows in launch order)."""
    full = times(parallax, model, batch, 132, cache)
    b = defaultdict(float)
    prev_end = None
    for r in rows:
        sms, start, end = int(r["sms"]), float(r["start_s"]), float(r["end_s"])
        t_full, need, kind = full[r["kernel"]]
        t_given = times(parallax, model, batch, sms, cache)[r["kernel"]][0] if sms < min(need, 132) else t_full
        dur = end - start
        alpha = float(r["alpha"])
        b["base"] += float(r["solo_s"])
        b["sm_cap"] += t_given - float(r["solo_s"])
        b["shared"] += dur - t_given
        b["shared:" + kind] += dur - t_given
        b["alpha"] += dur * (1 - 1 / alpha)
        b["kernels"] += 1
        b["eviction"] += float(r["eviction_wait_s"])
        if prev_end is not None:
            b["gaps"] += start - prev_end
        prev_end = end
    return b


def main():
    parallax, ls, be = sys.argv[1], sys.argv[2], sys.argv[3]
    lm, lb = ls.split(":")[:2]
    bm, bb = be.split(":")
    ls_per_req = len(predict(parallax, lm, lb, 132))
    cache = {}
    print(f"pair {ls} / {be}")
    print(f"{'policy':7} {'tenant':6} {'SLO %':>6} {'BE/s':>7} {'base':>7} {'sm_cap':>7} {'shared':>7} "
          f"{'(alpha)':>7} {'launch':>7} {'waits':>7} {'queue':>7}  (ms per LS request; BE: ms per s)")
    for policy in ("mps", "sgdrc"):
        with tempfile.TemporaryDirectory() as out:
            rows, s = run(parallax, ls, be, policy, out)
        ls_rows = [r for r in rows if r["tenant"] == "ls"]
        be_rows = [r for r in rows if r["tenant"] == "be" and float(r["start_s"]) < DURATION_S]
        n_req = len(ls_rows) / ls_per_req
        # LS: gaps inside a request only (a request's first kernel starts after its queueing).
        lsb = defaultdict(float)
        for i in range(0, len(ls_rows), ls_per_req):
            for k, v in split(parallax, lm, lb, ls_rows[i:i + ls_per_req], cache).items():
                lsb[k] += v
        inner_gaps = lsb["gaps"]
        ls_launch = (ls_per_req - 1) * LAUNCH_S * n_req
        ls_waits = inner_gaps - ls_launch
        ls_kernels_s = lsb["base"] + lsb["sm_cap"] + lsb["shared"] + inner_gaps
        queue = s["ls_mean_latency_s"] * n_req - ls_kernels_s
        # BE kernels started while an LS request was in service (SGDRC's tide and colours are out).
        spans = [(float(ls_rows[i]["start_s"]) - float(ls_rows[i]["eviction_wait_s"]),
                  float(ls_rows[i + ls_per_req - 1]["end_s"])) for i in range(0, len(ls_rows), ls_per_req)]
        in_service, j = [], 0
        for r in be_rows:
            t = float(r["start_s"])
            while j < len(spans) and spans[j][1] < t:
                j += 1
            in_service.append(j < len(spans) and spans[j][0] <= t)
        busy = split(parallax, bm, bb, [r for r, b in zip(be_rows, in_service) if b], cache)
        be_b = split(parallax, bm, bb, be_rows, cache)
        be_launch = be_b["kernels"] * LAUNCH_S
        be_waits = be_b["gaps"] - (be_b["kernels"] - 1) * LAUNCH_S
        ms = lambda x, n: f"{1e3 * x / n:7.3f}"
        print(f"{policy:7} {'ls':6} {100 * s['ls_slo_attainment']:6.2f} {'':7} {ms(lsb['base'], n_req)} "
              f"{ms(lsb['sm_cap'], n_req)} {ms(lsb['shared'], n_req)} {ms(lsb['alpha'], n_req)} "
              f"{ms(ls_launch, n_req)} {ms(ls_waits, n_req)} {ms(queue, n_req)}"
              f"   evictions {ms(lsb['eviction'], n_req)}")
        print(f"{policy:7} {'be':6} {'':6} {s['be_throughput']:7.2f} {ms(be_b['base'], DURATION_S)} "
              f"{ms(be_b['sm_cap'], DURATION_S)} {ms(be_b['shared'], DURATION_S)} {ms(be_b['alpha'], DURATION_S)} "
              f"{ms(be_launch, DURATION_S)} {ms(be_waits, DURATION_S)}")
        print(f"{'':7} {'(in LS service)':22} {ms(busy['base'], DURATION_S)} {ms(busy['sm_cap'], DURATION_S)} "
              f"{ms(busy['shared'], DURATION_S)} {ms(busy['alpha'], DURATION_S)}   kernels "
              f"{int(busy['kernels'])} of {int(be_b['kernels'])}"
              + (f"; colour changes {s['policy']['colour_changes']:.0f}, migrated "
                 f"{s['policy']['migrated_bytes'] / 1e9:.1f} GB" if "policy" in s else ""))
        if "policy" in s:
            service = sum(b - a for a, b in spans)
            c = s["policy"]["ls_colours"]
            use = n_req * request_bytes(parallax, lm, lb) / (service * HBM_BPS * c / COLOURS)
            print(f"{'':7} LS holds {c:.0f} of {COLOURS} colours in service ({1e3 * service / n_req:.3f} ms per "
                  f"request) and moves {100 * use:.0f} % of what they carry")
        print(f"{'':7} (in LS service) shared by BE kernel kind: " + ", ".join(
            f"{k[7:]} {ms(v, DURATION_S).strip()}" for k, v in sorted(busy.items()) if k.startswith("shared:")))


if __name__ == "__main__":
    main()
