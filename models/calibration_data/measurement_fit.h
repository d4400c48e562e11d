// File: models/calibration_data/measurement_fit.h
// From measurement rows (measurement_csv.h) to a Calibration, and from a Calibration back to a
// predicted value per row (for `parallax validate`). What is fitted, per family:
//   gemm        → gemm_fit.h's (tile, eta_max, k_half, eta_mem, overhead) on all GEMM rows
//   copy        → α + bytes/β per (kind, host_memory)                      (linear_time_fits.h)
//   launch      → mean seconds per item per `what`
//   corun       → interference coefficients c0..c4 on slowdown = t_with / t_alone, with the
//                 utilisations taken as dram_bytes / (t_alone · hbm_Bps) (L2 proxied by DRAM)
//   interdecom  → A, B, C of T(d) = A·d + B + C/d per (dtype, m, n, k, copy_sms, copy_bytes)
//   sm_scaling  → bw_per_sm = max over streaming rows of (dram_bytes / t) / sms (the per-SM cap of
//                 min(HBM, s·bw_per_SM) binds at the fewest SMs), HBM = the most any row reached,
//                 FLOP/s per SM = the median over FMA rows of (flops / t) / sms, and the smoothing
//                 exponent p of models/kernel_time.h from the ridge rows (both FLOPs and bytes):
//                 the p in [1, 64] whose (T_comp^p + T_mem^p)^(1/p) fits their times best (least
//                 squares in log time), T_comp and T_mem from the fitted per-SM rates
// swap, intrafusion, colocate, serverless and multiplex rows are read and reported but not fitted.
//
// The train / held-out split (docs/calibration.md): within each family, rows sorted by case id;
// the 4th, 8th, 12th, ... are held out, the rest are fitted on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/calibration_data/calibration_file.h"
#include "models/calibration_data/measurement_csv.h"
#include "models/gemm_cost.h"

namespace parallax::models {

inline constexpr const char* kSplitRule =
    "per family, rows sorted by case id; every 4th (4th, 8th, ...) held out, the rest fitted on";

// One ridge row of the sm_scaling family: the intensity kernel with both FLOPs and DRAM bytes.
struct RidgeSample {
  double sms = 0, flops = 0, dram_bytes = 0, seconds = 0;
};
inline constexpr double kMaxSmoothingP = 64;  // 2^(1/64) = 1.011: indistinguishable from the max
// The smoothed time of a ridge row on the fitted per-SM rates, and the p that fits the rows best.
double ridge_time_s(const RidgeSample& row, const SmScalingCalibration& k, double p);
double fit_smoothing_p(const std::vector<RidgeSample>& rows, const SmScalingCalibration& k);

// true for the rows `kSplitRule` holds out, index-aligned with `rows`.
std::vector<bool> held_out_rows(const std::vector<Measurement>& rows);

// Fits every family that has enough rows among `rows` (the caller passes the training subset or
// all rows). `hardware` gives sms, peak_flops and hbm_Bps (GEMM roofline, utilisations).
// Provenance is taken from the first row; `source` names where the rows came from.
Calibration fit_measurements(const std::vector<Measurement>& rows, const GpuComputeParams& hardware,
                             const std::string& source);

// The calibrated model's value for `row`, or nullopt when the calibration has no model for it.
// `all_rows` supplies the isolated (with=none) times that corun predictions scale.
std::optional<double> predict_measurement(const Measurement& row, const Calibration& calibration,
                                          const std::vector<Measurement>& all_rows,
                                          const GpuComputeParams& hardware);

}  // namespace parallax::models
