// File: sim/experiment/result.h
// What one experiment returns, in memory: summary.json as a typed tree (nlohmann::ordered_json keeps
// the key order, so it serialises byte-for-byte as the runners always wrote it), timing.json, the
// output files (CSV tables as text, trace.json streamed when written), the console tables and what
// the report page needs beyond them. `run` writes it (sim/experiment/output_folder.h), `sweep` reads
// its summary for the manifest and results.csv, the report page renders from it.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/report/console_table.h"
#include "sim/report/csv_table.h"

namespace parallax {

// One file of the output folder. `text` holds a table (the report page parses it back);
// `stream`, when set, writes a file too large to keep as text (trace.json, activities.csv) at the
// moment the folder is written.
struct OutputFile {
  std::string name;
  std::string text;
  std::function<void(std::ostream&)> stream;
};

struct Result {
  std::string kind;                      // workload.kind
  nlohmann::ordered_json summary;        // summary.json
  nlohmann::ordered_json timing;         // timing.json (wall-clock figures; sim/report/run_timing.h)
  std::vector<OutputFile> files;         // written in this order, before timing.json and summary.json
  std::vector<std::string> stale;        // earlier outputs to remove first when this run does not write them
  std::vector<ConsoleTable> console;     // what `run` prints
  nlohmann::ordered_json page_data;      // what the report page needs that no file holds (never written)

  // File `name` parsed as a CSV table; empty when the run did not write it.
  CsvTable table(const std::string& name) const;
};

}  // namespace parallax
