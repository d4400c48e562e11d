// File: sim/experiment/policy_summary.cpp
#include "sim/experiment/policy_summary.h"

#include <algorithm>
#include <cstdio>

#include "sim/report/chrome_trace.h"
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

bool traces_policy(const Scenario& sc, const ExperimentContext& context, const std::string& policy,
                   const std::string& trace_policy) {
  return context.outputs() && sc.output.trace && policy == trace_policy;
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

ConsoleTable summary_console_table(const nlohmann::ordered_json& summary) {
  ConsoleTable t{{"figure", "value"}, {}, {}};
  for (const auto& [key, value] : summary.items())
    if (!value.is_structured()) t.rows.push_back({key, value.is_string() ? value.get<std::string>() : value.dump()});
  return t;
}

OutputFile trace_file(const Scenario& sc, std::shared_ptr<const ActivityLog> log, TraceAnnotations annotations) {
  return {"trace.json", "",
          [log = std::move(log), notes = std::move(annotations), options = trace_options(sc)](std::ostream& o) {
            note_trace_cut(write_chrome_trace(o, *log, options, notes));
          }};
}

}  // namespace parallax
