// File: sim/experiment/run_colocate.h
// `parallax run` for workload.kind == colocate: runs the LS service and the BE job on the
// scenario's first GPU once per listed policy and writes summary.json (every policy under
// `policies.<name>`, docs/colocate.md) and trace.json (the kernels of `trace_policy`, each on its
// partition's track).
#pragma once

#include "sim/scenario/scenario.h"
#include "sim/experiment/run_options.h"

namespace parallax {

int run_colocate(const Scenario& scenario, const RunOptions& options);

}  // namespace parallax
