// File: sim/sweep/results_table.h
// DIR/results.csv: one row per finished point, columns `point`, `hash`, the axis keys in file
// order (each followed by `<key>_text` where the axis has byte counts with a unit, see below), then
// the scalar fields of the point's summary.json flattened with dotted names (nested
// objects joined by '.'; arrays are left out: they stay in points/<hash>/summary.json). A summary
// field whose name is taken by an axis or by point/hash is written as "summary.<name>". Numbers are
// nlohmann's shortest round-trip text, strings as is (RFC 4180 quoting), null empty.
//
// Axis columns hold numbers where the values are numbers: an axis whose every value in the table is
// a byte count and at least one is written with a unit (1MiB, 64GB) has column `<key>` = the count
// in bytes (1048576) and column `<key>_text` = the text the sweep file wrote (1MiB). Other axes
// hold the canonical text as is (a plain number stays a number). docs/sweeps.md, "results.csv".
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
  void choose_axis_columns(const std::vector<const ManifestEntry*>& entries);
  std::string summary_column(const std::string& field) const;


  std::vector<std::string> axis_keys_;
  std::vector<bool> axis_in_bytes_;  // by axis: `<key>` in bytes, `<key>_text` as written
  std::vector<std::string> columns_;
  size_t summary_start_ = 0;  // columns before it: point, hash, the axes
};

// Writes the whole table atomically: header, then `entries` sorted by point index.
void write_results_csv(const std::filesystem::path& path, const std::vector<std::string>& axis_keys,
                       std::vector<ManifestEntry> entries);

// DIR/timing.json of a sweep: {"points": [{point, hash, wall_s, events_per_s, sim_to_wall_ratio}]}
// from the manifest, sorted by point (the optional rates left out when a point lacks them). The
// wall-clock figures live here and in each point's own timing.json, never in results.csv.
void write_sweep_timing_json(const std::filesystem::path& path, std::vector<ManifestEntry> entries);

}  // namespace parallax
