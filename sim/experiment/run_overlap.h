// File: sim/experiment/run_overlap.h
// `parallax run` of a workload.kind == "overlap" scenario: every grid configuration predicted by
// the analytic models and executed on SimPlatform, strategy by strategy and degree by degree;
// results.csv (one row per configuration), summary.json and, with output.trace, trace.json (the
// four strategies of configuration workload.trace_config run one after another) in --out.
// Columns and keys: docs/overlap.md §Outputs. mode: end_to_end goes to run_overlap_e2e.h.
#pragma once

#include "sim/scenario/scenario.h"
#include "sim/experiment/run_options.h"

namespace parallax {

int run_overlap(const Scenario& scenario, const RunOptions& options);

}  // namespace parallax
