// File: sim/report/csv_row.cpp
#include "sim/report/csv_row.h"

#include <algorithm>

namespace parallax {
namespace {

// Appends the field as it appears in the file (no string of its own: a table writes millions).
// (One pass over the bytes: find_first_of with a set of four took a call to find() a byte.)
void append_csv_field(std::string& out, std::string_view field) {
  const bool plain = std::none_of(field.begin(), field.end(),
                                  [](char c) { return c == ',' || c == '"' || c == '\r' || c == '\n'; });
  if (plain) {
    out.append(field);
    return;
  }
  out.push_back('"');
  for (char c : field) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
}

}  // namespace

std::string csv_field(std::string_view field) {
  std::string quoted;
  append_csv_field(quoted, field);
  return quoted;
}

void write_csv_row(std::ostream& out, const std::vector<std::string>& fields) {
  std::string line;
  size_t size = fields.size();
  for (const std::string& f : fields) size += f.size();
  line.reserve(size + 8);
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line.push_back(',');
    append_csv_field(line, fields[i]);
  }
  line.push_back('\n');
  out.write(line.data(), static_cast<std::streamsize>(line.size()));
}

}  // namespace parallax
