// File: sim/report/csv_row.h
// One CSV record per call, quoted per RFC 4180: a field holding a comma, a double quote, CR or LF
// is wrapped in double quotes with inner quotes doubled; every other field is written as is.
// Lines end with "\n" (not CRLF). What the columns are and how numbers look is up to each table.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace parallax {

// The field as it appears in the file: `a,b` -> `"a,b"`, `say "hi"` -> `"say ""hi"""`.
std::string csv_field(std::string_view field);

// Writes the fields separated by commas, then "\n".
void write_csv_row(std::ostream& out, const std::vector<std::string>& fields);

}  // namespace parallax
