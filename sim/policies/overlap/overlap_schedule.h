// File: sim/policies/overlap/overlap_schedule.h
// Each overlap strategy as a task graph for TaskGraphRun: the same decomposition the analytic
// models price (models/overlap_*.h), executed as kernels, timers and ring-step copies on a
// Platform, so that links, SM pools and HBM are shared by the platform rather than assumed.
// A GEMM kernel's FLOPs are set so that alone on its SMs it takes the GEMM model's time
// (flops = t · peak · sms_used / sms; dram_bytes = the GEMM's bytes); everything the DES adds
// beyond the model is contention.
//
//   sequential        GEMM (all SMs) -> base delay -> steps ring steps
//   intrafusion       base delay, then per step: block kernel ∥ ring step, barrier (ag: the last
//                     block after the last step; rs: the first block before the first step;
//                     ar: rs + the all-gather's steps); double ring: each step copies x1 and x2
//                     of the chunk on the two rings; where the group has pair rounds and the
//                     model prices them faster (models/overlap_intrafusion.h), the rounds instead,
//                     each beside the blocks that arrived in the round before
//   interdecom(d)     compute stream: chunk kernel -> sync delay, chunk after chunk; comm stream:
//                     base delay + ring steps per chunk; ag: GEMM i after comm i, rs/ar: comm i
//                     after GEMM i
#pragma once

#include <cstdint>
#include <vector>

#include "models/overlap_problem.h"
#include "models/overlap_selector.h"
#include "sim/policies/overlap/overlap_machine.h"
#include "sim/policies/overlap/task_graph_run.h"

namespace parallax {

struct OverlapSchedule {
  std::vector<OverlapTask> tasks;
  int comm_sms = 0;  // partition TaskGraphRun reserves on every GPU (0: none)
};

// `degree` is used by interdecom only. Throws std::invalid_argument for a bad problem.
OverlapSchedule overlap_schedule(const models::OverlapProblem& problem, const OverlapGroup& group,
                                 const models::OverlapParams& params, models::OverlapStrategy strategy,
                                 int64_t degree);

}  // namespace parallax
