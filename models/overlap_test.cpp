// File: models/overlap_test.cpp
// The overlap models on a machine small enough to compute by hand: 10 SMs of 1 GFLOP/s each,
// 1×1 tiles, efficiency 1, no overheads, HBM effectively infinite; rings of 1 GB/s hops.
#include <gtest/gtest.h>

#include <vector>

#include "models/overlap_intrafusion.h"
#include "models/overlap_interdecom.h"
#include "models/overlap_selector.h"
#include "models/overlap_sequential.h"

namespace parallax::models {
namespace {

RingParams uniform_ring(int n, double bw) {
  RingParams r;
  for (int i = 0; i < n; ++i) r.hops.push_back({bw, 0.0, LinkType::pcie});
  return r;
}

OverlapMachine hand_machine() {
  OverlapMachine m;
  m.gpu.sms = 10;
  m.gpu.peak_flops = 10e9;
  m.gpu.hbm_Bps = 1e18;
  m.gpu.tile_m = 1;
  m.gpu.tile_n = 1;
  m.gpu.eta_max = 1.0;
  m.gpu.k_half = 0.0;
  m.gpu.eta_mem = 1.0;
  m.gpu.overhead_s = 0.0;
  m.ring = uniform_ring(4, 1e9);
  m.double_ring.first = uniform_ring(4, 1e9);
  m.double_ring.second = uniform_ring(4, 3e9);
  return m;
}

OverlapParams hand_params() {
  OverlapParams p;
  p.comm_sms = 2;
  p.collective_base_latency_s = 0;
  p.step_overhead_s = 0;
  p.chunk_sync_s = 0;
  p.hbm_bytes_per_link_byte = 0;
  return p;
}

// ag_gemm 40×40×1000, tp 4: per-GPU GEMM 40×10×1000 = 400 one-element tiles of 2000 FLOP.
// On 8 SMs: 50 waves × 2 µs = 100 µs; on 10 SMs 80 µs. S = 40·1000·2 B = 80 kB, chunk 20 kB,
// one ring step 20 µs on 1 GB/s hops.
OverlapProblem hand_problem(OverlapOp op = OverlapOp::ag_gemm) {
  OverlapProblem p;
  p.op = op;
  p.m = 40;
  p.n = 40;
  p.k = 1000;
  p.tp = 4;
  if (op != OverlapOp::ag_gemm) {
    p.n = 10;    // per-GPU GEMM 40×10×(4000/4)
    p.k = 4000;  // S = 40·10·2 = 800 B
  }
  return p;
}

TEST(OverlapProblem, ShapesBytesAndFeasibleDegrees) {
  const OverlapProblem p = hand_problem();
  const GemmShape s = overlap_gemm_shape(p, p.m);
  EXPECT_EQ(s.m, 40);
  EXPECT_EQ(s.n, 10);
  EXPECT_EQ(s.k, 1000);
  EXPECT_DOUBLE_EQ(overlap_collective_bytes(p), 80000.0);
  const OverlapParams params;
  // m/tp = 10 rows per shard: degrees 1, 2, 5, 10.
  std::vector<int64_t> feasible;
  for (int64_t d = 1; d <= 32; ++d)
    if (degree_feasible(p, params, d)) feasible.push_back(d);
  EXPECT_EQ(feasible, (std::vector<int64_t>{1, 2, 5, 10}));
  OverlapProblem bad = p;
  bad.n = 42;
  EXPECT_THROW(check_overlap_problem(bad), std::invalid_argument);
}

TEST(OverlapSequential, GemmThenRing) {
  // 80 µs GEMM on 10 SMs + 3 steps × 20 µs.
  const SequentialCost c = sequential_cost(hand_problem(), hand_machine(), hand_params());
  EXPECT_NEAR(c.gemm_s, 80e-6, 1e-12);
  EXPECT_NEAR(c.comm_s, 60e-6, 1e-12);
  EXPECT_NEAR(c.time_s, 140e-6, 1e-12);
}

TEST(OverlapIntraFusion, SingleRingAllGather) {
  // c = 100/4 = 25 µs, m = 20 µs: 3·max(25, 20) + 25 = 100 µs.
  const IntraFusionCost c = intrafusion_cost(hand_problem(), hand_machine(), hand_params(), FusionRings::single);
  EXPECT_NEAR(c.block_compute_s, 25e-6, 1e-12);
  EXPECT_NEAR(c.comm_step_s, 20e-6, 1e-12);
  EXPECT_NEAR(c.time_s, 100e-6, 1e-12);
}

TEST(OverlapIntraFusion, CommBoundDoubleRingSplitsByBandwidth) {
  // Slow the hops 4×: single-ring step 80 µs; AG = 3·80 + 25 = 265 µs. Double ring with hops
  // 0.25 and 0.75 GB/s: x1 = 0.25, both rings' steps 0.25·20 kB/0.25 GB/s = 20 µs:
  // 3·max(25, 20) + 25 = 100 µs.
  OverlapMachine m = hand_machine();
  m.ring = uniform_ring(4, 0.25e9);
  m.double_ring.first = uniform_ring(4, 0.25e9);
  m.double_ring.second = uniform_ring(4, 0.75e9);
  const OverlapParams params = hand_params();
  const IntraFusionCost single = intrafusion_cost(hand_problem(), m, params, FusionRings::single);
  const IntraFusionCost twin = intrafusion_cost(hand_problem(), m, params, FusionRings::double_ring);
  EXPECT_NEAR(single.time_s, 265e-6, 1e-12);
  EXPECT_DOUBLE_EQ(twin.first_share, 0.25);
  EXPECT_NEAR(twin.comm_step_s, 20e-6, 1e-12);
  EXPECT_NEAR(twin.time_s, 100e-6, 1e-12);
}

TEST(OverlapIntraFusion, ReduceScatterAndAllReduce) {
  // gemm_rs 40×10×1000 per GPU (same GEMM), S = 800 B, chunk 200 B: m = 0.2 µs.
  // RS: 25 + 3·25 = 100 µs; AR adds the all-gather half: + 3·0.2 µs.
  const OverlapMachine m = hand_machine();
  const OverlapParams params = hand_params();
  EXPECT_NEAR(intrafusion_cost(hand_problem(OverlapOp::gemm_rs), m, params, FusionRings::single).time_s,
              100e-6, 1e-12);
  EXPECT_NEAR(intrafusion_cost(hand_problem(OverlapOp::gemm_ar), m, params, FusionRings::single).time_s,
              100.6e-6, 1e-12);
}

TEST(OverlapIntraFusion, HbmContentionStretchesTheBlock) {
  // HBM of 1 GB/s: one block's ring traffic (h = 2, chunk 20 kB → 40 kB)
  // plus the block's GEMM bytes take longer than its 25 µs of compute.
  OverlapMachine m = hand_machine();
  m.gpu.hbm_Bps = 1e9;
  OverlapParams params = hand_params();
  params.hbm_bytes_per_link_byte = 2.0;
  const OverlapProblem p = hand_problem();
  const double block_bytes = gemm_bytes(overlap_gemm_shape(p, p.m)) / 4.0;
  const double expect_ovl = (block_bytes + 40000.0) / 1e9;
  const IntraFusionCost c = intrafusion_cost(p, m, params, FusionRings::single);
  EXPECT_NEAR(c.block_compute_overlapped_s, expect_ovl, 1e-12);
  // The lone last block is memory-bound too: 100.8 kB of GEMM bytes at 1 GB/s = 100.8 µs / 4.
  EXPECT_NEAR(c.block_compute_s, 25.2e-6, 1e-12);
  EXPECT_NEAR(c.time_s, 3 * expect_ovl + 25.2e-6, 1e-12);
}

TEST(OverlapInterDecom, PipelineAndClosedForm) {
  // chunk_sync 10 µs. d = 2: t_c = 20×10 tiles on 8 SMs = 25 waves × 2 µs + 10 = 60 µs;
  // t_m = 3 × (40 kB/4)/1 GB/s = 30 µs; T = 60 + max(60, 30) + 30 = 150 µs.
  // Closed form: d·t_c(d) is 110 µs at d = 1 and 10·(5 waves·2 + 10) = 200 µs at d = 10 (the
  // feasible degree nearest 8): a_c = 10 µs, b_c = 100 µs, a_m = 0, b_m = 60 µs: compute-bound, A = 10 µs,
  // B = 100 µs, C = 60 µs, d* = sqrt(6) = 2.449; feasible neighbours 2 (150 µs) and 5:
  // max(50 + 100 + 12, 60 + 10 + 20) = 162 µs -> d* = 2.
  OverlapParams params = hand_params();
  params.chunk_sync_s = 10e-6;
  const OverlapProblem p = hand_problem(OverlapOp::gemm_rs);
  OverlapProblem ag = hand_problem();
  const InterDecomCost c = interdecom_cost(ag, hand_machine(), params, 2);
  EXPECT_NEAR(c.chunk_compute_s, 60e-6, 1e-12);
  EXPECT_NEAR(c.chunk_comm_s, 30e-6, 1e-12);
  EXPECT_NEAR(c.time_s, 150e-6, 1e-12);
  const DecompositionClosedForm f = decomposition_closed_form(ag, hand_machine(), params);
  EXPECT_NEAR(f.a_s, 10e-6, 1e-12);
  EXPECT_NEAR(f.b_s, 100e-6, 1e-12);
  EXPECT_NEAR(f.c_s, 60e-6, 1e-12);
  EXPECT_NEAR(f.d_star_continuous, 2.449489742783178, 1e-9);
  EXPECT_EQ(f.d_star, 2);
  EXPECT_NEAR(f.time_s(2), 150e-6, 1e-12);
  EXPECT_NEAR(f.time_s(5), 162e-6, 1e-12);
  (void)p;
}

TEST(OverlapInterDecom, ReferenceWorkedExample) {
  // REFERENCE.md §4.2: T_c = 2 ms, T_m = 1.5 ms, δ = 30 µs: T(7) = 2.424 ms, T(32) = 3.01 ms.
  DecompositionClosedForm f;
  f.compute_fixed_s = 30e-6;
  f.compute_work_s = 2e-3;
  f.comm_work_s = 1.5e-3;
  EXPECT_NEAR(f.time_s(7), 0.21e-3 + 2e-3 + 1.5e-3 / 7, 1e-12);
  EXPECT_NEAR(f.time_s(32), 0.96e-3 + 2e-3 + 1.5e-3 / 32, 1e-12);
}

TEST(OverlapSelector, PicksTheFasterAndBreaksTiesInOrder) {
  const std::vector<StrategyEstimate> e{{OverlapStrategy::sequential, 3.0, 0},
                                        {OverlapStrategy::intrafusion_ring, 1.0, 0},
                                        {OverlapStrategy::interdecom, 1.0, 4}};
  EXPECT_EQ(select_fastest(e).strategy, OverlapStrategy::intrafusion_ring);
  EXPECT_THROW(select_fastest(std::span<const StrategyEstimate>{}), std::invalid_argument);
}

TEST(OverlapSelector, ForcedApartByTheMachine) {
  // Very slow single ring, fast second ring: the double ring must win.
  OverlapMachine m = hand_machine();
  m.ring = uniform_ring(4, 0.01e9);
  m.double_ring.first = uniform_ring(4, 0.01e9);
  m.double_ring.second = uniform_ring(4, 100e9);
  const OverlapPrediction slow_ring = predict_overlap(hand_problem(), m, hand_params());
  EXPECT_EQ(slow_ring.best, OverlapStrategy::intrafusion_double_ring);
  // Huge per-collective latency: the one-call strategies beat d chunks; sequential pays the GEMM
  // on all SMs (80 µs) and wins over IntraFusion's 100 µs when the ring is free.
  OverlapMachine fast = hand_machine();
  fast.ring = uniform_ring(4, 1e15);
  fast.double_ring.first = fast.ring;
  fast.double_ring.second = fast.ring;
  OverlapParams params = hand_params();
  params.collective_base_latency_s = 1e-3;
  const OverlapPrediction p = predict_overlap(hand_problem(), fast, params);
  EXPECT_EQ(p.best, OverlapStrategy::sequential);
  EXPECT_GT(p.strategies[3].time_s, p.strategies[0].time_s);
}

}  // namespace
}  // namespace parallax::models
