// File: sim/policies/training/moe_step_test.cpp
// Mixture-of-experts layers with expert parallelism (training_config.h MoeConfig, ep) on hand
// cases: the all-to-all bytes and the expert capacity, where the experts and their all-to-alls
// go, the gradient groups, memory, FLOPs, and the layouts the builder refuses.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/policies/training/every_rank_step.h"
#include "sim/policies/training/training_step.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {
namespace {

// 4 layers (MoE at 1 and 3), 8 experts top-2, capacity 1.25; tp 2 × pp 1 × dp 4, ep 2: 8 GPUs.
TrainingConfig moe_gpt(int64_t tp = 2, int64_t dp = 4, int64_t ep = 2) {
  TrainingConfig c;
  c.model = {4, 1024, 16, 1024, 51200, {}};
  c.model.moe = {8, 2, 2, 1.25};
  c.tp = tp;
  c.dp = dp;
  c.ep = ep;
  c.global_batch = 2 * dp;
  c.micro_batch = 1;
  return c;
}

TrainingPricing pricing_of(const HardwareSpec& hw) {
  TrainingPricing p;
  p.gpu = {device_rates_of(hw.gpus[0]), gpu_limits_for(hw.gpus[0].model), data_type("bf16")};
  p.tp_collective_s = [](CollectiveOp, double bytes) { return 10e-6 + bytes / 200e9; };
  return p;
}

TEST(MoeStep, AllToAllBytesAndCapacityAreTheHandFormulas) {
  const GptModelConfig m = moe_gpt().model;
  // A rank's tokens are its sequence shard, 1024·2/2 = 1024: each sends 1024·k·h·2 bytes·c in all.
  EXPECT_DOUBLE_EQ(moe_all_to_all_bytes(m, 2, 2, 2), 1024.0 * 2 * 1024 * 2 * 1.25);
  // An expert's slots: ⌈c·k·tokens of the EP group / E⌉ = ⌈1.25·2·(1024·2·2)/8⌉ = 1280.
  EXPECT_EQ(expert_capacity(m, 2, 2), 1280);
  GptModelConfig odd = m;
  odd.moe.capacity_factor = 1.1;  // 1.1·2·4096/8 = 1126.4: rounded up
  EXPECT_EQ(expert_capacity(odd, 2, 2), 1127);
}

TEST(MoeStep, ExpertFlopsCountTheCapacityOnTheLocalExperts) {
  const HardwareSpec hw = load_hardware_preset("dgx-a100");
  const KernelMachine gpu = pricing_of(hw).gpu;
  const GptModelConfig m = moe_gpt().model;
  const auto flops = [](const LayerPass& p) {
    double f = 0;
    for (const LayerStep& s : p.steps) f += s.flops;
    return f;
  };
  const std::vector<LayerPass> fwd = moe_layer_forward(m, 1, 2, 2, gpu);
  ASSERT_EQ(fwd.size(), 3u);
  // The experts' piece: 4 local experts × 640 slots, fc1 and fc2 of 2·slots·4h·h/t each.
  const double slots = 4.0 * expert_capacity(m, 1, 2), h = 1024, t = 2, s = 1024;
  EXPECT_DOUBLE_EQ(flops(fwd[1]), 2 * 2 * slots * 4 * h * h / t);
  // The first piece: the attention half (8·s·h² + 4·s²·h)/t and the router, 2·(s/t)·E·h.
  EXPECT_DOUBLE_EQ(flops(fwd[0]), (8 * s * h * h + 4 * s * s * h) / t + 2 * (s / t) * 8 * h);
  EXPECT_DOUBLE_EQ(flops(fwd[2]), 0);
  // Backward: twice each; full recomputation adds the forward's pieces first (5 pieces).
  const std::vector<LayerPass> bwd = moe_layer_backward(m, 1, 2, 2, Recompute::none, gpu);
  ASSERT_EQ(bwd.size(), 3u);
  EXPECT_DOUBLE_EQ(flops(bwd[1]), 2 * flops(fwd[1]));
  EXPECT_DOUBLE_EQ(flops(bwd[2]), 2 * flops(fwd[0]));
  const std::vector<LayerPass> full = moe_layer_backward(m, 1, 2, 2, Recompute::full, gpu);
  ASSERT_EQ(full.size(), 5u);
  EXPECT_DOUBLE_EQ(flops(full[0]), flops(fwd[0]));
  EXPECT_DOUBLE_EQ(flops(full[1]), flops(fwd[1]));
}

TEST(MoeStep, StepFlopsCountTopKExpertsAndTheRouter) {
  // Per MoE layer and sequence: (k - 1)·16·s·h² more than a dense layer, plus 2·s·h·E; 3 passes.
  TrainingConfig c = moe_gpt();
  TrainingConfig dense = c;
  dense.model.moe = {};
  dense.ep = 1;
  const double B = 8, s = 1024, h = 1024, E = 8, moe_layers = 2;
  EXPECT_NEAR(megatron_step_flops(c, false) - megatron_step_flops(dense, false),
              3 * moe_layers * B * (16 * s * h * h + 2 * s * h * E), 1);
  c.model.moe.top_k = 1;  // top-1 (Switch): the FFN FLOPs of a dense layer, plus the router
  EXPECT_NEAR(megatron_step_flops(c, false) - megatron_step_flops(dense, false), 3 * moe_layers * B * 2 * s * h * E, 1);
}

TEST(MoeStep, MemoryHoldsTheLocalExperts) {
  TrainingConfig c = moe_gpt();
  const double h = 1024, t = 2, E = 8, e = 2, V = 51200, s = 1024;
  const double experts = 2 * (E / e) * (8 * h * h + 5 * h) / t;            // 2 MoE layers
  const double dense = 2 * (12 * h * h + 13 * h) / t + 2 * ((4 * h * h + 8 * h) / t + h * E) + V * h / t + s * h + 2 * h;
  std::vector<StageMemory> mem = training_memory(c, 1, PipelineSchedule::one_f_one_b, 1);
  EXPECT_NEAR(mem[0].expert_parameters, experts, 1e-6);
  EXPECT_NEAR(mem[0].parameters, dense + experts, 1e-6);
  EXPECT_NEAR(mem[0].weights_bytes, 2 * (dense + experts), 1e-3);
  EXPECT_NEAR(mem[0].optimizer_bytes, 12 * (dense + experts), 1e-3);
  // The distributed optimizer: dense state over dp 4, the experts' over the dp/ep = 2 replicas
  // that hold them.
  c.gradient_reduce = GradientReduce::reduce_scatter;
  mem = training_memory(c, 1, PipelineSchedule::one_f_one_b, 1);
  EXPECT_NEAR(mem[0].optimizer_bytes, 12 * dense / 4 + 12 * experts / 2, 1e-3);
  // Activations: per MoE layer s·b·h·(21·k·c − 19)/t + 4·s·b·E/t over a dense layer (selective).
  c.recompute = Recompute::selective;
  TrainingConfig d = c;
  d.model.moe = {};
  d.ep = 1;
  const double extra = s * h * (21 * 2 * 1.25 - 19) / t + 4 * s * E / t;
  EXPECT_NEAR(training_memory(c, 1, PipelineSchedule::one_f_one_b, 1)[0].activations_bytes -
                  training_memory(d, 1, PipelineSchedule::one_f_one_b, 1)[0].activations_bytes,
              2 * extra, 1e-3);
  EXPECT_NEAR(model_parameters(c.model) - model_parameters(d.model), 2 * ((E - 1) * (8 * h * h + 5 * h) + h * E), 1e-3);
}

TEST(MoeStep, AllToAllsRunOnTheEpGroupsAndGradientsOnTheirReplicas) {
  HardwareSpec hw = load_hardware_preset("dgx-a100");
  hw.fabric.nodes = 2;
  TrainingConfig c = moe_gpt(2, 4, 2);  // rank = i + 2·j: EP groups {i, i+2}, {i+4, i+6}
  c.gradient_bucket_bytes = 1e12;       // one bucket each
  const TrainingStep step = build_training_step(c, {1, PipelineSchedule::one_f_one_b, 1}, pricing_of(hw));
  std::map<std::string, int> kinds;
  for (const StepTask& t : step.graph.tasks) {
    if (t.kind == StepTask::Kind::compute) {
      EXPECT_EQ(t.rank, 0) << t.label;
    }
    if (t.kind != StepTask::Kind::collective) continue;
    if (t.op == CollectiveOp::all_to_all) {
      ++kinds["a2a"];
      const int i = t.group[0];
      EXPECT_EQ(t.group, (std::vector<int>{i, i + 2})) << t.label;  // replicas 0 and 1 of TP rank i
      EXPECT_DOUBLE_EQ(t.bytes, moe_all_to_all_bytes(c.model, 1, 2, 2));
    } else if (t.label.find(".edp.") != std::string::npos) {
      ++kinds["expert"];
      const int first = t.group[0];
      EXPECT_EQ(t.group, (std::vector<int>{first, first + 4})) << t.label;  // replicas r and r + ep
      EXPECT_DOUBLE_EQ(t.bytes, 2 * 2 * moe_layer_parameters(c).expert);
    } else if (t.label.find(".dp.") != std::string::npos) {
      ++kinds["dense"];
      EXPECT_EQ(t.group.size(), 4u) << t.label;
    }
  }
  // 2 micro-batches × 2 MoE layers × (2 forward + 2 backward) all-to-alls × 2 TP ranks.
  EXPECT_EQ(kinds["a2a"], 2 * 2 * 4 * 2);
  EXPECT_EQ(kinds["expert"], 2 * 2);  // one bucket × 2 TP ranks × ep 2 expert shards
  EXPECT_EQ(kinds["dense"], 2);       // one bucket × 2 TP ranks
  // Full recomputation runs the forward's two all-to-alls again in the backward.
  c.recompute = Recompute::full;
  const TrainingStep full = build_training_step(c, {1, PipelineSchedule::one_f_one_b, 1}, pricing_of(hw));
  EXPECT_EQ(std::count_if(full.graph.tasks.begin(), full.graph.tasks.end(),
                          [](const StepTask& t) { return t.op == CollectiveOp::all_to_all && t.kind == StepTask::Kind::collective; }),
            2 * 2 * 6 * 2);
  // The step runs on the cluster; the every-rank graph runs each EP block's all-to-all (dp/ep = 2).
  Engine engine;
  SimPlatform platform(engine, hw);
  StepGraphRun run(platform, step.graph);
  run.start();
  engine.run();
  ASSERT_TRUE(run.finished());
  EXPECT_GT(training_metrics(c, step, run).step_time_s, 0);
  const TrainingStep every = every_rank_step(step, c);
  size_t a2a = 0;
  for (const StepTask& t : every.graph.tasks)
    if (t.kind == StepTask::Kind::collective && t.op == CollectiveOp::all_to_all) {
      ++a2a;
      EXPECT_EQ(t.group[1] - t.group[0], 2);
    }
  EXPECT_EQ(a2a, 2u * static_cast<size_t>(kinds["a2a"]));
}

TEST(MoeStep, AnAllToAllCostsWhatThePlatformGivesTheWholeGroup) {
  // A one-MoE-layer step with no TP and nothing else crossing the fabric at the time: the
  // dispatch all-to-all's span in the run is the platform's time for the 8-GPU group alone.
  HardwareSpec hw = load_hardware_preset("dgx-h100");
  hw.fabric.nodes = 8;
  TrainingConfig c;
  c.model = {1, 1024, 16, 1024, 51200, {}};
  c.model.moe = {8, 2, 1, 1.0};
  c.tp = 8;
  c.dp = 8;
  c.ep = 8;  // TP rank i's EP group: GPU i of each of the 8 nodes
  c.global_batch = 8;
  const TrainingStep step = build_training_step(c, {1, PipelineSchedule::one_f_one_b, 1}, pricing_of(hw));
  const auto dispatch = std::find_if(step.graph.tasks.begin(), step.graph.tasks.end(),
                                     [](const StepTask& t) { return t.label == "mb0.c0.layer0.fwd.a2a0.tp0"; });
  ASSERT_NE(dispatch, step.graph.tasks.end());
  EXPECT_EQ(dispatch->group, (std::vector<int>{0, 8, 16, 24, 32, 40, 48, 56}));
  // Alone: the same collective as the only task.
  StepGraph alone;
  alone.ranks = 64;
  StepTask a = *dispatch;
  a.deps.clear();
  alone.tasks.push_back(a);
  Engine engine;
  SimPlatform platform(engine, hw);
  StepGraphRun run(platform, alone);
  run.start();
  engine.run();
  ASSERT_TRUE(run.finished());
  const double alone_s = (run.finished_at() - run.started_at()).to_seconds();
  // Closed form for the pairwise exchange: 7 steps of S/8 per pair at one 400 Gb/s NIC, at least.
  EXPECT_GT(alone_s, 7 * (dispatch->bytes / 8) / 50e9);
  // In the step: the 8 TP ranks' all-to-alls run at once, each on its own rail.
  Engine e2;
  SimPlatform p2(e2, hw);
  StepGraphRun whole(p2, step.graph);
  whole.start();
  e2.run();
  ASSERT_TRUE(whole.finished());
  const double step_s = training_metrics(c, step, whole).step_time_s;
  EXPECT_GT(step_s, 4 * alone_s);  // the 4 all-to-alls of the layer are on the critical path
  // Each rail has its own NICs and leaf ports (8 nodes: one leaf group), so the dispatch takes in
  // the step what it takes alone.
  const auto id = static_cast<uint32_t>(dispatch - step.graph.tasks.begin());
  EXPECT_NEAR((whole.task_finish(id) - whole.task_start(id)).to_seconds(), alone_s, 1e-9);
}

TEST(MoeStep, RejectsLayoutsTheExpertsCannotBeSplitInto) {
  const TrainingPricing p = pricing_of(load_hardware_preset("dgx-a100"));
  const TrainingLayout l{1, PipelineSchedule::one_f_one_b, 1};
  EXPECT_THROW(build_training_step(moe_gpt(2, 4, 3), l, p), std::invalid_argument);  // ep 3 ∤ dp 4
  TrainingConfig c = moe_gpt(2, 4, 4);
  c.model.moe.experts = 6;  // 6 experts over ep 4
  EXPECT_THROW(build_training_step(c, l, p), std::invalid_argument);
  c = moe_gpt();
  c.model.moe.every = 3;  // 4 layers: not a whole number of MoE periods
  EXPECT_THROW(build_training_step(c, l, p), std::invalid_argument);
  c = moe_gpt();
  c.model.moe = {};
  EXPECT_THROW(build_training_step(c, l, p), std::invalid_argument);  // ep 2 without experts
}

}  // namespace
}  // namespace parallax
