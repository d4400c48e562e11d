// File: sim/report/run_comparison.h
// Two or more run folders side by side, metric by metric: every number of summary.json (flattened
// to dotted keys), the numbers of each CSV table (row by row where the rows have a unique key, else
// the column means per key) and, shown apart, timing.json. The first run is the baseline; each
// other run gets an absolute and a relative difference. Reading the folders is the caller's
// (tools/compare_command.cpp); the page is report_pages.h's compare_report_page; how keys are built
// is docs/reports.md#compare.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/csv_table.h"

namespace parallax {

// What one run folder holds, as read from disk.
struct RunFolder {
  std::string label;                     // the folder as the user named it
  nlohmann::ordered_json summary;        // summary.json
  std::optional<nlohmann::ordered_json> timing;  // timing.json, when present
  std::map<std::string, CsvTable> tables;        // file name -> table, every *.csv in the folder
};

// One compared number. `values` has one entry per run (nullopt: the run lacks it).
struct ComparedMetric {
  std::string key;     // "policies.sgdrc.ls_p99_latency_s", "function_latency.csv[torpor/f1].p98_s"
  std::string source;  // "summary.json", "timing.json" or the CSV file name
  std::vector<std::optional<double>> values;

  // Run i against run 0; nullopt when either is missing. relative() is also nullopt when the
  // baseline is 0 and run i is not (0 when both are 0).
  std::optional<double> absolute(size_t i) const;
  std::optional<double> relative(size_t i) const;
  // Some run differs from the baseline (or lacks the metric while another has it).
  bool differs() const;
};

// A text field of summary.json ("scenario", "hardware", "git_commit") whose value is not the same
// in every run; `values` as for numbers ("" when missing).
struct ComparedText {
  std::string key;
  std::vector<std::string> values;
};

struct RunComparison {
  std::vector<std::string> runs;          // labels, baseline first
  std::vector<ComparedMetric> metrics;    // summary.json, then the CSVs by file name; first-seen order
  std::vector<ComparedMetric> timing;     // timing.json: wall-clock, never part of `metrics`
  std::vector<ComparedText> texts;        // only the ones that differ
};

// Keys ending in wall_s, sim_to_wall_ratio or events_per_s are wall-clock: left out of the
// summary.json and CSV metrics (they live in timing.json, which goes to `timing`).
bool is_timing_key(const std::string& key);

// Throws std::invalid_argument with fewer than two folders.
RunComparison compare_runs(const std::vector<RunFolder>& folders);

// The comparison as CSV: metric,source, then per run its value and, for runs after the first,
// abs_<i> and rel_<i>. Every metric, the identical ones included; timing rows last.
std::string comparison_csv(const RunComparison& c);

}  // namespace parallax
