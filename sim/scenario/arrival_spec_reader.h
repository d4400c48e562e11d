// File: sim/scenario/arrival_spec_reader.h
// An `arrivals:` mapping of a scenario (the kinds of sim/workload/arrival_process.h: poisson,
// gamma, mmpp, deterministic, azure_llm), its ranges checked here so that an error has its place.
// One reader for every workload kind that takes arrivals (multiplex services, the colocate LS
// service). An azure_llm `path` is resolved against the scenario file's folder and must exist;
// its rows are read (and checked, file:line) when the run starts.
#pragma once

#include <string>

#include "sim/scenario/config_tree.h"
#include "sim/scenario/workload_kinds.h"
#include "sim/workload/arrival_process.h"

namespace parallax {

ArrivalProcessSpec read_arrival_process_spec(const ConfigNode& node, const std::string& path,
                                             const WorkloadContext& context);

// Rejects, at `node`, a process expected to draw more than kMaxExpectedDraws times over
// `duration_s` (input_limits.h): arrivals, and for mmpp also its state switches; and one expected
// to bring fewer than one request (an empty run would read as 100 % within the SLO).
void check_arrival_draws(const ConfigNode& node, const std::string& path, const ArrivalProcessSpec& spec,
                         double duration_s);

// The process's expected arrivals over `duration_s`.
double expected_arrivals(const ArrivalProcessSpec& spec, double duration_s);

}  // namespace parallax
