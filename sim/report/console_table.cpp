// File: sim/report/console_table.cpp
#include "sim/report/console_table.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace parallax {
namespace {

size_t display_width(std::string_view s) {
  // Count code points: every byte that is not a UTF-8 continuation byte (10xxxxxx).
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Consumes a decimal number (sign, digits, fraction, exponent) from the front of `s`.
bool consume_number(std::string_view& s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  for (std::string_view word : {"nan", "inf"}) {
    if (s.substr(i, word.size()) == word) {
      s.remove_prefix(i + word.size());
      return true;
    }
  }
  size_t digits = 0;
  while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    if (j < s.size() && is_digit(s[j])) {
      while (j < s.size() && is_digit(s[j])) ++j;
      i = j;
    }
  }
  s.remove_prefix(i);
  return true;
}

// Scales `v` (>= 0) down by `step` until it is below `step` or the units run out, after rounding
// to the digits it will be printed with, so that 999.7 ns becomes "1.00 µs" and not "1000 ns".
struct Scaled {
  double value;
  size_t unit;
};

double round_to(double v, int decimals) {
  const double p = std::pow(10.0, decimals);
  return std::round(v * p) / p;
}

// Decimals that show three significant digits once rounded: 9.996 prints "10.0", not "10.00".
int decimals_for_3_digits(double v) {
  if (round_to(v, 2) < 10) return 2;
  if (round_to(v, 1) < 100) return 1;
  return 0;
}

Scaled scale_3_digits(double v, double step, size_t units) {
  size_t unit = 0;
  while (unit + 1 < units && round_to(v, decimals_for_3_digits(v)) >= 1000) {
    v /= step;
    ++unit;
  }
  return {v, unit};
}

std::string non_finite(double v, std::string_view unit) {
  return fmt::format("{} {}", std::isnan(v) ? "nan" : v < 0 ? "-inf" : "inf", unit);
}

}  // namespace

bool looks_numeric(std::string_view cell) {
  if (!consume_number(cell)) return false;
  if (cell.empty() || cell == "%" || cell == "x") return true;
  return cell.size() >= 2 && cell[0] == ' ' && cell.find(' ', 1) == std::string_view::npos;
}

std::string format_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows) {
  const size_t columns = header.size();
  std::vector<size_t> width(columns, 0);
  std::vector<bool> numeric(columns, true);
  std::vector<bool> any_value(columns, false);
  for (size_t c = 0; c < columns; ++c) width[c] = display_width(header[c]);
  for (size_t r = 0; r < rows.size(); ++r) {
    if (rows[r].size() > columns) {
      throw std::invalid_argument(fmt::format("format_table: row {} has {} cells for {} columns", r,
                                              rows[r].size(), columns));
    }
    for (size_t c = 0; c < rows[r].size(); ++c) {
      const std::string& cell = rows[r][c];
      width[c] = std::max(width[c], display_width(cell));
      if (cell.empty()) continue;
      any_value[c] = true;
      if (!looks_numeric(cell)) numeric[c] = false;
    }
  }
  for (size_t c = 0; c < columns; ++c) numeric[c] = numeric[c] && any_value[c];

  std::string text;
  const auto append_line = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t c = 0; c < columns; ++c) {
      const std::string empty;
      const std::string& cell = c < cells.size() ? cells[c] : empty;
      const size_t pad = width[c] - display_width(cell);
      if (c > 0) line += "  ";
      if (numeric[c]) line.append(pad, ' ');
      line += cell;
      if (!numeric[c]) line.append(pad, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    text += line;
    text.push_back('\n');
  };
  append_line(header);
  for (const auto& row : rows) append_line(row);
  return text;
}

std::string format_seconds(double s) {
  if (!std::isfinite(s)) return non_finite(s, "s");
  if (s < 0) return fmt::format("-{}", format_seconds(-s));
  if (s == 0) return "0 s";
  if (s >= 1000) return fmt::format("{:.0f} s", s);
  static constexpr std::array<const char*, 5> units = {"ps", "ns", "µs", "ms", "s"};
  const Scaled x = scale_3_digits(s * 1e12, 1000, units.size());
  return fmt::format("{:.{}f} {}", x.value, decimals_for_3_digits(x.value), units[x.unit]);
}

std::string format_bytes(double bytes) {
  if (!std::isfinite(bytes)) return non_finite(bytes, "B");
  if (bytes < 0) return fmt::format("-{}", format_bytes(-bytes));
  static constexpr std::array<const char*, 7> units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1000) return fmt::format("{:.0f} B", bytes);
  size_t unit = 0;
  double v = bytes;
  while (unit + 1 < units.size() && v >= 1024) {
    v /= 1024;
    ++unit;
  }
  return fmt::format("{:.{}f} {}", v, decimals_for_3_digits(v), units[unit]);
}

std::string format_rate(double bytes_per_s) {
  if (!std::isfinite(bytes_per_s)) return non_finite(bytes_per_s, "B/s");
  if (bytes_per_s < 0) return fmt::format("-{}", format_rate(-bytes_per_s));
  static constexpr std::array<const char*, 4> units = {"B/s", "kB/s", "MB/s", "GB/s"};
  size_t unit = 0;
  double v = bytes_per_s;
  while (unit + 1 < units.size() && std::round(v * 10) / 10 >= 1000) {
    v /= 1000;
    ++unit;
  }
  return fmt::format("{:.1f} {}", v, units[unit]);
}

std::string format_tables(const std::vector<ConsoleTable>& tables) {
  std::string out;
  for (const ConsoleTable& t : tables) {
    if (!out.empty()) out += "\n";
    if (!t.header.empty()) out += format_table(t.header, t.rows);
    for (const std::string& line : t.notes) out += line + "\n";
  }
  return out;
}

}  // namespace parallax
