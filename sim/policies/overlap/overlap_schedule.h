// File: sim/policies/overlap/overlap_schedule.h
// Each overlap strategy as a StepGraph (sim/workload/step_graph.h) for StepGraphRun: the same
// decomposition the analytic models price (models/overlap_*.h), executed as kernels, timers and
// ring-step copies on a Platform, so that links, SM pools and HBM are shared by the platform rather than assumed.
// A GEMM kernel's FLOPs are set so that alone on its SMs it takes the GEMM model's time
// (flops = t · peak · sms_used / sms; dram_bytes = the GEMM's bytes); everything the DES adds
// beyond the model is contention.
//
// Rank r of the graph is GPU group.order[r] (the single ring's order). A GEMM or block is one
// compute task per rank, and what follows it waits for all of them (per-rank tasks after several
// others wait on one join task). A ring step is a handshake
// delay, then a copies task (one copy per hop of every ring, each over its hop's path; on
// SimPlatform a copy reads its source GPU's HBM and writes its destination's, so the
// communication's HBM traffic competes with the GEMMs without a stand-in kernel). The comm
// partition (StepGraph::comm_sms) takes the communication kernels' SMs from the GEMMs' pool.
// Delays run on rank 0.
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
#include "sim/workload/step_graph.h"

namespace parallax {

// `degree` is used by interdecom only. The graph's comm_sms is the communication kernels'
// partition (0 for sequential: its collective has the GPU to itself after the GEMM). Throws
// std::invalid_argument for a bad problem.
StepGraph overlap_schedule(const models::OverlapProblem& problem, const OverlapGroup& group,
                                 const models::OverlapParams& params, models::OverlapStrategy strategy,
                                 int64_t degree);

}  // namespace parallax
