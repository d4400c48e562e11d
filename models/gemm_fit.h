// File: models/gemm_fit.h
// Calibrates the GEMM model of gemm_cost.h against measured GEMM times: the continuous parameters
// (eta_max, k_half, eta_mem, overhead_s) by Levenberg–Marquardt (Eigen's MINPACK port) on
// log(predicted/measured), for each (tile_m, tile_n) in a small candidate set; the tile pair with
// the smallest residual wins. Tiles are a discrete choice, hence the enumeration; the rest is
// smooth enough in log space for LM (the max() and ceil() are piecewise smooth).
//
//   GemmFitResult fit = fit_gemm_params(samples, a100_hardware, {64, 128, 256});
//   fit.params.eta_max ...; fit.rms_log_error
#pragma once

#include <cstdint>
#include <span>

#include "models/gemm_cost.h"

namespace parallax::models {

struct GemmSample {
  GemmShape shape;
  double measured_s = 0.0;
};

struct GemmFitResult {
  GpuComputeParams params;     // hardware fields copied from the input, the rest fitted
  double rms_log_error = 0.0;  // sqrt(mean(log(pred/meas)^2)) over the samples
};

// `hardware` supplies sms, peak_flops, hbm_Bps and the starting point; every tile_m and tile_n
// is taken from `tile_candidates`. Throws std::invalid_argument on empty input.
GemmFitResult fit_gemm_params(std::span<const GemmSample> samples,
                              const GpuComputeParams& hardware,
                              std::span<const int64_t> tile_candidates);

}  // namespace parallax::models
