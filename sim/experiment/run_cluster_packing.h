// File: sim/experiment/run_cluster_packing.h
// `parallax run` for workload.kind == cluster_packing: reads the Alibaba pod and node lists (a bad
// row: exit 2 with file:line), replays the pods once per listed scheme (exclusive, mig, elastic)
// and writes summary.json with every scheme under `policies.<name>` (docs/multiplex.md §Cluster
// packing). No trace.json: nothing here runs kernels.
#pragma once

#include "sim/scenario/scenario.h"
#include "sim/experiment/run_options.h"

namespace parallax {

int run_cluster_packing(const Scenario& scenario, const RunOptions& options);

}  // namespace parallax
