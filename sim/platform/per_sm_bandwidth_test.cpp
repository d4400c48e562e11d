// File: sim/platform/per_sm_bandwidth_test.cpp
// The per-SM DRAM bandwidth cap in SimPlatform (docs/platform.md "Per-SM bandwidth") on hand
// figures, and kernel_profile() as the one path from a KernelShape to what the platform runs: a
// kernel alone on a partition takes exactly models/kernel_time.h's T(s, β).
#include <gtest/gtest.h>

#include "models/kernel_time.h"
#include "sim/platform/anchor_topologies.h"
#include "sim/platform/sim_platform.h"

namespace parallax {
namespace {

struct Done final : CompletionListener {
  Engine* engine = nullptr;
  std::vector<std::pair<uint64_t, Time>> at;
  void on_complete(uint64_t tag) override { at.emplace_back(tag, engine->now()); }
};

// 100 SMs, 1 PFLOP/s, 1 TB/s of HBM; `bw_per_sm_Bps` per SM (0 = no cap).
HardwareSpec small_gpu(double bw_per_sm_Bps) {
  HardwareSpec spec = anchor_crossbar(1, 1e9, 0);
  spec.gpus[0].peak_flops = 1e15;
  spec.gpus[0].hbm_Bps = 1e12;
  spec.gpus[0].sms = 100;
  spec.gpus[0].bw_per_sm_Bps = bw_per_sm_Bps;
  return spec;
}

Time end_of(const Done& d, uint64_t tag) {
  for (const auto& [t, when] : d.at)
    if (t == tag) return when;
  ADD_FAILURE() << "no completion for tag " << tag;
  return Time::zero();
}

// Few SMs cannot saturate HBM: the grids on a partition together, and a grid of max_sms SMs, draw
// at most SMs·bw_per_SM (here 10 GB/s per SM: 100 SMs would reach 1 TB/s). A grid of 100 blocks
// (max_sms 100) on a partition of 20 SMs is held by the partition's SMs.
TEST(PerSmBandwidth, FewSmsDrawAtMostTheirPerSmBandwidth) {
  Engine engine;
  SimPlatform platform(engine, small_gpu(1e10));
  Done c;
  c.engine = &engine;
  // 20 SMs with half of HBM: min(0.5 TB/s, 20 x 10 GB/s) = 200 GB/s, so 1 GB takes 5 ms.
  const PartitionId p = platform.create_partition(0, {20, 0.5, "small"});
  platform.launch(0, p, {"stream", 0, 1e9, 100}, c, 1);
  engine.run();
  EXPECT_EQ(end_of(c, 1), Time::ms(5));
  // Resized to 80 SMs: the share binds again (0.5 TB/s < 800 GB/s): 2 ms.
  platform.resize_partition(p, {80, 0.5, ""});
  Time t0 = engine.now();
  platform.launch(0, p, {"stream", 0, 1e9, 100}, c, 2);
  engine.run();
  EXPECT_EQ(end_of(c, 2) - t0, Time::ms(2));
  // Back to 20 SMs, a kernel given as "all it is given" (max_sms 0) is not SM-capped
  // [simplification, docs/platform.md]: the share alone, 0.5 TB/s, 2 ms.
  platform.resize_partition(p, {20, 0.5, ""});
  t0 = engine.now();
  platform.launch(0, p, {"traffic", 0, 1e9, 0}, c, 4);
  engine.run();
  EXPECT_EQ(end_of(c, 4) - t0, Time::ms(2));
  // A 10-SM grid on the rest of the GPU: 100 GB/s, 10 ms; a full grid would take 1 ms.
  t0 = engine.now();
  platform.launch(0, kWholeGpu, {"narrow", 0, 1e9, 10}, c, 3);
  engine.run();
  EXPECT_EQ(end_of(c, 3) - t0, Time::ms(10));
}

// Two grids on one partition share its SMs' 200 GB/s (10 SMs at 20 GB/s): 1 GB each, 10 ms both.
TEST(PerSmBandwidth, GridsOnAPartitionShareItsSmBandwidth) {
  Engine engine;
  SimPlatform platform(engine, small_gpu(2e10));
  Done c;
  c.engine = &engine;
  const PartitionId p = platform.create_partition(0, {10, 1.0, "p"});
  platform.launch(0, p, {"x", 0, 1e9, 10}, c, 1);
  platform.launch(0, p, {"y", 0, 1e9, 10}, c, 2);
  engine.run();
  EXPECT_EQ(end_of(c, 1), Time::ms(10));
  EXPECT_EQ(end_of(c, 2), Time::ms(10));
}

// Two partitions water-fill HBM (20 GB/s per SM): "a" (20 SMs) is capped at 400 GB/s, "b"
// (60 SMs, 1.2 TB/s of SMs) gets the other 600 GB/s of the 1 TB/s. a's 1.2 GB end at 3 ms; b has
// moved 1.8 of its 3 GB by then and streams the last 1.2 GB at the full 1 TB/s: 4.2 ms.
TEST(PerSmBandwidth, TwoPartitionsWaterFillHbm) {
  Engine engine;
  SimPlatform platform(engine, small_gpu(2e10));
  Done c;
  c.engine = &engine;
  const PartitionId a = platform.create_partition(0, {20, 1.0, "a"});
  const PartitionId b = platform.create_partition(0, {60, 1.0, "b"});
  platform.launch(0, a, {"a", 0, 1.2e9, 100}, c, 1);
  platform.launch(0, b, {"b", 0, 3e9, 100}, c, 2);
  engine.run();
  EXPECT_EQ(end_of(c, 1), Time::ms(3));
  EXPECT_EQ(end_of(c, 2), Time::us(4200));
}

// A capped kernel leaves HBM to a co-runner on the same (whole-GPU) SM pool: a 10-SM grid draws
// 200 GB/s (1 GB: 5 ms) and the full-grid stream beside it the other 800 GB/s (4 of its 4.8 GB by
// 5 ms, the last 0.8 GB at 1 TB/s: 5.8 ms). Without the cap the two split HBM evenly: the narrow
// one ends at 2 ms; the wide one still at 5.8 ms (HBM is busy throughout either way).
TEST(PerSmBandwidth, ACappedKernelLeavesHbmToItsCoRunner) {
  for (const double bw : {2e10, 0.0}) {
    Engine engine;
    SimPlatform platform(engine, small_gpu(bw));
    Done c;
    c.engine = &engine;
    platform.launch(0, kWholeGpu, {"narrow", 0, 1e9, 10}, c, 1);
    platform.launch(0, kWholeGpu, {"wide", 0, 4.8e9, 0}, c, 2);
    engine.run();
    EXPECT_EQ(end_of(c, 1), bw > 0 ? Time::ms(5) : Time::ms(2)) << bw;
    EXPECT_EQ(end_of(c, 2), Time::us(5800)) << bw;
  }
}

// The cap is a bound on DRAM rate, not SM work: a memory-bound 10-SM grid (1e9 FLOP, 1 GB: 5 ms at
// 200 GB/s) takes from a compute kernel beside it only the 2e11 FLOP/s it does, not its 10 SMs'
// 1e14 FLOP/s (which folding the cap into FLOPs made it hold: 1.11 ms instead of 1.0002 ms), and
// its record carries its real FLOPs.
TEST(PerSmBandwidth, TheCapTakesNoSmThroughput) {
  Engine engine;
  ActivityLog log;
  SimPlatform platform(engine, small_gpu(2e10), &log);
  Done c;
  c.engine = &engine;
  platform.launch(0, kWholeGpu, {"narrow", 1e9, 1e9, 10}, c, 1);
  platform.launch(0, kWholeGpu, {"compute", 1e12, 0, 0}, c, 2);
  engine.run();
  EXPECT_EQ(end_of(c, 1), Time::ms(5));
  EXPECT_NEAR(end_of(c, 2).to_seconds(), 1e12 / (1e15 - 1e9 / 5e-3), 1e-12);
  ASSERT_EQ(log.records.size(), 2u);
  for (const ActivityRecord& r : log.records) EXPECT_EQ(r.flops, r.name == "narrow" ? 1e9 : 1e12) << r.name;
}

// kernel_profile(): FLOPs as peak-rate work F / (η_c·e) · q(s), bytes as they are, the SM count
// clamped to the grid's need, both stretched by a slowdown; nothing folded in for the cap.
TEST(PerSmBandwidth, KernelProfileCarriesTheShapeOnly) {
  const DeviceRates d{132, 989e12, 4.8e12, 20e9, 0.75, 0};
  const KernelShape k{1e12, 4e9, 200, 1, 0.8};
  const KernelProfile p = kernel_profile("k", k, d, 100);
  EXPECT_EQ(p.max_sms, 100);
  EXPECT_DOUBLE_EQ(p.flops, 1e12 / (0.75 * 0.8) * (2.0 * 100 / 200));  // two waves of 100 slots
  EXPECT_EQ(p.dram_bytes, 4e9);
  EXPECT_EQ(kernel_profile("k", k, d, 0).max_sms, 132);
  EXPECT_EQ(kernel_profile("k", {1e9, 0, 40, 1}, d, 100).max_sms, 40);  // the grid fills 40 SMs
  const KernelProfile slow = kernel_profile("k", k, d, 100, 1.5);
  EXPECT_DOUBLE_EQ(slow.flops, 1.5 * p.flops);
  EXPECT_DOUBLE_EQ(slow.dram_bytes, 1.5 * p.dram_bytes);
  EXPECT_THROW(kernel_profile("k", k, d, 100, 0.5), PlatformError);
}

// One path: kernel_profile() run alone on a partition of s SMs with share β takes exactly
// T(s, β) = max(T_comp(s), D / min(β·B, s·bw_per_SM)) of models/kernel_time.h, for compute- and
// memory-bound shapes, capped or not.
// With a smoothing exponent the same holds for the smoothed (T_comp^p + T_mem^p)^(1/p): the first
// shape on 8 SMs is near the ridge (T_comp/T_mem = 1.2, p = 3 adds 17 %), so a platform that
// ignored p would miss by that.
TEST(PerSmBandwidth, APartitionRunsTheKernelModelsTime) {
  for (double p_smooth : {0.0, 3.0}) {
    HardwareSpec spec = small_gpu(2e10);
    spec.gpus[0].kernel_smoothing_p = p_smooth;
    const DeviceRates d = device_rates_of(spec.gpus[0]);
    const KernelShape shapes[] = {{4e10, 1e8, 300, 2, 0.9}, {1e9, 2e9, 64, 1, 1.0}, {2e10, 5e9, 1000, 4, 0.7}};
    const std::pair<int, double> slices[] = {{8, 1.0}, {16, 0.25}, {50, 0.5}, {90, 1.0}};
    for (const KernelShape& k : shapes)
      for (const auto& [sms, beta] : slices) {
        Engine engine;
        SimPlatform platform(engine, spec);
        Done c;
        c.engine = &engine;
        const PartitionId p = platform.create_partition(0, {sms, beta, "p"});
        platform.launch(0, p, kernel_profile("k", k, d, sms), c, 0);
        engine.run();
        const double want = kernel_time_s(k, d, sms, beta);
        EXPECT_NEAR(end_of(c, 0).to_seconds() / want, 1.0, 1e-9)
            << k.grid_blocks << " on " << sms << " SMs, β " << beta << ", p " << p_smooth;
      }
  }
}

}  // namespace
}  // namespace parallax
