// File: models/gemm_cost.h
// Analytic time of one dense GEMM on one GPU (or on a subset of its SMs): a roofline with wave
// quantisation and a shape-dependent compute efficiency. Pure functions; the caller supplies the
// GPU's numbers (scenario YAML or the fitted defaults in models/calibrated_defaults.h).
//
// Model (REFERENCE.md §3.1; the efficiency curve and the overhead term are ours, fitted):
//
//   tiles      = ceil(m / tile_m) · ceil(n / tile_n)          output tiles, one CTA each
//   waves      = ceil(tiles / sms)                             sms = SMs the GEMM may use
//   eta(k)     = eta_max · k / (k + k_half)                    per-tile efficiency: a tile pays a
//                                                              fixed prologue/epilogue worth k_half
//                                                              k-steps, then streams k
//   compute_s  = waves · 2·tile_m·tile_n·k / (peak_per_sm · eta(k))
//              = FLOPs/(peak·eta) · (waves·sms_total/tiles) · (tile_m·tile_n·tiles/(m·n))
//                 i.e. the usual wave scaling, with partial tiles padded (m = 136 costs as much
//                 as m = 256 for tile_m = 128; the measured Llama-2 GEMMs show this step)
//   memory_s   = dtype_bytes · (m·k + k·n + m·n) / (eta_mem · hbm_Bps)
//   time_s     = overhead_s + max(compute_s, memory_s)
//
// Worked example (A100: 108 SMs, 312 TFLOP/s, 2.039 TB/s; tile 128×128, eta_max 0.75,
// k_half 256, eta_mem 0.8, overhead 5 µs), m = n = k = 4096:
//   tiles = 32·32 = 1024; waves = ceil(1024/108) = 10 (0.48 of the last wave is idle)
//   eta   = 0.75 · 4096/4352 = 0.7059; peak_per_sm = 312e12/108 = 2.889e12 FLOP/s
//   compute_s = 10 · 2·128·128·4096 / (2.889e12 · 0.7059) = 10 · 65.8 µs = 658 µs
//   memory_s  = 2·3·4096² B / (0.8 · 2.039e12 B/s) = 61.7 µs
//   time_s    = 5 µs + 658 µs = 663 µs   (unquantised: 2·4096³/(312e12·0.7059) = 624 µs)
#pragma once

#include <cstdint>

namespace parallax::models {

// One GEMM C[m×n] = A[m×k]·B[k×n]; dtype_bytes is the element size of A, B and C (bf16: 2).
struct GemmShape {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t dtype_bytes = 2;
};

// What the model needs to know about a GPU; the last six fields are calibrated
// (models/calibrated_defaults.h has the fitted values for A100 and H100).
struct GpuComputeParams {
  int64_t sms = 0;             // streaming multiprocessors on the whole GPU
  double peak_flops = 0.0;     // dense tensor FLOP/s for the dtype (REFERENCE.md §1.1)
  double hbm_Bps = 0.0;        // HBM bandwidth, bytes/s
  int64_t tile_m = 128;        // CTA output tile rows
  int64_t tile_n = 128;        // CTA output tile columns
  double eta_max = 0.75;       // compute efficiency as k → ∞
  double k_half = 256.0;       // k at which eta(k) = eta_max / 2
  double eta_mem = 0.8;        // fraction of hbm_Bps a streaming GEMM reaches
  double overhead_s = 5e-6;    // fixed per-kernel cost (launch, ramp, tail)
};

// Everything the model computes, for reports and tests.
struct GemmCostBreakdown {
  int64_t tiles = 0;
  int64_t waves = 0;
  double efficiency = 0.0;     // eta(k)
  double compute_s = 0.0;
  double memory_s = 0.0;
  double overhead_s = 0.0;
  double total_s = 0.0;
  bool memory_bound = false;
};

// 2·m·n·k (unpadded).
double gemm_flops(const GemmShape& shape);
// dtype_bytes·(m·k + k·n + m·n): each operand read or written once.
double gemm_bytes(const GemmShape& shape);
// ceil(m/tile_m)·ceil(n/tile_n).
int64_t gemm_tiles(const GemmShape& shape, const GpuComputeParams& gpu);
// eta_max · k/(k + k_half).
double gemm_efficiency(const GemmShape& shape, const GpuComputeParams& gpu);

// The GEMM alone on the whole GPU.
GemmCostBreakdown gemm_cost(const GemmShape& shape, const GpuComputeParams& gpu);
double gemm_time_s(const GemmShape& shape, const GpuComputeParams& gpu);

// The GEMM given only `sms_available` SMs (the rest run a communication kernel, as in
// IntraFusion or an overlapped NCCL call). Waves are counted on sms_available; each SM keeps its
// own peak (peak_flops/sms). HBM bandwidth is left whole: sharing it with the other kernel is the
// interference model's job, not this one's. Throws std::invalid_argument if sms_available is
// not in [1, gpu.sms].
GemmCostBreakdown gemm_cost_on_sms(const GemmShape& shape, const GpuComputeParams& gpu,
                                   int64_t sms_available);
double gemm_time_on_sms_s(const GemmShape& shape, const GpuComputeParams& gpu,
                          int64_t sms_available);

}  // namespace parallax::models
