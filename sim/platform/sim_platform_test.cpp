// File: sim/platform/sim_platform_test.cpp
// SimPlatform against closed forms: the SimGrid anchor's ring and hybrid workloads (their
// analytic makespans, ../shared/anchors/simgrid/README.md), kernels against the roofline,
// partitions, memory capacity and routing preferences.
#include "sim/platform/sim_platform.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "sim/platform/anchor_topologies.h"

namespace parallax {
namespace {

struct Counter final : CompletionListener {
  Engine* engine = nullptr;
  std::vector<std::pair<uint64_t, Time>> done;
  void on_complete(uint64_t tag) override { done.emplace_back(tag, engine->now()); }
};

double ring_makespan(int p, int64_t bytes) {
  Engine engine;
  SimPlatform platform(engine, anchor_crossbar(p, 300e9, 1e-6));
  Counter c;
  c.engine = &engine;
  std::vector<GpuId> group(p);
  std::iota(group.begin(), group.end(), 0);
  platform.collective(CollectiveOp::all_reduce, group, Bytes(bytes), CollectiveAlgo::ring, c, 7);
  engine.run();
  EXPECT_EQ(c.done.size(), 1u);
  EXPECT_EQ(platform.activities_finished(), static_cast<uint64_t>(2 * p * (p - 1)) + 1);
  return c.done.at(0).second.to_seconds();
}

// T_ring = 2(P-1) * (2*LAT + c/BW), c = floor(BYTES/P)
TEST(SimPlatformAnchor, RingAllReduceMatchesClosedForm) {
  for (int p : {2, 8, 64}) {
    const int64_t bytes = 1ll << 30;
    const double c = static_cast<double>(bytes / p);
    const double analytic = 2.0 * (p - 1) * (2e-6 + c / 300e9);
    EXPECT_NEAR(ring_makespan(p, bytes) / analytic - 1, 0, 1e-7) << "P=" << p;
  }
  // The anchor's own figure for P=8: 6.291493973333e-03 s.
  EXPECT_NEAR(ring_makespan(8, 1ll << 30) / 6.291493973333e-03 - 1, 0, 1e-7);
}

double hybrid_makespan(int64_t bytes, bool shared_uplink) {
  Engine engine;
  SimPlatform platform(engine, anchor_hybrid(8, shared_uplink));
  Counter c;
  c.engine = &engine;
  std::vector<GpuId> group{0, 1, 2, 3, 4, 5, 6, 7};
  platform.collective(CollectiveOp::all_reduce, group, Bytes(bytes), CollectiveAlgo::ring, c, 0);
  engine.run();
  return c.done.at(0).second.to_seconds();
}

// T_hybrid = 2(P-1) * (3*LAT + c/min(BW_PCIE, BW_UP[/2 if shared]))
TEST(SimPlatformAnchor, HybridRingMatchesClosedForm) {
  for (int64_t bytes : {int64_t{1} << 20, int64_t{64} << 20, int64_t{1} << 30}) {
    const double c = static_cast<double>(bytes / 8);
    const double full = 14 * (3e-6 + c / 25e9);
    const double shared = 14 * (3e-6 + c / 12.5e9);
    EXPECT_NEAR(hybrid_makespan(bytes, false) / full - 1, 0, 1e-7) << bytes;
    EXPECT_NEAR(hybrid_makespan(bytes, true) / shared - 1, 0, 1e-7) << bytes;
  }
  EXPECT_NEAR(hybrid_makespan(1 << 20, false) / 1.154003200000e-04 - 1, 0, 1e-7);
  EXPECT_NEAR(hybrid_makespan(1ll << 30, true) / 1.503658553600e-01 - 1, 0, 1e-7);
}

TEST(SimPlatform, RoutesPreferNvlinkAndNeverCrossAGpu) {
  HardwareSpec spec = anchor_hybrid(8, false);
  Topology topo(spec);
  // Pair partners: the bridge (one hop, 1 us).
  auto r01 = topo.route(0, 1);
  ASSERT_EQ(r01.directions.size(), 1u);
  EXPECT_EQ(topo.directions()[r01.directions[0]].kind, LinkKind::nvlink);
  // 0 -> 3 must not go 0 -> 1 (NVLink) -> switch -> 3: GPUs do not forward.
  auto r03 = topo.route(0, 3);
  EXPECT_EQ(r03.directions.size(), 2u);
  EXPECT_EQ(r03.latency, Time::us(2));
  // Across the switches: pcie up, uplink, pcie down.
  EXPECT_EQ(topo.route(1, 6).latency, Time::us(3));
}

TEST(SimPlatform, BridgedPairsHaveNvlinkThenPcieAndCopiesUseBothAtOnce) {
  HardwareSpec spec = anchor_hybrid(8, false);
  Topology topo(spec);
  // Pair partners: the bridge, then PCIe through their switch; nothing else is disjoint.
  const auto r01 = topo.routes(0, 1);
  ASSERT_EQ(r01.size(), 2u);
  EXPECT_EQ(r01[0].directions, topo.route(0, 1).directions);
  ASSERT_EQ(r01[1].directions.size(), 2u);
  EXPECT_EQ(topo.directions()[r01[1].directions[0]].kind, LinkKind::pcie);
  // Not partners: the one PCIe route (through the switch, or the uplink across switches).
  EXPECT_EQ(topo.routes(0, 3).size(), 1u);
  EXPECT_EQ(topo.routes(1, 6).size(), 1u);

  Engine engine;
  SimPlatform platform(engine, spec);
  const std::vector<Path> paths = platform.paths(Endpoint::gpu(0), Endpoint::gpu(1));
  ASSERT_EQ(paths.size(), 2u);
  EXPECT_TRUE(paths[0].only(LinkKind::nvlink));
  EXPECT_TRUE(paths[1].only(LinkKind::pcie));
  EXPECT_FALSE(paths[0].shares_with(paths[1]));
  EXPECT_DOUBLE_EQ(paths[1].bottleneck_Bps(), 25e9);
  // 56 GB over NVLink and 25 GB over PCIe at once: both take one second after their latency.
  Counter c;
  c.engine = &engine;
  platform.copy_over(Endpoint::gpu(0), Endpoint::gpu(1), 0, Bytes(56'000'000'000), c, 1);
  platform.copy_over(Endpoint::gpu(0), Endpoint::gpu(1), 1, Bytes(25'000'000'000), c, 2);
  engine.run();
  ASSERT_EQ(c.done.size(), 2u);
  EXPECT_EQ(c.done[0].second, Time::us(1) + Time::seconds(1));
  EXPECT_EQ(c.done[1].second, Time::us(2) + Time::seconds(1));
  EXPECT_THROW(platform.copy_over(Endpoint::gpu(0), Endpoint::gpu(1), 2, Bytes(1), c, 3), PlatformError);
  EXPECT_THROW(platform.copy_over(Endpoint::gpu(0), Endpoint::gpu(3), 1, Bytes(1), c, 3), PlatformError);
}

TEST(SimPlatform, TwoCopiesShareALinkDirectionButNotTheReverse) {
  Engine engine;
  SimPlatform platform(engine, anchor_crossbar(3, 1e9, 0));
  Counter c;
  c.engine = &engine;
  platform.copy(Endpoint::gpu(0), Endpoint::gpu(2), Bytes(1'000'000'000), c, 1);
  platform.copy(Endpoint::gpu(1), Endpoint::gpu(2), Bytes(1'000'000'000), c, 2);  // shares gpu2's down link
  platform.copy(Endpoint::gpu(2), Endpoint::gpu(0), Bytes(1'000'000'000), c, 3);  // reverse: own capacity
  engine.run();
  ASSERT_EQ(c.done.size(), 3u);
  EXPECT_EQ(c.done[0], std::make_pair(uint64_t{3}, Time::seconds(1)));
  EXPECT_EQ(c.done[1].second, Time::seconds(2));
  EXPECT_EQ(c.done[2].second, Time::seconds(2));
}

TEST(SimPlatform, KernelFollowsTheRooflineAndSharesSms) {
  Engine engine;
  HardwareSpec spec = anchor_crossbar(1, 1e9, 0);
  spec.gpus[0].peak_flops = 1e15;
  spec.gpus[0].hbm_Bps = 1e12;
  spec.gpus[0].sms = 100;
  SimPlatform platform(engine, spec);
  Counter c;
  c.engine = &engine;
  // compute-bound: 1e12 flops / 1e15 = 1 ms (bytes would take 0.1 ms)
  platform.launch(0, kWholeGpu, {"gemm", 1e12, 1e8, 0}, c, 1);
  engine.run();
  EXPECT_EQ(c.done.at(0).second, Time::ms(1));
  // Two identical compute-bound kernels share the SMs: both end at 2 ms after start.
  const Time t0 = engine.now();
  platform.launch(0, kWholeGpu, {"a", 1e12, 0, 0}, c, 2);
  platform.launch(0, kWholeGpu, {"b", 1e12, 0, 0}, c, 3);
  engine.run();
  EXPECT_EQ(c.done.at(1).second - t0, Time::ms(2));
  EXPECT_EQ(c.done.at(2).second - t0, Time::ms(2));
  // A compute-bound and a memory-bound kernel complement each other: both at solo speed.
  const Time t1 = engine.now();
  platform.launch(0, kWholeGpu, {"compute", 1e12, 0, 0}, c, 4);
  platform.launch(0, kWholeGpu, {"memory", 0, 1e9, 0}, c, 5);
  engine.run();
  EXPECT_EQ(c.done.at(3).second - t1, Time::ms(1));
  EXPECT_EQ(c.done.at(4).second - t1, Time::ms(1));
  // A grid that fits on 25 of 100 SMs takes 4x its full-GPU time.
  const Time t2 = engine.now();
  platform.launch(0, kWholeGpu, {"small grid", 1e12, 0, 25}, c, 6);
  engine.run();
  EXPECT_EQ(c.done.at(5).second - t2, Time::ms(4));
}

TEST(SimPlatform, PartitionsReserveSmsAndCapBandwidth) {
  Engine engine;
  HardwareSpec spec = anchor_crossbar(1, 1e9, 0);
  spec.gpus[0].peak_flops = 1e15;
  spec.gpus[0].hbm_Bps = 1e12;
  spec.gpus[0].sms = 100;
  SimPlatform platform(engine, spec);
  Counter c;
  c.engine = &engine;
  PartitionId p = platform.create_partition(0, {20, 0.5, "LS"});
  platform.launch(0, p, {"ls", 1e12, 0, 0}, c, 1);           // 20 SMs: 5 ms
  platform.launch(0, kWholeGpu, {"be", 1e12, 0, 0}, c, 2);   // the other 80: 1.25 ms
  platform.launch(0, p, {"ls-mem", 0, 1e9, 0}, c, 3);        // half of HBM: 2 ms
  engine.run();
  ASSERT_EQ(c.done.size(), 3u);
  EXPECT_EQ(c.done[0], std::make_pair(uint64_t{2}, Time::us(1250)));
  EXPECT_EQ(c.done[1], std::make_pair(uint64_t{3}, Time::ms(2)));
  EXPECT_EQ(c.done[2], std::make_pair(uint64_t{1}, Time::ms(5)));
  EXPECT_THROW(platform.create_partition(0, {81, 1.0, "too big"}), PlatformError);
  platform.resize_partition(p, {50, 1.0, ""});
  EXPECT_THROW(platform.create_partition(0, {51, 1.0, "x"}), PlatformError);
}

// A long kernel beside short ones shares the SMs only while they run: with n 0.1 ms kernels
// launched beside a 10 ms one (all by time, whole GPU), the shorts end at 0.1·(n+1) ms and the long
// one at 10 + 0.1·n ms (it lost 0.1·n ms of solo progress), not later.
TEST(SimPlatform, ALongKernelSpeedsUpAgainWhenShortOnesFinish) {
  for (int n : {1, 2, 8}) {
    Engine engine;
    HardwareSpec spec = anchor_crossbar(1, 1e9, 0);
    spec.gpus[0].peak_flops = 1e15;
    spec.gpus[0].hbm_Bps = 1e12;
    spec.gpus[0].sms = 100;
    SimPlatform platform(engine, spec);
    Counter c;
    c.engine = &engine;
    platform.launch(0, kWholeGpu, {"long", 0, 0, 0, 10e-3}, c, 0);
    for (int i = 1; i <= n; ++i) platform.launch(0, kWholeGpu, {"short", 0, 0, 0, 0.1e-3}, c, static_cast<uint64_t>(i));
    engine.run();
    ASSERT_EQ(c.done.size(), static_cast<size_t>(n + 1));
    EXPECT_EQ(c.done.back(), std::make_pair(uint64_t{0}, Time::us(10000 + 100 * n))) << n;
    EXPECT_EQ(c.done.front().second, Time::us(100 * (n + 1))) << n;
  }
}

// Block dispatch (models/block_dispatch.h): a kernel launched onto SMs another kernel's blocks
// hold starts once they retire; then the two share the SMs by max-min. 100 SMs at 1e15 FLOP/s,
// no launch delay; "be" is 1 ms of compute on every SM.
struct LaunchAt final : CompletionListener {
  Platform* platform = nullptr;
  PartitionId partition = kWholeGpu;
  KernelProfile kernel;
  CompletionListener* done = nullptr;
  void on_complete(uint64_t tag) override { platform->launch(0, partition, kernel, *done, tag); }
};

std::vector<std::pair<uint64_t, Time>> dispatch_case(const KernelProfile& be, const KernelProfile& ls, Time ls_at,
                                                     bool ls_own_partition = false) {
  Engine engine;
  HardwareSpec spec = anchor_crossbar(1, 1e9, 0);
  spec.gpus[0].peak_flops = 1e15;
  spec.gpus[0].hbm_Bps = 1e12;
  spec.gpus[0].sms = 100;
  SimPlatform platform(engine, spec);
  Counter c;
  c.engine = &engine;
  LaunchAt l;
  l.platform = &platform;
  l.kernel = ls;
  l.done = &c;
  if (ls_own_partition) l.partition = platform.create_partition(0, {40, 1.0, "ls"});
  platform.launch(0, kWholeGpu, be, c, 0);
  platform.call_at(ls_at, l, 1);
  engine.run();
  return c.done;
}

TEST(SimPlatform, AKernelWaitsForTheBlocksHoldingItsSms) {
  const KernelProfile be{"be", 1e12, 0, 100, 0, 0.1e-3};  // ten 0.1 ms waves
  // Later waves, every SM held: LS (0.1 ms alone) waits half a block, 0.05 ms, then shares the
  // SMs: 0.2 ms at half speed, done at 0.75 ms; BE lost 0.1 ms of progress: done at 1.1 ms.
  auto d = dispatch_case(be, {"ls", 0.1e12, 0, 100, 0, 0.01e-3}, Time::us(500));
  ASSERT_EQ(d.size(), 2u);
  EXPECT_NEAR(d[0].second.to_seconds(), 0.75e-3, 1e-12);
  EXPECT_NEAR(d[1].second.to_seconds(), 1.1e-3, 1e-12);
  // First wave: BE's blocks all began at 0 and end at 0.4 ms; LS launched at 0.1 ms waits 0.3.
  auto first = dispatch_case({"be", 1e12, 0, 100, 0, 0.4e-3}, {"ls", 0.1e12, 0, 100, 0, 0.01e-3}, Time::us(100));
  EXPECT_NEAR(first.at(0).second.to_seconds(), 0.6e-3, 1e-12);
  // Without the wait (blocks not described) LS would share at once: done at 0.7 ms.
  auto none = dispatch_case(be, {"ls", 0.1e12, 0, 100, 0, 0}, Time::us(500));
  EXPECT_NEAR(none.at(0).second.to_seconds(), 0.7e-3, 1e-12);
}

TEST(SimPlatform, FreeSmsAndOtherPartitionsMeanNoDispatchWait) {
  // BE on 60 SMs leaves 40: LS on 40 starts at once (0.25 ms alone there), BE is not slowed.
  auto d = dispatch_case({"be", 1e12, 0, 60, 0, 0.1e-3}, {"ls", 0.1e12, 0, 40, 0, 0.01e-3}, Time::us(500));
  EXPECT_NEAR(d.at(0).second.to_seconds(), 0.75e-3, 1e-12);
  EXPECT_NEAR(d.at(1).second.to_seconds(), 1e-3 / 0.6, 1e-12);
  // 50 SMs beside BE's 60: 10 of its 50 are held (f = 0.2): waits 0.2·0.05 ms = 10 us.
  auto part = dispatch_case({"be", 1e12, 0, 60, 0, 0.1e-3}, {"ls", 0.1e12, 0, 50, 0, 0.01e-3}, Time::us(500));
  // LS on 50 SMs alone takes 0.2 ms; with BE's 60 the pool is oversubscribed (110 of 100): the
  // solver's max-min gives each 50 SMs' worth, so LS runs at full speed from 0.51 ms.
  EXPECT_NEAR(part.at(0).second.to_seconds(), 0.71e-3, 1e-12);
  // LS in its own partition never waits for whole-GPU kernels: BE's 60 SMs fit the 60 left.
  auto own = dispatch_case({"be", 1e12, 0, 60, 0, 0.1e-3}, {"ls", 0.1e12, 0, 40, 0, 0.01e-3}, Time::us(500), true);
  EXPECT_NEAR(own.at(0).second.to_seconds(), 0.75e-3, 1e-12);
}

TEST(SimPlatform, MemoryCapacityIsEnforced) {
  Engine engine;
  HardwareSpec spec = anchor_crossbar(2, 1e9, 0);
  spec.gpus[1].memory_bytes = int64_t{80} << 30;
  SimPlatform platform(engine, spec);
  auto a = platform.allocate(1, Bytes(int64_t{60} << 30));
  try {
    platform.allocate(1, Bytes(int64_t{30} << 30));
    FAIL() << "expected OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_STREQ(e.what(), "GPU 1 (bench-gpu): cannot allocate 30.00 GiB: 80.00 GiB capacity, 60.00 GiB in use");
  }
  platform.release(a);
  EXPECT_EQ(platform.memory_used(1).count(), 0);
  EXPECT_NO_THROW(platform.allocate(1, Bytes(int64_t{80} << 30)));
  EXPECT_THROW(platform.allocate(2, Bytes(1)), PlatformError);
}

// Copy engines: 4 engines of 10 GB/s per direction on a 100 GB/s link. One copy runs on one
// engine (10 GB/s: 1 GB in 100 ms); six at once share the 40 GB/s of all four (150 ms for 1 GB each).
TEST(SimPlatform, CopyEnginesBoundEachCopyAndShareTheirTotal) {
  Engine engine;
  HardwareSpec spec = anchor_crossbar(2, 100e9, 0);
  for (GpuSpec& g : spec.gpus) {
    g.copy_engines = 4;
    g.copy_engine_Bps = 10e9;
  }
  SimPlatform platform(engine, spec);
  Counter c;
  c.engine = &engine;
  platform.copy(Endpoint::gpu(0), Endpoint::gpu(1), Bytes(1'000'000'000), c, 1);
  engine.run();
  EXPECT_EQ(c.done.at(0).second, Time::ms(100));
  const Time t0 = engine.now();
  for (uint64_t i = 0; i < 6; ++i) platform.copy(Endpoint::gpu(0), Endpoint::gpu(1), Bytes(1'000'000'000), c, 10 + i);
  engine.run();
  ASSERT_EQ(c.done.size(), 7u);
  EXPECT_EQ(c.done.back().second - t0, Time::ms(150));
}

// A copy reads its source's HBM and writes its destination's, sharing HBM with the kernels there
// by max-min fairness (HBM 1 TB/s, links 4 TB/s so that HBM binds; at 1 TB/s a memory-bound kernel
// draws one byte per unit of its rate, as a copy does).
TEST(SimPlatform, CopiesShareHbmWithMemoryBoundKernels) {
  Engine engine;
  HardwareSpec spec = anchor_crossbar(2, 4e12, 0);
  for (GpuSpec& g : spec.gpus) {
    g.peak_flops = 1e15;
    g.hbm_Bps = 1e12;
    g.sms = 100;
  }
  SimPlatform platform(engine, spec);
  Counter c;
  c.engine = &engine;
  // Alone, a 1 GB copy is bound by the GPUs' HBM: 1 ms.
  platform.copy(Endpoint::gpu(0), Endpoint::gpu(1), Bytes(1'000'000'000), c, 1);
  engine.run();
  EXPECT_EQ(c.done.at(0).second, Time::ms(1));
  // Beside a memory-bound kernel on its source (1 ms alone): 0.5 TB/s each, both end at 2 ms.
  Time t0 = engine.now();
  platform.launch(0, kWholeGpu, {"mem", 0, 1e9, 0}, c, 2);
  platform.copy(Endpoint::gpu(0), Endpoint::gpu(1), Bytes(1'000'000'000), c, 3);
  engine.run();
  ASSERT_EQ(c.done.size(), 3u);
  EXPECT_EQ(c.done[1].second - t0, Time::ms(2));
  EXPECT_EQ(c.done[2].second - t0, Time::ms(2));
  // Water-filling on the destination: a kernel capped at a quarter of HBM keeps its 0.25 TB/s
  // (1 ms), the copy takes the other 0.75 TB/s, then all of it: 0.75 GB by 1 ms, 1.75 ms in all.
  t0 = engine.now();
  const PartitionId quarter = platform.create_partition(1, {50, 0.25, "quarter"});
  platform.launch(1, quarter, {"capped", 0, 0.25e9, 0}, c, 4);
  platform.copy(Endpoint::gpu(0), Endpoint::gpu(1), Bytes(1'500'000'000), c, 5);
  engine.run();
  ASSERT_EQ(c.done.size(), 5u);
  EXPECT_EQ(c.done[3], std::make_pair(uint64_t{4}, t0 + Time::ms(1)));
  EXPECT_EQ(c.done[4], std::make_pair(uint64_t{5}, t0 + Time::us(1750)));
  // A compute-bound kernel draws no HBM: the copy beside it keeps its 1 ms.
  t0 = engine.now();
  platform.launch(0, kWholeGpu, {"gemm", 1e12, 0, 0}, c, 6);
  platform.copy(Endpoint::gpu(0), Endpoint::gpu(1), Bytes(1'000'000'000), c, 7);
  engine.run();
  ASSERT_EQ(c.done.size(), 7u);
  EXPECT_EQ(c.done[5].second - t0, Time::ms(1));  // the kernel (1 ms alone)
  EXPECT_EQ(c.done[6], std::make_pair(uint64_t{7}, t0 + Time::ms(1)));
}

TEST(SimPlatform, TimersAndZeroByteCopies) {
  Engine engine;
  SimPlatform platform(engine, anchor_crossbar(2, 1e9, 1e-6));
  Counter c;
  c.engine = &engine;
  platform.call_at(Time::us(5), c, 1);
  platform.copy(Endpoint::gpu(0), Endpoint::gpu(1), Bytes(0), c, 2);
  engine.run();
  ASSERT_EQ(c.done.size(), 2u);
  EXPECT_EQ(c.done[0], std::make_pair(uint64_t{2}, Time::us(2)));  // two links of 1 us
  EXPECT_EQ(c.done[1], std::make_pair(uint64_t{1}, Time::us(5)));
}

// A copy issued every 0.5 us on a 2 us route: its latency lane never empties, so the lane
// drops its begun prefix while copies still wait behind it (more than 256 begun).
TEST(SimPlatform, AStreamOfCopiesBeginsInIssueOrderAfterItsLatency) {
  struct Issuer final : CompletionListener {
    SimPlatform* platform = nullptr;
    Counter* copies = nullptr;
    int issued = 0;
    void on_complete(uint64_t) override {
      platform->copy(Endpoint::gpu(0), Endpoint::gpu(1), Bytes(0), *copies, static_cast<uint64_t>(issued));
      if (++issued < 1000) platform->call_at(platform->now() + Time::ns(500), *this, 0);
    }
  };
  Engine engine;
  SimPlatform platform(engine, anchor_crossbar(2, 1e9, 1e-6));
  Counter c;
  c.engine = &engine;
  Issuer issuer;
  issuer.platform = &platform;
  issuer.copies = &c;
  platform.call_at(Time::zero(), issuer, 0);
  engine.run();
  ASSERT_EQ(c.done.size(), 1000u);
  for (size_t i = 0; i < c.done.size(); ++i)
    ASSERT_EQ(c.done[i], std::make_pair(uint64_t{i}, Time::ns(500) * static_cast<int64_t>(i) + Time::us(2))) << i;
}

// Completions that leave nothing running need no rates: the solver keeps the change until the
// next start, whose solve then covers both.
TEST(SimPlatform, AnIdlePlatformSolvesAtTheNextStart) {
  struct Later final : CompletionListener {
    SimPlatform* platform = nullptr;
    Counter* copies = nullptr;
    bool idle_and_unsolved = false;
    void on_complete(uint64_t) override {
      idle_and_unsolved = !platform->solve_due() && platform->solver().needs_solve();
      platform->copy(Endpoint::gpu(0), Endpoint::gpu(2), Bytes(1'000'000'000), *copies, 2);
      platform->copy(Endpoint::gpu(1), Endpoint::gpu(2), Bytes(1'000'000'000), *copies, 3);
    }
  };
  Engine engine;
  SimPlatform platform(engine, anchor_crossbar(3, 1e9, 0));
  Counter c;
  c.engine = &engine;
  Later later;
  later.platform = &platform;
  later.copies = &c;
  platform.copy(Endpoint::gpu(0), Endpoint::gpu(2), Bytes(1'000'000'000), c, 1);
  platform.call_at(Time::seconds(3), later, 0);
  engine.run();
  EXPECT_TRUE(later.idle_and_unsolved);
  ASSERT_EQ(c.done.size(), 3u);
  EXPECT_EQ(c.done[0], std::make_pair(uint64_t{1}, Time::seconds(1)));
  EXPECT_EQ(c.done[1].second, Time::seconds(5));  // the two share gpu2's down link
  EXPECT_EQ(c.done[2].second, Time::seconds(5));
  EXPECT_FALSE(platform.solve_due());
}

// Two GPUs behind one PCIe switch joined by an NVLink bridge, a third straight on the host; GPU 0
// has bounded copy engines.
HardwareSpec switch_and_bridge() {
  HardwareSpec spec = anchor_crossbar(3, 1e9, 0);
  spec.switches.clear();
  spec.links.clear();
  spec.hosts.push_back({});
  spec.switches.push_back({"sw0", NodeKind::pcie_switch});
  spec.links.push_back({"gpu0", "sw0", LinkKind::pcie, 32e9, 0.5e-6, true});
  spec.links.push_back({"gpu1", "sw0", LinkKind::pcie, 32e9, 0.5e-6, true});
  spec.links.push_back({"sw0", "host0", LinkKind::pcie, 32e9, 0.5e-6, true});
  spec.links.push_back({"gpu2", "host0", LinkKind::pcie, 16e9, 1e-6, true});
  spec.links.push_back({"gpu0", "gpu1", LinkKind::nvlink, 56e9, 1e-6, true});
  spec.gpus[0].copy_engine_Bps = 20e9;
  return spec;
}

TEST(SimPlatformPath, AnswersRoutesBottlenecksAndWhatPairsShare) {
  Engine engine;
  SimPlatform platform(engine, switch_and_bridge());
  // GPU 1 -> GPU 0 over the bridge (NVLink preferred), bounded by GPU 0's copy engine.
  const Path bridge = platform.path(Endpoint::gpu(1), Endpoint::gpu(0));
  EXPECT_TRUE(bridge.only(LinkKind::nvlink));
  ASSERT_EQ(bridge.links.size(), 2u);  // the NVLink direction and GPU 0's in-engines
  EXPECT_FALSE(bridge.links[0].copy_engine);
  EXPECT_DOUBLE_EQ(bridge.links[0].bandwidth_Bps, 56e9);
  EXPECT_TRUE(bridge.links[1].copy_engine);
  EXPECT_DOUBLE_EQ(bridge.bottleneck_Bps(), 20e9);
  EXPECT_EQ(bridge.latency, Time::us(1));
  // GPU 1 -> GPU 2: up through the switch and the host, 16 GB/s at GPU 2's link, 2 us.
  const Path across = platform.path(Endpoint::gpu(1), Endpoint::gpu(2));
  EXPECT_TRUE(across.only(LinkKind::pcie));
  EXPECT_FALSE(across.only(LinkKind::nvlink));
  EXPECT_EQ(across.links.size(), 3u);
  EXPECT_DOUBLE_EQ(across.bottleneck_Bps(), 16e9);
  EXPECT_EQ(across.latency, Time::us(2));
  // Host loads into GPUs 0 and 1 share the switch uplink; a load into GPU 2 shares nothing.
  const Path h0 = platform.path(Endpoint::host(0), Endpoint::gpu(0));
  const Path h1 = platform.path(Endpoint::host(0), Endpoint::gpu(1));
  const Path h2 = platform.path(Endpoint::host(0), Endpoint::gpu(2));
  EXPECT_TRUE(h0.shares_with(h1));
  EXPECT_FALSE(h0.shares_with(h2));
  EXPECT_FALSE(h1.shares_with(h2));
  // The opposite direction of a full-duplex link is its own resource.
  EXPECT_FALSE(platform.path(Endpoint::gpu(0), Endpoint::host(0)).shares_with(h0));
  // A lone copy moves at the path's bottleneck after its latency.
  Counter c;
  c.engine = &engine;
  platform.copy(Endpoint::host(0), Endpoint::gpu(2), Bytes(16'000'000'000), c, 1);
  engine.run();
  EXPECT_EQ(c.done.at(0).second, h2.latency + Time::seconds(1));
  EXPECT_THROW(platform.path(Endpoint::gpu(0), Endpoint::gpu(0)), PlatformError);
  EXPECT_THROW(platform.path(Endpoint::gpu(0), Endpoint::gpu(3)), PlatformError);
  EXPECT_THROW(platform.path(Endpoint::host(1), Endpoint::gpu(0)), PlatformError);
}

TEST(SimPlatform, KernelDescribedByTimeTakesItsTimeAndSharesSms) {
  Engine engine;
  HardwareSpec spec = anchor_crossbar(1, 1e9, 0);
  spec.gpus[0].peak_flops = 1e15;
  spec.gpus[0].hbm_Bps = 1e12;
  spec.gpus[0].sms = 100;
  spec.gpus[0].kernel_launch_s = 2e-6;
  SimPlatform platform(engine, spec);
  Counter c;
  c.engine = &engine;
  KernelProfile timed;
  timed.name = "layer";
  timed.solo_s = 1e-3;
  platform.launch(0, kWholeGpu, timed, c, 1);
  engine.run();
  // Its time already includes its launch (a fitted curve's overhead): no launch delay. A kernel
  // described by work pays the GPU's 2 µs before it starts.
  EXPECT_EQ(c.done.at(0).second, Time::us(1000));
  // Beside a compute kernel of the same solo time, both take twice as long: it is compute.
  const Time t0 = engine.now();
  platform.launch(0, kWholeGpu, timed, c, 2);
  platform.launch(0, kWholeGpu, {"gemm", 1e12, 0, 0}, c, 3);
  engine.run();
  // The timed kernel runs alone for the GEMM's 2 µs launch delay, then both at half speed.
  EXPECT_EQ(c.done.at(1).second - t0, Time::us(1998));
  EXPECT_EQ(c.done.at(2).second - t0, Time::us(2000));
  // Work derived from a fitted time (launch_included, the overlap runner's GEMMs) starts at once
  // too; the same work without the flag waits for the launch.
  KernelProfile fitted{"fitted", 1e12, 0, 0};
  fitted.launch_included = true;
  Time t2 = engine.now();
  platform.launch(0, kWholeGpu, fitted, c, 7);
  engine.run();
  EXPECT_EQ(c.done.at(3).second - t2, Time::us(1000));
  t2 = engine.now();
  platform.launch(0, kWholeGpu, {"gemm", 1e12, 0, 0}, c, 8);
  engine.run();
  EXPECT_EQ(c.done.at(4).second - t2, Time::us(1002));
  // On a quarter of the SMs it takes four times as long.
  const PartitionId quarter = platform.create_partition(0, {25, 1.0, "q"});
  const Time t1 = engine.now();
  platform.launch(0, quarter, timed, c, 4);
  engine.run();
  EXPECT_EQ(c.done.at(5).second - t1, Time::us(4000));
  KernelProfile both = timed;
  both.flops = 1e9;
  EXPECT_THROW(platform.launch(0, kWholeGpu, both, c, 5), PlatformError);
  timed.solo_s = -1;
  EXPECT_THROW(platform.launch(0, kWholeGpu, timed, c, 6), PlatformError);
}

TEST(SimPlatform, DescribesEachGpuForThePolicies) {
  Engine engine;
  HardwareSpec spec = anchor_crossbar(2, 1e9, 0);
  spec.gpus[0].model = "big";
  spec.gpus[0].kernel_launch_s = 3e-6;
  GpuPartitioning rules;
  rules.name = "big-rules";
  rules.models = {"big"};
  rules.green_min_sms = 8;
  SimPlatform platform(engine, spec, nullptr, {rules});
  const DeviceRates r = platform.device_rates(0);
  EXPECT_EQ(r.sms, spec.gpus[0].sms);
  EXPECT_DOUBLE_EQ(r.peak_flops, spec.gpus[0].peak_flops);
  EXPECT_DOUBLE_EQ(r.hbm_Bps, spec.gpus[0].hbm_Bps);
  EXPECT_DOUBLE_EQ(r.launch_s, 3e-6);
  EXPECT_DOUBLE_EQ(r.eta_compute, kPlannedComputeEfficiency);
  EXPECT_EQ(platform.partitioning(0).name, "big-rules");
  EXPECT_EQ(platform.partitioning(0).green_min_sms, 8);
  // GPU 1's model has no rules: a clear error naming it.
  try {
    platform.partitioning(1);
    ADD_FAILURE() << "no error";
  } catch (const PlatformError& e) {
    EXPECT_NE(std::string(e.what()).find(spec.gpus[1].model), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace parallax
