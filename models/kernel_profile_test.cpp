// File: models/kernel_profile_test.cpp
// The SGDRC latency profile and its allocation on a hand case (models/kernel_profile.h).
#include <gtest/gtest.h>

#include <vector>

#include "models/kernel_profile.h"

namespace parallax {
namespace {

// 16 SMs of 1 TFLOP/s each, 1.6 TB/s HBM, 0.2 TB/s per SM; TPCs of 2 SMs, 2 colours.
DeviceRates hand_gpu() { return DeviceRates{16, 16e12, 1.6e12, 0.2e12, 1.0, 0}; }

// A: compute, 8 blocks of one SM each (8e9 FLOP: 1 ms on 8 SMs, 2 ms on 4).
// B: memory, 1.6 GB over 16 blocks: 1 ms at the whole HBM, which takes 8 SMs' per-SM caps.
std::vector<KernelShape> hand_kernels() { return {{8e9, 0, 8, 1, 1.0}, {0, 1.6e9, 16, 1, 1.0}}; }

TEST(KernelProfile, LatencyFollowsWavesAndTheBandwidthCap) {
  const std::vector<KernelShape> k = hand_kernels();
  const LatencyProfile p = latency_profile(k, hand_gpu(), 2, 2);
  EXPECT_EQ(p.tpcs, 8);
  EXPECT_EQ(p.colours, 2);
  EXPECT_DOUBLE_EQ(p.at(8, 2), 2e-3);   // 1 ms + 1 ms
  EXPECT_DOUBLE_EQ(p.at(4, 2), 2e-3);   // 8 SMs: A fills them, B's cap 8 x 0.2 = the whole HBM
  EXPECT_DOUBLE_EQ(p.at(4, 1), 3e-3);   // one colour halves B's bandwidth
  EXPECT_DOUBLE_EQ(p.at(2, 1), 4e-3);   // 4 SMs: A two full waves, B capped at 0.8 TB/s
  EXPECT_DOUBLE_EQ(p.at(2, 2), 4e-3);   // the per-SM cap binds, not the colours
  // 6 SMs: A in two waves, the second 1/3 full (q = 1.5): 2 ms; B at 1.2 TB/s: 1.33 ms.
  EXPECT_NEAR(p.at(3, 2), 2e-3 + 1.6e9 / 1.2e12, 1e-12);
  EXPECT_THROW((void)p.at(0, 1), std::out_of_range);
  EXPECT_THROW((void)p.at(1, 3), std::out_of_range);
}

TEST(KernelProfile, FewestTpcsThenFewestColoursMeetTheBudget) {
  const std::vector<KernelShape> k = hand_kernels();
  const LatencyProfile p = latency_profile(k, hand_gpu(), 2, 2);
  const ProfileChoice tight = fewest_meeting(p, 2e-3);
  EXPECT_TRUE(tight.meets);
  EXPECT_EQ(tight.tpcs, 4);
  EXPECT_EQ(tight.colours, 2);
  const ProfileChoice loose = fewest_meeting(p, 3e-3);  // 3 TPCs take 3.33 ms; 4 TPCs with 1 colour 3 ms
  EXPECT_TRUE(loose.meets);
  EXPECT_EQ(loose.tpcs, 4);
  EXPECT_EQ(loose.colours, 1);
  EXPECT_EQ(fewest_meeting(p, 4e-3).tpcs, 2);
  EXPECT_EQ(fewest_meeting(p, 4e-3).colours, 1);
  // Capped at one colour, 2 ms is out of reach: 8 TPCs and 1 colour, and it says so.
  const ProfileChoice capped = fewest_meeting(p, 2e-3, 0, 1);
  EXPECT_FALSE(capped.meets);
  EXPECT_EQ(capped.tpcs, 8);
  EXPECT_EQ(capped.colours, 1);
  EXPECT_DOUBLE_EQ(capped.latency_s, 3e-3);
  EXPECT_FALSE(fewest_meeting(p, 1e-3).meets);
}

}  // namespace
}  // namespace parallax
