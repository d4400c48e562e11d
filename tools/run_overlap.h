// File: tools/run_overlap.h
// `parallax run` of a workload.kind == "overlap" scenario: every grid configuration predicted by
// the analytic models and executed on SimPlatform, strategy by strategy and degree by degree;
// results.csv (one row per configuration) and summary.json in --out. Columns and keys:
// docs/overlap.md §Outputs.
#pragma once

#include "sim/scenario/scenario.h"
#include "tools/run_command.h"

namespace parallax {

int run_overlap(const Scenario& scenario, const RunOptions& options);

}  // namespace parallax
