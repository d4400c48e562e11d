// File: sim/workload/csv_reader.cpp
#include "sim/workload/csv_reader.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>

#include "sim/io/input_file.h"

namespace parallax {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";

// The offending text, shortened so that a 10 kB line does not flood the message.
std::string shown(std::string_view text) {
  if (text.size() <= 40) return std::string(text);
  return std::string(text.substr(0, 37)) + "...";
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::ifstream open_trace_file(const std::string& path) { return open_input(path); }

CsvReader::CsvReader(std::istream& in, std::string source) : path_(std::move(source)), in_(in) {}

bool CsvReader::read_line() {
  const LineRead r = read_bounded_line(in_, line_buf_);
  if (r == LineRead::end) return false;
  ++line_;
  if (r == LineRead::too_long)
    throw InputError({path_, line_, 0}, "", fmt::format("line longer than {} bytes, the limit for a CSV line", kMaxInputLineBytes));
  if (!line_buf_.empty() && line_buf_.back() == '\r') line_buf_.pop_back();
  if (line_ == 1 && std::string_view(line_buf_).starts_with(kBom)) line_buf_.erase(0, kBom.size());
  return true;
}

void CsvReader::split(std::string_view text, std::vector<std::string_view>& out) const {
  out.clear();
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) {
      out.push_back(text.substr(start));
      return;
    }
    out.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
}

void CsvReader::read_header(std::string_view expected) {
  if (!read_line()) {
    throw InputError({path_, 0, 0}, "", fmt::format("empty file; expected a header line '{}'", expected));
  }
  if (line_buf_.empty()) throw error("", fmt::format("empty header line; expected '{}'", expected));
  header_buf_ = line_buf_;
  split(header_buf_, header_fields_);
}

bool CsvReader::next_row() {
  while (read_line()) {
    if (line_buf_.empty()) continue;
    split(line_buf_, fields_);
    return true;
  }
  fields_.clear();
  return false;
}

InputError CsvReader::error(std::string_view column, std::string_view message) const {
  return InputError({path_, line_, 0}, std::string(column), std::string(message));
}

InputError CsvReader::column_error(size_t i, std::string_view message) const {
  const std::string_view name = i < header_fields_.size() ? header_fields_[i] : std::string_view();
  return error(name, fmt::format("column '{}': {}", name, message));
}

void CsvReader::require_field_count(size_t n) const {
  if (fields_.size() != n) throw error("", fmt::format("expected {} fields, found {}", n, fields_.size()));
}

void CsvReader::require_header_name(size_t i, std::string_view name) const {
  if (i >= header_fields_.size()) {
    throw error("", fmt::format("header has {} columns; expected column {} to be '{}'", header_fields_.size(),
                                i + 1, name));
  }
  if (header_fields_[i] != name) {
    throw error(name, fmt::format("header column {} is '{}', expected '{}'", i + 1, shown(header_fields_[i]), name));
  }
}

uint64_t CsvReader::parse_uint(size_t i) const {
  const std::string_view t = fields_[i];
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size()) {
    throw column_error(i, fmt::format("expected a non-negative integer, got '{}'", shown(t)));
  }
  return v;
}

double CsvReader::parse_double(size_t i) const {
  const std::string_view t = fields_[i];
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(v)) {
    throw column_error(i, fmt::format("expected a number, got '{}'", shown(t)));
  }
  return v;
}

double CsvReader::parse_nonnegative_double(size_t i) const {
  const double v = parse_double(i);
  if (v < 0) throw column_error(i, fmt::format("expected a non-negative number, got '{}'", shown(fields_[i])));
  return v;
}

Time CsvReader::parse_seconds(size_t i) const {
  Time t;
  if (!parse_decimal_seconds(fields_[i], t)) {
    throw column_error(i, fmt::format("expected non-negative decimal seconds, got '{}'", shown(fields_[i])));
  }
  return t;
}

std::string_view CsvReader::parse_nonempty(size_t i) const {
  if (fields_[i].empty()) throw column_error(i, "empty value");
  return fields_[i];
}

bool parse_decimal_seconds(std::string_view text, Time& out) {
  // Mantissa digits (without the point) and the number of them before the point.
  std::string digits;
  int point = -1;
  size_t pos = 0;
  for (; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (is_digit(c)) {
      digits.push_back(c);
    } else if (c == '.' && point < 0) {
      point = static_cast<int>(digits.size());
    } else {
      break;
    }
  }
  if (digits.empty() || point == 0 || point == static_cast<int>(digits.size())) return false;  // ".5", "5."
  if (point < 0) point = static_cast<int>(digits.size());
  if (pos < text.size()) {  // exponent: e[+-]digits, as Python writes small floats ("5e-05")
    if (text[pos] != 'e' && text[pos] != 'E') return false;
    int exponent = 0;
    const char* first = text.data() + pos + 1;
    if (first < text.data() + text.size() && *first == '+') ++first;
    const auto [end, ec] = std::from_chars(first, text.data() + text.size(), exponent);
    if (ec != std::errc() || end != text.data() + text.size() || first == end) return false;
    if (exponent > 100 || exponent < -100) return false;
    point += exponent;
  }
  // value = 0.digits * 10^point seconds = digits * 10^(point + 12 - n) picoseconds.
  const int shift = point + 12 - static_cast<int>(digits.size());
  const size_t kept = shift >= 0 ? digits.size() : static_cast<size_t>(std::max(0, static_cast<int>(digits.size()) + shift));
  constexpr unsigned __int128 kMax = std::numeric_limits<int64_t>::max();
  unsigned __int128 ps = 0;
  for (size_t k = 0; k < kept; ++k) {
    ps = ps * 10 + static_cast<unsigned>(digits[k] - '0');
    if (ps > kMax) return false;
  }
  for (int k = 0; k < shift; ++k) {
    ps *= 10;
    if (ps > kMax) return false;
  }
  if (shift < 0 && kept < digits.size() && digits[kept] >= '5') ++ps;  // round half up
  if (ps > kMax) return false;
  out = Time::ps(static_cast<int64_t>(ps));
  return true;
}

}  // namespace parallax
