// File: models/overlap_interdecom.h
// InterDecom(d) (Compass ODP-InterDecom, Domino, TE `pipeline`): the rows are cut into d chunks;
// the collective of chunk i (one NCCL call on the comm stream) overlaps the GEMM of another chunk
// (compute stream); each chunk pays a launch, an event sync and the collective's fixed cost.
// REFERENCE.md §4.2.
//
// Exact pipeline (what the DES runs; two stages, constant stage times):
//   t_c(d) = gemm_time_on_sms_s(chunk GEMM of m/d rows, sms − k) + chunk_sync
//   t_m(d) = lockstep_ring_cost(op, S/d, ring)
//   overlapped stage times add HBM contention as in overlap_intrafusion.h (h·bytes/HBM)
//   ag_gemm: t_m + (d−1)·max(t_m', t_c') + t_c      gemm_rs/ar: t_c + (d−1)·max(t_c', t_m') + t_m
//
// Closed form (stage times linear in 1/d: t_c = a_c + b_c/d, t_m = a_m + b_m/d, no waves):
//   a_c, b_c = the line through d·t_c(d) at d = 1 and at the feasible d nearest 8 (the GEMM
//              model's launch overhead and sync, plus the wave and efficiency loss of smaller
//              chunks, as an effective per-chunk cost): a_c = slope, b_c = t_c(1) − a_c
//   a_m = base + steps·(fixed step);      b_m = bandwidth part of the whole collective
//   X = the stage with the larger b (the bottleneck), Y the other:
//   T(d) = d·t_X + t_Y = A·d + B + C/d,   A = a_X,  B = b_X + a_Y,  C = b_Y
//   d* = sqrt(C/A); the integer d* is the feasible degree (degree_feasible) next to it, below or
//   above, with the smaller closed-form T(d), where T(d) = max over the two branches.
//
// Example (REFERENCE.md §4.2): T_c = 2 ms, T_m = 1.5 ms, δ = 30 µs on the GEMM stage:
//   A = 30 µs, B = 2 ms, C = 1.5 ms: d* = sqrt(50) = 7.07 → 7, T(7) = 0.21 + 2 + 0.214 = 2.424 ms.
#pragma once

#include <cstdint>

#include "models/overlap_problem.h"

namespace parallax::models {

struct DecompositionClosedForm {
  double a_s = 0.0;  // A: cost per extra chunk
  double b_s = 0.0;  // B
  double c_s = 0.0;  // C: the hidden stage's work
  double compute_fixed_s = 0.0, compute_work_s = 0.0;  // a_c, b_c
  double comm_fixed_s = 0.0, comm_work_s = 0.0;        // a_m, b_m
  double d_star_continuous = 1.0;                      // sqrt(C/A)
  int64_t d_star = 1;                                  // best feasible integer near it
  // max(a_c·d + b_c + a_m + b_m/d, a_m·d + b_m + a_c + b_c/d).
  double time_s(int64_t d) const;
};

struct InterDecomCost {
  int64_t degree = 1;
  double chunk_compute_s = 0.0;  // t_c, alone
  double chunk_comm_s = 0.0;     // t_m, alone
  double time_s = 0.0;
};

// The exact pipeline at degree d (need not be feasible; d >= 1).
InterDecomCost interdecom_cost(const OverlapProblem& problem, const OverlapMachine& machine,
                               const OverlapParams& params, int64_t degree);

DecompositionClosedForm decomposition_closed_form(const OverlapProblem& problem,
                                                  const OverlapMachine& machine,
                                                  const OverlapParams& params);

// The feasible degree nearest to `d` (ties to the smaller); 1 if none is closer.
int64_t nearest_feasible_degree(const OverlapProblem& problem, const OverlapParams& params, int64_t d);

}  // namespace parallax::models
