// File: sim/experiment/training_trace.h
// trace.json of a training step from its StepGraph and the run's per-task times: one process per
// representative GPU (one per pipeline stage: the step is simulated on those, the other GPUs of
// a TP group and the other replicas being their copies; training_step.h), a slice per layer pass,
// per send (from one stage's GPU to the next's) and per collective the GPU takes part in.
#pragma once

#include <memory>
#include <vector>

#include "sim/platform/activity_record.h"
#include "sim/policies/step_graph/step_graph_run.h"
#include "sim/workload/step_graph.h"

namespace parallax {

// `shown`: the ranks whose tasks go in; `gpu_model` names their GPUs.
std::shared_ptr<ActivityLog> step_activity_log(const StepGraph& graph, const StepGraphRun& run,
                                               const std::vector<int>& shown, const std::string& gpu_model);

}  // namespace parallax
