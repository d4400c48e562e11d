// File: models/gemm_cost_test.cpp
// Closed forms of models/gemm_cost.h on cases worked by hand (arithmetic in the comments).
#include "models/gemm_cost.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace parallax::models {
namespace {

GpuComputeParams header_example_a100() {
  GpuComputeParams p;
  p.sms = 108;
  p.peak_flops = 312e12;
  p.hbm_Bps = 2.039e12;
  p.tile_m = 128;
  p.tile_n = 128;
  p.eta_max = 0.75;
  p.k_half = 256;
  p.eta_mem = 0.8;
  p.overhead_s = 5e-6;
  return p;
}

// A toy GPU where each tile-wave takes exactly 1 µs and memory never matters:
// peak_per_sm = 2·128·128·1024 FLOP per µs at eta = 1 (k_half = 0).
GpuComputeParams toy_gpu(int64_t sms) {
  GpuComputeParams p;
  p.sms = sms;
  p.peak_flops = static_cast<double>(sms) * 2.0 * 128 * 128 * 1024 / 1e-6;
  p.hbm_Bps = 1e30;
  p.eta_max = 1.0;
  p.k_half = 0.0;
  p.eta_mem = 1.0;
  p.overhead_s = 0.0;
  return p;
}

TEST(GemmCost, HeaderWorkedExampleA100) {
  // m = n = k = 4096: tiles = 32·32 = 1024, waves = ceil(1024/108) = 10.
  // eta = 0.75·4096/4352 = 0.7058824; per wave 2·128·128·4096/(312e12/108 · 0.7058824)
  //     = 134217728 / 2.0392157e12 = 65.818 µs; compute = 658.18 µs.
  // memory = 2·3·4096² / (0.8·2.039e12) = 100663296 / 1.6312e12 = 61.711 µs.
  const GemmCostBreakdown c = gemm_cost({4096, 4096, 4096, 2}, header_example_a100());
  EXPECT_EQ(c.tiles, 1024);
  EXPECT_EQ(c.waves, 10);
  EXPECT_NEAR(c.efficiency, 0.7058824, 1e-7);
  EXPECT_NEAR(c.compute_s, 658.18e-6, 0.01e-6);
  EXPECT_NEAR(c.memory_s, 61.711e-6, 0.001e-6);
  EXPECT_FALSE(c.memory_bound);
  EXPECT_NEAR(c.total_s, 663.18e-6, 0.01e-6);
}

TEST(GemmCost, FlopsBytesTilesEfficiency) {
  const GemmShape s{100, 200, 300, 2};
  EXPECT_DOUBLE_EQ(gemm_flops(s), 2.0 * 100 * 200 * 300);                  // 12e6
  EXPECT_DOUBLE_EQ(gemm_bytes(s), 2.0 * (100 * 300 + 300 * 200 + 100 * 200));  // 220000
  GpuComputeParams p = header_example_a100();
  EXPECT_EQ(gemm_tiles(s, p), 1 * 2);  // ceil(100/128)·ceil(200/128)
  p.k_half = 300;                      // k = k_half → eta_max/2
  EXPECT_DOUBLE_EQ(gemm_efficiency(s, p), 0.375);
}

TEST(GemmCost, WaveQuantisationSteps) {
  // 4 SMs, tiles of 128×128, k = 1024: each wave is 1 µs.
  const GpuComputeParams gpu = toy_gpu(4);
  // m = 512, n = 128 → 4 tiles → 1 wave → 1 µs.
  EXPECT_NEAR(gemm_time_s({512, 128, 1024, 2}, gpu), 1e-6, 1e-15);
  // m = 513 → 5 tiles (the 5th padded) → 2 waves → 2 µs, the same as m = 1024 (8 tiles).
  EXPECT_NEAR(gemm_time_s({513, 128, 1024, 2}, gpu), 2e-6, 1e-15);
  EXPECT_NEAR(gemm_time_s({1024, 128, 1024, 2}, gpu), 2e-6, 1e-15);
  // m = 1025 → 9 tiles → 3 waves.
  EXPECT_EQ(gemm_cost({1025, 128, 1024, 2}, gpu).waves, 3);
  EXPECT_NEAR(gemm_time_s({1025, 128, 1024, 2}, gpu), 3e-6, 1e-15);
}

TEST(GemmCost, FewerSmsAddWaves) {
  // 8 tiles on an 8-SM toy GPU: 1 wave on 8 SMs, 2 on 4, ceil(8/3) = 3 on 3.
  const GpuComputeParams gpu = toy_gpu(8);
  const GemmShape s{1024, 128, 1024, 2};
  EXPECT_NEAR(gemm_time_on_sms_s(s, gpu, 8), 1e-6, 1e-15);
  EXPECT_NEAR(gemm_time_on_sms_s(s, gpu, 4), 2e-6, 1e-15);
  EXPECT_NEAR(gemm_time_on_sms_s(s, gpu, 3), 3e-6, 1e-15);
  EXPECT_THROW(gemm_cost_on_sms(s, gpu, 0), std::invalid_argument);
  EXPECT_THROW(gemm_cost_on_sms(s, gpu, 9), std::invalid_argument);
}

TEST(GemmCost, ExactlyOneFullWaveSpillsWhenCommTakesSms) {
  // REFERENCE.md §3.1: a GEMM sized to exactly 132 CTAs on H100 with 24 SMs given to NCCL spills
  // to a second wave and nearly doubles. 132 tiles = 12·11 tiles of 128×128.
  GpuComputeParams h100 = toy_gpu(132);
  const GemmShape s{12 * 128, 11 * 128, 1024, 2};
  const double alone = gemm_time_s(s, h100);
  const double shared = gemm_time_on_sms_s(s, h100, 132 - 24);
  EXPECT_EQ(gemm_cost(s, h100).waves, 1);
  EXPECT_EQ(gemm_cost_on_sms(s, h100, 108).waves, 2);
  EXPECT_DOUBLE_EQ(shared / alone, 2.0);
}

TEST(GemmCost, MemoryBoundDecode) {
  // m = 1, n = k = 4096 on the header A100: bytes = 2·(4096 + 4096² + 4096) = 33570816;
  // memory = 33570816 / 1.6312e12 = 20.580 µs; compute = 1 wave (32 tiles) of k = 4096 = 65.818 µs
  // → compute-bound in this model (a 128-row tile is padded); with tile_m = 16 it is
  // 65.818/8 = 8.227 µs and memory-bound: total = 5 + 20.580 µs.
  GpuComputeParams p = header_example_a100();
  EXPECT_FALSE(gemm_cost({1, 4096, 4096, 2}, p).memory_bound);
  p.tile_m = 16;
  const GemmCostBreakdown c = gemm_cost({1, 4096, 4096, 2}, p);
  EXPECT_TRUE(c.memory_bound);
  EXPECT_NEAR(c.compute_s, 8.2273e-6, 0.001e-6);
  EXPECT_NEAR(c.total_s, 25.580e-6, 0.001e-6);
}

TEST(GemmCost, RejectsBadInput) {
  const GpuComputeParams p = header_example_a100();
  EXPECT_THROW(gemm_time_s({0, 1, 1, 2}, p), std::invalid_argument);
  GpuComputeParams bad = p;
  bad.eta_max = 0;
  EXPECT_THROW(gemm_time_s({1, 1, 1, 2}, bad), std::invalid_argument);
}

}  // namespace
}  // namespace parallax::models
