// File: sim/report/fixed_decimal.h
// Exact decimal text for integer picosecond times, with no floating point in between:
// 1234567 ps is "0.000001234567" seconds and "1.234567" microseconds. Every output that prints a
// time (activities.csv, trace.json) goes through here, so a printed time reads back to the
// picosecond. Choosing the unit and the column name is left to the writers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "sim/engine/sim_time.h"

namespace parallax {

// `value` divided by 10^decimals, printed with exactly `decimals` digits after the point (none,
// and no point, when decimals is 0). Negative values get a leading '-'. decimals must be 0..18.
std::string format_scaled_integer(int64_t value, int decimals);

// The same text written at `out`, which has room for kScaledIntegerChars; returns its end. For
// writers that append many (a trace's timestamps): no string and no format string a number.
inline constexpr size_t kScaledIntegerChars = 48;
char* write_scaled_integer(char* out, int64_t value, int decimals);

// Seconds with 12 decimals: Time::ps(1234567) -> "0.000001234567".
inline std::string format_time_s(Time t) { return format_scaled_integer(t.ps(), 12); }

// Microseconds with 6 decimals (Chrome trace timestamps): Time::ps(1234567) -> "1.234567".
inline std::string format_time_us(Time t) { return format_scaled_integer(t.ps(), 6); }

}  // namespace parallax
