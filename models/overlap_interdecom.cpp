// File: models/overlap_interdecom.cpp
// InterDecom pipeline and its closed form; formulas in overlap_interdecom.h.
#include "models/overlap_interdecom.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/overlap_intrafusion.h"

namespace parallax::models {

double DecompositionClosedForm::time_s(int64_t d) const {
  const double dd = static_cast<double>(d);
  return std::max(compute_fixed_s * dd + compute_work_s + comm_fixed_s + comm_work_s / dd,
                  comm_fixed_s * dd + comm_work_s + compute_fixed_s + compute_work_s / dd);
}

InterDecomCost interdecom_cost(const OverlapProblem& problem, const OverlapMachine& machine,
                               const OverlapParams& params, int64_t degree) {
  check_overlap_problem(problem);
  if (degree < 1) throw std::invalid_argument("interdecom_cost: degree must be >= 1");
  InterDecomCost cost;
  cost.degree = degree;
  const double d = static_cast<double>(degree);
  const double rows = static_cast<double>(problem.m) / d;
  const GemmShape chunk = overlap_gemm_shape(problem, std::max<int64_t>(1, static_cast<int64_t>(std::ceil(rows))));
  cost.chunk_compute_s =
      gemm_time_on_sms_s(chunk, machine.gpu, gemm_sms_beside_comm(machine.gpu, params)) + params.chunk_sync_s;
  const CollectiveOp op = overlap_collective(problem.op);
  const double bytes = overlap_collective_bytes(problem) / d;
  cost.chunk_comm_s = lockstep_ring_cost(op, bytes, machine.ring, params).time_s;
  if (problem.tp == 1) {
    cost.time_s = d * cost.chunk_compute_s;
    return cost;
  }
  // HBM contention while both stages run (overlap_intrafusion.h).
  const double steps = static_cast<double>(ring_steps(op, problem.tp));
  const double comm_hbm = params.hbm_bytes_per_link_byte * steps * bytes / static_cast<double>(problem.tp);
  const double hbm_Bps = machine.gpu.hbm_Bps;
  const double compute_ovl = std::max(cost.chunk_compute_s, (gemm_bytes(chunk) + comm_hbm) / hbm_Bps);
  const double comm_ovl = std::max(cost.chunk_comm_s, comm_hbm / hbm_Bps);
  cost.time_s = cost.chunk_compute_s + (d - 1.0) * std::max(compute_ovl, comm_ovl) + cost.chunk_comm_s;
  return cost;
}

int64_t nearest_feasible_degree(const OverlapProblem& problem, const OverlapParams& params, int64_t d) {
  int64_t best = 1;
  for (int64_t c = 1; c <= params.max_degree; ++c) {
    if (!degree_feasible(problem, params, c)) continue;
    if (std::llabs(c - d) < std::llabs(best - d)) best = c;
  }
  return best;
}

DecompositionClosedForm decomposition_closed_form(const OverlapProblem& problem,
                                                  const OverlapMachine& machine,
                                                  const OverlapParams& params) {
  check_overlap_problem(problem);
  DecompositionClosedForm f;
  // The compute stage's d·t_c(d) through two degrees of the GEMM model (1 and the feasible one
  // nearest kSecantDegree): its slope is the per-chunk cost, launch and sync plus the waves and
  // efficiency a smaller chunk loses.
  const int64_t sms = gemm_sms_beside_comm(machine.gpu, params);
  auto compute_total_s = [&](int64_t d) {
    const GemmShape chunk = overlap_gemm_shape(problem, (problem.m + d - 1) / d);
    return static_cast<double>(d) * (gemm_time_on_sms_s(chunk, machine.gpu, sms) + params.chunk_sync_s);
  };
  constexpr int64_t kSecantDegree = 8;
  const int64_t d_ref = nearest_feasible_degree(problem, params, kSecantDegree);
  const double total_1 = compute_total_s(1);
  f.compute_fixed_s = d_ref > 1 ? std::max(0.0, (compute_total_s(d_ref) - total_1) / static_cast<double>(d_ref - 1))
                                : machine.gpu.overhead_s + params.chunk_sync_s;
  f.compute_work_s = std::max(0.0, total_1 - f.compute_fixed_s);
  const CollectiveCost comm = lockstep_ring_cost(overlap_collective(problem.op),
                                                 overlap_collective_bytes(problem), machine.ring, params);
  f.comm_fixed_s = comm.latency_s;
  f.comm_work_s = comm.bandwidth_s;
  const bool compute_bound = f.compute_work_s >= f.comm_work_s;
  f.a_s = compute_bound ? f.compute_fixed_s : f.comm_fixed_s;
  f.b_s = compute_bound ? f.compute_work_s + f.comm_fixed_s : f.comm_work_s + f.compute_fixed_s;
  f.c_s = compute_bound ? f.comm_work_s : f.compute_work_s;
  f.d_star_continuous = f.a_s > 0 ? std::sqrt(f.c_s / f.a_s) : static_cast<double>(params.max_degree);
  // The feasible degrees just below and just above the continuous optimum.
  int64_t below = 0, above = 0;
  for (int64_t d = 1; d <= params.max_degree; ++d) {
    if (!degree_feasible(problem, params, d)) continue;
    if (static_cast<double>(d) <= f.d_star_continuous) below = d;
    if (static_cast<double>(d) >= f.d_star_continuous && above == 0) above = d;
  }
  if (below == 0) below = above;
  if (above == 0) above = below;
  if (below == 0) below = above = 1;
  f.d_star = f.time_s(above) < f.time_s(below) ? above : below;
  return f;
}

}  // namespace parallax::models
