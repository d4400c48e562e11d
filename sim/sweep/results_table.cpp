// File: sim/sweep/results_table.cpp
#include "sim/sweep/results_table.h"

#include <algorithm>
#include <charconv>

#include "sim/report/atomic_file.h"
#include "sim/report/csv_row.h"
#include "sim/report/json_output.h"
#include "sim/scenario/byte_count.h"

namespace parallax {

namespace {

void flatten_into(const nlohmann::ordered_json& node, const std::string& prefix, nlohmann::ordered_json& out) {
  for (const auto& [key, value] : node.items()) {
    const std::string name = prefix.empty() ? key : prefix + "." + key;
    if (value.is_object())
      flatten_into(value, name, out);
    else if (!value.is_array())
      out[name] = value;
  }
}

std::string cell(const nlohmann::ordered_json& value) {
  if (value.is_null()) return "";
  if (value.is_string()) return value.get<std::string>();
  return value.dump();
}

std::string csv_line(const std::vector<std::string>& fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += csv_field(fields[i]);
  }
  return line + "\n";
}

// The axis value of `key` in `entry` ("" when the entry lacks it).
const std::string& axis_value(const ManifestEntry& entry, const std::string& key) {
  static const std::string kNone;
  for (const auto& [k, value] : entry.axes)
    if (k == key) return value;
  return kNone;
}

// A plain number as YAML writes one ("16", "1e9", "-2.5"): no unit to convert.
bool plain_number(const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

nlohmann::ordered_json flatten_summary(const nlohmann::ordered_json& summary) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  if (summary.is_object()) flatten_into(summary, "", out);
  return out;
}

ResultsTable::ResultsTable(std::vector<std::string> axis_keys, const std::vector<ManifestEntry>& entries)
    : axis_keys_(std::move(axis_keys)) {
  std::vector<const ManifestEntry*> sorted;
  for (const ManifestEntry& e : entries) sorted.push_back(&e);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const ManifestEntry* a, const ManifestEntry* b) { return a->point < b->point; });
  choose_axis_columns(sorted);
  for (const ManifestEntry* e : sorted) add_columns_of(*e);
}

void ResultsTable::choose_axis_columns(const std::vector<const ManifestEntry*>& entries) {
  columns_ = {"point", "hash"};
  for (const std::string& key : axis_keys_) {
    bool all_counts = !entries.empty(), some_unit = false;
    for (const ManifestEntry* e : entries) {
      const std::string& text = axis_value(*e, key);
      all_counts = all_counts && parse_byte_count(text).bytes.has_value();
      some_unit = some_unit || !plain_number(text);
    }
    axis_in_bytes_.push_back(all_counts && some_unit);
    columns_.push_back(key);
    if (axis_in_bytes_.back()) columns_.push_back(key + "_text");
  }
  summary_start_ = columns_.size();
}

ResultsTable::ResultsTable(std::vector<std::string> axis_keys, const ManifestEntry& first)
    : ResultsTable(std::move(axis_keys), std::vector<ManifestEntry>{first}) {}

std::string ResultsTable::summary_column(const std::string& field) const {
  const bool taken = field == "point" || field == "hash" ||
                     std::find(columns_.begin(), columns_.begin() + static_cast<std::ptrdiff_t>(summary_start_), field) !=
                         columns_.begin() + static_cast<std::ptrdiff_t>(summary_start_);
  return taken ? "summary." + field : field;
}

void ResultsTable::add_columns_of(const ManifestEntry& entry) {
  for (const auto& [field, value] : entry.summary.items()) {
    const std::string column = summary_column(field);
    if (std::find(columns_.begin(), columns_.end(), column) == columns_.end()) columns_.push_back(column);
  }
}

std::string ResultsTable::header_line() const { return csv_line(columns_); }

std::string ResultsTable::row_line(const ManifestEntry& entry) const {
  std::vector<std::string> fields(columns_.size());
  fields[0] = std::to_string(entry.point);
  fields[1] = entry.hash;
  const size_t first_summary = summary_start_;
  size_t column = 2;
  for (size_t a = 0; a < axis_keys_.size(); ++a) {
    const std::string& text = axis_value(entry, axis_keys_[a]);
    if (!axis_in_bytes_[a]) {
      fields[column++] = text;
      continue;
    }
    const std::optional<int64_t> bytes = parse_byte_count(text).bytes;
    fields[column++] = bytes ? std::to_string(*bytes) : "";
    fields[column++] = text;
  }
  for (const auto& [field, value] : entry.summary.items()) {
    const std::string column = summary_column(field);
    const auto it = std::find(columns_.begin() + static_cast<std::ptrdiff_t>(first_summary), columns_.end(), column);
    if (it != columns_.end()) fields[static_cast<size_t>(it - columns_.begin())] = cell(value);
  }
  return csv_line(fields);
}

void write_sweep_timing_json(const std::filesystem::path& path, std::vector<ManifestEntry> entries) {
  std::stable_sort(entries.begin(), entries.end(),
                   [](const ManifestEntry& a, const ManifestEntry& b) { return a.point < b.point; });
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const ManifestEntry& e : entries) {
    nlohmann::ordered_json p;
    p["point"] = e.point;
    p["hash"] = e.hash;
    p["wall_s"] = e.wall_s;
    if (e.events_per_s) p["events_per_s"] = *e.events_per_s;
    if (e.sim_to_wall) p["sim_to_wall_ratio"] = *e.sim_to_wall;
    points.push_back(std::move(p));
  }
  nlohmann::ordered_json j;
  j["points"] = std::move(points);
  write_json_atomically(path, j);
}

void write_results_csv(const std::filesystem::path& path, const std::vector<std::string>& axis_keys,
                       std::vector<ManifestEntry> entries) {
  std::stable_sort(entries.begin(), entries.end(),
                   [](const ManifestEntry& a, const ManifestEntry& b) { return a.point < b.point; });
  const ResultsTable table(axis_keys, entries);
  std::string text = table.header_line();
  for (const ManifestEntry& e : entries) text += table.row_line(e);
  write_file_atomically(path, text);
}

}  // namespace parallax
