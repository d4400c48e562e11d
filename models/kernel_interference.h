// File: models/kernel_interference.h
// The second-order L2/DRAM interference term of REFERENCE.md §6.8, in gpulet's form (§6.9;
// casys-kaist/glet:src/scheduler/interference_model.cpp):
//
//   α = c0·L2_self + c1·L2_other + c2·DRAM_self + c3·DRAM_other + c4
//
// each utilisation in [0, 1]. A kernel co-running with another tenant that shares L2 and DRAM
// (not MIG, not disjoint colours) takes α times its isolated time; HBM contention proper is left
// to the platform's max-min solver, so the default coefficients charge only the other tenant's L2
// pressure: α = 1 + 0.1·L2_other [assumption, uncalibrated; fit c0..c4 per GPU from co-run
// measurements as gpulet does]. gpulet's RTX 3080 fit is c = (−0.180, 0.038, 0.126, −0.056, 1.018).
// L2 utilisation is proxied by DRAM utilisation (bytes / (time · peak BW)) when no L2 profile exists.
#pragma once

namespace parallax {

struct InterferenceCoefficients {
  double l2_self = 0;     // c0
  double l2_other = 0.1;  // c1
  double dram_self = 0;   // c2
  double dram_other = 0;  // c3
  double constant = 1;    // c4
};

struct TenantUtilisation {
  double l2 = 0;
  double dram = 0;
};

// α, never below 1 (co-running never speeds a kernel up).
double interference_slowdown(const InterferenceCoefficients& c, const TenantUtilisation& self,
                             const TenantUtilisation& other);

}  // namespace parallax
