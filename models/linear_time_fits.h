// File: models/linear_time_fits.h
// The calibration fits whose models are linear in their parameters, solved by relative linear
// least squares (each row divided by its measured value, so that small and large measurements
// weigh alike; Eigen's column-pivoting QR):
//
//   copy / transfer:   t = α + bytes/β                     → latency α, bandwidth β
//   InterDecom(d):     T(d) = A·d + B + C/d                 → A, B, C (overlap_interdecom.h)
//   interference:      t_with/t_alone = c0·L2_self + c1·L2_other + c2·DRAM_self + c3·DRAM_other + c4
//                                                             (kernel_interference.h, gpulet's form)
//
// A coefficient that must not be negative (α, A, C) is pinned at 0 and the rest refitted when the
// unconstrained fit makes it negative. Each throws std::invalid_argument for too few rows or
// non-positive measurements.
#pragma once

#include <span>

#include "models/kernel_interference.h"

namespace parallax::models {

struct BytesTimeSample {
  double bytes = 0.0;
  double measured_s = 0.0;
};

struct AffineTransferFit {
  double latency_s = 0.0;      // α
  double bandwidth_Bps = 0.0;  // β
  double time_s(double bytes) const { return latency_s + bytes / bandwidth_Bps; }
};

// Needs >= 2 rows with two distinct sizes.
AffineTransferFit fit_affine_transfer(std::span<const BytesTimeSample> samples);

struct DegreeTimeSample {
  double degree = 1.0;  // d
  double measured_s = 0.0;
};

struct InterDecomFit {
  double a_s = 0.0, b_s = 0.0, c_s = 0.0;
  double time_s(double d) const { return a_s * d + b_s + c_s / d; }
};

// Needs >= 3 rows with three distinct degrees.
InterDecomFit fit_interdecom_abc(std::span<const DegreeTimeSample> samples);

struct InterferenceSample {
  TenantUtilisation self, other;
  double slowdown = 1.0;  // measured t_with / t_alone
};

// Needs >= 5 rows; coefficients unconstrained (gpulet's fit has negative ones).
InterferenceCoefficients fit_interference(std::span<const InterferenceSample> samples);

}  // namespace parallax::models
