// File: models/megatron_layer_test.cpp
// The Megatron layer's op list and its step pricing: FLOPs and collective bytes match the
// textbook per-layer counts, kernels cost the same under both plans, the selector never loses.
#include <gtest/gtest.h>

#include <vector>

#include "models/layer_step_cost.h"
#include "models/megatron_layer.h"
#include "models/overlap_problem.h"

namespace parallax::models {
namespace {

// 10 SMs of 1 GFLOP/s, 1×1 tiles, efficiency 1, no overheads, HBM 1 GB/s (eta_mem 1).
GpuComputeParams hand_gpu() {
  GpuComputeParams g;
  g.sms = 10;
  g.peak_flops = 10e9;
  g.hbm_Bps = 1e9;
  g.tile_m = 1;
  g.tile_n = 1;
  g.eta_max = 1.0;
  g.k_half = 0.0;
  g.eta_mem = 1.0;
  g.overhead_s = 0.0;
  return g;
}

GptLayerSpec small_model() { return {"tiny", 64, 4, 3, 32, 2, 2}; }

double per_gpu_gemm_flops(const LayerOp& op) {
  if (!op.pair) return op.kernel_flops;
  return gemm_flops(overlap_gemm_shape(op.problem, op.problem.m));
}

TEST(MegatronLayer, OpOrderAndPairs) {
  const std::vector<LayerOp> ops = megatron_layer_ops(small_model(), 2, hand_gpu());
  ASSERT_EQ(ops.size(), 29u);  // 12 forward + 17 backward
  EXPECT_EQ(ops[1].label, "fwd.qkv");
  EXPECT_EQ(ops[1].problem.op, OverlapOp::ag_gemm);
  EXPECT_EQ(ops[1].problem.m, 64);  // seq 32 × micro-batch 2
  EXPECT_EQ(ops[1].problem.n, 192);
  EXPECT_EQ(ops[1].problem.k, 64);
  int fwd_pairs = 0, bwd_pairs = 0;
  for (const LayerOp& op : ops) (op.pass == LayerPass::forward ? fwd_pairs : bwd_pairs) += op.pair ? 1 : 0;
  EXPECT_EQ(fwd_pairs, 4);  // qkv, proj, fc1, fc2
  EXPECT_EQ(bwd_pairs, 6);  // 4 dgrads + the qkv and fc1 wgrads (re-gathered X)
}

// Per layer and GPU, forward GEMM FLOPs = (24·m·h² + 4·b·s²·h)/t (Narayanan et al. 2021), backward
// twice that. m = 64, h = 64, b = 2, s = 32, t = 2: (24·64·4096 + 4·2·1024·64)/2 = 3,407,872.
TEST(MegatronLayer, FlopsMatchTextbookCount) {
  const std::vector<LayerOp> ops = megatron_layer_ops(small_model(), 2, hand_gpu());
  double fwd = 0, bwd = 0;
  for (const LayerOp& op : ops) (op.pass == LayerPass::forward ? fwd : bwd) += per_gpu_gemm_flops(op);
  EXPECT_DOUBLE_EQ(fwd, 3'407'872.0);
  EXPECT_DOUBLE_EQ(bwd, 2 * 3'407'872.0);
}

// Each forward collective moves the m × h activations: S = 64·64·2 = 8192 B.
TEST(MegatronLayer, CollectiveBytes) {
  for (const LayerOp& op : megatron_layer_ops(small_model(), 4, hand_gpu()))
    if (op.pair) {
      EXPECT_DOUBLE_EQ(overlap_collective_bytes(op.problem), 8192.0) << op.label;
    }
}

// Softmax forward: c = b·a/t = 2·4/2 = 4 score matrices of 32² bf16, read + write:
// 2·4·1024·2 B = 16384 B at 1 GB/s = 16.384 µs.
TEST(MegatronLayer, SoftmaxIsMemoryBound) {
  const std::vector<LayerOp> ops = megatron_layer_ops(small_model(), 2, hand_gpu());
  EXPECT_EQ(ops[3].label, "fwd.attn.softmax");
  EXPECT_DOUBLE_EQ(ops[3].kernel_bytes, 16384.0);
  EXPECT_NEAR(ops[3].kernel_s, 16.384e-6, 1e-15);
}

// 2 GEMMs of 4 × 4 × 8 on the hand GPU: compute = 2·2·4·4·8 FLOP / 10 GFLOP/s = 51.2 ns
// (16 tiles per GEMM, 32 on 10 SMs = 4 waves of 2·8 FLOP at 1 GFLOP/s = 64 ns);
// memory = 2·(32 + 32 + 16)·2 B / 1 GB/s = 320 ns -> memory-bound: 320 ns.
TEST(MegatronLayer, BatchedGemmCountsEveryOperand) {
  EXPECT_NEAR(batched_gemm_time_s(2, GemmShape{4, 4, 8, 2}, hand_gpu()), 320e-9, 1e-15);
}

TEST(MegatronLayer, RejectsIndivisibleHeads) {
  EXPECT_THROW(megatron_layer_ops(small_model(), 8, hand_gpu()), std::invalid_argument);  // 4 heads
  GptLayerSpec odd = small_model();
  odd.hidden = 66;
  EXPECT_THROW(megatron_layer_ops(odd, 2, hand_gpu()), std::invalid_argument);
}

OverlapMachine hand_machine(int tp) {
  OverlapMachine m;
  m.gpu = hand_gpu();
  m.gpu.hbm_Bps = 1e18;
  for (int i = 0; i < tp; ++i) {
    m.ring.hops.push_back({1e7, 0.0, LinkType::pcie});
    m.double_ring.first.hops.push_back({1e7, 0.0, LinkType::pcie});
    m.double_ring.second.hops.push_back({1e7, 0.0, LinkType::pcie});
  }
  return m;
}

TEST(LayerStepCost, KernelsEqualPairsNeverWorseStepIsLayersTimesLayer) {
  const std::vector<LayerOp> ops = megatron_layer_ops(small_model(), 2, hand_gpu());
  OverlapParams params;
  params.hbm_bytes_per_link_byte = 0;
  params.collective_base_latency_s = 0;
  params.step_overhead_s = 0;
  params.chunk_sync_s = 0;
  params.comm_sms = 1;
  const LayerStepCost c = layer_step_cost(ops, 3, hand_machine(2), params);
  ASSERT_EQ(c.ops.size(), ops.size());
  for (const LayerOpCost& o : c.ops) {
    if (!o.op->pair) {
      EXPECT_EQ(o.baseline_s, o.selected_s) << o.op->label;
    }
    EXPECT_LE(o.selected_s, o.baseline_s) << o.op->label;
  }
  EXPECT_DOUBLE_EQ(c.layer_baseline_s, c.forward_baseline_s + c.backward_baseline_s);
  EXPECT_DOUBLE_EQ(c.step_baseline_s, 3 * c.layer_baseline_s);
  EXPECT_DOUBLE_EQ(c.step_selected_s, 3 * c.layer_selected_s);
  EXPECT_DOUBLE_EQ(c.speedup, c.step_baseline_s / c.step_selected_s);
  EXPECT_GT(c.speedup, 1.0);  // no overheads, 10 MB/s hops: hiding the comm must help
}

}  // namespace
}  // namespace parallax::models
