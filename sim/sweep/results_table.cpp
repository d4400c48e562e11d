// File: sim/sweep/results_table.cpp
#include "sim/sweep/results_table.h"

#include <algorithm>

#include "sim/report/atomic_file.h"
#include "sim/report/csv_row.h"

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

}  // namespace

nlohmann::ordered_json flatten_summary(const nlohmann::ordered_json& summary) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  if (summary.is_object()) flatten_into(summary, "", out);
  return out;
}

ResultsTable::ResultsTable(std::vector<std::string> axis_keys, const std::vector<ManifestEntry>& entries)
    : axis_keys_(std::move(axis_keys)) {
  columns_ = {"point", "hash"};
  columns_.insert(columns_.end(), axis_keys_.begin(), axis_keys_.end());
  std::vector<const ManifestEntry*> sorted;
  for (const ManifestEntry& e : entries) sorted.push_back(&e);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const ManifestEntry* a, const ManifestEntry* b) { return a->point < b->point; });
  for (const ManifestEntry* e : sorted) add_columns_of(*e);
}

ResultsTable::ResultsTable(std::vector<std::string> axis_keys, const ManifestEntry& first)
    : ResultsTable(std::move(axis_keys), std::vector<ManifestEntry>{first}) {}

std::string ResultsTable::summary_column(const std::string& field) const {
  const bool taken = field == "point" || field == "hash" ||
                     std::find(axis_keys_.begin(), axis_keys_.end(), field) != axis_keys_.end();
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
  const size_t first_summary = 2 + axis_keys_.size();
  for (size_t a = 0; a < axis_keys_.size(); ++a)
    for (const auto& [key, value] : entry.axes)
      if (key == axis_keys_[a]) fields[2 + a] = value;
  for (const auto& [field, value] : entry.summary.items()) {
    const std::string column = summary_column(field);
    const auto it = std::find(columns_.begin() + static_cast<std::ptrdiff_t>(first_summary), columns_.end(), column);
    if (it != columns_.end()) fields[static_cast<size_t>(it - columns_.begin())] = cell(value);
  }
  return csv_line(fields);
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
