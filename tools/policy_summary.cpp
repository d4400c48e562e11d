// File: tools/policy_summary.cpp
#include "tools/policy_summary.h"

#include <cstdio>
#include <filesystem>

#include "sim/report/atomic_file.h"
#include "sim/report/chrome_trace.h"
#include "sim/report/json_output.h"
#include "tools/version.h"

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

void write_policy_outputs(const Scenario& sc, const RunOptions& options, const nlohmann::ordered_json& summary,
                          const ActivityLog* trace_log, const std::vector<ExtraOutputFile>& extra,
                          const TraceAnnotations& annotations) {
  if (options.out_dir.empty()) return;
  const std::filesystem::path dir(options.out_dir);
  std::filesystem::create_directories(dir);
  if (sc.output.trace && trace_log != nullptr) {
    const ChromeTraceStats st = write_chrome_trace_file(dir / "trace.json", *trace_log, {}, annotations);
    if (st.truncated)
      std::fprintf(stderr, "note: trace.json holds the first %zu of %zu activities\n", st.records_written,
                   st.records_total);
  }
  for (const ExtraOutputFile& f : extra) write_file_atomically(dir / f.name, f.contents);
  write_json_atomically(dir / "summary.json", summary);
  if (!options.quiet) std::printf("\noutputs: %s\n", options.out_dir.c_str());
}

}  // namespace parallax
