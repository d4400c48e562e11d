// File: models/kernel_time_test.cpp
#include "models/kernel_time.h"

#include <gtest/gtest.h>

#include <cmath>

#include "models/kernel_interference.h"

namespace parallax {
namespace {

DeviceRates h200() {
  DeviceRates d;
  d.sms = 132;
  d.peak_flops = 989e12;
  d.hbm_Bps = 4.8e12;
  return d;
}

// G = 200, b = 1: 2 waves on 132 SMs (264 slots, 200 used): q = 1.32; 1 wave... on 100 SMs: 2
// waves of 100 exactly: q = 1. T(132) = F/P·1.32; T(100) = F/(P·100/132) = F/P·1.32.
TEST(KernelTime, WavesAndQuantisationByHand) {
  KernelShape k{989e9, 0, 200, 1};
  EXPECT_EQ(kernel_waves(k, 132), 2);
  EXPECT_EQ(kernel_waves(k, 100), 2);
  EXPECT_EQ(kernel_waves(k, 200), 1);
  EXPECT_DOUBLE_EQ(wave_factor(k, 132), 1.32);
  EXPECT_DOUBLE_EQ(wave_factor(k, 100), 1.0);
  const DeviceRates d = h200();
  EXPECT_NEAR(kernel_time_s(k, d, 132, 1.0), 1e-3 * 1.32, 1e-12);
  EXPECT_NEAR(kernel_time_s(k, d, 100, 1.0), 1e-3 * 1.32, 1e-12);
  // 66 SMs: 4 waves of 66 = 264 slots: q = 1.32, speed 66/132: 2.64 ms.
  EXPECT_NEAR(kernel_time_s(k, d, 66, 1.0), 2.64e-3, 1e-12);
}

// A small grid uses only its SM need: 13 blocks run at 13/132 of peak whatever s >= 13 is.
TEST(KernelTime, SmallGridUsesOnlyItsNeed) {
  KernelShape k{13e9, 0, 13, 1};
  EXPECT_EQ(k.sm_need(), 13);
  const DeviceRates d = h200();
  EXPECT_DOUBLE_EQ(kernel_time_s(k, d, 132, 1), kernel_time_s(k, d, 13, 1));
  EXPECT_NEAR(kernel_time_s(k, d, 132, 1), 13e9 / (989e12 * 13 / 132), 1e-15);
}

// Memory-bound: 4.8 GB at half the bandwidth takes 2 s; per-SM cap 20 GB/s on 8 SMs: 160 GB/s.
TEST(KernelTime, RooflineWithBandwidthShareAndPerSmCap) {
  KernelShape k{1e6, 4.8e9, 1000, 1};
  DeviceRates d = h200();
  EXPECT_NEAR(kernel_time_s(k, d, 132, 0.5), 2e-3, 1e-12);
  EXPECT_FALSE(compute_bound(k, d));
  d.bw_per_sm_Bps = 20e9;
  EXPECT_DOUBLE_EQ(kernel_bandwidth_Bps(d, 8, 1.0), 160e9);
  EXPECT_NEAR(kernel_time_s(k, d, 8, 1.0), 4.8e9 / 160e9, 1e-12);
}

// Smoothing by hand: at the ridge (T_comp = T_mem = 1 ms) p = 2 gives √2 ms and p = 4 2^(1/4) ms;
// p = 0 is the max; far from the ridge (T_mem = T_comp / 10) p = 4 adds only (1 + 10^-4)^(1/4) - 1
// = 0.0025 %; a kernel with no bytes is its compute time whatever p.
TEST(KernelTime, SmoothingExponentByHand) {
  EXPECT_DOUBLE_EQ(smoothed_max(1e-3, 1e-3, 0), 1e-3);
  EXPECT_NEAR(smoothed_max(1e-3, 1e-3, 2), std::sqrt(2.0) * 1e-3, 1e-15);
  EXPECT_NEAR(smoothed_max(1e-3, 1e-3, 4), std::pow(2.0, 0.25) * 1e-3, 1e-15);
  EXPECT_NEAR(smoothed_max(1e-3, 1e-4, 4), 1e-3 * std::pow(1 + 1e-4, 0.25), 1e-15);
  EXPECT_DOUBLE_EQ(smoothed_max(2e-3, 0, 3), 2e-3);
  EXPECT_DOUBLE_EQ(smoothed_max(0, 0, 3), 0);
  EXPECT_NEAR(smoothed_max(1, 1, 1), 2, 1e-15);  // p = 1: no overlap at all
  // 989 GFLOP and 4.8 GB on the H200: 1 ms each at the ridge; with p = 4 and a 5 µs launch.
  KernelShape k{989e9, 4.8e9, 1320, 1};
  DeviceRates d = h200();
  d.launch_s = 5e-6;
  EXPECT_NEAR(kernel_time_s(k, d, 132, 1.0), 1e-3 + 5e-6, 1e-12);
  d.smoothing_p = 4;
  EXPECT_NEAR(kernel_time_s(k, d, 132, 1.0), std::pow(2.0, 0.25) * 1e-3 + 5e-6, 1e-12);
  // Half the bandwidth: T_mem = 2 ms, T_comp = 1 ms: 2·(1 + 2^-4)^(1/4) ms.
  EXPECT_NEAR(kernel_time_s(k, d, 132, 0.5), 2e-3 * std::pow(1 + 1.0 / 16, 0.25) + 5e-6, 1e-12);
}

TEST(KernelInterference, DefaultChargesOnlyTheOthersL2) {
  InterferenceCoefficients c;
  EXPECT_DOUBLE_EQ(interference_slowdown(c, {0.9, 0.9}, {0.0, 0.0}), 1.0);
  EXPECT_DOUBLE_EQ(interference_slowdown(c, {0.0, 0.0}, {0.5, 0.5}), 1.05);
  const InterferenceCoefficients rtx3080{-0.180, 0.038, 0.126, -0.056, 1.018};
  // 1.018 + 0.5·(−0.180 + 0.038 + 0.126 − 0.056) = 0.982: clamped to 1.
  EXPECT_DOUBLE_EQ(interference_slowdown(rtx3080, {0.5, 0.5}, {0.5, 0.5}), 1.0);
  EXPECT_NEAR(interference_slowdown(rtx3080, {0, 0}, {1, 0}), 1.056, 1e-12);
  EXPECT_DOUBLE_EQ(interference_slowdown({0, 0, 0, 0, 0.5}, {}, {}), 1.0);
}

}  // namespace
}  // namespace parallax
