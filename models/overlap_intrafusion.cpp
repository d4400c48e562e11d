// File: models/overlap_intrafusion.cpp
// Fused GEMM + ring, single or double; formulas in overlap_intrafusion.h.
#include "models/overlap_intrafusion.h"

#include <algorithm>

namespace parallax::models {

int64_t gemm_sms_beside_comm(const GpuComputeParams& gpu, const OverlapParams& params) {
  return std::max<int64_t>(1, gpu.sms - params.comm_sms);
}

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
  return cost;
}

}  // namespace parallax::models
