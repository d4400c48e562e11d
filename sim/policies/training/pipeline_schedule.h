// File: sim/policies/training/pipeline_schedule.h
// The order in which each pipeline stage runs its micro-batches' forward and backward passes,
// and the wiring of those passes into a StepGraph (each stage one stream of passes; a pass also
// waits for its input from the neighbouring stage).
//
//   gpipe        every forward, then every backward (Huang et al. 2019);
//   1f1b         PipeDream-flush (Narayanan et al. 2021): stage s runs min(p-s-1, m) forwards,
//                then alternates one forward and one backward, then drains the backwards;
//   interleaved  Megatron-LM's interleaved 1F1B with v model chunks per stage: virtual stage
//                k·p + s is chunk k of stage s; m must be a multiple of p; warm-up
//                (p-s-1)·2 + (v-1)·p chunk-passes (Narayanan et al. 2021, §2.2).
// With equal passes and free communication the idle share of a stage is (p-1)/(m+p-1) for both
// 1F1B and GPipe, and (p-1)/(v·m+p-1) interleaved (pipeline_schedule_test.cpp checks it).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "sim/workload/step_graph.h"
#include "sim/workload/training_config.h"

namespace parallax {

struct PipelineOp {
  int microbatch = 0;
  int chunk = 0;
  bool backward = false;
};

// Per stage, its passes in execution order. Throws std::invalid_argument for a schedule that
// cannot run the counts (interleaved with v < 2 or m not a multiple of p; automatic).
std::vector<std::vector<PipelineOp>> pipeline_order(PipelineSchedule schedule, int stages, int microbatches,
                                                    int chunks);

// How the wiring asks for tasks. `pass` appends the tasks of one pass on `stage` after `deps`
// and returns the index of its last task; `transfer` appends what carries a pass's output (the
// activations forward, the gradient backward) from `from` to `to` after task `after` and returns
// the task the receiving pass waits for.
struct PipelineTasks {
  std::function<uint32_t(int stage, const PipelineOp& op, std::vector<uint32_t> deps)> pass;
  std::function<uint32_t(int from, int to, const PipelineOp& op, uint32_t after)> transfer;
};

// Appends every stage's passes to `graph` in a topological order; returns, per stage, the index
// of its last pass's last task. Throws std::logic_error if the order deadlocks.
std::vector<uint32_t> wire_pipeline(const std::vector<std::vector<PipelineOp>>& order, int chunks,
                                    const PipelineTasks& tasks);

}  // namespace parallax
