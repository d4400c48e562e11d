// File: sim/policies/training/every_rank_step_test.cpp
// The two training paths on one step: the builder's reduced graph (kind: training) against its
// every-rank graph written as Chakra ETs and read back (kind: chakra replays exactly that).
#include "sim/policies/training/every_rank_step.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/step_graph/step_graph_run.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/workload/chakra_reader.h"
#include "sim/workload/chakra_writer.h"

namespace parallax {
namespace {

double step_time_s(const HardwareSpec& hw, const StepGraph& g) {
  Engine engine;
  SimPlatform platform(engine, hw);
  StepGraphRun run(platform, g);
  run.start();
  engine.run();
  EXPECT_TRUE(run.finished());
  return step_summary(g, run).step_time_s;
}

TrainingStep small_step(const HardwareSpec& hw, int64_t tp, int64_t pp, int64_t dp, TrainingConfig& c) {
  c.model = {4, 2048, 16, 2048, 51200, {}};
  c.tp = tp;
  c.pp = pp;
  c.dp = dp;
  c.global_batch = 4 * dp;
  c.micro_batch = 1;
  TrainingPricing pricing;
  pricing.gpu = {device_rates_of(hw.gpus[0]), gpu_limits_for(hw.gpus[0].model), data_type("bf16")};
  pricing.tp_collective_s = [](CollectiveOp, double bytes) { return 10e-6 + bytes / 200e9; };
  return build_training_step(c, {1, PipelineSchedule::one_f_one_b, 1}, pricing);
}

// Exact, no tolerance: the every-rank graph and its ETs read back are the same graph in the same
// order, and the reduced graph gives the same step (simulated time is integer ticks): the other
// ranks' copies run on GPUs and links of their own (NVSwitch ports, one NIC rail per GPU), so they
// add no contention on these layouts.
void expect_paths_agree(const std::string& preset, int nodes, int64_t tp, int64_t pp, int64_t dp) {
  SCOPED_TRACE(fmt::format("{} x{} tp{} pp{} dp{}", preset, nodes, tp, pp, dp));
  HardwareSpec hw = load_hardware_preset(preset);
  hw.fabric.nodes = nodes;
  TrainingConfig c;
  const TrainingStep reduced = small_step(hw, tp, pp, dp, c);
  const TrainingStep full = every_rank_step(reduced, c);
  size_t compute = 0;
  for (const StepTask& t : full.graph.tasks) compute += t.kind == StepTask::Kind::compute;
  size_t reduced_compute = 0;
  for (const StepTask& t : reduced.graph.tasks) reduced_compute += t.kind == StepTask::Kind::compute;
  EXPECT_EQ(compute, reduced_compute * static_cast<size_t>(tp * dp));  // every GPU computes
  std::vector<ChakraRankTrace> ets;
  for (ChakraEtFile& et : chakra_ets_of(full.graph)) ets.push_back({"mem", std::move(et)});
  const StepGraph replay = step_graph_of_chakra(ets);
  ASSERT_EQ(replay.tasks.size(), full.graph.tasks.size());
  const double training_s = step_time_s(hw, reduced.graph), full_s = step_time_s(hw, full.graph);
  const double chakra_s = step_time_s(hw, replay);
  ::testing::Test::RecordProperty("training_s", fmt::format("{:.17g}", training_s));
  ::testing::Test::RecordProperty("chakra_s", fmt::format("{:.17g}", chakra_s));
  ::testing::Test::RecordProperty("tasks", fmt::format("{} reduced, {} every rank", reduced.graph.tasks.size(), full.graph.tasks.size()));
  EXPECT_GT(training_s, 0);
  EXPECT_EQ(chakra_s, full_s);
  EXPECT_EQ(chakra_s, training_s);
}

TEST(EveryRankStep, ChakraReplayOfTheStepMatchesTheTrainingStepOnOneNode) {
  expect_paths_agree("dgx-a100", 1, 2, 2, 2);
}

TEST(EveryRankStep, ChakraReplayOfTheStepMatchesTheTrainingStepOnTwoNodes) {
  expect_paths_agree("dgx-a100", 2, 4, 2, 2);  // stages on different nodes: the sends cross the fabric
}

TEST(EveryRankStep, RefusesATaskOffTheRepresentatives) {
  HardwareSpec hw = load_hardware_preset("dgx-a100");
  TrainingConfig c;
  TrainingStep s = small_step(hw, 2, 2, 2, c);
  for (StepTask& t : s.graph.tasks)
    if (t.kind == StepTask::Kind::compute) {
      t.rank = 1;
      break;
    }
  EXPECT_THROW(every_rank_step(s, c), std::invalid_argument);
}

}  // namespace
}  // namespace parallax
