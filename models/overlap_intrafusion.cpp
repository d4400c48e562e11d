// File: models/overlap_intrafusion.cpp
// Fused GEMM + ring, single or double; formulas in overlap_intrafusion.h.
#include "models/overlap_intrafusion.h"

#include <algorithm>

namespace parallax::models {

int64_t gemm_sms_beside_comm(const GpuComputeParams& gpu, const OverlapParams& params) {
  return std::max<int64_t>(1, gpu.sms - params.comm_sms);
}

namespace {

// IntraFusion on a pair schedule's rounds (overlap_intrafusion.h); `cost` has c filled in.
// All-gather order: round r runs beside the blocks that arrived before it (the own block in round
// 0), and the blocks of the last round run alone at the end. gemm_rs runs the mirror (the last
// round's blocks first, alone, then the rounds reversed): the same sum.
IntraFusionCost pair_intrafusion_cost(const OverlapProblem& problem, const OverlapMachine& machine,
                                      const OverlapParams& params, IntraFusionCost cost, double block_bytes,
                                      double chunk) {
  const double c = cost.block_compute_s, hbm_Bps = machine.gpu.hbm_Bps, h = params.hbm_bytes_per_link_byte;
  const std::vector<PairRoundParams>& rounds = machine.pair_rounds;
  double overlapped = 0, comm_only = 0;
  for (size_t r = 0; r < rounds.size(); ++r) {
    const double blocks = r == 0 ? 1.0 : rounds[r - 1].chunks;
    const double traffic = h * rounds[r].chunks * chunk;  // the round's HBM traffic per GPU
    const double m_eff = std::max(pair_round_step_s(rounds[r], chunk, params.step_overhead_s), traffic / hbm_Bps);
    const double compute = std::max(blocks * c, (blocks * block_bytes + traffic) / hbm_Bps);
    overlapped += std::max(compute, m_eff);
    comm_only += m_eff;
    cost.comm_step_s = std::max(cost.comm_step_s, m_eff);
    cost.block_compute_overlapped_s = std::max(cost.block_compute_overlapped_s, compute / blocks);
  }
  cost.time_s = params.collective_base_latency_s + overlapped + rounds.back().chunks * c;
  if (problem.op == OverlapOp::gemm_ar) cost.time_s += comm_only;
  return cost;
}

}  // namespace

IntraFusionCost intrafusion_cost(const OverlapProblem& problem, const OverlapMachine& machine,
                                 const OverlapParams& params, FusionRings rings) {
  check_overlap_problem(problem);
  IntraFusionCost cost;
  const int64_t p = problem.tp;
  const double pd = static_cast<double>(p);
  const GemmShape shape = overlap_gemm_shape(problem, problem.m);
  const double gemm_s = gemm_time_on_sms_s(shape, machine.gpu, gemm_sms_beside_comm(machine.gpu, params));
  cost.block_compute_s = gemm_s / pd;
  if (p == 1) {
    cost.block_compute_overlapped_s = cost.block_compute_s;
    cost.time_s = gemm_s;
    return cost;
  }
  const double chunk = overlap_collective_bytes(problem) / pd;
  double step_s = 0.0;
  if (rings == FusionRings::single) {
    step_s = ring_step_time_s(machine.ring, chunk, params.step_overhead_s);
  } else {
    const double b1 = machine.double_ring.first.bottleneck_Bps();
    const double b2 = machine.double_ring.second.bottleneck_Bps();
    cost.first_share = b1 / (b1 + b2);
    step_s = std::max(
        ring_step_time_s(machine.double_ring.first, cost.first_share * chunk, params.step_overhead_s),
        ring_step_time_s(machine.double_ring.second, (1.0 - cost.first_share) * chunk, params.step_overhead_s));
  }
  const double hbm_Bps = machine.gpu.hbm_Bps;
  const double comm_hbm_bytes = params.hbm_bytes_per_link_byte * chunk;
  cost.comm_step_s = std::max(step_s, comm_hbm_bytes / hbm_Bps);
  cost.block_compute_overlapped_s =
      std::max(cost.block_compute_s, (gemm_bytes(shape) / pd + comm_hbm_bytes) / hbm_Bps);
  const double overlapped = (pd - 1.0) * std::max(cost.block_compute_overlapped_s, cost.comm_step_s);
  cost.time_s = params.collective_base_latency_s + overlapped + cost.block_compute_s;
  if (problem.op == OverlapOp::gemm_ar) cost.time_s += (pd - 1.0) * cost.comm_step_s;
  if (rings == FusionRings::double_ring && !machine.pair_rounds.empty()) {
    // The pair schedule's rounds hide compute differently (fewer, larger rounds): it runs only
    // where it beats the double ring on this problem.
    IntraFusionCost pairs = cost;
    pairs.comm_step_s = pairs.block_compute_overlapped_s = 0;
    pairs.first_share = 1.0;
    pairs = pair_intrafusion_cost(problem, machine, params, pairs, gemm_bytes(shape) / pd, chunk);
    pairs.pair_schedule = true;
    if (pairs.time_s < cost.time_s) return pairs;
  }
  return cost;
}

}  // namespace parallax::models
