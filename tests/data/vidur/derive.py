#!/usr/bin/env python3
"""Derive the small vidur copies under tests/data/vidur/ from the full public CSVs.

Usage: python3 tests/data/vidur/derive.py /path/to/vidur/data/profiling   (default: /work/shared/data/vidur)

The full files are about 2.3 MB together; we keep only the columns the models/ validation reads
(rank-0 medians for the network, GEMM-operator medians for compute), so the copies stay < 1 MB.
Values are copied as text, unchanged; rows keep their original order.
"""
import csv
import pathlib
import sys

SRC = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data/vidur")
DST = pathlib.Path(__file__).resolve().parent

GEMM_OPS = ["attn_pre_proj", "attn_post_proj", "mlp_up_proj", "mlp_down_proj"]


def derive_compute(gpu):
    src = SRC / "compute" / gpu / "meta-llama" / "Llama-2-7b-hf" / "mlp.csv"
    out = DST / "compute" / gpu / "llama2_7b_gemm.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(src, newline="") as f, open(out, "w", newline="") as g:
        w = csv.writer(g, lineterminator="\n")
        w.writerow(["num_tokens", "num_tensor_parallel_workers", "n_embd", "n_expanded_embd"]
                   + [f"{op}_median_ms" for op in GEMM_OPS])
        for r in csv.DictReader(f):
            w.writerow([r["num_tokens"], r["num_tensor_parallel_workers"], r["n_embd"],
                        r["n_expanded_embd"]]
                       + [r[f"time_stats.{op}.median"] for op in GEMM_OPS])


def derive_network(box):
    src = SRC / "network" / box / "all_reduce.csv"
    out = DST / "network" / box / "all_reduce_rank0.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(src, newline="") as f, open(out, "w", newline="") as g:
        w = csv.writer(g, lineterminator="\n")
        w.writerow(["num_workers", "devices_per_node", "size_bytes", "median_ms", "min_ms"])
        for r in csv.DictReader(f):
            if r["rank"] != "0":
                continue
            w.writerow([r["num_workers"], r["devices_per_node"], r["size"],
                        r["time_stats.all_reduce.median"], r["time_stats.all_reduce.min"]])


for gpu in ("a100", "h100"):
    derive_compute(gpu)
for box in ("a100_dgx", "h100_dgx"):
    derive_network(box)
