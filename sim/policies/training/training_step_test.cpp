// File: sim/policies/training/training_step_test.cpp
// The training step's formulas on hand cases (FLOPs, memory) and its graph on a small cluster.
#include "sim/policies/training/training_step.h"

#include <gtest/gtest.h>

#include "sim/engine/engine.h"
#include "sim/platform/sim_platform.h"
#include "sim/scenario/scenario_loader.h"

namespace parallax {
namespace {

TrainingConfig gpt(int64_t layers, int64_t hidden, int64_t heads, int64_t tp, int64_t pp, int64_t dp, int64_t batch) {
  TrainingConfig c;
  c.model = {layers, hidden, heads, 2048, 51200, {}};
  c.tp = tp;
  c.pp = pp;
  c.dp = dp;
  c.global_batch = batch;
  c.micro_batch = 1;
  return c;
}

TEST(TrainingStep, FlopsAreNarayananEtAlsFormula) {
  // 96·B·s·L·h²·(1 + s/6h + V/16Lh) with full recomputation (SC'21, appendix), the 145B row.
  TrainingConfig c = gpt(80, 12288, 96, 8, 8, 24, 1536);
  c.recompute = Recompute::full;
  const double B = 1536, s = 2048, L = 80, h = 12288, V = 51200;
  const double paper = 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h));
  EXPECT_NEAR(megatron_step_flops(c, true) / paper, 1.0, 1e-12);
  // Without recomputation: 72·B·s·L·h²·(1 + s/6h + V/12Lh).
  EXPECT_NEAR(megatron_step_flops(c, false) / (72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * L * h))), 1.0, 1e-12);
}

TEST(TrainingStep, ActivationMemoryFollowsKorthikanti) {
  // One stage, one micro-batch in flight: activations = L · s·b·h·(34 + 5as/h)/t (no
  // recomputation), 34·s·b·h/t per layer (selective), plus the last stage's fp32 logits.
  TrainingConfig c = gpt(4, 1024, 16, 2, 1, 1, 1);
  const double s = 2048, h = 1024, a = 16, t = 2, V = 51200, logits = 4 * s * V / t;
  auto mem = training_memory(c, 1, PipelineSchedule::one_f_one_b, 1);
  EXPECT_NEAR(mem[0].activations_bytes, 4 * s * h * (34 + 5 * a * s / h) / t + logits, 1);
  c.recompute = Recompute::selective;
  mem = training_memory(c, 1, PipelineSchedule::one_f_one_b, 1);
  EXPECT_NEAR(mem[0].activations_bytes, 4 * 34 * s * h / t + logits, 1);
  // Weights, gradients and Adam: 2 + 2 + 12 bytes per parameter of the GPU's share.
  const double params = (4 * (12 * h * h + 13 * h) + V * h) / t + s * h + 2 * h;
  EXPECT_NEAR(mem[0].parameters, params, 1e-6);
  EXPECT_NEAR(mem[0].optimizer_bytes, 12 * params, 1);
  // 1F1B: the first of p stages holds p micro-batches, the last one.
  c = gpt(8, 1024, 16, 1, 4, 1, 16);
  mem = training_memory(c, 1, PipelineSchedule::one_f_one_b, 1);
  const double layer = s * h * (34 + 5 * a * s / h);
  EXPECT_NEAR(mem[0].activations_bytes, 4 * 2 * layer, 1);
  EXPECT_NEAR(mem[3].activations_bytes, 1 * 2 * layer + 4 * s * V, 1);
}

TEST(TrainingStep, GraphComputesOnOneGpuPerStageAndRunsOnTheCluster) {
  HardwareSpec hw = load_hardware_preset("dgx-a100");
  hw.fabric.nodes = 2;
  Engine engine;
  SimPlatform platform(engine, hw);
  TrainingConfig c = gpt(8, 2048, 16, 4, 2, 2, 16);  // 16 GPUs: 2 nodes
  TrainingPricing pricing;
  pricing.gpu = {platform.device_rates(0), gpu_limits_for(platform.gpu(0).model), data_type("bf16")};
  pricing.tp_collective_s = [](CollectiveOp, double bytes) { return 10e-6 + bytes / 200e9; };
  const TrainingStep step = build_training_step(c, {1, PipelineSchedule::one_f_one_b, 1}, pricing);
  EXPECT_EQ(step.graph.ranks, 16);
  EXPECT_EQ(step.stage_ranks, (std::vector<int>{0, 8}));
  EXPECT_EQ(step.microbatches, 8);
  size_t dp_collectives = 0;
  for (const StepTask& t : step.graph.tasks) {
    if (t.kind == StepTask::Kind::compute) {
      EXPECT_TRUE(t.rank == 0 || t.rank == 8) << t.label;
    }
    if (t.kind == StepTask::Kind::collective && t.label.find(".dp.") != std::string::npos) {
      ++dp_collectives;
      ASSERT_EQ(t.group.size(), 2u);
      EXPECT_EQ(t.group[1] - t.group[0], 4);  // the same TP rank of the other replica
    }
  }
  EXPECT_GT(dp_collectives, 0u);
  StepGraphRun run(platform, step.graph);
  run.start();
  engine.run();
  ASSERT_TRUE(run.finished());
  const TrainingMetrics m = training_metrics(c, step, run);
  EXPECT_GT(m.step_time_s, 0);
  ASSERT_EQ(m.stages.size(), 2u);
  for (const StageTime& s : m.stages) {
    EXPECT_NEAR(s.compute_s + s.exposed_comm_s + s.idle_s, m.step_time_s, 1e-9);
    EXPECT_GT(s.exposed_comm_s, 0);  // the TP collectives at least
  }
  EXPECT_GT(m.bubble_fraction, 0);
  EXPECT_NEAR(m.tflops_per_gpu, megatron_step_flops(c, true) / m.step_time_s / 16 / 1e12, 1e-9);
}

TEST(TrainingStep, RejectsLayoutsTheModelCannotBeCutInto) {
  TrainingPricing pricing;
  pricing.gpu = {device_rates_of(load_hardware_preset("dgx-a100").gpus[0]), gpu_limits_for("A100-SXM4-80GB"),
                 data_type("bf16")};
  pricing.tp_collective_s = [](CollectiveOp, double) { return 0.0; };
  EXPECT_THROW(build_training_step(gpt(6, 1024, 16, 1, 4, 1, 8), {1, PipelineSchedule::one_f_one_b, 1}, pricing),
               std::invalid_argument);  // 6 layers over 4 stages
  EXPECT_THROW(build_training_step(gpt(8, 1024, 16, 1, 4, 2, 7), {1, PipelineSchedule::one_f_one_b, 1}, pricing),
               std::invalid_argument);  // batch 7 over dp 2
}

}  // namespace
}  // namespace parallax

namespace parallax {
namespace {

double pass_flops(const LayerPass& pass) {
  double f = 0;
  for (const LayerStep& s : pass.steps) f += s.flops;
  return f;
}

TEST(LayerPasses, GemmFlopsAreMegatronsCountPerGpu) {
  // One layer, one micro-batch of b sequences, per GPU of the TP group: forward
  // (24·s·b·h² + 4·s²·b·h)/t; backward twice that; full recomputation adds a forward,
  // selective the attention core 4·s²·b·h/t.
  const GptModelConfig model{4, 2048, 16, 1024, 51200, {}};
  const KernelMachine gpu{device_rates_of(load_hardware_preset("dgx-a100").gpus[0]), gpu_limits_for("A100-SXM4-80GB"),
                          data_type("bf16")};
  const double s = 1024, b = 2, h = 2048, t = 4;
  const double fwd = (24 * s * b * h * h + 4 * s * s * b * h) / t;
  EXPECT_NEAR(pass_flops(layer_forward(model, 2, 4, gpu)) / fwd, 1.0, 1e-12);
  EXPECT_NEAR(pass_flops(layer_backward(model, 2, 4, Recompute::none, gpu)) / (2 * fwd), 1.0, 1e-12);
  EXPECT_NEAR(pass_flops(layer_backward(model, 2, 4, Recompute::full, gpu)) / (3 * fwd), 1.0, 1e-12);
  EXPECT_NEAR(pass_flops(layer_backward(model, 2, 4, Recompute::selective, gpu)) / (2 * fwd + 4 * s * s * b * h / t), 1.0,
              1e-12);
  // Logits: 2·s·b·h·V/t forward, twice that backward.
  EXPECT_NEAR(pass_flops(logits_pass(model, 2, 4, false, gpu)) / (2 * s * b * h * 51200 / t), 1.0, 1e-12);
  EXPECT_NEAR(pass_flops(logits_pass(model, 2, 4, true, gpu)) / (4 * s * b * h * 51200 / t), 1.0, 1e-12);
}

TEST(LayerPasses, PassTimeOverlapsBesideStepsAndRewritesPairs) {
  LayerPass p;
  const auto kernel = [](double s, int pair = -1, bool beside = false) {
    LayerStep k;
    k.time_s = s;
    k.pair = pair;
    k.beside_previous = beside;
    return k;
  };
  LayerStep coll;
  coll.kind = LayerStep::Kind::collective;
  coll.bytes = 1;
  // 1 ms kernel ‖ 3 ms collective, then a 2 ms kernel: 5 ms, 3 ms of it kernels.
  p.steps = {kernel(1e-3, 0), coll, kernel(2e-3)};
  p.steps[1].beside_previous = true;
  p.steps[1].pair = 0;
  p.pairs.resize(1);
  const CollectiveTime three_ms = [](CollectiveOp, double) { return 3e-3; };
  const PassTime plain = pass_time(p, three_ms);
  EXPECT_NEAR(plain.total_s, 5e-3, 1e-15);
  EXPECT_NEAR(plain.kernel_s, 3e-3, 1e-15);
  EXPECT_NEAR(plain.exposed_comm_s, 2e-3, 1e-15);
  // The pair rewritten as one 1.5 ms step: 3.5 ms, all of it compute.
  const PassTime fused = pass_time(p, three_ms, [](const models::OverlapProblem&) { return 1.5e-3; });
  EXPECT_NEAR(fused.total_s, 3.5e-3, 1e-15);
  EXPECT_NEAR(fused.exposed_comm_s, 0, 1e-15);
}

}  // namespace
}  // namespace parallax
