// File: models/block_dispatch_test.cpp
#include "models/block_dispatch.h"

#include <gtest/gtest.h>

#include <cmath>

namespace parallax {
namespace {

TEST(BlockDispatch, NothingHeldOrNoBlockTimeMeansNoWait) {
  EXPECT_EQ(dispatch_wait_s(0, 10e-6, 0, 5e-6), 0);
  EXPECT_EQ(dispatch_wait_s(1, 0, 0, 5e-6), 0);
}

TEST(BlockDispatch, FirstWaveWaitsForTheBlocksStartedTogether) {
  // b = 10, 4 elapsed: all held SMs free at r = 6.
  EXPECT_DOUBLE_EQ(dispatch_wait_s(1, 10, 4, 5), 6);
  // Half held, 5 of work: 3 done on the free half by r = 6, 2 at full width after: ends at 8.
  EXPECT_DOUBLE_EQ(dispatch_wait_s(0.5, 10, 4, 5), 3);
  // Half held, 2 of work: done on the free half at 4, before r: a delay of 2.
  EXPECT_DOUBLE_EQ(dispatch_wait_s(0.5, 10, 4, 2), 2);
  EXPECT_DOUBLE_EQ(dispatch_wait_s(3, 10, 4, 5), 6);  // f clamped to 1
}

TEST(BlockDispatch, LaterWavesFreeTheHeldSmsOverOneBlock) {
  // A kernel longer than the ramp waits half a block for each held SM.
  EXPECT_DOUBLE_EQ(dispatch_wait_s(1, 10, 20, 8), 5);
  EXPECT_DOUBLE_EQ(dispatch_wait_s(0.5, 10, 20, 8), 2.5);
  // Short, all held: capacity t/b, done when t²/(2b) = 2: t = √40.
  EXPECT_NEAR(dispatch_wait_s(1, 10, 20, 2), std::sqrt(40.0) - 2, 1e-12);
  // Short, half held: 0.5·t + t²/40 = 1: t = 10·(√0.35 − 0.5)/0.5.
  EXPECT_NEAR(dispatch_wait_s(0.5, 10, 20, 1), 20 * (std::sqrt(0.35) - 0.5) - 1, 1e-12);
  // The two forms meet where the kernel just outlasts the ramp, own = b·(1 − f/2).
  EXPECT_NEAR(dispatch_wait_s(0.4, 10, 20, 8 - 1e-9), 2, 1e-8);
}

TEST(BlockDispatch, BlockTimeIsTheSoloTimeOverItsWaves) {
  DeviceRates d;
  d.sms = 132;
  d.peak_flops = 1e15;
  d.hbm_Bps = 4e12;
  d.eta_compute = 1;
  d.launch_s = 3e-6;
  KernelShape k;
  k.flops = 264e9;  // 0.264 ms on the whole GPU
  k.grid_blocks = 264;
  k.blocks_per_sm = 1;
  // Two full waves on 132 SMs: 0.132 ms each, launch excluded.
  EXPECT_NEAR(kernel_block_s(k, d, 132), 0.132e-3, 1e-12);
  // On 66 SMs: four waves of twice the time each → still 0.264 ms per two waves = 0.132 per wave.
  EXPECT_NEAR(kernel_block_s(k, d, 66), 0.132e-3, 1e-12);
}

}  // namespace
}  // namespace parallax
