// File: sim/policies/training/every_rank_step.h
// A training step's graph without the builder's symmetry reduction (training_step.h): every
// GPU's own tasks, as a per-rank trace (a Chakra ET set, sim/workload/chakra_writer.h) must say
// them. From the reduced graph, with rank = i + t·(j + d·s) (TP rank i, replica j, stage s):
//   a compute or send task of a stage's representative (i = j = 0) becomes one per (i, j), on
//   rank i + t·(j + d·s) (a send to the same (i, j) of the peer stage);
//   a collective whose members lie in replicas 0 .. w-1, each of them (the tied-embedding
//   all-reduce, w = 1; an MoE layer's all-to-all over an EP group, w = ep) is run by every block
//   of w replicas, q, on its members + t·w·q; one spanning other replicas (the DP and expert-DP
//   gradient collectives, the parameter all-gathers) stays one task;
//   a copy depends on the copies (same i, j) of what its original depended on, and on the
//   collectives it is a member of; a collective on, per member, the member's copy of each
//   dependency on the member's stage.
// Step time: the same kernels on the same GPUs and the same fabric traffic, plus the sends of
// the other TP ranks and the other replicas' embedding all-reduces, which the reduction assumes
// run beside the representatives' on links of their own (the cross-check in docs/chakra.md
// measures how far that holds).
#pragma once

#include "sim/policies/training/training_step.h"
#include "sim/workload/training_config.h"

namespace parallax {

// `reduced` as build_training_step made it for `config`; stage_ranks and microbatches are kept,
// tp_exposed_s follows each task to its copies.
TrainingStep every_rank_step(const TrainingStep& reduced, const TrainingConfig& config);

}  // namespace parallax
