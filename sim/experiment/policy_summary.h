// File: sim/experiment/policy_summary.h
// What the experiments share: the header of the policy comparisons' summary.json (colocate,
// multiplex, cluster_packing), which policy's run is traced, trace.json's options and phases.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/platform/activity_record.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/trace_annotations.h"
#include "sim/scenario/scenario.h"
#include "sim/experiment/experiment.h"

namespace parallax {

// scenario, hardware, seed, parallax_version, git_commit, workload_kind.
nlohmann::ordered_json policy_summary_header(const Scenario& sc, const std::string& workload_kind);

// Whether `policy` is the one whose activities go into trace.json: outputs are written, the
// scenario asks for a trace, and the workload names this policy as its trace_policy.
bool traces_policy(const Scenario& sc, const ExperimentContext& context, const std::string& policy,
                   const std::string& trace_policy);

// trace.json's writer options from the scenario: output.trace_limit activities (0 = no limit).
ChromeTraceOptions trace_options(const Scenario& sc);

// A phase named `name` from the first start to the last end of `log`'s records [first, last)
// (positions in log.records): the stretch one policy or strategy occupies. Zero-length when there
// are none.
TracePhase log_phase(std::string name, const ActivityLog& log, size_t first = 0, size_t last = SIZE_MAX);

// "note: trace.json holds the first N of M activities (output.trace_limit)" on stderr when cut.
void note_trace_cut(const ChromeTraceStats& stats);

// The console table of a kind whose summary is a flat list of figures (overlap): one row per
// scalar key of `summary`, in its order, the value as summary.json writes it.
ConsoleTable summary_console_table(const nlohmann::ordered_json& summary);

// trace.json from `log` and `annotations`, streamed when the folder is written (it may be large);
// the note on a cut trace goes to stderr then.
OutputFile trace_file(const Scenario& sc, std::shared_ptr<const ActivityLog> log, TraceAnnotations annotations = {});

}  // namespace parallax
