// File: sim/experiment/run_serverless.h
// `parallax run` for workload.kind == serverless: replays the scenario's trace on its node once
// per listed policy and writes summary.json (the first policy's metrics at the top level, every
// policy under `policies.<name>`) and function_latency.csv (docs/serverless.md).
#pragma once

#include "sim/scenario/scenario.h"
#include "sim/experiment/run_options.h"

namespace parallax {

int run_serverless(const Scenario& scenario, const RunOptions& options);

}  // namespace parallax
