// File: sim/report/csv_table.cpp
#include "sim/report/csv_table.h"

#include <charconv>
#include <iterator>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace parallax {

size_t CsvTable::column(std::string_view name) const {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  throw std::out_of_range("CSV has no column '" + std::string(name) + "'");
}

const std::string& CsvTable::cell(size_t row, std::string_view name) const {
  static const std::string kEmpty;
  const size_t c = column(name);
  return c < rows.at(row).size() ? rows[row][c] : kEmpty;
}

double CsvTable::number(size_t row, std::string_view name) const {
  const std::string& s = cell(row, name);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::numeric_limits<double>::quiet_NaN();
  return v;
}

CsvTable parse_csv(std::string_view text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, any = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = any = true;
    } else if (c == ',') {
      record.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n') {
      record.push_back(std::move(field));
      field.clear();
      records.push_back(std::move(record));
      record.clear();
      any = false;
    } else if (c != '\r') {
      field += c;
      any = true;
    }
  }
  if (any) {
    record.push_back(std::move(field));
    records.push_back(std::move(record));
  }
  CsvTable t;
  if (records.empty()) return t;
  t.header = std::move(records.front());
  t.rows.assign(std::make_move_iterator(records.begin() + 1), std::make_move_iterator(records.end()));
  return t;
}

}  // namespace parallax
