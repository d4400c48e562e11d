// File: models/overlap_sequential.h
// The no-overlap baseline (what Megatron-LM does without --tp-comm-overlap): the GEMM on the whole
// GPU, then the collective on the single ring. REFERENCE.md §4.1.
//
//   time = gemm_time_s(per-GPU GEMM, all SMs) + lockstep_ring_cost(op, S, ring)
//
// Example: a GPU with a 1 ms GEMM, tp = 4 all-gather of 4 MB over hops of 1 GB/s and 0 latency,
// no overheads: 3 steps × (1 MB / 1 GB/s) = 3 ms; time = 4 ms.
#pragma once

#include "models/overlap_problem.h"

namespace parallax::models {

struct SequentialCost {
  double gemm_s = 0.0;
  double comm_s = 0.0;
  double time_s = 0.0;
};

SequentialCost sequential_cost(const OverlapProblem& problem, const OverlapMachine& machine,
                               const OverlapParams& params);

}  // namespace parallax::models
