// File: sim/experiment/policy_summary.cpp
#include "sim/experiment/policy_summary.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "sim/report/atomic_file.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/json_output.h"
#include "sim/report/run_timing.h"
#include "sim/experiment/version.h"

namespace parallax {

nlohmann::ordered_json policy_summary_header(const Scenario& sc, const std::string& workload_kind) {
  nlohmann::ordered_json summary;
  summary["scenario"] = sc.name;
  summary["hardware"] = sc.hardware.name;
  summary["seed"] = sc.seed;
  summary["parallax_version"] = kParallaxVersion;
  summary["git_commit"] = kParallaxGitCommit;
  summary["workload_kind"] = workload_kind;
  return summary;
}

bool traces_policy(const Scenario& sc, const RunOptions& options, const std::string& policy,
                   const std::string& trace_policy) {
  return !options.out_dir.empty() && sc.output.trace && policy == trace_policy;
}

ChromeTraceOptions trace_options(const Scenario& sc) {
  return ChromeTraceOptions{.max_records = static_cast<size_t>(sc.output.trace_limit)};
}

TracePhase log_phase(std::string name, const ActivityLog& log, size_t first, size_t last) {
  TracePhase p{std::move(name), Time::max(), Time::zero()};
  for (size_t i = first; i < std::min(last, log.records.size()); ++i) {
    p.start = std::min(p.start, log.records[i].start);
    p.end = std::max(p.end, log.records[i].end);
  }
  if (p.end < p.start) p.start = p.end = Time::zero();
  return p;
}

void note_trace_cut(const ChromeTraceStats& stats) {
  if (stats.truncated)
    std::fprintf(stderr, "note: trace.json holds the first %zu of %zu activities (output.trace_limit; 0 = no limit)\n",
                 stats.records_written, stats.records_total);
}

void write_policy_outputs(const Scenario& sc, const RunOptions& options, const nlohmann::ordered_json& summary,
                          double wall_s,
                          const ActivityLog* trace_log, const std::vector<ExtraOutputFile>& extra,
                          const TraceAnnotations& annotations) {
  if (options.out_dir.empty()) return;
  const std::filesystem::path dir(options.out_dir);
  std::filesystem::create_directories(dir);
  if (sc.output.trace && trace_log != nullptr) {
    note_trace_cut(write_chrome_trace_file(dir / "trace.json", *trace_log, trace_options(sc), annotations));
  }
  for (const ExtraOutputFile& f : extra) write_file_atomically(dir / f.name, f.contents);
  write_timing_json(dir, timing_json(wall_s));
  write_json_atomically(dir / "summary.json", summary);
  if (!options.quiet) std::printf("\noutputs: %s\n", options.out_dir.c_str());
}

}  // namespace parallax
