// File: sim/policies/training/pipeline_schedule_test.cpp
// The pipeline orders and their wiring, on passes of fixed length (timers) with free transfers:
// the idle share of every stage must be the textbook bubble.
#include "sim/policies/training/pipeline_schedule.h"

#include <gtest/gtest.h>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/step_graph/step_graph_run.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {
namespace {

// Runs `order` with forward passes of `fwd_s`, backward of `bwd_s` (per chunk), transfers free.
StepSummary run_order(const std::vector<std::vector<PipelineOp>>& order, int chunks, double fwd_s, double bwd_s) {
  StepGraph g;
  g.ranks = static_cast<int>(order.size());
  PipelineTasks tasks;
  tasks.pass = [&](int stage, const PipelineOp& op, std::vector<uint32_t> deps) {
    StepTask t;
    t.kind = StepTask::Kind::delay;
    t.rank = stage;
    t.delay_s = op.backward ? bwd_s : fwd_s;
    t.deps = std::move(deps);
    g.tasks.push_back(t);
    return static_cast<uint32_t>(g.tasks.size() - 1);
  };
  tasks.transfer = [](int, int, const PipelineOp&, uint32_t after) { return after; };
  wire_pipeline(order, chunks, tasks);
  Engine engine;
  SimPlatform hw(engine, load_hardware_preset("dgx-a100"));
  StepGraphRun run(hw, g);
  run.start();
  engine.run();
  EXPECT_TRUE(run.finished());
  return step_summary(g, run);
}

TEST(PipelineSchedule, OneFOneBOrderOfTheLastAndFirstStage) {
  const auto order = pipeline_order(PipelineSchedule::one_f_one_b, 4, 6, 1);
  // The last stage alternates from the start; the first warms up with p-1 = 3 forwards.
  EXPECT_FALSE(order[3][0].backward);
  EXPECT_TRUE(order[3][1].backward);
  EXPECT_FALSE(order[0][2].backward);
  EXPECT_FALSE(order[0][3].backward);
  EXPECT_TRUE(order[0][4].backward);
  EXPECT_EQ(order[0].size(), 12u);
}

TEST(PipelineSchedule, BubbleOfOneFOneBAndGPipeIsPMinusOneOverMPlusPMinusOne) {
  for (const PipelineSchedule s : {PipelineSchedule::one_f_one_b, PipelineSchedule::gpipe}) {
    const int p = 4, m = 8;
    const StepSummary r = run_order(pipeline_order(s, p, m, 1), 1, 1e-3, 2e-3);
    EXPECT_NEAR(r.step_time_s, (m + p - 1) * 3e-3, 1e-9) << to_string(s);
    for (const RankTime& t : r.ranks) EXPECT_NEAR(t.idle_s / r.step_time_s, (p - 1.0) / (m + p - 1.0), 1e-9);
  }
}

TEST(PipelineSchedule, InterleavingDividesTheBubbleByV) {
  const int p = 4, m = 8, v = 2;
  // A chunk holds half the layers: passes of half the time.
  const StepSummary r = run_order(pipeline_order(PipelineSchedule::interleaved, p, m, v), v, 0.5e-3, 1e-3);
  const double work = m * 3e-3;
  EXPECT_NEAR(r.step_time_s, work + (p - 1) * 3e-3 / v, 1e-9);
  for (const RankTime& t : r.ranks) EXPECT_NEAR(t.idle_s / r.step_time_s, (p - 1.0) / (v * m + p - 1.0), 1e-9);
}

TEST(PipelineSchedule, InterleavedOrderRunsEveryChunkOfEveryMicroBatchOnce) {
  const int p = 4, m = 8, v = 3;
  const auto order = pipeline_order(PipelineSchedule::interleaved, p, m, v);
  for (const auto& ops : order) {
    std::vector<int> seen(static_cast<size_t>(2 * m * v), 0);
    for (const PipelineOp& op : ops) ++seen[static_cast<size_t>((op.backward ? m * v : 0) + op.chunk * m + op.microbatch)];
    for (int n : seen) EXPECT_EQ(n, 1);
  }
  EXPECT_THROW(pipeline_order(PipelineSchedule::interleaved, 4, 6, 2), std::invalid_argument);  // m % p != 0
  EXPECT_THROW(pipeline_order(PipelineSchedule::interleaved, 4, 8, 1), std::invalid_argument);
}

}  // namespace
}  // namespace parallax
