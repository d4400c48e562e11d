// File: tools/bench_overload.h
// `parallax bench overload`: a serverless scenario driven by a trace far beyond what its GPUs can
// serve (by default scenarios/serverless/small.yaml with the Azure Functions 2019 sample over the
// full 120 s), once per serverless policy, timing `parallax run --quiet` of each. The queue grows
// with the simulated time, so a dispatch that scanned it would make the wall time quadratic; the
// table shows whether it stays linear (docs/performance.md "Serverless overload").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace parallax {

struct OverloadBenchOptions {
  std::string scenario = "scenarios/serverless/small.yaml";
  std::string trace = "traces/azure2019_single_function/invocations.csv";  // Azure 2019 format
  std::vector<double> durations_s{120};  // simulated seconds; one row per policy and duration
  std::vector<std::string> policies;     // empty: every serverless policy
  // Not empty: one row per count, each the scenario's own trace replayed by that many functions
  // (workload.functions; function i replays the trace's i mod F), instead of `trace`: the growth
  // with the number of functions under overload.
  std::vector<int64_t> functions;
};

int run_overload_bench(const OverloadBenchOptions& options);

}  // namespace parallax
