// File: sim/workload/torpor_trace.cpp
#include "sim/workload/torpor_trace.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <iterator>
#include <string_view>

#include "sim/workload/csv_reader.h"

namespace parallax {

MinuteCounts read_torpor_samples(const std::string& path, size_t max_functions) {
  std::ifstream in = open_trace_file(path);
  return read_torpor_samples(in, path, max_functions);
}

MinuteCounts read_torpor_samples(std::istream& in, const std::string& source, size_t max_functions) {
  CsvReader csv(in, source);
  csv.read_header("function_index,min_0,...,min_N");
  csv.require_header_name(0, "function_index");
  const size_t columns = csv.header().size();
  if (columns < 2) throw csv.error("", "header has no min_<k> columns");
  for (size_t k = 1; k < columns; ++k) csv.require_header_name(k, fmt::format("min_{}", k - 1));

  MinuteCounts out;
  while (out.functions.size() < max_functions && csv.next_row()) {
    csv.require_field_count(columns);
    const uint64_t index = csv.parse_uint(0);
    if (index != out.functions.size()) {
      throw csv.column_error(0, fmt::format("function_index {} out of sequence, expected {}", index,
                                            out.functions.size()));
    }
    FunctionMinuteCounts f{fmt::format("f{}", index), {}};
    f.per_minute.reserve(columns - 1);
    for (size_t k = 1; k < columns; ++k) {
      const uint64_t c = csv.parse_uint(k);
      if (c > UINT32_MAX) throw csv.column_error(k, fmt::format("count {} too large", c));
      f.per_minute.push_back(static_cast<uint32_t>(c));
    }
    out.functions.push_back(std::move(f));
  }
  if (out.functions.empty()) throw csv.error("", "no data rows after the header");
  return out;
}

std::vector<double> read_torpor_rates(const std::string& path) {
  std::ifstream in = open_trace_file(path);
  return read_torpor_rates(in, path);
}

std::vector<double> read_torpor_rates(std::istream& in, const std::string& source) {
  std::vector<double> rates;
  std::string token;
  int line = 1, column = 1, token_line = 1, token_column = 1;
  bool expect_value = true;  // a value must come first and after every comma
  auto finish_token = [&] {
    if (token.empty()) return;
    if (!expect_value) {
      throw InputError({source, token_line, token_column}, "", fmt::format("missing ',' before '{}'", token));
    }
    double v = 0;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
    if (ec != std::errc() || end != token.data() + token.size() || !std::isfinite(v) || v <= 0) {
      throw InputError({source, token_line, token_column}, "",
                       fmt::format("rate {}: expected a positive number (req/min), got '{}'", rates.size(), token));
    }
    rates.push_back(v);
    token.clear();
    expect_value = false;
  };
  char bom[3] = {};
  if (!in.read(bom, 3) || std::string_view(bom, 3) != "\xEF\xBB\xBF") {  // skip a UTF-8 byte-order mark
    in.clear();
    in.seekg(0);
  }
  for (std::istreambuf_iterator<char> it(in), end; it != end; ++it) {
    const char c = *it;
    if (c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      finish_token();
      if (c == ',') {
        if (expect_value) throw InputError({source, line, column}, "", fmt::format("empty value before ','"));
        expect_value = true;
      }
      if (c == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
      continue;
    }
    if (token.empty()) {
      token_line = line;
      token_column = column;
    }
    token.push_back(c);
    ++column;
  }
  finish_token();
  if (rates.empty()) throw InputError({source, 0, 0}, "", "empty file; expected comma-separated rates (req/min)");
  if (expect_value) throw InputError({source, line, column}, "", "trailing ',' without a value");
  return rates;
}

}  // namespace parallax
