// File: sim/sweep/results_table.h
// DIR/results.csv: one row per finished point, columns `point`, `hash`, the axis keys in file
// order, then the scalar fields of the point's summary.json flattened with dotted names (nested
// objects joined by '.'; arrays are left out: they stay in points/<hash>/summary.json). A summary
// field whose name is taken by an axis or by point/hash is written as "summary.<name>". Numbers are
// nlohmann's shortest round-trip text, strings as is (RFC 4180 quoting), null empty.
//
// While a sweep runs, rows are appended in the order points finish under the header of the first
// row; when it ends (and whenever it resumes), the file is rewritten from the manifest: rows in
// point order, columns the union over all rows in the order they first appear in point order.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/sweep/sweep_manifest.h"

namespace parallax {

// {"a": 1, "b": {"c": "x", "d": [1]}} -> {"a": 1, "b.c": "x"}.
nlohmann::ordered_json flatten_summary(const nlohmann::ordered_json& summary);

class ResultsTable {
 public:
  // The columns for these entries (any order; they are sorted by point here).
  ResultsTable(std::vector<std::string> axis_keys, const std::vector<ManifestEntry>& entries);
  // Columns fixed in advance from one entry (the first appended row).
  ResultsTable(std::vector<std::string> axis_keys, const ManifestEntry& first);

  const std::vector<std::string>& columns() const { return columns_; }
  std::string header_line() const;
  // Fields the header lacks are dropped; missing ones are empty.
  std::string row_line(const ManifestEntry& entry) const;

 private:
  void add_columns_of(const ManifestEntry& entry);
  std::string summary_column(const std::string& field) const;

  std::vector<std::string> axis_keys_;
  std::vector<std::string> columns_;
};

// Writes the whole table atomically: header, then `entries` sorted by point index.
void write_results_csv(const std::filesystem::path& path, const std::vector<std::string>& axis_keys,
                       std::vector<ManifestEntry> entries);

}  // namespace parallax
