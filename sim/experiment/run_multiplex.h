// File: sim/experiment/run_multiplex.h
// `parallax run` for workload.kind == multiplex: runs the services on the scenario's first GPU once
// per listed policy, with the same arrivals for every policy, and writes summary.json (every policy
// under `policies.<name>`, per service under `services.<name>`: docs/multiplex.md), trace.json
// (the kernels of `trace_policy`, each on its service's partition track) and, when the traced
// policy resizes shares (elastic), shares.csv (time, service, SMs, bandwidth share); with --out,
// timeline.csv (every policy's per-service utilisation in time bins, sim/experiment/multiplex_series.h).
#pragma once

#include "sim/scenario/scenario.h"
#include "sim/experiment/run_options.h"

namespace parallax {

int run_multiplex(const Scenario& scenario, const RunOptions& options);

}  // namespace parallax
