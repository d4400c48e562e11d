// File: sim/report/csv_table.h
// A CSV file read back into memory for the reports: the header names the columns, every row is a
// vector of fields. Quoted fields (RFC 4180, as csv_row.h writes them) are unquoted. Reading a
// column as numbers is cell(); interpreting them is left to the report pages.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace parallax {

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  // Index of `name` in the header; throws std::out_of_range naming the column if absent.
  size_t column(std::string_view name) const;
  // Field of row `row` in column `name` ("" when the row is short).
  const std::string& cell(size_t row, std::string_view name) const;
  // The field as a double (NaN when empty or not a number).
  double number(size_t row, std::string_view name) const;
};

CsvTable parse_csv(std::string_view text);

}  // namespace parallax
