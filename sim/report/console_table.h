// File: sim/report/console_table.h
// Plain-text tables for the terminal, aligned like `column -t` (no boxes, two spaces between
// columns, no trailing spaces), and the unit formatting that goes in their cells. Choosing the
// columns and printing the text is left to the command line.
//
//   format_table({"collective", "time", "busbw"},
//                {{"all_reduce 1 GiB", format_seconds(0.0123), format_rate(450e9)}});
//   // collective           time       busbw
//   // all_reduce 1 GiB  12.3 ms  450.0 GB/s
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace parallax {

// Aligns the header and rows into columns and ends every line with "\n". A column whose non-empty
// body cells all look numeric (see looks_numeric) is right-aligned, header included; other columns
// are left-aligned. Widths count UTF-8 code points, so "gpu0→nvswitch" is 13 wide. Rows shorter
// than the header are padded with empty cells; a longer row throws std::invalid_argument.
std::string format_table(const std::vector<std::string>& header,
                         const std::vector<std::vector<std::string>>& rows);

// One table of a command's console output and the lines printed right under it (no header: the
// lines alone).
struct ConsoleTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> notes;
};

// Every table by format_table, each followed by its notes, a blank line between tables: the one
// way `parallax run` prints its results.
std::string format_tables(const std::vector<ConsoleTable>& tables);

// A number, optionally followed by '%', 'x' or a space and a unit: "42", "-1.5e3", "12.3 ms",
// "450.0 GB/s", "98%", "1.9x". Also "nan", "inf" and "-inf".
bool looks_numeric(std::string_view cell);

// Three significant digits in the largest unit that keeps the number >= 1 (ps, ns, µs, ms, s):
// 0.0123 -> "12.3 ms", 4.56 -> "4.56 s", 789e-9 -> "789 ns". From 1000 s on, whole seconds.
std::string format_seconds(double s);

// Binary units, three significant digits: 1073741824 -> "1.00 GiB", 512 -> "512 B".
std::string format_bytes(double bytes);

// Decimal units with one decimal, GB/s at most so that GPU rates compare at a glance:
// 450e9 -> "450.0 GB/s", 3.35e12 -> "3350.0 GB/s", 12e6 -> "12.0 MB/s".
std::string format_rate(double bytes_per_s);

}  // namespace parallax
