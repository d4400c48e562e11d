// File: sim/workload/csv_reader.h
// A strict, streaming reader for the comma-separated trace files: one line in memory at a time, a
// UTF-8 byte-order mark and CRLF line ends accepted, no quoting (none of the traces uses it). Every
// parse helper throws InputError "file:line: column 'NAME': ..." so a bad row names its place.
// The readers of each trace format (torpor_trace.h, azure2019_trace.h, ...) sit on top of it. It
// reads a stream, so a reader parses a file and an in-memory text alike (the fuzz targets use the
// latter); each format's path overload opens the file with open_trace_file and hands the stream on.
#pragma once

#include <cstdint>
#include <fstream>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include "sim/engine/sim_time.h"
#include "sim/io/input_error.h"

namespace parallax {

// Opens `path` for reading; throws InputError "cannot open file" located at the path.
std::ifstream open_trace_file(const std::string& path);

class CsvReader {
 public:
  // Reads `in`, which must outlive the reader; `source` (the file's path) names it in messages.
  CsvReader(std::istream& in, std::string source);
  // Not copyable or movable: fields() and header() are views into the reader's own buffers.
  CsvReader(const CsvReader&) = delete;
  CsvReader& operator=(const CsvReader&) = delete;

  // Reads the header line into header(). Throws InputError "empty file" if there is none, naming
  // `expected` (a short description of the header the format wants) in the message.
  void read_header(std::string_view expected);

  // Reads the next non-empty line and splits it on ','; false at end of file. Blank lines (empty
  // after removing '\r') are skipped; whitespace inside a field is kept and rejected by the parsers.
  bool next_row();

  const std::vector<std::string_view>& header() const { return header_fields_; }
  const std::vector<std::string_view>& fields() const { return fields_; }
  std::string_view field(size_t i) const { return fields_[i]; }
  int line() const { return line_; }  // 1-based number of the line last read
  const std::string& path() const { return path_; }

  // Throws unless the current row has exactly `n` fields.
  void require_field_count(size_t n) const;
  // Throws unless header field `i` is exactly `name`.
  void require_header_name(size_t i, std::string_view name) const;

  // Field parsers. `i` indexes fields(); the header name of column i goes into the message.
  uint64_t parse_uint(size_t i) const;
  double parse_double(size_t i) const;              // finite, any sign
  double parse_nonnegative_double(size_t i) const;  // finite, >= 0
  Time parse_seconds(size_t i) const;               // exact decimal seconds, >= 0 (see below)
  std::string_view parse_nonempty(size_t i) const;

  // An InputError at the current line; `column` (a header name, may be empty) is the key.
  InputError error(std::string_view column, std::string_view message) const;
  InputError column_error(size_t i, std::string_view message) const;

 private:
  bool read_line();  // into line_buf_, without '\n'/'\r\n', BOM removed on line 1
  void split(std::string_view text, std::vector<std::string_view>& out) const;

  std::string path_;
  std::istream& in_;
  std::string line_buf_;
  std::string header_buf_;
  std::vector<std::string_view> header_fields_;
  std::vector<std::string_view> fields_;
  int line_ = 0;
};

// Parses a non-negative decimal number of seconds ("57.15786004066467", "12", "0.5") exactly into
// picoseconds, rounding half up at the 13th fractional digit; no locale, no binary floating point.
// Returns false on anything else (sign, exponent, spaces, empty, overflow of the Time range).
bool parse_decimal_seconds(std::string_view text, Time& out);

}  // namespace parallax
