// File: sim/experiment/overlap_e2e_experiment.h
// An overlap scenario in mode end_to_end: per model × tp, a Megatron layer's
// forward + backward (models/megatron_layer.h) priced under the sequential Megatron-LM baseline
// and under the selector's per-operator choices (models/layer_step_cost.h), then both plans run
// op by op on SimPlatform as the cross-check. Writes results.csv (one row per model × tp),
// ops.csv (one row per op of each), summary.json and, with output.trace, trace.json (configuration
// workload.trace_config: the baseline layer, then the selected one). Columns and keys:
// docs/overlap.md §End-to-end.
#pragma once

#include "sim/scenario/scenario.h"
#include "sim/experiment/experiment.h"

namespace parallax {

Result run_overlap_end_to_end(const Scenario& scenario, const ExperimentContext& context);

// report.html's body for it, from its Result.
HtmlReport overlap_e2e_page(const Scenario& scenario, const Result& result);

}  // namespace parallax
