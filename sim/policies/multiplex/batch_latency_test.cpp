// File: sim/policies/multiplex/batch_latency_test.cpp
// Instance saturation of one kernel (batch_latency.h): block slots filled over the waves, and the
// roofline's use of the bandwidth share.
#include "sim/policies/multiplex/batch_latency.h"

#include <gtest/gtest.h>

namespace parallax {
namespace {

const DeviceRates kGpu{132, 989e12, 4.8e12, 0, 0.75, 0};  // no launch time: T is the roofline alone

TEST(KernelSaturation, BlockSlotsOverWavesOnThePartition) {
  const KernelShape k{1e12, 1e6, 200, 1};
  EXPECT_DOUBLE_EQ(kernel_saturation(k, kGpu, 132, 1.0).sm, 200.0 / 264.0);  // two waves, 2nd 52 % full
  EXPECT_DOUBLE_EQ(kernel_saturation(k, kGpu, 100, 1.0).sm, 1.0);              // two full waves
  EXPECT_DOUBLE_EQ(kernel_saturation(k, kGpu, 16, 1.0).sm, 200.0 / 208.0);     // 13 waves
  // A small batch's kernel: 20 blocks fill 20 of a whole GPU's 132 SMs, all of a 16-SM instance's
  // first wave and 4 of its second.
  const KernelShape small{1e10, 1e6, 20, 1};
  EXPECT_DOUBLE_EQ(kernel_saturation(small, kGpu, 132, 1.0).sm, 20.0 / 132.0);
  EXPECT_DOUBLE_EQ(kernel_saturation(small, kGpu, 16, 1.0).sm, 20.0 / 32.0);
}

TEST(KernelSaturation, BandwidthShareUseFollowsTheRoofline) {
  const KernelShape memory_bound{1e6, 4.8e9, 264, 2};  // 1 ms of traffic at the full 4.8 TB/s
  const KernelSaturation whole = kernel_saturation(memory_bound, kGpu, 132, 1.0);
  EXPECT_DOUBLE_EQ(whole.hbm, 1.0);
  EXPECT_DOUBLE_EQ(whole.time_s, 1e-3);
  EXPECT_DOUBLE_EQ(kernel_saturation(memory_bound, kGpu, 66, 0.5).hbm, 1.0);
  // Compute-bound: 7.4175 TFLOP take 10 ms at 0.75 · 989 TFLOP/s; 4.8 GB need 1 ms of them.
  const KernelShape compute_bound{7.4175e12, 4.8e9, 132, 1};
  const KernelSaturation c = kernel_saturation(compute_bound, kGpu, 132, 1.0);
  EXPECT_NEAR(c.time_s, 10e-3, 1e-12);
  EXPECT_NEAR(c.hbm, 0.1, 1e-9);
  EXPECT_DOUBLE_EQ(c.sm, 1.0);
}

}  // namespace
}  // namespace parallax
