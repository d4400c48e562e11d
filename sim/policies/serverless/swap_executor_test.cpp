// File: sim/policies/serverless/swap_executor_test.cpp
// Each loading path, run on SimPlatform without contention, against its closed form in
// models/swap_cost.h.
#include "sim/policies/serverless/swap_executor.h"

#include <gtest/gtest.h>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/serverless/serverless_test_machine.h"

namespace parallax {
namespace {

struct Recorder : ExecutorClient {
  Engine* engine = nullptr;
  Time transfer_done = Time::max(), job_done = Time::max();
  void on_transfer_done(GpuId) override { transfer_done = engine->now(); }
  void on_job_done(GpuId) override { job_done = engine->now(); }
};

double run_job(ExecutorJob job, Recorder& rec) {
  Engine engine;
  SimPlatform platform(engine, serverless_test::machine(2));
  rec.engine = &engine;
  SwapExecutor exec(platform, 1, rec, models::kSwapGroupBytes);
  exec.start(job);
  EXPECT_TRUE(exec.busy());
  engine.run();
  EXPECT_FALSE(exec.busy());
  return rec.job_done.to_seconds();
}

TEST(SwapExecutor, ResidentRunIsTheComputeTime) {
  const ServedModel m = serverless_test::model("m", ModelClass::light);
  Recorder rec;
  ExecutorJob job{&m, SwapSource::none, 0, true, Time::zero(), Time::zero(), -1, Time::zero()};
  EXPECT_NEAR(run_job(job, rec), models::resident_latency_s(m.layers), 1e-9);
}

TEST(SwapExecutor, PipelinedHostLoadMatchesTheRecursion) {
  // Groups of 2 MiB at 10 GB/s = 209.7 us each + 50 us overhead; layer 0 (3 MiB) waits for group
  // 1 at 519.4 us, runs 1 ms; layer 1 follows (0.5 ms); layer 2 needs group 3 (1.04 ms) -> compute
  // bound: 0.519 + 1 + 0.5 + 2 = 4.019 ms.
  const ServedModel m = serverless_test::model("m", ModelClass::light);
  Recorder rec;
  ExecutorJob job{&m, SwapSource::host, 0, true, Time::us(50), Time::zero(), -1, Time::zero()};
  const models::SwapPath path{10e9, 0, 50e-6, models::kSwapGroupBytes};
  EXPECT_NEAR(run_job(job, rec), models::pipelined_swap_latency_s(m.layers, path), 1e-9);
  EXPECT_NEAR(rec.job_done.to_seconds(), 0.0040194304, 1e-9);
  EXPECT_NEAR(rec.transfer_done.to_seconds(), models::swap_group_ready_s(m.layers, path).back(), 1e-9);
}

TEST(SwapExecutor, WholeHostLoadIsCopyThenCompute) {
  const ServedModel m = serverless_test::model("m", ModelClass::light);
  Recorder rec;
  ExecutorJob job{&m, SwapSource::host, 0, false, Time::us(50), Time::zero(), -1, Time::zero()};
  const models::SwapPath path{10e9, 0, 50e-6, models::kSwapGroupBytes};
  EXPECT_NEAR(run_job(job, rec), models::whole_swap_latency_s(m.layers, path), 1e-9);
}

TEST(SwapExecutor, PipelinedNvlinkLoadMatchesTheRecursion) {
  ServedModel m = serverless_test::model("m", ModelClass::heavy);
  m.layers = {{6 << 20, 0.1e-3}, {2 << 20, 0.1e-3}};  // transfer bound
  m.compute_s = 0.2e-3;
  Recorder rec;
  ExecutorJob job{&m, SwapSource::peer, 0, true, Time::us(20), Time::zero(), -1, Time::zero()};
  const models::SwapPath path{50e9, 0, 20e-6, models::kSwapGroupBytes};
  EXPECT_NEAR(run_job(job, rec), models::pipelined_swap_latency_s(m.layers, path), 1e-9);
}

TEST(SwapExecutor, DelayComesFirst) {
  const ServedModel m = serverless_test::model("m", ModelClass::light);
  Recorder rec;
  ExecutorJob job{&m, SwapSource::none, 0, true, Time::zero(), Time::seconds(2), 0.004, Time::zero()};
  EXPECT_NEAR(run_job(job, rec), 2.004, 1e-9);
}

struct Pair : ExecutorClient {
  Engine* engine = nullptr;
  Time done[2] = {Time::max(), Time::max()};
  void on_transfer_done(GpuId) override {}
  void on_job_done(GpuId g) override { done[g] = engine->now(); }
};

TEST(SwapExecutor, SiblingsLoadingTogetherPayTheContendedOverhead) {
  // GPUs 0 and 1 share a switch. Both load the same 4-group model at once: every group of both
  // finishes while the other is still loading, so all 8 groups pay the contended 150 us (the
  // last group of the later one may find the other done: at least 7).
  const ServedModel m = serverless_test::model("m", ModelClass::light);
  Engine engine;
  SimPlatform platform(engine, serverless_test::machine(2));
  Pair pair;
  pair.engine = &engine;
  SwapExecutor a(platform, 0, pair, models::kSwapGroupBytes), b(platform, 1, pair, models::kSwapGroupBytes);
  a.set_pcie_sibling(&b);
  b.set_pcie_sibling(&a);
  const ExecutorJob job{&m, SwapSource::host, 0, true, Time::us(50), Time::zero(), -1, Time::us(150)};
  a.start(job);
  b.start(job);
  EXPECT_TRUE(a.host_loading());
  engine.run();
  EXPECT_GE(a.contended_groups() + b.contended_groups(), 7u);
  // Alone the job takes 4.019 ms (PipelinedHostLoadMatchesTheRecursion); together it is slower.
  EXPECT_GT(pair.done[0].to_seconds(), 0.0040194304);
  EXPECT_FALSE(a.host_loading());
}

}  // namespace
}  // namespace parallax
