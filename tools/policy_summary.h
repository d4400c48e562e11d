// File: tools/policy_summary.h
// What the policy-comparison runs (`parallax run` for colocate, multiplex, cluster_packing) share:
// the header of summary.json, which policy's run is traced, and writing the output directory in
// a fixed order (stale summary.json and report.html removed first, summary.json written last, so
// its presence says the directory is complete).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/platform/activity_record.h"
#include "sim/report/trace_annotations.h"
#include "sim/scenario/scenario.h"
#include "tools/run_command.h"

namespace parallax {

// scenario, hardware, seed, parallax_version, git_commit, workload_kind.
nlohmann::ordered_json policy_summary_header(const Scenario& sc, const std::string& workload_kind);

// Whether `policy` is the one whose activities go into trace.json: outputs are written, the
// scenario asks for a trace, and the workload names this policy as its trace_policy.
bool traces_policy(const Scenario& sc, const RunOptions& options, const std::string& policy,
                   const std::string& trace_policy);

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
