// File: models/gemm_cost.cpp
// Roofline + wave quantisation GEMM model; the formula is written out in gemm_cost.h.
#include "models/gemm_cost.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax::models {
namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

void check(const GemmShape& shape, const GpuComputeParams& gpu) {
  if (shape.m <= 0 || shape.n <= 0 || shape.k <= 0 || shape.dtype_bytes <= 0) {
    throw std::invalid_argument(fmt::format("GemmShape needs positive m, n, k, dtype_bytes; got {}x{}x{} ({} B)",
                                            shape.m, shape.n, shape.k, shape.dtype_bytes));
  }
  if (gpu.sms <= 0 || gpu.peak_flops <= 0 || gpu.hbm_Bps <= 0 || gpu.tile_m <= 0 ||
      gpu.tile_n <= 0 || gpu.eta_max <= 0 || gpu.k_half < 0 || gpu.eta_mem <= 0 ||
      gpu.overhead_s < 0) {
    throw std::invalid_argument("GpuComputeParams: sms, peak_flops, hbm_Bps, tiles, eta_max and eta_mem "
                                "must be positive; k_half and overhead_s non-negative");
  }
}

}  // namespace

double gemm_flops(const GemmShape& shape) {
  return 2.0 * static_cast<double>(shape.m) * static_cast<double>(shape.n) *
         static_cast<double>(shape.k);
}

double gemm_bytes(const GemmShape& shape) {
  const double m = static_cast<double>(shape.m);
  const double n = static_cast<double>(shape.n);
  const double k = static_cast<double>(shape.k);
  return static_cast<double>(shape.dtype_bytes) * (m * k + k * n + m * n);
}

int64_t gemm_tiles(const GemmShape& shape, const GpuComputeParams& gpu) {
  return ceil_div(shape.m, gpu.tile_m) * ceil_div(shape.n, gpu.tile_n);
}

double gemm_efficiency(const GemmShape& shape, const GpuComputeParams& gpu) {
  const double k = static_cast<double>(shape.k);
  return gpu.eta_max * k / (k + gpu.k_half);
}

GemmCostBreakdown gemm_cost_on_sms(const GemmShape& shape, const GpuComputeParams& gpu,
                                   int64_t sms_available) {
  check(shape, gpu);
  if (sms_available < 1 || sms_available > gpu.sms) {
    throw std::invalid_argument(
        fmt::format("gemm_cost_on_sms: sms_available = {} not in [1, {}]", sms_available, gpu.sms));
  }
  GemmCostBreakdown out;
  out.tiles = gemm_tiles(shape, gpu);
  out.waves = ceil_div(out.tiles, sms_available);
  out.efficiency = gemm_efficiency(shape, gpu);
  const double peak_per_sm_flops = gpu.peak_flops / static_cast<double>(gpu.sms);
  const double tile_flops = 2.0 * static_cast<double>(gpu.tile_m) *
                            static_cast<double>(gpu.tile_n) * static_cast<double>(shape.k);
  out.compute_s =
      static_cast<double>(out.waves) * tile_flops / (peak_per_sm_flops * out.efficiency);
  out.memory_s = gemm_bytes(shape) / (gpu.eta_mem * gpu.hbm_Bps);
  out.overhead_s = gpu.overhead_s;
  out.memory_bound = out.memory_s > out.compute_s;
  out.total_s = out.overhead_s + std::max(out.compute_s, out.memory_s);
  return out;
}

GemmCostBreakdown gemm_cost(const GemmShape& shape, const GpuComputeParams& gpu) {
  return gemm_cost_on_sms(shape, gpu, gpu.sms);
}

double gemm_time_s(const GemmShape& shape, const GpuComputeParams& gpu) {
  return gemm_cost(shape, gpu).total_s;
}

double gemm_time_on_sms_s(const GemmShape& shape, const GpuComputeParams& gpu,
                          int64_t sms_available) {
  return gemm_cost_on_sms(shape, gpu, sms_available).total_s;
}

}  // namespace parallax::models
