// File: sim/policies/serverless/swap_executor_test.cpp
// Each loading path, run on SimPlatform without contention, against its closed form in
// models/swap_cost.h.
#include "sim/policies/serverless/swap_executor.h"

#include <gtest/gtest.h>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/serverless/node_links.h"
#include "sim/policies/serverless/serverless_test_machine.h"

namespace parallax {
namespace {

struct Recorder : ExecutorClient {
  Engine* engine = nullptr;
  Time transfer_done = Time::max(), job_done = Time::max();
  void on_transfer_done(GpuId) override { transfer_done = engine->now(); }
  void on_job_done(GpuId) override { job_done = engine->now(); }
};

// Runs `job` on GPU 1 alone; closed_form: through the closed-form path, with the job's route.
double run_job(ExecutorJob job, Recorder& rec, bool closed_form = false, const HardwareSpec& spec = serverless_test::machine(2)) {
  Engine engine;
  SimPlatform platform(engine, spec);
  rec.engine = &engine;
  const NodeLinks links = node_links(platform);
  SwapExecutor exec(platform, 1, rec, models::kSwapGroupBytes);
  job.closed_form = closed_form;
  if (closed_form && job.source != SwapSource::none)
    job.route = links.route(job.source == SwapSource::host ? platform.gpu_count() : job.source_index, 1);
  exec.start(job);
  EXPECT_TRUE(exec.busy());
  engine.run();
  EXPECT_FALSE(exec.busy());
  EXPECT_EQ(exec.closed_form_jobs(), closed_form ? 1u : 0u);
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

// Every loading path in closed form gives the platform path's times to the picosecond, on the
// test machine (zero latencies) and on Torpor's node (latencies, 16/25/50 GB/s links).
HardwareSpec v100_like() {
  HardwareSpec h = serverless_test::machine(2);
  for (LinkSpec& l : h.links) l.latency_s = 0.5e-6;
  for (GpuSpec& g : h.gpus) g.kernel_launch_s = 3e-6;
  return h;
}

TEST(SwapExecutor, ClosedFormEqualsThePlatformPathForEveryLoadingPath) {
  ServedModel m = serverless_test::model("m", ModelClass::light);
  m.layers.push_back({1 << 19, 0.0});        // a trailing layer without FLOPs
  m.param_bytes += 1 << 19;                   // and a short last group
  m.layer_group.clear();
  for (const HardwareSpec& spec : {serverless_test::machine(2), v100_like()}) {
    const std::vector<ExecutorJob> jobs{
        {&m, SwapSource::none, 0, true, Time::zero(), Time::zero(), -1, Time::zero()},
        {&m, SwapSource::host, 0, true, Time::us(90), Time::zero(), -1, Time::us(120)},
        {&m, SwapSource::host, 0, false, Time::us(90), Time::zero(), -1, Time::us(120)},
        {&m, SwapSource::peer, 0, true, Time::us(20), Time::zero(), -1, Time::zero()},
        {&m, SwapSource::none, 0, true, Time::zero(), Time::seconds(2), 0.004, Time::zero()}};
    for (const ExecutorJob& job : jobs) {
      Recorder ref, closed;
      run_job(job, ref, false, spec);
      run_job(job, closed, true, spec);
      EXPECT_EQ(closed.job_done, ref.job_done);
      EXPECT_EQ(closed.transfer_done, ref.transfer_done);
    }
  }
}

// A closed-form load's timeline is kept and shifted to later starts: the same job started again
// at an odd instant on the same executor ends exactly as long after its start as a fresh
// executor's platform path does, for the pipelined, whole and NVLink loads.
struct Restarter : CompletionListener, ExecutorClient {
  Engine* engine = nullptr;
  SwapExecutor* exec = nullptr;
  ExecutorJob job;
  Time started, done;
  void on_complete(uint64_t) override {
    started = engine->now();
    exec->start(job);
  }
  void on_transfer_done(GpuId) override {}
  void on_job_done(GpuId) override { done = engine->now(); }
};

TEST(SwapExecutor, AReusedClosedFormTimelineShiftsToItsStart) {
  const ServedModel m = serverless_test::model("m", ModelClass::light);
  const std::vector<ExecutorJob> jobs{{&m, SwapSource::host, 0, true, Time::us(90), Time::zero(), -1, Time::zero()},
                                      {&m, SwapSource::host, 0, false, Time::us(90), Time::zero(), -1, Time::zero()},
                                      {&m, SwapSource::peer, 0, true, Time::us(20), Time::zero(), -1, Time::zero()}};
  for (const HardwareSpec& spec : {serverless_test::machine(2), v100_like()}) {
    for (const ExecutorJob& job : jobs) {
      Recorder ref;
      run_job(job, ref, false, spec);
      Engine engine;
      SimPlatform platform(engine, spec);
      const NodeLinks links = node_links(platform);
      Restarter r;
      r.engine = &engine;
      SwapExecutor exec(platform, 1, r, models::kSwapGroupBytes);
      r.exec = &exec;
      r.job = job;
      r.job.closed_form = true;
      r.job.route = links.route(job.source == SwapSource::host ? platform.gpu_count() : job.source_index, 1);
      platform.call_at(Time::zero(), r, 0);
      engine.run();
      EXPECT_EQ(r.done - r.started, ref.job_done);
      platform.call_at(r.done + Time::ps(123'456'789), r, 0);  // again, later: the kept timeline
      engine.run();
      EXPECT_EQ(r.done - r.started, ref.job_done);
      EXPECT_EQ(exec.closed_form_jobs(), 2u);
    }
  }
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


// A load computed in closed form, then contended by its sibling from 0.3 ms on, moved onto the
// platform: both finish as when both ran on the platform throughout (to 1 ns: the group in
// flight is re-issued for its remaining bytes, rounded to a byte), and pay the same contended
// group overheads.
struct Starter : CompletionListener {
  SwapExecutor* exec = nullptr;
  SwapExecutor* materialise = nullptr;
  ExecutorJob job;
  void on_complete(uint64_t) override {
    if (materialise != nullptr) materialise->materialise();
    exec->start(job);
  }
};

TEST(SwapExecutor, AMaterialisedLoadFinishesAsOnThePlatform) {
  const ServedModel m = serverless_test::model("m", ModelClass::light);
  Time done[2][2];
  uint64_t contended[2] = {0, 0};
  for (int closed = 0; closed < 2; ++closed) {
    Engine engine;
    SimPlatform platform(engine, serverless_test::machine(2));
    const NodeLinks links = node_links(platform);
    Pair pair;
    pair.engine = &engine;
    SwapExecutor a(platform, 0, pair, models::kSwapGroupBytes), b(platform, 1, pair, models::kSwapGroupBytes);
    a.set_pcie_sibling(&b);
    b.set_pcie_sibling(&a);
    ExecutorJob job{&m, SwapSource::host, 0, true, Time::us(50), Time::zero(), -1, Time::us(150)};
    ExecutorJob first = job;
    first.closed_form = closed == 1;
    first.route = links.route(2, 0);
    a.start(first);
    Starter starter;
    starter.exec = &b;
    starter.job = job;
    starter.materialise = closed == 1 ? &a : nullptr;
    platform.call_at(Time::us(300), starter, 0);
    engine.run();
    EXPECT_EQ(a.materialised_jobs(), closed == 1 ? 1u : 0u);
    done[closed][0] = pair.done[0];
    done[closed][1] = pair.done[1];
    contended[closed] = a.contended_groups() + b.contended_groups();
  }
  EXPECT_NEAR(done[1][0].to_seconds(), done[0][0].to_seconds(), 1e-9);
  EXPECT_NEAR(done[1][1].to_seconds(), done[0][1].to_seconds(), 1e-9);
  EXPECT_EQ(contended[1], contended[0]);
  EXPECT_GT(contended[0], 0u);
}

}  // namespace
}  // namespace parallax
