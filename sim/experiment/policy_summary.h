// File: sim/experiment/policy_summary.h
// What the policy-comparison runs (`parallax run` for colocate, multiplex, cluster_packing) share:
// the header of summary.json, which policy's run is traced, trace.json's options and phases, and
// writing the output directory in
// a fixed order (stale summary.json and report.html removed first, summary.json written last, so
// its presence says the directory is complete).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/platform/activity_record.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/trace_annotations.h"
#include "sim/scenario/scenario.h"
#include "sim/experiment/run_options.h"

namespace parallax {

// scenario, hardware, seed, parallax_version, git_commit, workload_kind.
nlohmann::ordered_json policy_summary_header(const Scenario& sc, const std::string& workload_kind);

// Whether `policy` is the one whose activities go into trace.json: outputs are written, the
// scenario asks for a trace, and the workload names this policy as its trace_policy.
bool traces_policy(const Scenario& sc, const RunOptions& options, const std::string& policy,
                   const std::string& trace_policy);

// trace.json's writer options from the scenario: output.trace_limit activities (0 = no limit).
ChromeTraceOptions trace_options(const Scenario& sc);

// A phase named `name` from the first start to the last end of `log`'s records [first, last)
// (positions in log.records): the stretch one policy or strategy occupies. Zero-length when there
// are none.
TracePhase log_phase(std::string name, const ActivityLog& log, size_t first = 0, size_t last = SIZE_MAX);

// "note: trace.json holds the first N of M activities (output.trace_limit)" on stderr when cut.
void note_trace_cut(const ChromeTraceStats& stats);

// A file other than summary.json and trace.json (e.g. shares.csv), written atomically.
struct ExtraOutputFile {
  std::string name;
  std::string contents;
};

// Does nothing without --out. Otherwise: create the directory, remove summary.json and
// report.html, write trace.json from `trace_log` and `annotations` (counters, requests) when the
// scenario asks for a trace (a run without kernels passes nullptr), then every extra file, then
// timing.json ({"wall_s": wall_s}, the run's wall-clock seconds; sim/report/run_timing.h), then
// summary.json; prints "outputs: DIR" unless quiet.
void write_policy_outputs(const Scenario& sc, const RunOptions& options, const nlohmann::ordered_json& summary,
                          double wall_s,
                          const ActivityLog* trace_log, const std::vector<ExtraOutputFile>& extra = {},
                          const TraceAnnotations& annotations = {});

}  // namespace parallax
