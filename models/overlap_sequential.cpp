// File: models/overlap_sequential.cpp
// GEMM then collective; formula in overlap_sequential.h.
#include "models/overlap_sequential.h"

namespace parallax::models {

SequentialCost sequential_cost(const OverlapProblem& problem, const OverlapMachine& machine,
                               const OverlapParams& params) {
  check_overlap_problem(problem);
  SequentialCost cost;
  cost.gemm_s = gemm_time_s(overlap_gemm_shape(problem, problem.m), machine.gpu);
  cost.comm_s = lockstep_ring_cost(overlap_collective(problem.op), overlap_collective_bytes(problem),
                                   machine.ring, params)
                    .time_s;
  cost.time_s = cost.gemm_s + cost.comm_s;
  return cost;
}

}  // namespace parallax::models
