// File: sim/scenario/training_workload.h
// workload.kind == "training": one 3D-parallel training step of a GPT-style model on the
// scenario's cluster (sim/workload/training_config.h; run by sim/experiment/training_experiment.cpp;
// docs/training.md).
//
//   workload:
//     kind: training
//     model: {layers: 48, hidden: 8192, heads: 64, seq_len: 2048, vocab: 51200}
//     parallel: {tp: 8, pp: 2, dp: 32}     # tp·pp·dp GPUs of the cluster (at most all of them)
//     global_batch: 1536
//     micro_batch: 1                       # or auto: the fastest that fits in memory
//     schedule: 1f1b                       # gpipe | 1f1b | interleaved | auto
//     virtual_stages: 2                    # interleaved only (and auto's upper bound; default 2)
//     recompute: full                      # none | selective | full
//     overlap: {strategy: none}            # none | sequential | intrafusion | interdecom | auto
//     gradient_reduce: all_reduce          # optional: all_reduce (DDP) | reduce_scatter (distributed optimizer)
//     gradient_bucket: 80MB                # optional: DDP bucket (default 40M bf16 gradients)
//
// Loading checks the divisibility the layout needs, with the offending key; whether it fits in
// memory is checked when it runs (an exit 2 at `workload.micro_batch`).
#pragma once

#include "sim/io/input_error.h"
#include "sim/scenario/config_tree.h"
#include "sim/workload/training_config.h"

namespace parallax {

struct Scenario;
struct WorkloadContext;

struct TrainingWorkloadSpec {
  TrainingConfig config;
  SourceLocation micro_batch_where;  // where a layout that does not fit is reported
};

void read_training_workload(const ConfigNode& workload, const std::string& path, const WorkloadContext& context,
                            Scenario& scenario);

}  // namespace parallax
